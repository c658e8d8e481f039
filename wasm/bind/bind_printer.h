#pragma once
// A finished trace as JS/Python see it (bind_printer.cpp).
#include <memory>
#include <string>

#include "ir/ir.h"
#include "run/run_session.h"

namespace nki::bind {

/// A handle on a finished kernel of the run session (printed at most once, shared with the
/// session). Freed by .delete() (or by embind's finalizer: created through a smart pointer).
class Trace {
public:
  explicit Trace(std::shared_ptr<run::PrintedKernel> p) : printed_(std::move(p)) {}
  std::string name() const;
  std::string text() const;
  std::string records_json() const;
  std::string to_json() const;
  int instruction_count() const;
  /// The kernel, shared (a simulation keeps it alive after the trace is deleted).
  std::shared_ptr<const ir::Kernel> kernel() const { return printed_->kernel(); }

private:
  std::shared_ptr<run::PrintedKernel> printed_;
};

} // namespace nki::bind
