#pragma once
/// The names of NKI's ALU operators (the `op=` of tensor_tensor, tensor_scalar, reductions,
/// scans, ...) and of the Scalar engine's activation functions, with the NumPy spellings that
/// mean them: the one copy. lang/ checks requests against it, sim/ executes by it, and the
/// Python surface reads it from the core (lang/facts.h); a test pins the surface's own
/// function lists to it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nki::ir {

enum class AluOp : uint8_t {
  Add,
  Subtract,
  Multiply,
  Divide,
  Maximum,
  Minimum,
  Power,
  Mod,
  Fmod,
  Equal,
  NotEqual,
  Greater,
  GreaterEqual,
  Less,
  LessEqual,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
  LeftShift,
  RightShift,
  // one-input operators (the second input is ignored)
  Invert,
  LogicalNot,
  Abs,
  Rsqrt,
  Reciprocal,
  // no operator: passes the first input through (an absent op1)
  Bypass,
};

enum class ActFn : uint8_t {
  Copy,
  Square,
  Sigmoid,
  Relu,
  Gelu,
  GeluDx,
  GeluApprxTanh,
  GeluApprxSigmoid,
  Silu,
  SiluDx,
  Tanh,
  Softplus,
  Mish,
  Erf,
  ErfDx,
  Exp,
  Log,
  Sin,
  Cos,
  Tan,
  Arctan,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Sign,
  Abs,
};

/// NKI's name of an operator or activation spelled the NumPy way ("amax" → "maximum",
/// "expit" → "sigmoid", "identity" → "copy"); any other name unchanged.
std::string canonical_op(const std::string& name);
/// The operator or activation of a canonical name (aliases are not looked up here).
std::optional<AluOp> find_alu(const std::string& name);
std::optional<ActFn> find_activation(const std::string& name);
const char* alu_name(AluOp op);
const char* activation_name(ActFn f);
/// One input (invert, logical_not, abs, rsqrt, reciprocal; and bypass).
bool alu_is_unary(AluOp op);
/// Operates on bit patterns (bitwise and shifts, invert).
bool alu_is_bitvec(AluOp op);
/// May reduce along an axis (tensor_reduce, partition reductions).
bool alu_is_reduce(AluOp op);

/// The tables themselves, in declaration order: every canonical name, and every alias with
/// the name it stands for (the `facts` binding hands them to the Python surface).
std::vector<std::string> alu_names();
std::vector<std::string> activation_names();
std::vector<std::pair<std::string, std::string>> op_aliases();

} // namespace nki::ir
