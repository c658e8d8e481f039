// Selections: nl.where (Vector select), nisa.affine_select (GpSimd, one affine predicate),
// nisa.range_select (Vector, NeuronCore-v3+), nisa.select_reduce and
// nisa.tensor_copy_predicated (Vector, in place).
#include "lang/call.h"
#include "lang/common.h"
#include "lang/math_common.h"
#include "lang/promotion.h"
#include "printer/printer.h"
#include "sema/sema.h"
#include "sema/sema_math.h"

namespace nki::lang {

using namespace nki::ir;
using namespace nki::lang::math;

namespace {

bool is_int(DType t) {
  return !dtype_is_float(t);
}

ValueId handle_where(NeuronCodegen& cg, const OpCall& c) {
  ValueId cond = tile_arg(cg, c, "condition");
  std::vector<std::pair<std::string, ValueId>> tiles = {{"condition", cond}};
  ValueOrScalar x = c.operand("x"), y = c.operand("y");
  if (!x.is_scalar()) tiles.push_back({"x", x.value = as_tile(cg, x.value, "x", c.api)});
  if (!y.is_scalar()) tiles.push_back({"y", y.value = as_tile(cg, y.value, "y", c.api)});
  same_partitions(cg, c.api, tiles);
  const auto shape = broadcast_shapes(cg, c.api, tiles);
  auto dtype_of_arg = [&](const ValueOrScalar& o) {
    return o.is_scalar() ? o.scalar_type.value_or(scalar_dtype(o.scalar_is_float))
                         : dtype_of(cg, o.value);
  };
  DType result = c.dtype.value_or(x.is_scalar() && y.is_scalar() ? dtype_of_arg(x)
                                  : x.is_scalar() ? promote(dtype_of_arg(y), dtype_of_arg(x))
                                                  : promote(dtype_of_arg(x), dtype_of_arg(y)));
  Instruction in = make_inst("select", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "predicate", broadcast_to(cg, cond, shape));
  for (const auto& [role, o] :
       {std::pair<const char*, const ValueOrScalar&>{"on_true", x}, {"on_false", y}}) {
    if (o.is_scalar())
      add_scalar(in, role, o.scalar);
    else
      add_operand(cg, in, role, broadcast_to(cg, o.value, shape));
  }
  return emit_result(cg, std::move(in), c.name, shape, result);
}

double scalar_arg(const OpCall& c, const std::string& role) {
  const ValueOrScalar& o = c.operand(role);
  if (!o.is_scalar()) sema::err_expected_scalar(role, c.api);
  return o.scalar;
}

ValueId handle_affine_select(NeuronCodegen& cg, const OpCall& c) {
  MaskSpec pred = decode_mask(c.attrs["pred"]);
  if (pred.size() != 1) sema::err_affine_select_single_predicate(pred.size());
  // GpSimd cannot read PSUM, yet NKI's own SD-attention and flash-attention kernels select
  // straight from a PSUM matmul result: the front end accepts it (the compiler moves it).
  ValueId on_true = tile_arg(cg, c, "on_true_tile", Mem::OnChip);
  const auto shape = shape_of(cg, on_true);
  Comparison p = align_mask(pred, shape.size()).terms.at(0);
  Instruction in = make_inst("affine_select", Engine::GpSimd);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "on_true_tile", on_true);
  add_scalar(in, "on_false_value", scalar_arg(c, "on_false_value"));
  const Kernel& k = cg.kernel();
  in.attrs.push_back({"pred", printer::format_expr(k, p.lhs, shape.size()) + " " + cmp_name(p.op) +
                                  " " + printer::format_expr(k, p.rhs, shape.size())});
  in.attrs.push_back({"cmp", std::string(cmp_name(p.op))});
  in.attrs.push_back({"affine", affine_list(p.lhs - p.rhs)});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, on_true)));
}

void check_dtype_in(const OpCall& c, const std::string& param, DType t,
                    std::initializer_list<DType> allowed) {
  std::string list;
  for (DType a : allowed) {
    if (a == t) return;
    list += (list.empty() ? "" : ", ") + std::string(dtype_name(a));
  }
  sema::err_instruction_supported_dtypes(c.api, param, target_name(nc_version(c)), dtype_name(t),
                                         list);
}

