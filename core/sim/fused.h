#pragma once
/// One instruction of a fused strip group, prepared for one execution of the group: its views
/// resolved, its operators parsed (Interpreter::prepare_fused, interpreter_fused.cpp). A group
/// runs as its steps, partition by partition (Interpreter::fused_row); a loop whose body is one
/// such group runs its iterations' steps partition by partition across the iterations
/// (interpreter_loop_fused.cpp).
#include <cstdint>

#include "ir/ir.h"
#include "sim/exec.h"
#include "sim/math_kernels.h"
#include "sim/plan.h"

namespace nki::sim {

struct FusedStep {
  enum class Kind { Copy, Binary, TwoOps, Activation, Reduce };
  const ir::Instruction* in = nullptr;
  Kind kind = Kind::Copy;
  int64_t width = 0; // extent of axis 1 of its domain
  int phase = 0;
  View out, a, b; // result; the data operand (src / x / data); tensor_tensor's y
  Source s0, s1;  // tensor_scalar's operand0 / operand1; activation's scale / bias
  Alu op0 = Alu::Add, op1 = Alu::Bypass;
  bool r0 = false, r1 = false, scaled = false, biased = false, negate = false;
  bool bits = false, skip = false; // copies: bit for bit; onto itself (a forwarded tile)
  Act fn = Act::Copy;
  float acc = 0;
};

/// Clears the partition window and a group's strip redirects however its run ends.
struct StripScope {
  Exec& ex;
  const StripGroup& g;
  ~StripScope() {
    ex.env.win_rows = 0;
    for (ir::TensorId t : g.local) ex.storage.clear_strip(t);
    for (const auto& [t, store] : g.forward) ex.storage.clear_strip(t);
  }
};

} // namespace nki::sim
