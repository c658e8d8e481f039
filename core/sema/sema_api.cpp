#include "sema/sema_api.h"

#include "sema/sema.h"

namespace nki::sema {

void err_argument_cannot_be_none(const std::vector<std::string>& params) {
  std::string names;
  for (size_t i = 0; i < params.size(); ++i) names += (i ? " and '" : "'") + params[i] + "'";
  throw NkiError(Code::of(__func__), "ValueError", names + " cannot be None.");
}

void err_operand_must_be_tile(const std::string& param, const std::string& api) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "Expected operand '" + param + "' of '" + api + "' to be a tile, got a scalar");
}

void err_needs_tile_operand(const std::string& api) {
  throw NkiError(Code::of(__func__), "TypeError", "'" + api + "' needs at least one tile operand");
}

void err_expected_operator(const std::string& param, const std::string& api) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'" + param + "' of '" + api + "' must be an operator such as nl.add or np.add");
}

void err_unknown_reduce_cmd(int64_t value) {
  throw NkiError(Code::of(__func__), "ValueError", "unknown reduce_cmd " + std::to_string(value));
}

void err_unknown_buffer(const std::string& buffer) {
  throw NkiError(Code::of(__func__), "ValueError", "unknown buffer '" + buffer + "'");
}

void err_engine_cannot_run(const std::string& api, const std::string& engines,
                           const std::string& engine) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "' runs on the " + engines + " engine, not the " + engine + " engine");
}

void err_perf_mode_operand_shape(const std::string& perf_mode, const std::string& api,
                                 const std::string& role, const std::string& got) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "perf_mode='" + perf_mode + "' of '" + api + "' needs " + role +
                     " of shape [K, 2, F], got '" + got + "'");
}

void err_mask_rank(size_t mask_rank, size_t tile_rank) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "mask expression has " + std::to_string(mask_rank) +
                     " index dimensions but the tile has " + std::to_string(tile_rank));
}

void err_slice_step_not_positive() {
  throw NkiError(Code::of(__func__), "NKISyntaxError", "slice step must be a positive integer");
}

void err_loop_step_zero() {
  throw NkiError(Code::of(__func__), "ValueError", "loop step must not be zero");
}

void err_shared_constant_values() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "shared_constant needs an array (or nested lists) of numbers of rank 1 or more");
}

void err_identity_matrix_size(int64_t n) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "shared_identity_matrix needs a positive size n, got " + std::to_string(n));
}

void err_tile_rank_limit(int limit) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "tiles of rank > " + std::to_string(limit) + " are not supported");
}

void err_seed_out_of_range() {
  throw NkiError(Code::of(__func__), "ValueError", "Seed must be between 0 and 2**32 - 1");
}

void err_unsupported_host_dtype(const std::string& dtype) {
  throw NkiError(Code::of(__func__), "TypeError", "unsupported host array dtype " + dtype);
}

void err_attribute_not_constant(const std::string& param, const std::string& api,
                                const std::string& expected, const std::string& got) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'" + param + "' of '" + api + "' must be a compile-time " + expected + ", got " +
                     got);
}

} // namespace nki::sema
