#pragma once
/// sema for matmul, transposes, data movement, views, constants and indirect indexing: NKI's
/// diagnostics with their exception classes and exact texts (shared/docs/nki-reference.md §6 and
/// the sema catalogue). Builders whose NKI text is not public say so; their text is ours.
#include <cstdint>
#include <string>

namespace nki::sema {

/// ValueError: `size of dimension <d> in '<x[..]>' of '<api>' exceed architecture limitation
/// of <limit>.`
[[noreturn]] void err_size_of_dimension_exceed_arch_limit(size_t dim, const std::string& param,
                                                          const std::string& api, int64_t limit);
/// ValueError: `parameter '<x[..]>' of '<api>' exceed max supported number of dimensions of <n>.`
[[noreturn]] void err_exceed_max_supported_dimension(const std::string& param,
                                                     const std::string& api, size_t max_rank);
/// ValueError: the contraction dimensions of a matmul's operands differ (text ours: NKI's
/// builder interpolates the shapes and transpose_x).
[[noreturn]] void err_param_shape_incompatible_with_matmul(const std::string& params,
                                                           const std::string& api,
                                                           bool transpose_x);
/// TypeError: `'<name>' of '<api>' has dtype '<dtype>', expected one of the following dtypes:
/// <list>` (NKI elides the middle of this template; the tail is exact).
[[noreturn]] void err_supported_operand_dtype(const std::string& name, const std::string& api,
                                              const std::string& dtype,
                                              const std::string& expected);
/// TypeError: PSUM writes are 4-byte (FP32/int32) or, for transposes, also BF16.
[[noreturn]] void err_psum_write_dtype(bool transpose);
/// ValueError (text ours): a PSUM tile larger than one 2 KiB bank per partition.
[[noreturn]] void err_psum_tile_exceeds_bank(const std::string& tile, int64_t bytes);
/// `Creating SBUF/PSUM tensor with init value is not supported in allocated NKI kernels.`
[[noreturn]] void err_tensor_creation_on_scratchpad_with_init_value_not_supported();

/// NKISyntaxError: `Indirect indexing on free dimension not supported, must be partition
/// dimension or block dimension.`
[[noreturn]] void err_indirect_indices_free_dim();
/// NKISyntaxError: `Indirect indices tile must be on SBUF.`
[[noreturn]] void err_indirect_indices_sbuf();
/// NKISyntaxError: `cannot use indirect indexing access with the current NKI API for <x>`.
[[noreturn]] void err_indirect_indices_are_not_supported_with_nki_api(const std::string& operands);
/// NKISyntaxError (text ours): an index tile with more than one index per partition (what an
/// `nl.mgrid`-built index gives); NKI requires `nl.arange(P)[:, None]`-shaped index tiles.
[[noreturn]] void err_indirect_index_tile_shape(const std::string& tile, int64_t partitions);
/// NKISyntaxError: ``atomic_rmw `op` param only supports 'add' operation currently. An
/// unsupported op=<op>``.
[[noreturn]] void err_atomic_rmw_add_only(const std::string& op);
/// NKISyntaxError: ``atomic_rmw `dst` only supports indirect dynamic indexing currently. Use a
/// tile to index.``
[[noreturn]] void err_atomic_rmw_dynamic_index();

/// NKISyntaxError: `src and dst must have the same shape, src.shape=<s> dst.shape=<d>`.
[[noreturn]] void err_tiled_offloaded_memcpy_same_shape(const std::string& src,
                                                        const std::string& dst);
/// NKISyntaxError: `tile shape mismatch, expected '<shape>', got '<shape>'` (tail ours).
[[noreturn]] void err_tile_shape_mismatch(const std::string& expected, const std::string& got);
/// ValueError (text ours): a reshape that changes the element count or the partition dim.
[[noreturn]] void err_reshape(const std::string& tensor, const std::string& shape,
                              const std::string& why);
/// ValueError (text ours): `view(dtype)` whose byte size does not divide the last dimension.
[[noreturn]] void err_view_dtype(const std::string& tensor, const std::string& dtype);
/// ValueError (text ours): expand_dims only appends axes after the last one.
[[noreturn]] void err_expand_dims_axis(const std::string& tile, int64_t axis);
/// ValueError (text ours): dma_transpose axes other than NKI's fixed permutations.
[[noreturn]] void err_dma_transpose_axes(const std::string& axes, const std::string& expected);
/// ValueError (text ours): an nc_stream_shuffle whose shuffle_mask or tiles NKI rejects.
[[noreturn]] void err_stream_shuffle_arg(const std::string& why);
/// ValueError (text ours): a local_gather argument outside NKI's documented constraints.
[[noreturn]] void err_local_gather_arg(const std::string& why);
/// ValueError (text ours): nc_matmul tile_position / tile_size that do not describe a PE tile.
[[noreturn]] void err_matmul_pe_tile(const std::string& why);

} // namespace nki::sema
