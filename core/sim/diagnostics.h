#pragma once
/// What the simulator reports: errors (thrown as sema::NkiError at the instruction's source
/// location) and the texts of its warnings. Every simulator message text lives here.
#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"
#include "sema/sema.h"

namespace nki::sim {

/// NKI's capacity errors (reference §6, "stack overflow" texts); sizes in bytes per partition.
[[noreturn]] void err_sbuf_overflow(int64_t required, int64_t available, const ir::SourceLoc& loc);
[[noreturn]] void err_psum_overflow(int64_t required, int64_t available, const ir::SourceLoc& loc);
/// An opcode the core emits that the simulator does not execute yet.
[[noreturn]] void err_not_supported_in_simulator(const std::string& opcode,
                                                 const ir::SourceLoc& loc);
/// An index outside its tensor found at run time (gather_flattened's indices; an affine index
/// whose range tracing could not bound).
[[noreturn]] void err_tensor_access_out_of_bound(const std::string& tensor, size_t dim, int64_t lo,
                                                 int64_t hi, int64_t size,
                                                 const ir::SourceLoc& loc);
/// A run-time (indirect) DMA index outside its tensor, as NKI's simulator reports it: the
/// element's offset in the flattened tensor against the tensor's element count.
[[noreturn]] void err_indirect_index_out_of_bounds(int64_t flat_index, int64_t elems,
                                                   const ir::SourceLoc& loc);
/// A do-while loop that kept going.
[[noreturn]] void err_while_limit(int64_t iterations, const ir::SourceLoc& loc);
/// Inputs that do not match the kernel's parameters.
[[noreturn]] void err_simulate_input_mismatch(const std::string& message);

/// "reading memory that was never written: ..." (the first such read of a run).
sema::Warning warn_unwritten_read(const std::string& tensor, const std::vector<int64_t>& index,
                                  const std::string& opcode);
/// A dynamic loop whose trip count is below one still runs once.
sema::Warning warn_dynamic_trip(int64_t trip);

} // namespace nki::sim
