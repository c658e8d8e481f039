#include "sema/sema.h"

#include <cstdlib>

#include "sema/sema_current.h"

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
} // namespace

std::string code_of_builder(const std::string& builder) {
  std::string id = builder;
  for (const char* prefix : {"err_", "warn_"})
    if (id.rfind(prefix, 0) == 0) id.erase(0, std::string(prefix).size());
  for (char& c : id)
    if (c == '_') c = '-';
  return id;
}

Code Code::of(const char* builder) {
  // A throw outside a named err_* builder (a lambda's "operator()", say) would give a code no
  // docs section can have: that is our bug, caught by tests/core/diagnostic_codes_test.cpp.
  return Code(code_of_builder(builder));
}

std::string describe(const std::string& name, const std::vector<int64_t>& shape) {
  return name + "[" + join_shape(shape) + "]";
}

void err_nki_api_outside_of_nki_kernel() {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "calling NKI API outside of NKI kernels is not supported.");
}

void err_trace_already_active(const std::string& active_kernel) {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "cannot start tracing a kernel while kernel '" + active_kernel +
                     "' is being traced: only one trace may be active at a time");
}

void err_unbalanced_scope_exit(const std::string& expected, const std::string& got) {
  throw InternalError("unbalanced scope exit: expected " + expected + ", got " + got);
}

void err_num_partition_exceed_arch_limit(int64_t partitions, int64_t limit) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "number of partitions " + std::to_string(partitions) +
                     " exceed architecture limitation of " + std::to_string(limit) + ".");
}

void err_insufficient_rank(const std::string& tensor, size_t rank) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Insufficient rank: tile '" + tensor + "' has rank " + std::to_string(rank) +
                     "; SBUF and PSUM tiles need a partition dimension and at "
                     "least one free dimension");
}

void err_unsupported_memory(const std::string& operand, const std::string& api,
                            const std::string& expected, const std::string& got_memory) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "Expected operand '" + operand + "' of '" + api + "' to be in address space '" +
                     expected + "', but got a tile in '" + got_memory + "' instead.");
}

void err_cannot_update_immutable_parameter(const std::string& tensor) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "Cannot update immutable parameter `" + tensor + "`");
}

void err_tensor_access_out_of_bound(const std::string& tensor, size_t dim, int64_t lo, int64_t hi,
                                    int64_t size) {
  throw NkiError(Code::of(__func__), "IndexError",
                 "Out-of-bound access for tensor `" + tensor + "` on dimension " +
                     std::to_string(dim) + ": index range [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "] exceed dimension size of " + std::to_string(size));
}

void err_program_id_axis(int64_t axis, size_t rank) {
  throw NkiError(Code::of(__func__), "IndexError",
                 "axis in `program_id` is out-of-bound(s) of the spmd launch grid "
                 "(axis=" +
                     std::to_string(axis) + ", grid rank " + std::to_string(rank) + ")");
}

void err_1d_arange_not_supported(const std::string& tensor) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "indexing tensor `" + tensor + "` with 1d arange is not supported.");
}

void err_unsupported_mixing_basic_advanced_tensor_indexing() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Mixing basic tensor indexing and advanced tensor indexing is not supported.");
}

void err_too_many_indices(const std::string& tensor, size_t given, size_t rank) {
  throw NkiError(Code::of(__func__), "IndexError",
                 "too many indices for tensor `" + tensor + "`: tensor is " + std::to_string(rank) +
                     "-dimensional, but " + std::to_string(given) + " were indexed");
}

void err_num_partition_mismatch(const std::string& params, const std::string& api) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "number of partitions (dimension 0 size of a tile) mismatch in parameters (" +
                     params + ") of '" + api + "'");
}

void err_broadcast_shapes(const std::string& params, const std::string& api) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "shapes of parameters (" + params + ") of '" + api +
                     "' cannot be broadcast together");
}

void err_hbm_tensor_with_init_value_not_supported() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Creating HBM tensor with init value is not supported.");
}

void err_unsupported_dtype(const std::string& dtype) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "Unsupported dtype '" + dtype +
                     "', expected one of the following dtypes: bool_, uint8, int8, "
                     "uint16, int16, uint32, int32, float8_e4m3, float8_e5m2, "
                     "bfloat16, float16, tfloat32, float32");
}

void err_slice_size_not_static(const std::string& tensor, size_t dim) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "slice of tensor `" + tensor + "` on dimension " + std::to_string(dim) +
                     " must have a compile-time constant size");
}

void err_output_not_hbm(const std::string& tensor) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "kernel output `" + tensor +
                     "` must be an HBM tensor created with "
                     "buffer=nl.shared_hbm");
}

void err_local_variable_used_out_of_scope(const std::string& name,
                                          const std::string& parent_scope) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Local variable '" + name + "' is referenced outside of its parent scope " +
                     parent_scope);
}

void err_mask_not_equal_not_supported() {
  throw NkiError(Code::of(__func__), "NKISyntaxError", "'not equal' mask is not supported");
}

void err_logic_or_not_supported(const std::string& name) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'logical or' is not supported for the `" + name + "`");
}

void err_unsupported_expression_in_mask() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "NKI mask expressions must be affine expressions of static loop indices. Dynamic "
                 "values, tensor elements, or non-affine operations are not supported in mask "
                 "predicates.");
}

void err_control_flow_condition_depending_on_arange() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Control-flow depending on `nl.arange` or `nl.mgrid` is not supported.");
}

void err_dynamic_control_flow_not_supported() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "dynamic control-flow depending on tensor value is not supported.");
}

