#pragma once
/// Shared by the element-wise, activation, reduction, selection and statistics families
/// (ops_elementwise / ops_vector_isa / ops_reduce / ops_select / ops_composite): the ALU and
/// activation-function vocabulary, operand checks that name NKI's parameters, free-dimension
/// broadcasting, and the building blocks one op reuses to emit another. The opcodes these emit
/// are documented in docs/ops/math.md.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lang/call.h"
#include "lang/common.h"

namespace nki::lang::math {

// --- vocabulary --------------------------------------------------------------------------------

/// NKI's name of an ALU operator or activation function given in any accepted spelling
/// (`np.max` is "max" in NumPy 2 and "amax" in 1.x, both mean "maximum"; `np.true_divide`,
/// `np.absolute`, ...). Unknown names are returned unchanged (the instruction rejects them).
std::string canonical_op(const std::string& name);
/// Binary ALU operators an element-wise instruction computes (arithmetic, comparison, logical,
/// bitvec).
bool is_binary_alu(const std::string& op);
/// One-input ALU operators (invert, logical_not, abs, rsqrt, reciprocal).
bool is_unary_alu(const std::string& op);
/// Bitvec operators: integer operands, treated as bit patterns (no fp32 cast).
bool is_bitvec(const std::string& op);
/// Operators legal as a free-axis reduction (tensor_reduce).
bool is_reduce_op(const std::string& op);
/// Functions the Scalar engine's activation instruction evaluates.
bool is_activation_fn(const std::string& op);

/// NeuronCore generation of the call's target (the surface sends "nc_version"; default gen2,
/// i.e. trn1).
int nc_version(const OpCall& c);
const char* target_name(int nc_version); // "trn1", "trn2"

/// An `op=`-style attribute in canonical spelling; "" when absent.
std::string op_attr(const OpCall& c, const std::string& key);
/// `reduce_cmd=`: "idle", "reset", "reduce", "reset_reduce".
std::string reduce_cmd_attr(const OpCall& c);

// --- operands ----------------------------------------------------------------------------------

/// An affine expression as an integer-list attribute: [constant, kind, id, coeff, ...] with
/// kind 0 = loop iv (loop axis id), 1 = program id (grid axis), 2 = tile axis.
std::vector<int64_t> affine_list(const ir::AffineExpr& e);

/// "x[128, 512]": a parameter as NKI names it in messages.
std::string describe_param(const NeuronCodegen& cg, const std::string& param, ValueId v);
/// Checks that `v` is a tile in `allowed` memory and returns it; a 1-D value (`t[:, 0]`) is read
/// as its (P, 1) column.
ValueId as_tile(NeuronCodegen& cg, ValueId v, const std::string& param, const std::string& api,
                Mem allowed = Mem::OnChip);
/// The tile operand `role` of a call (named `role` in messages).
ValueId tile_arg(NeuronCodegen& cg, const OpCall& c, const std::string& role,
                 Mem allowed = Mem::OnChip);
/// err_num_partition_mismatch unless all (param, value) pairs have the same partition count.
void same_partitions(const NeuronCodegen& cg, const std::string& api,
                     const std::vector<std::pair<std::string, ValueId>>& params);
/// `v` is a (P, 1) vector operand (one element per partition) of the tile `data`.
void check_vector(const NeuronCodegen& cg, const std::string& api, const std::string& data_param,
                  ValueId data, const std::string& param, ValueId v);
/// Instruction outputs written into PSUM must be 4-byte or bf16.
void check_psum_write(const NeuronCodegen& cg, ValueId v);
/// Two inputs that may not both live in PSUM: the second is reported as needing SBUF.
void not_both_psum(const NeuronCodegen& cg, const std::string& api, ValueId a,
                   const std::string& b_param, ValueId b);
bool in_psum(const NeuronCodegen& cg, ValueId v);

/// NumPy broadcasting of shapes whose partition sizes already match; raises the NKI error
/// naming `params` when they do not broadcast.
std::vector<int64_t> broadcast_shapes(const NeuronCodegen& cg, const std::string& api,
                                      const std::vector<std::pair<std::string, ValueId>>& params);
/// A value reading `v` broadcast to `shape` (dimensions of extent 1 repeat; stride 0).
ValueId broadcast_to(NeuronCodegen& cg, ValueId v, const std::vector<int64_t>& shape);

/// `axis=` (int or list; negative counts from the end) as sorted free axes of a rank-`rank`
/// tile.
std::vector<int64_t> reduce_axes(const OpCall& c, size_t rank);
/// The shape after reducing `axes`: kept as 1 with keepdims; otherwise dropped, and a result
/// of rank 1 is the (P, 1) column NKI gives 2-D reductions.
std::vector<int64_t> reduced_shape(const std::vector<int64_t>& shape,
                                   const std::vector<int64_t>& axes, bool keepdims);

/// `name` + "_" + suffix, or "" (the builder's "t") when the result is unnamed.
std::string derived_name(const std::string& name, const std::string& suffix);

// --- building blocks (one family emitting another's instruction) --------------------------------

/// nl-level binary op: tile ⊙ tile (tensor_tensor, free-dim broadcasting), tile ⊙ (P,1) column
/// or scalar (tensor_scalar). `op` is the ALU operator, `api` names the call in messages.
ValueId emit_binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
                    const ValueOrScalar& x, const ValueOrScalar& y, std::optional<ir::DType> dtype,
                    const std::string& name, const MaskSpec& mask);
/// scalar.activation `fn` of `x` (no bias, scale 1).
ValueId emit_activation(NeuronCodegen& cg, const std::string& fn, ValueId x,
                        std::optional<ir::DType> dtype, const std::string& name,
                        const MaskSpec& mask);
/// vector.tensor_scalar with one operator and an immediate operand.
ValueId emit_tensor_scalar(NeuronCodegen& cg, ValueId x, const std::string& op0, double operand0,
                           std::optional<ir::DType> dtype, const std::string& name,
                           const MaskSpec& mask);
/// vector.tensor_reduce over `axes` (already normalized).
ValueId emit_reduce(NeuronCodegen& cg, const std::string& op, ValueId x,
                    const std::vector<int64_t>& axes, bool keepdims, bool negate,
                    std::optional<ir::DType> dtype, const std::string& name, const MaskSpec& mask);

/// Registration of the families in their own files (called from register_*_ops).
void register_composite_ops(OpRegistry& r); // ops_composite.cpp: mean, var, softmax, rms_norm
void register_select_ops(OpRegistry& r);    // ops_select.cpp: where and the nisa selects
void register_search_ops(OpRegistry& r);    // ops_search.cpp: max8, find/match 8, bounds

} // namespace nki::lang::math