// reduce_res of a select (a float (P,1) vector, written in place) and its reduce_cmd / reduce_op.
void add_select_reduce(NeuronCodegen& cg, const OpCall& c, Instruction& in, ValueId data,
                       std::initializer_list<const char*> cmds) {
  std::string cmd = reduce_cmd_attr(c);
  bool ok = false;
  for (const char* k : cmds) ok = ok || cmd == k;
  if (!ok) sema::err_instruction_unsupported_op(cmd, c.api);
  std::string rop = op_attr(c, "reduce_op");
  if (rop.empty()) rop = "maximum";
  if (rop != "maximum") sema::err_instruction_unsupported_op(rop, c.api);
  bool reduces = cmd != "idle" || c.has("reduce_res");
  if (c.has("reduce_res")) {
    ValueId r = tile_arg(cg, c, "reduce_res");
    check_vector(cg, c.api, "data", data, "reduce_res", r);
    if (is_int(dtype_of(cg, r)))
      sema::err_instruction_supported_dtypes(
          c.api, "reduce_res", target_name(nc_version(c)), dtype_name(dtype_of(cg, r)),
          "float8_e4m3, float8_e5m2, bfloat16, float16, float32");
    check_psum_write(cg, r);
    add_operand(cg, in, "reduce_res", r);
  }
  if (reduces) in.attrs.push_back({"reduce_op", rop});
  if (cmd != "idle") in.attrs.push_back({"reduce_cmd", cmd});
}

ValueId handle_range_select(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(c) < 3)
    sema::err_min_arch_support_for_inst(c.api, "trn2", target_name(nc_version(c)));
  ValueId on_true = tile_arg(cg, c, "on_true_tile");
  const auto shape = shape_of(cg, on_true);
  if (is_int(dtype_of(cg, on_true)))
    check_dtype_in(
        c, "on_true_tile", dtype_of(cg, on_true),
        {DType::Float8E4M3, DType::Float8E5M2, DType::BFloat16, DType::Float16, DType::Float32});
  std::string cmp0 = op_attr(c, "comp_op0"), cmp1 = op_attr(c, "comp_op1");
  for (const std::string& op : {cmp0, cmp1})
    if (op != "equal" && op != "less" && op != "less_equal" && op != "greater" &&
        op != "greater_equal")
      sema::err_instruction_unsupported_op(op.empty() ? "None" : op, c.api);
  Instruction in = make_inst("range_select", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "on_true_tile", on_true);
  for (const char* b : {"bound0", "bound1"}) {
    ValueId bv = tile_arg(cg, c, b);
    check_vector(cg, c.api, "on_true_tile", on_true, b, bv);
    check_dtype_in(c, b, dtype_of(cg, bv), {DType::Float32});
    add_operand(cg, in, b, bv);
  }
  add_scalar(in, "on_false_value", scalar_arg(c, "on_false_value"));
  in.attrs.push_back({"comp_op0", cmp0});
  in.attrs.push_back({"comp_op1", cmp1});
  in.attrs.push_back({"range_start", c.attr_int("range_start", 0)});
  add_select_reduce(cg, c, in, on_true, {"idle", "reset", "reduce", "reset_reduce"});
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, on_true)));
}

