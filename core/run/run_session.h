#pragma once
/// The run session: what one run of a user's script produced in the core — every finished
/// kernel, printed once, with its `simulated` flag. It is the core's output to its caller (the
/// JS runtime reads it directly); the Python front ends only put kernels in.
///
/// One process-global session, reached through `session()` (as the trace cell is through its
/// accessors), cleared at the start of every run (`begin_run`) and after its results are taken
/// (`end_run`). A kernel traced again to the same IR text (a kernel called in a loop, a script
/// that traces then simulates the same call) is kept once, `simulated` only if every copy was.
/// Kernels are printed when first needed: at once when a listener streams them, else when the
/// run's kernels are read — a trace that nobody reads costs no printing.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace nki::run {

/// A finished kernel and its printed forms, each written at most once (on first use) and then
/// shared by the session's entry and by every handle on the kernel.
class PrintedKernel {
public:
  explicit PrintedKernel(std::unique_ptr<ir::Kernel> k) : kernel_(std::move(k)) {}
  const std::shared_ptr<const ir::Kernel>& kernel() const { return kernel_; }
  /// The plain text form (the records' texts joined); printed with the records in one pass.
  const std::string& text();
  /// The printer's line records as a JSON array of {text, depth, op_id, region_id, loc}.
  const std::string& records_json();
  /// The printer's region records as a JSON array (printer::regions_to_json), same pass.
  const std::string& regions_json();
  /// The versioned JSON form (docs/ir-format.md).
  const std::string& json();

private:
  void print();
  std::shared_ptr<const ir::Kernel> kernel_;
  bool printed_ = false;
  std::string text_, records_json_, regions_json_, json_;
};

/// One distinct kernel of the run.
struct KernelEntry {
  std::shared_ptr<PrintedKernel> printed;
  bool simulated = false;
};

class RunSession {
public:
  /// Starts a run: drops what an earlier run left; `listener` (optional) is called with the
  /// index of each new distinct kernel as soon as it is finished.
  void begin_run(std::function<void(int)> listener = nullptr);
  /// Ends the run: drops its kernels and the listener.
  void end_run();
  /// Records a finished kernel (`simulated`: traced to simulate a call); returns it for the
  /// caller's handle.
  std::shared_ptr<PrintedKernel> add_kernel(std::unique_ptr<ir::Kernel> k, bool simulated);
  /// The run's distinct kernels in the order they were first finished.
  const std::vector<KernelEntry>& kernels();

private:
  /// Folds the kernels added since the last call into `kernels_` (printing them), reporting
  /// each new one to the listener.
  void settle();
  std::vector<KernelEntry> kernels_, pending_;
  std::function<void(int)> listener_;
};

/// The run session (one per process).
RunSession& session();

} // namespace nki::run
