#pragma once
/// The simulator's entry point: runs a traced kernel on concrete inputs with NKI's numerics.
///
///   Simulator sim(kernel);
///   std::memcpy(sim.input(0), bytes, sim.input_nbytes(0));   // each parameter, in its dtype
///   sim.run();                                               // every SPMD instance in turn
///   sim.output(0), sim.output_nbytes(0), sim.log()           // outputs, warnings, prints
///
/// Reads the kernel only through `const ir::Kernel&` (never the trace context). One run per
/// Simulator. Errors are sema::NkiError at the offending instruction's source location.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "sim/exec.h"
#include "sim/interpreter.h"
#include "sim/storage.h"

namespace nki::sim {

class Simulator {
public:
  explicit Simulator(std::shared_ptr<const ir::Kernel> kernel, SimOptions opts = {});

  const ir::Kernel& kernel() const { return *kernel_; }
  size_t num_inputs() const { return kernel_->params().size(); }
  /// The bytes of parameter `i` (row-major, in the parameter's dtype), to be filled before
  /// run(). Pointers stay valid for the Simulator's lifetime.
  uint8_t* input(size_t i);
  int64_t input_nbytes(size_t i) const;

  /// Runs every SPMD instance (row-major over the grid), one after another.
  void run();

  size_t num_outputs() const { return kernel_->outputs().size(); }
  const uint8_t* output(size_t i);
  int64_t output_nbytes(size_t i) const;
  const ir::Tensor& output_tensor(size_t i) const;

  const RunLog& log() const { return log_; }
  /// The run's log as JSON: {"warnings": [{code, message, file, line, col, text}], "prints":
  /// [{prefix, shape, dtype, values, loc, instance}], "unwritten_reads", "instructions",
  /// "peak_bytes"}; a warning's file/line/col are null when its location is unknown.
  std::string log_json() const;
  /// Largest total of simultaneously allocated tensor bytes during the run.
  int64_t peak_bytes() const { return storage_.peak_bytes(); }

private:
  std::shared_ptr<const ir::Kernel> kernel_;
  SimOptions opts_;
  Storage storage_;
  RunLog log_;
  bool ran_ = false;
  std::vector<std::vector<uint8_t>> converted_; // outputs held as fp32 (precise_fp off)
};

/// Options for a target: "trn1" (default), "trn2" or "trn3" (also "gen2".."gen4").
SimOptions options_for_target(const std::string& target);
/// Options as the surfaces send them: {"target", "language"?, "precise_fp"?, "plan"?}. A "language"
/// (the current one, "nki 0.6.0") selects NKI 0.6.0's simulator contract: never-written integers
/// read 4 and nki-playground's own checks are labelled; "precise_fp" is NKI_PRECISE_FP (Beta 1
/// sends false unless NKI_PRECISE_FP=1, and its float16 stays float16); "plan": false is
/// NKI_PLAYGROUND_SIM_PLAN=off (SimOptions::plan: the plain interpreter).
SimOptions options_from_json(const std::string& json);

} // namespace nki::sim