void err_while_loop_requires_unconditional_entry() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Traditional while loops are not supported in NKI. Use the do-while pattern "
                 "instead: start with 'cond = scalar(True)' before the loop and assign the next "
                 "condition (a scalar comparison) as the last statement of the loop body.");
}

void err_ambiguous_tensor_truth_value() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Cannot evaluate truth value of a multi-element tensor/array.");
}

void err_nested_kernel_with_spmd_grid(const std::string& func, const std::string& grid) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Calling kernel with spmd grid (" + func + "[" + grid +
                     "]) inside another kernel is not supported.");
}

void err_shared_hbm_must_in_kernel_level() {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "shared_hbm buffer can only be created top level kernel scope");
}

void err_store_dst_shape_smaller_than_other_shape(const std::string& expr,
                                                  const std::string& dst_shape,
                                                  const std::string& dst_name,
                                                  const std::string& others) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Illegal assignment destination shape in '" + expr + "': shape " + dst_shape +
                     " of parameter '" + dst_name + "' is smaller than other parameter shapes " +
                     others + ".");
}

void err_mutable_parameter_not_returned(const std::string& names) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "Mutable kernel parameter not returned by `return` statement: " + names);
}

void err_tensor_output_not_written_to(const std::string& name) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "kernel output `" + name + "` is never written to");
}

void err_annotation_shape_mismatch(const std::string& value, const std::string& expected) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "shape of `" + value + "` does not match the expected shape of " + expected);
}

void err_failed_to_infer_tile_from_local_tensor(const std::string& name) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "Failed to infer tile from tensor '" + name +
                     "': the first dimension of the tile is not the partition "
                     "dimension of the tensor.");
}

void err_leading_dimension_of_tensor_must_be_partition(const std::string& shape) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "The leading dimension of SBUF/PSUM tensors must be the partition dimension. "
                 "The tensor has shape " +
                     shape);
}

void err_cannot_assign_to_index() {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'index' tensor does not support item assignment");
}

void err_not_supported_yet(const std::string& api) {
  throw NkiError(Code::of(__func__), "NotImplementedError",
                 "not supported in nki-playground yet: " + api);
}

Warning warn_block_dimension_is_deprecated(const std::string& tensor) {
  return {Code::of(__func__),
          "Block dimension is deprecated. The leading dimension of " + tensor +
              " should be the partition dimension; index the block dimension away before use or "
              "allocate one tile per block."};
}

Warning warn_shadowing_local_tensor(const std::string& described_tensor, const std::string& name) {
  return {Code::of(__func__), "shadowing local tensor '" + described_tensor +
                                  "' with a new object, use '" + name +
                                  "[...] =' if you want to update the existing object"};
}

void err_predicate_truth_value() {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "a condition on loop variables or program ids has no truth value while tracing: "
                 "combine conditions with `&` or `and` (not `or`/`not`) and use it directly as an "
                 "`if` condition or a `mask=`");
}

void err_do_while_condition(const std::string& name) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "the do-while loop on `" + name + "` must assign `" + name +
                     "` a scalar comparison (e.g. `" + name +
                     " = scalar(t) < 10`) as the last statement of its body");
}

void err_nki_param_not_hashable(const std::string& name, const std::string& type) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Expected kernel parameter '" + name + "' to be hashable, but got type " + type);
}

void raise_by_name(const std::string& name, const std::vector<std::string>& a) {
  auto arg = [&](size_t i) { return i < a.size() ? a[i] : std::string(); };
  if (name == "err_nki_api_outside_of_nki_kernel") err_nki_api_outside_of_nki_kernel();
  if (name == "err_logic_or_not_supported") err_logic_or_not_supported(arg(0));
  if (name == "err_unsupported_expression_in_mask") err_unsupported_expression_in_mask();
  if (name == "err_mask_not_equal_not_supported") err_mask_not_equal_not_supported();
  if (name == "err_control_flow_condition_depending_on_arange")
    err_control_flow_condition_depending_on_arange();
  if (name == "err_dynamic_control_flow_not_supported") err_dynamic_control_flow_not_supported();
  if (name == "err_while_loop_requires_unconditional_entry")
    err_while_loop_requires_unconditional_entry();
  if (name == "err_ambiguous_tensor_truth_value") err_ambiguous_tensor_truth_value();
  if (name == "err_nested_kernel_with_spmd_grid") err_nested_kernel_with_spmd_grid(arg(0), arg(1));
  if (name == "err_cannot_assign_to_index") err_cannot_assign_to_index();
  if (name == "err_mutable_parameter_not_returned") err_mutable_parameter_not_returned(arg(0));
  if (name == "err_annotation_shape_mismatch") err_annotation_shape_mismatch(arg(0), arg(1));
  if (name == "err_not_supported_yet") err_not_supported_yet(arg(0));
  if (name == "err_predicate_truth_value") err_predicate_truth_value();
  if (name == "err_nki_param_not_hashable") err_nki_param_not_hashable(arg(0), arg(1));
  if (name == "err_program_id_axis")
    err_program_id_axis(std::atoll(arg(0).c_str()), std::atoll(arg(1).c_str()));
  if (name == "err_do_while_condition") err_do_while_condition(arg(0));
  if (name == "err_local_variable_used_out_of_scope")
    err_local_variable_used_out_of_scope(arg(0), arg(1));
  raise_current_by_name(name, a);
  throw InternalError("unknown diagnostic '" + name + "'");
}

} // namespace nki::sema
