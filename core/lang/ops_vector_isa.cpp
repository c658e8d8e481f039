// nisa instructions of the Scalar, Vector and GpSimd engines: activation (+ reduce),
// tensor_tensor, tensor_scalar, scalar_tensor_tensor, tensor_scalar_reduce, reciprocal, iota,
// memset, dropout. Selects live in ops_select.cpp, reductions and statistics in ops_reduce.cpp.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/decode.h"
#include "lang/math_common.h"
#include "lang/promotion.h"
#include "printer/printer.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_math.h"

namespace nki::lang {

using namespace nki::ir;
using namespace nki::lang::math;

namespace {

bool is_int(DType t) {
  return !dtype_is_float(t);
}

std::string required_op(const OpCall& c, const std::string& key) {
  std::string op = op_attr(c, key);
  if (op.empty()) sema::err_argument_cannot_be_none({key});
  return op;
}

void require_int_for_bitvec(const NeuronCodegen& cg, const std::string& op,
                            const std::string& param, ValueId v) {
  if (is_bitvec(op) && !is_int(dtype_of(cg, v)))
    sema::err_bitvec_operand_must_be_integer(op, param, dtype_name(dtype_of(cg, v)));
}

// A scalar-or-(P,1)-vector operand `role` of `data`, appended to `in` (absent: nothing).
void add_vector_or_scalar(NeuronCodegen& cg, const OpCall& c, Instruction& in,
                          const std::string& role, ValueId data) {
  if (!c.has(role)) return;
  const ValueOrScalar& o = c.operand(role);
  if (o.is_scalar()) {
    add_scalar(in, role, o.scalar);
    return;
  }
  ValueId v = as_tile(cg, o.value, role, c.api);
  check_vector(cg, c.api, "data", data, role, v);
  add_operand(cg, in, role, v);
}

// The accumulator read-out tile of activation / tensor_scalar_reduce: (P, 1), written in place.
ValueId reduce_res_arg(NeuronCodegen& cg, const OpCall& c, ValueId data) {
  ValueId r = tile_arg(cg, c, "reduce_res");
  check_vector(cg, c.api, "data", data, "reduce_res", r);
  check_psum_write(cg, r);
  return r;
}

ValueId activation(NeuronCodegen& cg, const OpCall& c, bool reduce_api) {
  const std::string& api = c.api;
  std::string op = required_op(c, "op");
  if (!is_activation_fn(op)) sema::err_instruction_unsupported_op(op, api);
  ValueId data = tile_arg(cg, c, "data");
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("activation", Engine::Scalar);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  if (c.has("bias")) {
    const ValueOrScalar& b = c.operand("bias");
    if (!b.is_scalar()) {
      ValueId bv = as_tile(cg, b.value, "bias", api);
      DType t = dtype_of(cg, bv);
      if (t != DType::Float32 && t != DType::Float16 && t != DType::BFloat16)
        sema::err_activation_bias_invalid_type(api, dtype_name(t));
    }
    if (op == "reciprocal" && !reduce_api && nc_version(c) < 3)
      sema::err_activation_reciprocal_bias();
    add_vector_or_scalar(cg, c, in, "bias", data);
  }
  if (c.has("scale")) {
    const ValueOrScalar& s = c.operand("scale");
    if (s.is_scalar()) {
      if (s.scalar != 1.0) add_scalar(in, "scale", s.scalar);
    } else {
      ValueId sv = as_tile(cg, s.value, "scale", api);
      DType t = dtype_of(cg, sv);
      if (t != DType::Float32) sema::err_activation_scale_invalid_type(api, dtype_name(t));
      if (free_size(shape_of(cg, sv)) != 1)
        sema::err_activation_scale_scalar_or_vector(shape_of(cg, sv));
      same_partitions(cg, api, {{"data", data}, {"scale", sv}});
      add_operand(cg, in, "scale", sv);
    }
  }
  in.attrs.push_back({"op", op});

  std::string cmd = reduce_api ? "reset_reduce" : reduce_cmd_attr(c);
  if (cmd != "idle" && cmd != "reset" && cmd != "reduce" && cmd != "reset_reduce")
    sema::err_instruction_unsupported_op(cmd, api);
  std::string rop = op_attr(c, "reduce_op");
  if (rop.empty() && (cmd == "reduce" || cmd == "reset_reduce")) rop = "add";
  if (!rop.empty()) {
    // NeuronCore-v2 reduces with add only.
    bool ok = rop == "add" || (nc_version(c) >= 3 && (rop == "maximum" || rop == "minimum" ||
                                                      rop == "multiply" || rop == "subtract"));
    if (!ok) sema::err_instruction_unsupported_op(rop, api);
    in.attrs.push_back({"reduce_op", rop});
  }
  if (cmd != "idle") in.attrs.push_back({"reduce_cmd", cmd});
  if (c.has("reduce_res") || reduce_api)
    add_operand(cg, in, "reduce_res", reduce_res_arg(cg, c, data));
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_activation(NeuronCodegen& cg, const OpCall& c) {
  return activation(cg, c, false);
}
ValueId handle_activation_reduce(NeuronCodegen& cg, const OpCall& c) {
  return activation(cg, c, true);
}

ValueId handle_tensor_tensor(NeuronCodegen& cg, const OpCall& c) {
  const std::string api = "tensor_tensor";
  std::string op = required_op(c, "op");
  if (!is_binary_alu(op)) sema::err_instruction_unsupported_op(op, api);
  Engine e = engine_attr(c);
  if (e != Engine::None && e != Engine::Vector && e != Engine::GpSimd)
    sema::err_engine_not_allowed(api, "Vector or GpSIMD or Unknown");
  ValueId d1 = c.tile("data1"), d2 = c.tile("data2");
  bool int_op = (op == "add" || op == "subtract" || op == "multiply") && is_int(dtype_of(cg, d1)) &&
                is_int(dtype_of(cg, d2));
  if (e == Engine::GpSimd && op != "power" && !int_op)
    sema::err_instruction_unsupported_op(op, api);
  if (e == Engine::Vector && op == "power") sema::err_instruction_unsupported_op(op, api);
  if (e == Engine::None)
    e = op == "power" || (int_op && !in_psum(cg, d1) && !in_psum(cg, d2)) ? Engine::GpSimd
                                                                          : Engine::Vector;
  Mem mem = e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip;
  d1 = as_tile(cg, d1, "data1", api, mem);
  d2 = as_tile(cg, d2, "data2", api, mem);
  not_both_psum(cg, api, d1, "data2", d2);
  same_partitions(cg, api, {{"data1", d1}, {"data2", d2}});
  if (free_size(shape_of(cg, d1)) != free_size(shape_of(cg, d2)))
    sema::err_param_shape_mismatch(
        describe_param(cg, "data1", d1) + ", " + describe_param(cg, "data2", d2), api);
  require_int_for_bitvec(cg, op, "data1", d1);
  require_int_for_bitvec(cg, op, "data2", d2);
  const auto shape = shape_of(cg, d1);
  Instruction in = make_inst("tensor_tensor", e);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "x", d1);
  add_operand(cg, in, "y", d2);
  in.attrs.push_back({"op", op});
  return emit_result(cg, std::move(in), c.name, shape,
                     c.dtype.value_or(promote(dtype_of(cg, d1), dtype_of(cg, d2))));
}

void check_scalar_ops(const OpCall& c, const std::string& inst, const std::string& op0,
                      const std::string& op1) {
  for (const std::string& op : {op0, op1})
    if (!op.empty() && !is_binary_alu(op) && !is_unary_alu(op))
      sema::err_instruction_unsupported_op(op, inst);
  if (!op1.empty() && is_bitvec(op0) != is_bitvec(op1)) sema::err_ops_both_arith_or_bitvec(inst);
  (void)c;
}

ValueId handle_tensor_scalar(NeuronCodegen& cg, const OpCall& c) {
  const std::string api = "tensor_scalar";
  std::string op0 = required_op(c, "op0");
  std::string op1 = op_attr(c, "op1");
  if (op1.empty() != !c.has("operand1")) sema::err_op1_operand1_both_or_none();
  check_scalar_ops(c, api, op0, op1);
  Engine e = engine_attr(c);
  if (e != Engine::None && e != Engine::Vector && e != Engine::Scalar && e != Engine::GpSimd)
    sema::err_engine_not_allowed(api, "Scalar or Vector or GpSIMD or Unknown");
  bool rsqrt = op0 == "rsqrt" || op1 == "rsqrt";
  if (rsqrt && e != Engine::None && e != Engine::GpSimd)
    sema::err_op_engine("rsqrt", "GpSimd or Unknown");
  if ((op0 == "abs" || op1 == "abs") && e != Engine::None && e != Engine::Vector)
    sema::err_op_engine("abs", "Vector or Unknown");
  // rsqrt and power are GpSimd ALU operators.
  bool gpsimd_op = rsqrt || op0 == "power" || op1 == "power";
  if (e == Engine::None) e = gpsimd_op ? Engine::GpSimd : Engine::Vector;
  if (is_bitvec(op0) && e != Engine::Vector) sema::err_instruction_unsupported_op(op0, api);
  if (e == Engine::GpSimd && !gpsimd_op) sema::err_instruction_unsupported_op(op0, api);
  if (e == Engine::Scalar) {
    // The Scalar engine (NeuronCore-v3) runs multiply→add, multiply and add only.
    bool ok = nc_version(c) >= 3 && ((op0 == "multiply" && (op1.empty() || op1 == "add")) ||
                                     (op0 == "add" && op1.empty()));
    if (!ok)
      sema::err_instruction_engine_unsupported_op_comb(api, op0, op1.empty() ? "None" : op1,
                                                       "Scalar");
  }
  ValueId data = tile_arg(cg, c, "data", e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip);
  require_int_for_bitvec(cg, op0, "data", data);
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("tensor_scalar", e);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  add_vector_or_scalar(cg, c, in, "operand0", data);
  add_vector_or_scalar(cg, c, in, "operand1", data);
  in.attrs.push_back({"op0", op0});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (!op1.empty()) in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_scalar_tensor_tensor(NeuronCodegen& cg, const OpCall& c) {
  const std::string api = "scalar_tensor_tensor";
  std::string op0 = required_op(c, "op0"), op1 = required_op(c, "op1");
  check_scalar_ops(c, api, op0, op1);
  ValueId data = tile_arg(cg, c, "data");
  ValueId operand1 = tile_arg(cg, c, "operand1");
  not_both_psum(cg, api, data, "operand1", operand1);
  same_partitions(cg, api, {{"data", data}, {"operand1", operand1}});
  if (shape_of(cg, data) != shape_of(cg, operand1))
    sema::err_param_shape_mismatch(
        describe_param(cg, "data", data) + ", " + describe_param(cg, "operand1", operand1), api);
  require_int_for_bitvec(cg, op0, "data", data);
  require_int_for_bitvec(cg, op1, "operand1", operand1);
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("scalar_tensor_tensor", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  add_vector_or_scalar(cg, c, in, "operand0", data);
  add_operand(cg, in, "operand1", operand1);
  in.attrs.push_back({"op0", op0});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_tensor_scalar_reduce(NeuronCodegen& cg, const OpCall& c) {
  const std::string api = "tensor_scalar_reduce";
  std::string op0 = required_op(c, "op0"), rop = required_op(c, "reduce_op");
  if (!is_binary_alu(op0) || is_bitvec(op0)) sema::err_instruction_unsupported_op(op0, api);
  if (rop != "add" && rop != "subtract" && rop != "multiply" && rop != "maximum" &&
      rop != "minimum")
    sema::err_instruction_unsupported_op(rop, api);
  if (c.attr_bool("reverse0")) sema::err_not_supported_yet("tensor_scalar_reduce(reverse0=True)");
  ValueId data = tile_arg(cg, c, "data");
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("tensor_scalar_reduce", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  add_vector_or_scalar(cg, c, in, "operand0", data);
  add_operand(cg, in, "reduce_res", reduce_res_arg(cg, c, data));
  in.attrs.push_back({"op0", op0});
  in.attrs.push_back({"reduce_op", rop});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

// nisa.reciprocal(data) is the Vector instruction; nl.reciprocal(x) the activation function.
ValueId handle_reciprocal(NeuronCodegen& cg, const OpCall& c) {
  if (c.has("x")) return emit_activation(cg, "reciprocal", c.tile("x"), c.dtype, c.name, c.mask);
  ValueId data = tile_arg(cg, c, "data");
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("reciprocal", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_iota(NeuronCodegen& cg, const OpCall& c) {
  const util::Json& j = c.attrs["expr"];
  IndexExpr expr;
  if (j.is_number())
    expr.expr = AffineExpr(c.attr_int("expr", 0));
  else if (j.is_object())
    expr = decode_expr(j);
  else
    sema::err_argument_cannot_be_none({"expr"});
  if (!c.dtype) sema::err_argument_cannot_be_none({"dtype"});
  std::vector<int64_t> shape = expr.shape;
  if (shape.empty()) shape = {1, 1}; // a loop variable or program id: one value
  Instruction in = make_inst("iota", Engine::GpSimd);
  in.mask = align_mask(c.mask, shape.size());
  in.attrs.push_back({"expr", printer::format_expr(cg.kernel(), expr.expr, shape.size())});
  in.attrs.push_back({"affine", affine_list(expr.expr)});
  return emit_result(cg, std::move(in), c.name, shape, *c.dtype);
}

ValueId handle_memset(NeuronCodegen& cg, const OpCall& c) {
  Engine e = engine_attr(c);
  if (e != Engine::None && e != Engine::Vector && e != Engine::GpSimd)
    sema::err_engine_not_allowed("memset", "Vector or GpSIMD or Unknown");
  if (!c.dtype) sema::err_argument_cannot_be_none({"dtype"});
  std::vector<int64_t> shape = c.attr_ints("shape");
  Instruction in = make_inst("memset", e == Engine::None ? Engine::Vector : e);
  in.mask = align_mask(c.mask, shape.size());
  in.attrs.push_back({"value", c.attr_number("value", 0)});
  return emit_result(cg, std::move(in), c.name, shape, *c.dtype);
}

// nisa.dropout(data, prob) and nl.dropout(x, rate).
ValueId handle_dropout(NeuronCodegen& cg, const OpCall& c) {
  bool nl_form = c.has("x");
  const std::string data_role = nl_form ? "x" : "data", prob_role = nl_form ? "rate" : "prob";
  ValueId data = tile_arg(cg, c, data_role);
  const auto shape = shape_of(cg, data);
  Instruction in = make_inst("dropout", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  const ValueOrScalar& p = c.operand(prob_role);
  if (p.is_scalar()) {
    add_scalar(in, "prob", p.scalar);
  } else {
    ValueId pv = as_tile(cg, p.value, prob_role, c.api);
    const auto& ps = shape_of(cg, pv);
    if (free_size(ps) != 1) sema::err_operand_not_vector(prob_role, c.api, ps);
    if (ps[0] == 1) pv = broadcast_to(cg, pv, {shape[0], 1}); // one rate for all partitions
    same_partitions(cg, c.api, {{data_role, data}, {prob_role, pv}});
    add_operand(cg, in, "prob", pv);
  }
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, data)));
}

} // namespace

void register_vector_isa_ops(OpRegistry& r) {
  r.add("activation", handle_activation);
  r.add("activation_reduce", handle_activation_reduce);
  r.add("tensor_tensor", handle_tensor_tensor);
  r.add("tensor_scalar", handle_tensor_scalar);
  r.add("scalar_tensor_tensor", handle_scalar_tensor_tensor);
  r.add("tensor_scalar_reduce", handle_tensor_scalar_reduce);
  r.add("reciprocal", handle_reciprocal);
  r.add("iota", handle_iota);
  r.add("memset", handle_memset);
  r.add("dropout", handle_dropout);
  math::register_select_ops(r);
}

} // namespace nki::lang
