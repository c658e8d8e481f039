#pragma once
/// sema for the element-wise, activation, reduction, selection and statistics ops: NKI's
/// diagnostics with their exception classes. Texts marked (R) are NKI's rodata templates; texts
/// marked (reconstructed) complete a template NKI's sources only show in part — see
/// docs/ops/math.md ("Diagnostics").
#include <cstdint>
#include <string>
#include <vector>

#include "sema/sema.h"

namespace nki::sema {

/// (R) "<op> is not supported in '<inst>'" — an ALU/activation op an instruction does not take.
[[noreturn]] void err_instruction_unsupported_op(const std::string& op, const std::string& inst);
/// (R) "negate option can only be used with arithmetic ops, unsupported op=<op>"
[[noreturn]] void err_reduce_unsupported_negate(const std::string& op);
/// (R) "par_reduce does not support operator=<op>"
[[noreturn]] void err_par_reduce_unsupported_op(const std::string& op);
/// (reconstructed) a bitvec reduction on a dtype that is not an unsigned/int32 integer.
[[noreturn]] void err_reduce_bitvec_op_invalid_dtype(const std::string& op,
                                                     const std::string& dtype);
[[noreturn]] void err_par_reduce_bitvec_op_invalid_dtype(const std::string& op,
                                                         const std::string& dtype);
/// (reconstructed) a bitvec operator (bitwise_*, shifts, invert) on a non-integer operand.
[[noreturn]] void err_bitvec_operand_must_be_integer(const std::string& op,
                                                     const std::string& operand,
                                                     const std::string& dtype);
/// (R) TypeError "'bias' param of '<inst>' must be a vector of type float32, float16, or
/// bfloat16, got '<dtype>'"
[[noreturn]] void err_activation_bias_invalid_type(const std::string& inst,
                                                   const std::string& dtype);
/// (R) TypeError "'scale' param of '<inst>' must be a scalar or vector of type float32, got
/// '<dtype>'"
[[noreturn]] void err_activation_scale_invalid_type(const std::string& inst,
                                                    const std::string& dtype);
/// (R) "'scale' param of 'activation' can only be a scalar or a vector in partition dimension,
/// scale.shape=<shape>"
[[noreturn]] void err_activation_scale_scalar_or_vector(const std::vector<int64_t>& shape);
/// (reconstructed) a (P, 1) vector operand (bias, operand0, initial, ...) of another shape.
[[noreturn]] void err_operand_not_vector(const std::string& param, const std::string& inst,
                                         const std::vector<int64_t>& shape);
/// (R, fragment-complete) ValueError: operands of an element-wise op that do not broadcast.
[[noreturn]] void err_param_shape_incompatible_with_numpy(const std::string& params,
                                                          const std::string& api);
/// (R, fragment-complete) ValueError: operands that must have the same shape.
[[noreturn]] void err_param_shape_mismatch(const std::string& params, const std::string& api);
/// (R) "'affine_select' only supports single predicate, was provided <n>"
[[noreturn]] void err_affine_select_single_predicate(size_t n);
/// (R) "Engine for tensor_scalar can only be Scalar or Vector or GpSIMD or Unknown." and the
/// same form for the other instructions with an engine= choice (allowed: "Vector or GpSIMD").
[[noreturn]] void err_engine_not_allowed(const std::string& inst, const std::string& allowed);
/// (R) "operand1 and op1 input arguments must be both provided or both None."
[[noreturn]] void err_op1_operand1_both_or_none();
/// (R) "<inst> op0/op1 must be both bitvec or both arithmetic operators."
[[noreturn]] void err_ops_both_arith_or_bitvec(const std::string& inst);
/// (R) "'rsqrt' engine must be GpSimd or Unknown." / "'abs' engine must be Vector or Unknown."
[[noreturn]] void err_op_engine(const std::string& op, const std::string& allowed);
/// (reconstructed) an (op0, op1) pair the chosen engine cannot run.
[[noreturn]] void err_instruction_engine_unsupported_op_comb(const std::string& inst,
                                                             const std::string& op0,
                                                             const std::string& op1,
                                                             const std::string& engine);
/// (R) "Reduction on partition axes is not supported"
[[noreturn]] void err_reduction_on_partition_axis();
/// (R) "Empty axis not supported"
[[noreturn]] void err_empty_axis();
/// (reconstructed) NumPy's AxisError wording.
[[noreturn]] void err_axis_out_of_bounds(int64_t axis, size_t rank);
/// (R, fragment-complete) "'<param>' of '<inst>' has <n> elements per partition, but must be
/// between <lo> and <hi>"
[[noreturn]] void err_elements_per_partition(const std::string& param, const std::string& inst,
                                             int64_t n, int64_t lo, int64_t hi);
/// (reconstructed) bn_aggr input whose free size is not a multiple of 3.
[[noreturn]] void err_elements_per_partition_multiple(const std::string& param,
                                                      const std::string& inst, int64_t n,
                                                      int64_t multiple);
/// (R) "PSUM tensor for writes must be either 4-byte (FP32/int32) or BF16"
[[noreturn]] void err_psum_write_dtype();
/// (reconstructed) an instruction the target NeuronCore does not have.
[[noreturn]] void err_min_arch_support_for_inst(const std::string& inst,
                                                const std::string& min_target,
                                                const std::string& target);
/// (R) "reciprocal must have bias=None for trn1."
[[noreturn]] void err_activation_reciprocal_bias();
/// (R, template) "<inst>.<param> on <target> dtype <dtype>, supported: <dtypes>"
[[noreturn]] void err_instruction_supported_dtypes(const std::string& inst,
                                                   const std::string& param,
                                                   const std::string& target,
                                                   const std::string& dtype,
                                                   const std::string& supported);
/// (R) tensor_copy_predicated's checks.
[[noreturn]] void err_predicate_must_be_integer();
[[noreturn]] void err_src_dst_same_dtype_predicated();
[[noreturn]] void err_scalar_src_must_be_float();
[[noreturn]] void err_reverse_pred_needs_scalar_src();
/// (R, tail reconstructed) select_reduce's checks.
[[noreturn]] void err_on_false_scalar_must_be_float32(const std::string& dtype);
[[noreturn]] void err_on_false_free_dimension(int64_t free);
[[noreturn]] void err_dst_dtype_must_match(const std::string& inst, const std::string& dst,
                                           const std::string& expected);
/// (reconstructed) an operand whose partition dimension must have a fixed size.
[[noreturn]] void err_partition_size(const std::string& param, const std::string& inst,
                                     int64_t expected, int64_t got);
/// (reconstructed) an operand that must be a compile-time scalar got a tile, or vice versa.
[[noreturn]] void err_expected_scalar(const std::string& param, const std::string& inst);
[[noreturn]] void err_expected_tile(const std::string& param, const std::string& inst);

} // namespace nki::sema