ValueId handle_select_reduce(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile_arg(cg, c, "dst");
  ValueId pred = tile_arg(cg, c, "predicate");
  ValueId on_true = tile_arg(cg, c, "on_true");
  DType t = dtype_of(cg, on_true);
  if (t == DType::TFloat32 || t == DType::Int32 || t == DType::UInt32)
    sema::err_instruction_supported_dtypes(c.api, "on_true", target_name(nc_version(c)),
                                           dtype_name(t), "any dtype but tfloat32, int32, uint32");
  check_dtype_in(c, "predicate", dtype_of(cg, pred),
                 {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                  DType::UInt32});
  not_both_psum(cg, c.api, on_true, "predicate", pred);
  same_partitions(cg, c.api, {{"on_true", on_true}, {"dst", dst}, {"predicate", pred}});
  if (free_size(shape_of(cg, dst)) != free_size(shape_of(cg, on_true)) ||
      free_size(shape_of(cg, pred)) != free_size(shape_of(cg, on_true)))
    sema::err_param_shape_mismatch(describe_param(cg, "on_true", on_true) + ", " +
                                       describe_param(cg, "dst", dst) + ", " +
                                       describe_param(cg, "predicate", pred),
                                   c.api);
  DType out = c.dtype.value_or(t);
  if (dtype_of(cg, dst) != out)
    sema::err_dst_dtype_must_match(c.api, dtype_name(dtype_of(cg, dst)), dtype_name(out));
  check_psum_write(cg, dst);
  Instruction in = make_inst("select_reduce", Engine::Vector);
  in.mask = align_mask(c.mask, shape_of(cg, dst).size());
  add_operand(cg, in, "dst", dst);
  add_operand(cg, in, "predicate", pred);
  add_operand(cg, in, "on_true", on_true);
  const ValueOrScalar& f = c.operand("on_false");
  if (f.is_scalar()) {
    if (!f.scalar_is_float) sema::err_on_false_scalar_must_be_float32("int32");
    add_scalar(in, "on_false", f.scalar);
  } else {
    ValueId fv = as_tile(cg, f.value, "on_false", c.api);
    if (free_size(shape_of(cg, fv)) != 1)
      sema::err_on_false_free_dimension(free_size(shape_of(cg, fv)));
    same_partitions(cg, c.api, {{"on_true", on_true}, {"on_false", fv}});
    add_operand(cg, in, "on_false", fv);
  }
  if (c.attr_bool("reverse_pred")) in.attrs.push_back({"reverse_pred", int64_t{1}});
  add_select_reduce(cg, c, in, on_true, {"idle", "reduce", "reset_reduce"});
  emit_effect(cg, std::move(in));
  return -1;
}

ValueId handle_tensor_copy_predicated(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile_arg(cg, c, "dst");
  ValueId pred = tile_arg(cg, c, "predicate");
  DType pt = dtype_of(cg, pred), dt = dtype_of(cg, dst);
  if (pt != DType::Bool && pt != DType::UInt8 && pt != DType::UInt16 && pt != DType::UInt32)
    sema::err_predicate_must_be_integer();
  const ValueOrScalar& src = c.operand("src");
  ValueId sv = -1;
  if (src.is_scalar()) {
    if (dtype_is_float(dt) && !src.scalar_is_float) sema::err_scalar_src_must_be_float();
  } else {
    sv = as_tile(cg, src.value, "src", c.api);
    if (dtype_of(cg, sv) != dt) sema::err_src_dst_same_dtype_predicated();
    if (c.attr_bool("reverse_pred")) sema::err_reverse_pred_needs_scalar_src();
    not_both_psum(cg, c.api, sv, "predicate", pred);
  }
  if (c.dtype && *c.dtype != dt)
    sema::err_dst_dtype_must_match(c.api, dtype_name(dt), dtype_name(*c.dtype));
  std::vector<std::pair<std::string, ValueId>> params = {{"dst", dst}, {"predicate", pred}};
  if (sv >= 0) params.push_back({"src", sv});
  same_partitions(cg, c.api, params);
  for (const auto& [name, v] : params)
    if (free_size(shape_of(cg, v)) != free_size(shape_of(cg, dst))) {
      std::string list;
      for (const auto& p : params)
        list += (list.empty() ? "" : ", ") + describe_param(cg, p.first, p.second);
      sema::err_param_shape_mismatch(list, c.api);
    }
  check_psum_write(cg, dst);
  Instruction in = make_inst("tensor_copy_predicated", Engine::Vector);
  in.mask = align_mask(c.mask, shape_of(cg, dst).size());
  add_operand(cg, in, "dst", dst);
  if (sv >= 0)
    add_operand(cg, in, "src", sv);
  else
    add_scalar(in, "src", src.scalar);
  add_operand(cg, in, "predicate", pred);
  if (c.attr_bool("reverse_pred")) in.attrs.push_back({"reverse_pred", int64_t{1}});
  emit_effect(cg, std::move(in));
  return -1;
}

} // namespace

void math::register_select_ops(OpRegistry& r) {
  r.add("where", handle_where);
  r.add("affine_select", handle_affine_select);
  r.add("range_select", handle_range_select);
  r.add("select_reduce", handle_select_reduce);
  r.add("tensor_copy_predicated", handle_tensor_copy_predicated);
  register_search_ops(r);
}

} // namespace nki::lang
