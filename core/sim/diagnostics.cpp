#include "sim/diagnostics.h"

#include "sema/sema.h"

namespace nki::sim {

void err_sbuf_overflow(int64_t required, int64_t available, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "RuntimeError",
                       "stack overflow: required sbuf size " + std::to_string(required) +
                           " exceeds available sbuf size " + std::to_string(available),
                       loc);
}

void err_psum_overflow(int64_t required, int64_t available, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "RuntimeError",
                       "stack overflow: required psum banks " + std::to_string(required) +
                           " exceeds available psum banks " + std::to_string(available),
                       loc);
}

void err_not_supported_in_simulator(const std::string& opcode, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "NotImplementedError",
                       "not supported in the simulator yet: " + opcode, loc);
}

void err_tensor_access_out_of_bound(const std::string& tensor, size_t dim, int64_t lo, int64_t hi,
                                    int64_t size, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "IndexError",
                       "Out-of-bound access for tensor `" + tensor + "` on dimension " +
                           std::to_string(dim) + ": index range [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "] exceed dimension size of " +
                           std::to_string(size),
                       loc);
}

void err_indirect_index_out_of_bounds(int64_t flat_index, int64_t elems, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "IndexError",
                       "index " + std::to_string(flat_index) +
                           " is out of bounds for axis 0 with size " + std::to_string(elems),
                       loc);
}

void err_while_limit(int64_t iterations, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "RuntimeError",
                       "the while loop did not end after " + std::to_string(iterations) +
                           " iterations (its condition never became false)",
                       loc);
}

void err_cores_out_of_step(const std::string& what, const ir::SourceLoc& loc) {
  throw sema::NkiError(sema::Code::of(__func__), "RuntimeError",
                       "the kernel's two cores do not meet alike (on hardware they would wait "
                       "forever): " +
                           what,
                       loc);
}

void err_simulate_input_mismatch(const std::string& message) {
  throw sema::NkiError(sema::Code::of(__func__), "ValueError", message);
}

const char* const kOwnCheckLabel = "[nki-playground check, not NKI's] ";

sema::Warning warn_unwritten_read(const std::string& tensor, const std::vector<int64_t>& index,
                                  const std::string& opcode, int64_t int_fill, bool own_check) {
  std::string at;
  for (size_t i = 0; i < index.size(); ++i) at += (i ? ", " : "") + std::to_string(index[i]);
  return {sema::Code::of(__func__), std::string(own_check ? kOwnCheckLabel : "") +
                                        "reading memory that was never written: '" + opcode +
                                        "' reads `" + tensor + "[" + at +
                                        "]`, which no instruction wrote (it holds NaN; " +
                                        std::to_string(int_fill) + " for integer tensors)"};
}

sema::Warning warn_sbuf_over_capacity(int64_t required, int64_t available,
                                      const std::string& target) {
  return {sema::Code::of(__func__),
          std::string(kOwnCheckLabel) + "the tensors live here need " + std::to_string(required) +
              " bytes of SBUF per partition, more than the " + std::to_string(available) + " of " +
              target + ": this kernel would not fit on the device"};
}

sema::Warning warn_psum_over_capacity(int64_t required, int64_t available) {
  return {sema::Code::of(__func__),
          std::string(kOwnCheckLabel) + "the tensors live here need " + std::to_string(required) +
              " PSUM banks (2 KiB per partition each), more than the " + std::to_string(available) +
              ": this kernel would not fit on the device"};
}

sema::Warning warn_accumulate_uninitialized_psum() {
  return {sema::Code::of(__func__),
          "nc_matmul with accumulate=True onto PSUM that no instruction wrote: undefined "
          "behavior on hardware (the first matmul of an accumulation group overwrites: "
          "accumulate=False, or None to let the compiler decide)"};
}

sema::Warning warn_dynamic_trip(int64_t trip) {
  return {sema::Code::of(__func__),
          "dynamic loop trip count is " + std::to_string(trip) +
              "; the loop runs once (On-chip while loop cannot scale to zero)"};
}

} // namespace nki::sim
