#pragma once
// A finished trace as JS/Python see it (bind_printer.cpp).
#include <memory>
#include <string>

#include "ir/ir.h"

namespace nki::bind {

/// A finished trace, handed to JS/Python. Owns the kernel; freed by .delete() (or by embind's
/// finalizer, since it is created through a smart pointer). clone() shares the kernel.
class Trace {
public:
  explicit Trace(std::unique_ptr<ir::Kernel> k) : kernel_(std::move(k)) {}
  std::string name() const;
  std::string text() const;
  std::string records_json() const;
  std::string to_json() const;
  int instruction_count() const;
  int region_count() const;
  /// The kernel, shared (a simulation keeps it alive after the trace is deleted).
  std::shared_ptr<const ir::Kernel> kernel() const { return kernel_; }

private:
  std::shared_ptr<const ir::Kernel> kernel_;
};

} // namespace nki::bind
