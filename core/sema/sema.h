#pragma once
/// sema: NKI's legality diagnostics. Each err_* builder throws one message with NKI's exception
/// class and exact text (shared/docs/nki-reference.md §6); callers attach the user's location.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/types.h"

namespace nki::sema {

/// A user-facing diagnostic: the user's kernel is wrong. `kind` is the Python exception class
/// NKI raises ("RuntimeError", "ValueError", "TypeError", "IndexError", "NKISyntaxError", ...).
class NkiError : public std::runtime_error {
 public:
  NkiError(std::string kind, const std::string& message, ir::SourceLoc loc = {})
      : std::runtime_error(message), kind_(std::move(kind)), loc_(std::move(loc)) {}
  const std::string& kind() const { return kind_; }
  const ir::SourceLoc& loc() const { return loc_; }
  void set_loc_if_unknown(const ir::SourceLoc& loc) {
    if (!loc_.known()) loc_ = loc;
  }

 private:
  std::string kind_;
  ir::SourceLoc loc_;
};

/// A broken internal invariant or API misuse by the surface: a bug in nki-playground.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void err_nki_api_outside_of_nki_kernel();
[[noreturn]] void err_trace_already_active(const std::string& active_kernel);
[[noreturn]] void err_unbalanced_scope_exit(const std::string& expected, const std::string& got);
[[noreturn]] void err_num_partition_exceed_arch_limit(int64_t partitions, int64_t limit);
[[noreturn]] void err_insufficient_rank(const std::string& tensor, size_t rank);
[[noreturn]] void err_unexpected_address_space(const std::string& operand, const std::string& api,
                                               const std::string& expected,
                                               const std::string& got_memory);
[[noreturn]] void err_immutable_parameter(const std::string& tensor);
[[noreturn]] void err_out_of_bound_access(const std::string& tensor, size_t dim, int64_t lo,
                                          int64_t hi, int64_t size);
[[noreturn]] void err_program_id_axis(int64_t axis, size_t rank);
[[noreturn]] void err_1d_arange(const std::string& tensor);
[[noreturn]] void err_mixing_basic_advanced_indexing();
[[noreturn]] void err_too_many_indices(const std::string& tensor, size_t given, size_t rank);
[[noreturn]] void err_num_partition_mismatch(const std::string& params, const std::string& api);
[[noreturn]] void err_broadcast_shapes(const std::string& params, const std::string& api);
[[noreturn]] void err_hbm_tensor_with_init_value();
[[noreturn]] void err_unsupported_dtype(const std::string& dtype);
[[noreturn]] void err_slice_size_not_static(const std::string& tensor, size_t dim);
[[noreturn]] void err_output_not_hbm(const std::string& tensor);

/// "a[128, 512]" for messages.
std::string describe(const std::string& name, const std::vector<int64_t>& shape);

}  // namespace nki::sema
