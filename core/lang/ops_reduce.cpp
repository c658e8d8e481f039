// Reductions, scans and statistics: nl.sum/max/min/prod/all and nisa.tensor_reduce (Vector
// tensor_reduce), nisa.tensor_partition_reduce (GpSimd), nisa.tensor_tensor_scan, nisa.bn_stats /
// bn_aggr, nl.loop_reduce. Decompositions (mean, var, softmax, rms_norm) are in ops_composite.cpp.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/decode.h"
#include "lang/math_common.h"
#include "lang/promotion.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_math.h"

namespace nki::lang {

using namespace nki::ir;
using namespace nki::lang::math;

namespace {

bool is_arith_reduce(const std::string& op) {
  return op == "add" || op == "subtract" || op == "multiply" || op == "maximum" || op == "minimum";
}

bool bitvec_reduce_dtype(DType t) {
  return t == DType::Int32 || t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32;
}

// nl.sum / max / min / prod / all: the reduction operator each stands for.
std::string nl_reduce_op(const std::string& api) {
  if (api == "sum") return "add";
  if (api == "max") return "maximum";
  if (api == "min") return "minimum";
  if (api == "prod") return "multiply";
  return "logical_and"; // all
}

ValueId handle_nl_reduce(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = tile_arg(cg, c, "x");
  auto axes = reduce_axes(c, shape_of(cg, x).size());
  return emit_reduce(cg, nl_reduce_op(c.api), x, axes, c.attr_bool("keepdims"), false, c.dtype,
                     c.name, c.mask);
}

ValueId handle_tensor_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op = op_attr(c, "op");
  if (op.empty()) sema::err_argument_cannot_be_none({"op"});
  if (!is_reduce_op(op)) sema::err_instruction_unsupported_op(op, "tensor_reduce");
  ValueId data = tile_arg(cg, c, "data");
  bool negate = c.attr_bool("negate");
  if (negate && !is_arith_reduce(op)) sema::err_reduce_unsupported_negate(op);
  if (is_bitvec(op) && !bitvec_reduce_dtype(dtype_of(cg, data)))
    sema::err_reduce_bitvec_op_invalid_dtype(op, dtype_name(dtype_of(cg, data)));
  auto axes = reduce_axes(c, shape_of(cg, data).size());
  return emit_reduce(cg, op, data, axes, c.attr_bool("keepdims"), negate, c.dtype, c.name, c.mask);
}

ValueId handle_tensor_partition_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op = op_attr(c, "op");
  if (op != "add" && op != "maximum" && op != "bitwise_or" && op != "bitwise_and")
    sema::err_par_reduce_unsupported_op(op.empty() ? "None" : op);
  ValueId data = tile_arg(cg, c, "data", Mem::Sbuf); // GpSimd: no PSUM
  DType t = dtype_of(cg, data);
  if (is_bitvec(op) && t != DType::UInt8 && t != DType::UInt16 && t != DType::UInt32)
    sema::err_par_reduce_bitvec_op_invalid_dtype(op, dtype_name(t));
  auto shape = shape_of(cg, data);
  Instruction in = make_inst("tensor_partition_reduce", Engine::GpSimd);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", data);
  in.attrs.push_back({"op", op});
  shape[0] = 1;
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(t));
}

