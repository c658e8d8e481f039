#pragma once
/// sema: NKI's legality diagnostics. Each err_* builder throws one message with NKI's exception
/// class and exact text (shared/docs/nki-reference.md §6); callers attach the user's location.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/types.h"

namespace nki::sema {

/// A diagnostic's stable id, e.g. "nki-api-outside-of-nki-kernel": the name of the err_* builder
/// that throws it without `err_`, underscores as hyphens. Builders whose diagnostic is in NKI's
/// error manual carry NKI's name, so the id is NKI's too. docs/errors.md has a section per id.
/// Only Code::of(__func__) makes one, so every diagnostic comes from a named builder.
class Code {
public:
  static Code of(const char* builder);
  const std::string& str() const { return id_; }

private:
  explicit Code(std::string id) : id_(std::move(id)) {}
  std::string id_;
};

/// "tensor-access-out-of-bound" for "err_tensor_access_out_of_bound" (also for warn_*).
std::string code_of_builder(const std::string& builder);

/// A user-facing diagnostic: the user's kernel is wrong. `kind` is the Python exception class
/// NKI raises ("RuntimeError", "ValueError", "TypeError", "IndexError", "NKISyntaxError", ...).
class NkiError : public std::runtime_error {
public:
  NkiError(Code code, std::string kind, const std::string& message, ir::SourceLoc loc = {})
      : std::runtime_error(message), code_(std::move(code)), kind_(std::move(kind)),
        loc_(std::move(loc)) {}
  const std::string& code() const { return code_.str(); }
  const std::string& kind() const { return kind_; }
  const ir::SourceLoc& loc() const { return loc_; }
  void set_loc_if_unknown(const ir::SourceLoc& loc) {
    if (!loc_.known()) loc_ = loc;
  }

private:
  Code code_;
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
[[noreturn]] void err_unsupported_memory(const std::string& operand, const std::string& api,
                                         const std::string& expected,
                                         const std::string& got_memory);
[[noreturn]] void err_cannot_update_immutable_parameter(const std::string& tensor);
[[noreturn]] void err_tensor_access_out_of_bound(const std::string& tensor, size_t dim, int64_t lo,
                                                 int64_t hi, int64_t size);
[[noreturn]] void err_program_id_axis(int64_t axis, size_t rank);
[[noreturn]] void err_1d_arange_not_supported(const std::string& tensor);
[[noreturn]] void err_unsupported_mixing_basic_advanced_tensor_indexing();
[[noreturn]] void err_too_many_indices(const std::string& tensor, size_t given, size_t rank);
[[noreturn]] void err_num_partition_mismatch(const std::string& params, const std::string& api);
[[noreturn]] void err_broadcast_shapes(const std::string& params, const std::string& api);
[[noreturn]] void err_hbm_tensor_with_init_value_not_supported();
[[noreturn]] void err_unsupported_dtype(const std::string& dtype);
[[noreturn]] void err_slice_size_not_static(const std::string& tensor, size_t dim);
[[noreturn]] void err_output_not_hbm(const std::string& tensor);

[[noreturn]] void err_local_variable_used_out_of_scope(const std::string& name,
                                                       const std::string& parent_scope);
[[noreturn]] void err_mask_not_equal_not_supported();
[[noreturn]] void err_logic_or_not_supported(const std::string& name);
[[noreturn]] void err_unsupported_expression_in_mask();
[[noreturn]] void err_control_flow_condition_depending_on_arange();
[[noreturn]] void err_dynamic_control_flow_not_supported();
[[noreturn]] void err_while_loop_requires_unconditional_entry();
[[noreturn]] void err_ambiguous_tensor_truth_value();
[[noreturn]] void err_nested_kernel_with_spmd_grid(const std::string& func,
                                                   const std::string& grid);
[[noreturn]] void err_shared_hbm_must_in_kernel_level();
[[noreturn]] void err_store_dst_shape_smaller_than_other_shape(const std::string& expr,
                                                               const std::string& dst_shape,
                                                               const std::string& dst_name,
                                                               const std::string& others);
[[noreturn]] void err_mutable_parameter_not_returned(const std::string& names);
[[noreturn]] void err_tensor_output_not_written_to(const std::string& name);
[[noreturn]] void err_annotation_shape_mismatch(const std::string& value,
                                                const std::string& expected);
[[noreturn]] void err_failed_to_infer_tile_from_local_tensor(const std::string& name);
[[noreturn]] void err_leading_dimension_of_tensor_must_be_partition(const std::string& shape);
[[noreturn]] void err_cannot_assign_to_index();
[[noreturn]] void err_not_supported_yet(const std::string& api);
[[noreturn]] void err_predicate_truth_value();
[[noreturn]] void err_nki_param_not_hashable(const std::string& name, const std::string& type);
[[noreturn]] void err_do_while_condition(const std::string& name);
/// A non-fatal diagnostic of the trace: its code (from its warn_* builder) and its text.
struct Warning {
  Code code;
  std::string message;
};
/// DeprecationWarning: an SBUF/PSUM tensor with block dimensions before the partition dim.
Warning warn_block_dimension_is_deprecated(const std::string& tensor);
/// UserWarning: a name of an enclosing block's tensor rebound inside a nested block.
Warning warn_shadowing_local_tensor(const std::string& described_tensor, const std::string& name);

/// Raises the diagnostic `name` (an err_* name) with arguments from `args` (strings/ints), for
/// diagnostics the Python surface detects itself (truth values, while loops, ...) so that every
/// message text lives here. Unknown names raise sema::InternalError.
[[noreturn]] void raise_by_name(const std::string& name, const std::vector<std::string>& args);

/// "a[128, 512]" for messages.
std::string describe(const std::string& name, const std::vector<int64_t>& shape);

} // namespace nki::sema
