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
/// An LNC2 kernel's cores that do not meet alike at core_barrier / sendrecv (one finished,
/// different instructions, mismatched ranks or pipes): NKI's threads would wait forever.
[[noreturn]] void err_cores_out_of_step(const std::string& what, const ir::SourceLoc& loc);
/// Inputs that do not match the kernel's parameters.
[[noreturn]] void err_simulate_input_mismatch(const std::string& message);

/// "reading memory that was never written: ..." (the first such read of a run). `int_fill` is
/// what integers read as; `own_check` labels it as nki-playground's check (the current
/// language, whose NKI simulator does not make it).
sema::Warning warn_unwritten_read(const std::string& tensor, const std::vector<int64_t>& index,
                                  const std::string& opcode, int64_t int_fill = 0,
                                  bool own_check = false);
/// The label of the checks nki-playground makes beyond NKI 0.6.0's simulator.
extern const char* const kOwnCheckLabel;
/// nki-playground's capacity check of a current-language kernel (labelled as its own): the
/// tensors live at an allocation need more SBUF bytes per partition / PSUM banks than there are.
sema::Warning warn_sbuf_over_capacity(int64_t required, int64_t available,
                                      const std::string& target);
sema::Warning warn_psum_over_capacity(int64_t required, int64_t available);
/// nc_matmul(accumulate=True) onto PSUM no instruction wrote (NKI 0.5.0's simulator warns).
sema::Warning warn_accumulate_uninitialized_psum();
/// A dynamic loop whose trip count is below one still runs once.
sema::Warning warn_dynamic_trip(int64_t trip);

} // namespace nki::sim
