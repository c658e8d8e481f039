#pragma once
/// What the simulator decides once per kernel, from the IR alone, so that runs can skip work
/// without changing any result:
///   - which parameters nothing writes (their memory never changes during a run);
///   - which copies may alias their source instead of copying it: a load / tensor_copy /
///     broadcast_to whose result tile only it writes (or a dma_copy filling an ndarray's tile
///     that nothing else writes), so that the tile, when its source is such
///     a parameter, reads the parameter's memory in place (Storage::Redirect);
///   - which runs of instructions may execute a block of partitions at a time (StripGroup).
/// The run-time half of each decision (an unmasked tile, a source that resolves to read-only
/// memory) is taken by the executor.
#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace nki::sim {

/// Consecutive instructions of one region body that give the same results when run a block of
/// partitions at a time — all of them on partitions [0, S), then all on [S, 2S), ... — so that
/// their tiles stay in cache (Interpreter::run_strips): each is element-wise or reduces along
/// free axes only (partition p of its result depends on partition p of its operands alone),
/// all span the same partitions, and every tensor the run writes is accessed, by every one of
/// them, at the same partition for the same tile partition. Tiles one of them defines and
/// nothing outside the run uses (`local`) need only a strip's rows — also a tile an `ndarray`
/// of the run allocates (the current language) when the first later instruction touching it
/// writes all of it without reading it (a run holding any other `ndarray` is not made). A
/// result tile that a later instruction of the run only stores, whole and bit for bit, lives
/// in the store's destination (`forward`: the tile and the store), which makes the store a
/// copy onto itself.
struct StripGroup {
  int64_t rows = 0;              ///< partitions of every instruction's tile
  int64_t row_bytes = 0;         ///< bytes per partition of the tensors accessed by partition
  std::vector<ir::InstId> insts; ///< consecutive items of one body, in program order
  std::vector<ir::TensorId> local;
  std::vector<std::pair<ir::TensorId, ir::InstId>> forward;
  /// Every instruction is a float copy, element-wise ALU / activation or a last-axis
  /// reduction of a rank-2 tile, which Interpreter::run_fused can run row by row, a chunk of
  /// each instruction after the other (its own tiles in row buffers).
  bool fuse = false;
};

struct KernelPlan {
  std::vector<uint8_t> read_only; ///< by tensor id: a parameter no instruction writes
  std::vector<uint8_t> alias;     ///< by instruction id: a copy that may alias its source
  std::vector<StripGroup> groups;
  std::vector<int32_t> group_of; ///< by instruction id: the group it starts, or -1
  /// By instruction id: for a tensor_tensor_scan, the fp32 multiply right before it in its body
  /// whose result tile nothing but the scan's data1 (its whole tile) reads; -1 otherwise. The
  /// scan may compute data1 = x · y itself, one multiply per element as the instruction does,
  /// and the tile is then never written (Interpreter::defer_to_scan).
  std::vector<int32_t> scan_pre;
  std::vector<uint8_t> deferred; ///< by instruction id: some scan's scan_pre (in no group)
  /// By instruction id: for a tensor_tensor_scan of op0 multiply, op1 add (h = a · h + x), the
  /// accumulation after it of its result into a tile, Y = Y + h · c: an fp32 multiply M of the
  /// scan's whole result tile by a tile c, then an in-place add A into Y of M's result (a tile
  /// nothing else refers to), after at most six other instructions (`between`). Those that
  /// make c (a load and broadcast of a row), and what they need, may run before the scan
  /// (`early`: bit b for the b-th after it); the others touch neither Y nor M's result and
  /// write neither h nor c. The scan may compute Y += h · c itself as it writes h, the same two
  /// roundings an element; M and A then count as executed. (plan.cpp: the conditions.)
  struct Post {
    int32_t mul = -1, add = -1, between = 0;
    uint8_t early = 0;
  };
  std::vector<Post> scan_post;
  std::vector<uint8_t> folded; ///< by instruction id: the M or A of some scan's scan_post
};

KernelPlan plan_kernel(const ir::Kernel& k);

/// The plan that decides nothing (SimOptions::plan off): every parameter is written for all it
/// knows, no copy aliases, no strips, no scan computes its neighbours, so that the interpreter
/// runs every instruction alone through its executor — the plain path the plan's shortcuts
/// must agree with (tests/core/sim_plan_off_test.cpp).
KernelPlan plain_plan(const ir::Kernel& k);

/// An instruction's attribute / operand of that name, or null.
const ir::AttrValue* find_attr(const ir::Instruction& in, std::string_view key);
const ir::Operand* find_operand(const ir::Instruction& in, std::string_view role);
/// An attribute holding one axis or a list of them ("axis"), as a list (empty when absent).
std::vector<int64_t> attr_axes(const ir::Instruction& in, std::string_view key);

/// The tile a copy fills whole: its result, or (the current language) the tensor a dma_copy's
/// "dst" is the identity view of; kNone otherwise.
ir::TensorId copy_target(const ir::Kernel& k, const ir::Instruction& in);

/// The shape of the positions an instruction iterates: its result's or "dst" tile (the data
/// tile for tensor_reduce).
const std::vector<int64_t>& main_shape(const ir::Kernel& k, const ir::Instruction& in);

} // namespace nki::sim
