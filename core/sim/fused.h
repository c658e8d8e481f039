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
  bool fed = false; // a skip whose source an earlier step of its phase writes, every chunk
  Act fn = Act::Copy;
  float acc = 0;
  // Chains (interpreter_fused.cpp merge_chains): a tensor_tensor whose result, a row buffer,
  // only the next tensor_tensor reads is `merged` (it runs as part of that one); the next one's
  // `chain` says which of its operands that result is (1: a, 2: b), and ca, cb, cop, cin are
  // the merged step's operands, operator and instruction.
  bool merged = false;
  int chain = 0;
  View ca, cb;
  Alu cop = Alu::Add;
  const ir::Instruction* cin = nullptr;
  // Quads (merge_quads): a tensor_scalar whose row-buffer result only such a chain reads, as
  // its operand `quad` (1: ca, 2: cb), is `merged` too and runs inside it; qa, qs0, qs1, qop0,
  // qop1 and qin are its data operand, operands, operators and instruction.
  int quad = 0;
  View qa;
  Source qs0, qs1;
  Alu qop0 = Alu::Add, qop1 = Alu::Add;
  const ir::Instruction* qin = nullptr;
  float qy = 0, qz = 0; // qs0 / qs1 on the row being run (read with its first chunk)
  // Exps (merge_exps): an exp activation computing exp(pa pre ps) — the merged add, subtract
  // or multiply by one value along the row (data pa, that value's source ps, instruction pin).
  Alu pre = Alu::Bypass;
  View pa;
  Source ps;
  const ir::Instruction* pin = nullptr;
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
