#pragma once
/// SBUF and PSUM capacity of a kernel, checked before it runs, with NKI's allocator model:
/// a tile holds its space from the instruction that defines it to its last use, and the space
/// of dead tiles is reused.
#include <cstdint>

#include "ir/ir.h"

namespace nki::sim {

/// Walks the kernel in program order with every on-chip tile's live range (definition to last
/// use; a use inside a loop the tile was defined outside of lasts until that loop ends; kernel
/// outputs to the end) and raises NKI's "stack overflow" error at the allocation that first
/// exceeds a limit. `sbuf_bytes` is the usable SBUF per partition of the target (ir/target.h);
/// PSUM has ir::kPsumBanks banks of ir::kPsumBankBytes per partition, a tile taking whole banks.
void check_capacity(const ir::Kernel& k, int64_t sbuf_bytes);

} // namespace nki::sim