ValueId handle_tensor_tensor_scan(NeuronCodegen& cg, const OpCall& c) {
  const std::string api = "tensor_tensor_scan";
  std::string op0 = op_attr(c, "op0"), op1 = op_attr(c, "op1");
  for (const std::string& op : {op0, op1}) {
    if (op.empty()) sema::err_argument_cannot_be_none({"op0", "op1"});
    if (!is_binary_alu(op) || is_bitvec(op)) sema::err_instruction_unsupported_op(op, api);
  }
  ValueId d0 = tile_arg(cg, c, "data0"), d1 = tile_arg(cg, c, "data1");
  not_both_psum(cg, api, d0, "data1", d1);
  same_partitions(cg, api, {{"data0", d0}, {"data1", d1}});
  if (free_size(shape_of(cg, d0)) != free_size(shape_of(cg, d1)))
    sema::err_param_shape_mismatch(
        describe_param(cg, "data0", d0) + ", " + describe_param(cg, "data1", d1), api);
  const auto shape = shape_of(cg, d0);
  Instruction in = make_inst("tensor_tensor_scan", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data0", d0);
  add_operand(cg, in, "data1", d1);
  const ValueOrScalar& init = c.operand("initial");
  if (init.is_scalar()) {
    add_scalar(in, "initial", init.scalar);
  } else {
    ValueId iv = as_tile(cg, init.value, "initial", api);
    check_vector(cg, api, "data0", d0, "initial", iv);
    add_operand(cg, in, "initial", iv);
  }
  in.attrs.push_back({"op0", op0});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  return emit_result(cg, std::move(in), c.name, shape,
                     c.dtype.value_or(promote(dtype_of(cg, d0), dtype_of(cg, d1))));
}

// bn_stats: 6 statistics per partition of up to 512 elements; bn_aggr folds them into 2.
ValueId handle_bn(NeuronCodegen& cg, const OpCall& c) {
  ValueId data = tile_arg(cg, c, "data");
  const auto& s = shape_of(cg, data);
  int64_t f = free_size(s);
  bool stats = c.api == "bn_stats";
  if (stats && (f < 1 || f > kBnStatsFmax))
    sema::err_elements_per_partition("data", c.api, f, 1, kBnStatsFmax);
  if (!stats && (f < 3 || f % 3 != 0))
    sema::err_elements_per_partition_multiple("data", c.api, f, 3);
  Instruction in = make_inst(c.api, Engine::Vector);
  in.mask = align_mask(c.mask, s.size());
  add_operand(cg, in, "data", data);
  return emit_result(cg, std::move(in), c.name, {s[0], stats ? 6 : 2},
                     c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_loop_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op = op_attr(c, "op");
  if (op.empty() || !is_binary_alu(op)) sema::err_instruction_unsupported_op(op, "loop_reduce");
  ValueId x = tile_arg(cg, c, "x");
  std::vector<int64_t> loops;
  const util::Json& li = c.attrs["loop_indices"];
  std::vector<util::Json> items = li.is_array() ? li.array() : std::vector<util::Json>{li};
  for (const util::Json& j : items) {
    if (!j.is_object()) continue; // plain numbers name no loop
    IndexExpr e = decode_expr(j);
    for (const auto& term : e.expr.terms())
      if (term.first.kind == VarKind::LoopIv) loops.push_back(term.first.id);
  }
  const auto shape = shape_of(cg, x);
  Instruction in = make_inst("loop_reduce", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", x);
  in.attrs.push_back({"op", op});
  in.attrs.push_back({"loops", loops});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, x)));
}

} // namespace

ValueId math::emit_reduce(NeuronCodegen& cg, const std::string& op, ValueId x,
                          const std::vector<int64_t>& axes, bool keepdims, bool negate,
                          std::optional<DType> dtype, const std::string& name,
                          const MaskSpec& mask) {
  const auto& s = shape_of(cg, x);
  Instruction in = make_inst("tensor_reduce", Engine::Vector);
  in.mask = align_mask(mask, s.size());
  add_operand(cg, in, "data", x);
  in.attrs.push_back({"op", op});
  in.attrs.push_back({"axis", axes});
  if (negate) in.attrs.push_back({"negate", int64_t{1}});
  if (keepdims) in.attrs.push_back({"keepdims", int64_t{1}});
  return emit_result(cg, std::move(in), name, reduced_shape(s, axes, keepdims),
                     dtype.value_or(dtype_of(cg, x)));
}

void register_reduce_ops(OpRegistry& r) {
  for (const char* api : {"sum", "max", "min", "prod", "all"}) r.add(api, handle_nl_reduce);
  r.add("tensor_reduce", handle_tensor_reduce);
  r.add("tensor_partition_reduce", handle_tensor_partition_reduce);
  r.add("tensor_tensor_scan", handle_tensor_tensor_scan);
  r.add("bn_stats", handle_bn);
  r.add("bn_aggr", handle_bn);
  r.add("loop_reduce", handle_loop_reduce);
  math::register_composite_ops(r);
}

} // namespace nki::lang
