#include "sema/sema_math.h"

namespace nki::sema {

namespace {

// Python's tuple spelling, as NKI interpolates `x.shape`: "(128, 1)".
std::string tuple_str(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

} // namespace

void err_instruction_unsupported_op(const std::string& op, const std::string& inst) {
  throw NkiError(Code::of(__func__), "NKISyntaxError", op + " is not supported in '" + inst + "'");
}

void err_reduce_unsupported_negate(const std::string& op) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "negate option can only be used with arithmetic ops, unsupported op=" + op);
}

void err_par_reduce_unsupported_op(const std::string& op) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "par_reduce does not support operator=" + op);
}

void err_reduce_bitvec_op_invalid_dtype(const std::string& op, const std::string& dtype) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "bitvec reduce op=" + op +
                     " requires an integer dtype (int32, uint8, uint16, "
                     "uint32), got '" +
                     dtype + "'");
}

void err_par_reduce_bitvec_op_invalid_dtype(const std::string& op, const std::string& dtype) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "par_reduce bitvec op=" + op +
                     " requires an unsigned integer dtype (uint8, uint16, "
                     "uint32), got '" +
                     dtype + "'");
}

void err_bitvec_operand_must_be_integer(const std::string& op, const std::string& operand,
                                        const std::string& dtype) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "bitvec operator " + op +
                     " requires integer operands, "
                     "but operand '" +
                     operand + "' has dtype '" + dtype + "'");
}

void err_activation_bias_invalid_type(const std::string& inst, const std::string& dtype) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'bias' param of '" + inst +
                     "' must be a vector of type float32, float16, or bfloat16, "
                     "got '" +
                     dtype + "'");
}

void err_activation_scale_invalid_type(const std::string& inst, const std::string& dtype) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'scale' param of '" + inst +
                     "' must be a scalar or vector of type float32, got '" + dtype + "'");
}

void err_activation_scale_scalar_or_vector(const std::vector<int64_t>& shape) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "'scale' param of 'activation' can only be a scalar or a vector in partition "
                 "dimension, scale.shape=" +
                     tuple_str(shape));
}

void err_operand_not_vector(const std::string& param, const std::string& inst,
                            const std::vector<int64_t>& shape) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + param + "' param of '" + inst +
                     "' must be a scalar or a vector in partition dimension "
                     "(one element per partition), " +
                     param + ".shape=" + tuple_str(shape));
}

void err_param_shape_incompatible_with_numpy(const std::string& params, const std::string& api) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Parameter shapes (" + params + ") of '" + api +
                     "' could not be broadcast together with shapes");
}

void err_param_shape_mismatch(const std::string& params, const std::string& api) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Parameter shapes (" + params + ") of '" + api + "' has mismatched shapes");
}

void err_affine_select_single_predicate(size_t n) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "'affine_select' only supports single predicate, was provided " +
                     std::to_string(n));
}

void err_engine_not_allowed(const std::string& inst, const std::string& allowed) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "Engine for " + inst + " can only be " + allowed + ".");
}

void err_op1_operand1_both_or_none() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "operand1 and op1 input arguments must be both provided or both None.");
}

void err_ops_both_arith_or_bitvec(const std::string& inst) {
  throw NkiError(Code::of(__func__), "ValueError",
                 inst + " op0/op1 must be both bitvec or both arithmetic operators.");
}

void err_op_engine(const std::string& op, const std::string& allowed) {
  throw NkiError(Code::of(__func__), "ValueError", "'" + op + "' engine must be " + allowed + ".");
}

void err_instruction_engine_unsupported_op_comb(const std::string& inst, const std::string& op0,
                                                const std::string& op1, const std::string& engine) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "'" + inst + "' on the " + engine + " engine does not support op0=" + op0 +
                     ", op1=" + op1);
}

void err_reduction_on_partition_axis() {
  throw NkiError(Code::of(__func__), "ValueError", "Reduction on partition axes is not supported");
}

void err_empty_axis() {
  throw NkiError(Code::of(__func__), "ValueError", "Empty axis not supported");
}

void err_axis_out_of_bounds(int64_t axis, size_t rank) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "axis " + std::to_string(axis) + " is out of bounds for a tile of rank " +
                     std::to_string(rank));
}

void err_elements_per_partition(const std::string& param, const std::string& inst, int64_t n,
                                int64_t lo, int64_t hi) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + param + "' of '" + inst + "' has " + std::to_string(n) +
                     " elements per partition, but must be between " + std::to_string(lo) +
                     " and " + std::to_string(hi));
}

void err_elements_per_partition_multiple(const std::string& param, const std::string& inst,
                                         int64_t n, int64_t multiple) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + param + "' of '" + inst + "' has " + std::to_string(n) +
                     " elements per partition, but must have a multiple of " +
                     std::to_string(multiple));
}

void err_psum_write_dtype() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "PSUM tensor for writes must be either 4-byte (FP32/int32) or BF16");
}

void err_min_arch_support_for_inst(const std::string& inst, const std::string& min_target,
                                   const std::string& target) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 "instruction '" + inst + "' requires target " + min_target +
                     " or newer, but the target is " + target);
}

void err_activation_reciprocal_bias() {
  throw NkiError(Code::of(__func__), "ValueError", "reciprocal must have bias=None for trn1.");
}

void err_instruction_supported_dtypes(const std::string& inst, const std::string& param,
                                      const std::string& target, const std::string& dtype,
                                      const std::string& supported) {
  throw NkiError(Code::of(__func__), "NKISyntaxError",
                 inst + "." + param + " on " + target + " dtype " + dtype +
                     ", supported: " + supported);
}

void err_predicate_must_be_integer() {
  throw NkiError(Code::of(__func__), "ValueError", "`predicate` must be a boolean or integer tile");
}

void err_src_dst_same_dtype_predicated() {
  throw NkiError(Code::of(__func__), "ValueError", "`src` and `dst` must have the same dtype");
}

void err_scalar_src_must_be_float() {
  throw NkiError(Code::of(__func__), "ValueError", "Scalar `src` must be float if `dst` is float");
}

void err_reverse_pred_needs_scalar_src() {
  throw NkiError(Code::of(__func__), "ValueError",
                 "`reverse_pred` only supported if `src` is scalar input.");
}

void err_on_false_scalar_must_be_float32(const std::string& dtype) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "on_false must be float32 when provided as a scalar, got " + dtype);
}

void err_on_false_free_dimension(int64_t free) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "on_false's free dimension should be 1 (a vector), got " + std::to_string(free));
}

void err_dst_dtype_must_match(const std::string& inst, const std::string& dst,
                              const std::string& expected) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "dst dtype must match instruction output dtype in '" + inst + "': dst is " + dst +
                     ", the instruction writes " + expected);
}

void err_partition_size(const std::string& param, const std::string& inst, int64_t expected,
                        int64_t got) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + param + "' of '" + inst + "' must have " + std::to_string(expected) +
                     " partition(s), got " + std::to_string(got));
}

void err_expected_scalar(const std::string& param, const std::string& inst) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'" + param + "' of '" + inst + "' must be a compile-time scalar, got a tile");
}

void err_expected_tile(const std::string& param, const std::string& inst) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "'" + param + "' of '" + inst + "' must be a tile, got a scalar");
}

} // namespace nki::sema
