// Element-wise math of the current language: nisa.tensor_tensor and nisa.tensor_scalar (dst
// first). Same opcodes and numerics as Beta 1 (docs/ops/math.md).
#include "isa/isa.h"
#include "lang/math_common.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"

namespace nki::isa {

using namespace nki::ir;
namespace math = lang::math;

namespace {

bool int32_like(DType t) {
  return t == DType::Int32 || t == DType::UInt32;
}

// An `op=`-style operator that must be one of `ok`'s.
std::string alu_op(const OpCall& c, const std::string& key, bool (*ok)(const std::string&)) {
  std::string op = math::op_attr(c, key);
  if (op.empty()) sema::err_argument_cannot_be_none({key});
  if (!ok(op)) sema::err_instruction_unsupported_op(op, c.api);
  return op;
}

bool binary_or_power(const std::string& op) {
  return math::is_binary_alu(op) || op == "power";
}

bool any_alu(const std::string& op) {
  return math::is_binary_alu(op) || math::is_unary_alu(op) || op == "power";
}

void tensor_tensor(NeuronCodegen& cg, const OpCall& c) {
  std::string op = alu_op(c, "op", binary_or_power);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip);
  ValueId x = tile(cg, c, "data1", Mem::OnChip), y = tile(cg, c, "data2", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data1", x);
  same_layout(cg, c.api, "dst", dst, "data2", y);
  if (math::in_psum(cg, x) && math::in_psum(cg, y))
    sema::err_isa_both_psum(c.api, "data1", "data2");
  bool any_psum = math::in_psum(cg, dst) || math::in_psum(cg, x) || math::in_psum(cg, y);
  // power runs on GpSimd; so do int32/uint32 tiles (exact integer arithmetic) unless a tile is
  // in PSUM, which GpSimd cannot reach.
  bool ints = int32_like(lang::dtype_of(cg, dst)) && int32_like(lang::dtype_of(cg, x)) &&
              int32_like(lang::dtype_of(cg, y));
  Engine fallback = op == "power" || (ints && !any_psum) ? Engine::GpSimd : Engine::Vector;
  Engine e = engine_of(c, fallback, {Engine::Vector, Engine::GpSimd});
  if (e == Engine::GpSimd && any_psum)
    sema::err_unsupported_memory(math::in_psum(cg, dst) ? "dst" : "data1", c.api, "sbuf", "psum");
  if (math::is_bitvec(op)) {
    for (auto [role, v] : {std::pair<const char*, ValueId>{"data1", x}, {"data2", y}, {"dst", dst}})
      if (dtype_is_float(lang::dtype_of(cg, v)))
        sema::err_bitvec_operand_must_be_integer(op, role, dtype_name(lang::dtype_of(cg, v)));
  }
  Instruction in = lang::make_inst("tensor_tensor", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "x", x);
  lang::add_operand(cg, in, "y", y);
  in.attrs.push_back({"op", op});
  emit(cg, c, std::move(in));
}

// operand0 / operand1: a scalar or a (P, 1) tile of `data`'s partitions.
void vector_operand(NeuronCodegen& cg, const OpCall& c, Instruction& in, const std::string& role,
                    ValueId data) {
  const lang::ValueOrScalar& v = c.operand(role);
  if (v.is_scalar()) {
    lang::add_scalar(in, role, v.scalar);
    return;
  }
  lang::require_memory(cg, v.value, role, c.api, Mem::OnChip);
  const auto& s = lang::shape_of(cg, v.value);
  const auto& ds = lang::shape_of(cg, data);
  if (s.empty() || s[0] != ds[0] || lang::free_size(s) != 1)
    sema::err_operand_not_vector(role, c.api, s);
  lang::add_operand(cg, in, role, v.value);
}

void tensor_scalar(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", any_alu);
  std::string op1 = math::op_attr(c, "op1");
  if (!op1.empty() && !any_alu(op1)) sema::err_instruction_unsupported_op(op1, c.api);
  if (op1.empty() != !c.has("operand1")) sema::err_op1_operand1_both_or_none();
  if (!op1.empty() && math::is_bitvec(op0) != math::is_bitvec(op1))
    sema::err_ops_both_arith_or_bitvec(c.api);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Engine e = engine_of(c, Engine::Vector, {Engine::Vector, Engine::Scalar, Engine::GpSimd});
  if (math::is_bitvec(op0) && e != Engine::Vector)
    sema::err_engine_cannot_run(c.api + " with bitvec operators", "vector", engine_name(e));
  Instruction in = lang::make_inst("tensor_scalar", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  if (math::is_unary_alu(op0)) {
    if (c.has("operand0") &&
        (!c.operand("operand0").is_scalar() || c.operand("operand0").scalar != 0))
      sema::err_isa_unary_operand(c.api, op0);
  } else {
    vector_operand(cg, c, in, "operand0", data);
  }
  if (!op1.empty()) vector_operand(cg, c, in, "operand1", data);
  in.attrs.push_back({"op0", op0});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (!op1.empty()) {
    in.attrs.push_back({"op1", op1});
    if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  }
  emit(cg, c, std::move(in));
}

} // namespace

void register_math_ops(Registry& r) {
  r.add("tensor_tensor", tensor_tensor);
  r.add("tensor_scalar", tensor_scalar);
}

} // namespace nki::isa
