#pragma once
/// SBUF / PSUM capacity of a current-language kernel by liveness (liveness.cpp): nki-playground's
/// own check, reported as warnings (NKI's simulator does not model capacity).
#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "sema/sema.h"

namespace nki::sim {

struct CapacityWarning {
  sema::Warning warning;
  ir::SourceLoc loc; ///< the allocation at which the live tensors first exceed the capacity
};

/// The first point (if any) where the SBUF bytes per partition, and the PSUM banks, of the live
/// tensors exceed `sbuf_bytes` / 8 banks.
std::vector<CapacityWarning> capacity_by_liveness(const ir::Kernel& k, int64_t sbuf_bytes,
                                                  const std::string& target);

} // namespace nki::sim
