#pragma once
/// What the simulator decides once per kernel, from the IR alone, so that runs can skip work
/// without changing any result:
///   - which parameters nothing writes (their memory never changes during a run);
///   - which copies may alias their source instead of copying it: a load / tensor_copy /
///     broadcast_to whose result tile only it writes, so that the tile, when its source is such
///     a parameter, reads the parameter's memory in place (Storage::Redirect).
/// The run-time half of each decision (an unmasked tile, a source that resolves to read-only
/// memory) is taken by the executor.
#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace nki::sim {

struct KernelPlan {
  std::vector<uint8_t> read_only; ///< by tensor id: a parameter no instruction writes
  std::vector<uint8_t> alias;     ///< by instruction id: a copy that may alias its source
};

KernelPlan plan_kernel(const ir::Kernel& k);

/// Whether an operand role only reads its tensor ("src", "data", "x", ...); any other role
/// ("dst", "reduce_res", "dst_idx", an unknown one) counts as written.
bool reads_only(const std::string& role);

} // namespace nki::sim
