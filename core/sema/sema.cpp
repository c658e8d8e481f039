#include "sema/sema.h"

namespace nki::sema {

namespace {
std::string join_shape(const std::vector<int64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s;
}
}  // namespace

std::string describe(const std::string& name, const std::vector<int64_t>& shape) {
  return name + "[" + join_shape(shape) + "]";
}

void err_nki_api_outside_of_nki_kernel() {
  throw NkiError("RuntimeError", "calling NKI API outside of NKI kernels is not supported.");
}

void err_trace_already_active(const std::string& active_kernel) {
  throw NkiError("RuntimeError", "cannot start tracing a kernel while kernel '" + active_kernel +
                                     "' is being traced: only one trace may be active at a time");
}

void err_unbalanced_scope_exit(const std::string& expected, const std::string& got) {
  throw InternalError("unbalanced scope exit: expected " + expected + ", got " + got);
}

void err_num_partition_exceed_arch_limit(int64_t partitions, int64_t limit) {
  throw NkiError("ValueError", "number of partitions " + std::to_string(partitions) +
                                   " exceed architecture limitation of " + std::to_string(limit) +
                                   ".");
}

void err_insufficient_rank(const std::string& tensor, size_t rank) {
  throw NkiError("ValueError", "Insufficient rank: tile '" + tensor + "' has rank " +
                                   std::to_string(rank) +
                                   "; SBUF and PSUM tiles need a partition dimension and at "
                                   "least one free dimension");
}

void err_unexpected_address_space(const std::string& operand, const std::string& api,
                                  const std::string& expected, const std::string& got_memory) {
  throw NkiError("TypeError", "Expected operand '" + operand + "' of '" + api +
                                  "' to be in address space '" + expected +
                                  "', but got a tile in '" + got_memory + "' instead.");
}

void err_immutable_parameter(const std::string& tensor) {
  throw NkiError("TypeError", "Cannot update immutable parameter `" + tensor + "`");
}

void err_out_of_bound_access(const std::string& tensor, size_t dim, int64_t lo, int64_t hi,
                             int64_t size) {
  throw NkiError("IndexError", "Out-of-bound access for tensor `" + tensor + "` on dimension " +
                                   std::to_string(dim) + ": index range [" + std::to_string(lo) +
                                   ", " + std::to_string(hi) + "] exceed dimension size of " +
                                   std::to_string(size));
}

void err_program_id_axis(int64_t axis, size_t rank) {
  throw NkiError("IndexError", "axis in `program_id` is out-of-bound(s) of the spmd launch grid "
                               "(axis=" +
                                   std::to_string(axis) + ", grid rank " + std::to_string(rank) +
                                   ")");
}

void err_1d_arange(const std::string& tensor) {
  throw NkiError("NKISyntaxError",
                 "indexing tensor `" + tensor + "` with 1d arange is not supported.");
}

void err_mixing_basic_advanced_indexing() {
  throw NkiError("NKISyntaxError",
                 "Mixing basic tensor indexing and advanced tensor indexing is not supported.");
}

void err_too_many_indices(const std::string& tensor, size_t given, size_t rank) {
  throw NkiError("IndexError", "too many indices for tensor `" + tensor + "`: tensor is " +
                                   std::to_string(rank) + "-dimensional, but " +
                                   std::to_string(given) + " were indexed");
}

void err_num_partition_mismatch(const std::string& params, const std::string& api) {
  throw NkiError("ValueError",
                 "number of partitions (dimension 0 size of a tile) mismatch in parameters (" +
                     params + ") of '" + api + "'");
}

void err_broadcast_shapes(const std::string& params, const std::string& api) {
  throw NkiError("ValueError", "shapes of parameters (" + params + ") of '" + api +
                                   "' cannot be broadcast together");
}

void err_hbm_tensor_with_init_value() {
  throw NkiError("NKISyntaxError", "Creating HBM tensor with init value is not supported.");
}

void err_unsupported_dtype(const std::string& dtype) {
  throw NkiError("TypeError", "Unsupported dtype '" + dtype +
                                  "', expected one of the following dtypes: bool_, uint8, int8, "
                                  "uint16, int16, uint32, int32, float8_e4m3, float8_e5m2, "
                                  "bfloat16, float16, tfloat32, float32");
}

void err_slice_size_not_static(const std::string& tensor, size_t dim) {
  throw NkiError("NKISyntaxError", "slice of tensor `" + tensor + "` on dimension " +
                                       std::to_string(dim) +
                                       " must have a compile-time constant size");
}

void err_output_not_hbm(const std::string& tensor) {
  throw NkiError("NKISyntaxError", "kernel output `" + tensor +
                                       "` must be an HBM tensor created with "
                                       "buffer=nl.shared_hbm");
}

}  // namespace nki::sema
