#pragma once
/// sema for the API surface's own argument checks (missing operands, unknown names, ranges) and
/// the simulator host's requests. NKI has no public text for these: the texts are ours.
#include <cstdint>
#include <string>
#include <vector>

namespace nki::sema {

/// ValueError: `'op' cannot be None.` / `'op0' and 'op1' cannot be None.`
[[noreturn]] void err_argument_cannot_be_none(const std::vector<std::string>& params);
/// TypeError: an operand that must be a tile got a Python scalar.
[[noreturn]] void err_operand_must_be_tile(const std::string& param, const std::string& api);
/// TypeError: an element-wise op with two scalars (nothing to run on an engine).
[[noreturn]] void err_needs_tile_operand(const std::string& api);
/// TypeError: an `op=` argument that is not an operator (nl.add, np.add, ...).
[[noreturn]] void err_expected_operator(const std::string& param, const std::string& api);
/// TypeError: a compile-time argument (an attribute: axis, shape, tile_position, ...) of the
/// wrong kind, e.g. an expression of loop variables where NKI needs an integer.
[[noreturn]] void err_attribute_not_constant(const std::string& param, const std::string& api,
                                             const std::string& expected, const std::string& got);
/// ValueError: a reduce_cmd outside nisa.reduce_cmd's values.
[[noreturn]] void err_unknown_reduce_cmd(int64_t value);
/// ValueError: a `buffer=` that is not sbuf, psum, hbm, shared_hbm or private_hbm.
[[noreturn]] void err_unknown_buffer(const std::string& buffer);
/// ValueError: an instruction on an engine that cannot run it.
[[noreturn]] void err_engine_cannot_run(const std::string& api, const std::string& engines,
                                        const std::string& engine);
/// ValueError: a matmul perf_mode whose operand is not [K, 2, F].
[[noreturn]] void err_perf_mode_operand_shape(const std::string& perf_mode, const std::string& api,
                                              const std::string& role, const std::string& got);
/// ValueError: a mask with more index dimensions than the tile it masks.
[[noreturn]] void err_mask_rank(size_t mask_rank, size_t tile_rank);
/// NKISyntaxError: a slice step of zero or less.
[[noreturn]] void err_slice_step_not_positive();
/// ValueError: a loop range with step 0.
[[noreturn]] void err_loop_step_zero();
/// ValueError: nl.shared_constant with no values or a ragged nesting.
[[noreturn]] void err_shared_constant_values();
/// ValueError: nl.shared_identity_matrix(n) with n < 1.
[[noreturn]] void err_identity_matrix_size(int64_t n);
/// ValueError: a tile of more than 8 dimensions reaching the simulator.
[[noreturn]] void err_tile_rank_limit(int limit);
/// ValueError: nki.simulate's seed outside [0, 2**32 - 1].
[[noreturn]] void err_seed_out_of_range();
/// TypeError: a host array (np.ndarray passed to the simulator) of a dtype it cannot hold.
[[noreturn]] void err_unsupported_host_dtype(const std::string& dtype);

} // namespace nki::sema
