#include "sema/sema_movement.h"

#include "ir/target.h"
#include "sema/sema.h"

namespace nki::sema {

void err_size_of_dimension_exceed_arch_limit(size_t dim, const std::string& param,
                                             const std::string& api, int64_t limit) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "size of dimension " + std::to_string(dim) + " in '" + param + "' of '" + api +
                     "' exceed architecture limitation of " + std::to_string(limit) + ".");
}

void err_exceed_max_supported_dimension(const std::string& param, const std::string& api,
                                        size_t max_rank) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "parameter '" + param + "' of '" + api +
                     "' exceed max supported number of dimensions of " + std::to_string(max_rank) +
                     ".");
}

void err_param_shape_incompatible_with_matmul(const std::string& params, const std::string& api,
                                              bool transpose_x) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Parameter shapes (" + params + ") of '" + api +
                     "' are incompatible for matrix multiplication with transpose_x=" +
                     (transpose_x ? "True" : "False") + ": the contraction dimension (" +
                     (transpose_x ? "dimension 0 of both" : "dimension 1 of x, dimension 0 of y") +
                     ") must match");
}

void err_supported_operand_dtype(const std::string& name, const std::string& api,
                                 const std::string& dtype, const std::string& expected) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'" + name + "' of '" + api + "' has dtype '" + dtype +
                     "', expected one of the following dtypes: " + expected);
}

void err_psum_write_dtype(bool transpose) {
  throw NkiError(Code::of(__func__), "TypeError",
                 transpose ? "PSUM tensor for writes must be either 4-byte (FP32/int32) or BF16"
                           : "PSUM tensor for non-transpose writes must be a 4-byte dtype "
                             "(FP32/int32)");
}

void err_psum_tile_exceeds_bank(const std::string& tile, int64_t bytes) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "PSUM tile '" + tile + "' needs " + std::to_string(bytes) +
                     " bytes per partition, more than one PSUM bank (" +
                     std::to_string(ir::kPsumBankBytes) + " bytes, i.e. " +
                     std::to_string(ir::kPsumFmax) + " float32 elements; nl.tile_size.psum_fmax)");
}

void err_tensor_creation_on_scratchpad_with_init_value_not_supported() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Creating SBUF/PSUM tensor with init value is not supported in allocated NKI "
                 "kernels.");
}

void err_indirect_indices_free_dim() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Indirect indexing on free dimension not supported, must be partition dimension "
                 "or block dimension.");
}

void err_indirect_indices_sbuf() {
  throw NkiError(Code::of(__func__), "NKISyntaxError", "Indirect indices tile must be on SBUF.");
}

void err_indirect_indices_are_not_supported_with_nki_api(const std::string& operands) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "cannot use indirect indexing access with the current NKI API for " + operands);
}

void err_indirect_index_tile_shape(const std::string& tile, int64_t partitions) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "indirect index tile '" + tile + "' must hold one index per partition (shape [" +
                     std::to_string(partitions) +
                     ", 1]): build its index expression with nl.arange(...)[:, None], not "
                     "nl.mgrid");
}

void err_atomic_rmw_add_only(const std::string& op) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "atomic_rmw `op` param only supports 'add' operation currently. An unsupported "
                 "op=" +
                     op);
}

void err_atomic_rmw_dynamic_index() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "atomic_rmw `dst` only supports indirect dynamic indexing currently. Use a tile "
                 "to index.");
}

void err_tiled_offloaded_memcpy_same_shape(const std::string& src, const std::string& dst) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "src and dst must have the same shape, src.shape=" + src + " dst.shape=" + dst);
}

void err_tile_shape_mismatch(const std::string& expected, const std::string& got) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "tile shape mismatch, expected '" + expected + "', got '" + got + "'");
}

void err_reshape(const std::string& tensor, const std::string& shape, const std::string& why) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "cannot reshape '" + tensor + "' into shape " + shape + ": " + why);
}

void err_view_dtype(const std::string& tensor, const std::string& dtype) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "cannot view '" + tensor + "' as " + dtype +
                     ": the bytes of its last dimension do not divide into " + dtype + " elements");
}

void err_expand_dims_axis(const std::string& tile, int64_t axis) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "expand_dims only inserts axes after the last dimension of a "
                 "tile; axis=" +
                     std::to_string(axis) + " is not supported for '" + tile + "'");
}

void err_dma_transpose_axes(const std::string& axes, const std::string& expected) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "dma_transpose does not support axes=" + axes +
                     "; the supported permutation for this rank is " + expected);
}

void err_matmul_pe_tile(const std::string& why) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "invalid tile_position/tile_size of 'nc_matmul': " + why);
}

void err_stream_shuffle_arg(const std::string& why) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "invalid arguments of 'nc_stream_shuffle': " + why);
}

void err_local_gather_arg(const std::string& why) {
  throw NkiError(Code::of(__func__), "ValueError", "invalid arguments of 'local_gather': " + why);
}

} // namespace nki::sema
