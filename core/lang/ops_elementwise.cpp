// Element-wise nl.* math: binary operators (nl.add ... nl.right_shift and the tile operators),
// unary functions, nl.rand / nl.random_seed. Lowering as NKI documents it: tile ⊙ tile →
// tensor_tensor, tile ⊙ (P,1) column or scalar → tensor_scalar (Vector engine; power on GpSimd),
// transcendental unary functions → activation on the Scalar engine.
#include <algorithm>

#include "ir/op_names.h"
#include "lang/call.h"
#include "lang/common.h"
#include "lang/math_common.h"
#include "lang/ops.h"
#include "lang/promotion.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_math.h"

namespace nki::lang {

using namespace nki::ir;
using math::as_tile;

namespace {

bool is_int(DType t) {
  return !dtype_is_float(t);
}

void check_bitvec_operand(const NeuronCodegen& cg, const std::string& op, const std::string& param,
                          const ValueOrScalar& o) {
  if (!math::is_bitvec(op)) return;
  if (o.is_scalar()) {
    if (o.scalar_is_float) sema::err_bitvec_operand_must_be_integer(op, param, "float32");
    return;
  }
  DType t = dtype_of(cg, o.value);
  if (!is_int(t)) sema::err_bitvec_operand_must_be_integer(op, param, dtype_name(t));
}

// tensor_scalar with `data` ⊙ a column or an immediate.
Instruction tensor_scalar_inst(NeuronCodegen& cg, Engine engine, const Predicate& mask,
                               ValueId data, const std::string& op, const ValueOrScalar& operand,
                               bool reverse) {
  Instruction in = make_inst("tensor_scalar", engine);
  in.mask = mask;
  add_operand(cg, in, "data", data);
  if (operand.is_scalar())
    add_scalar(in, "operand0", operand.scalar);
  else
    add_operand(cg, in, "operand0", operand.value);
  in.attrs.push_back({"op0", op});
  if (reverse) in.attrs.push_back({"reverse0", int64_t{1}});
  return in;
}

ValueId handle_binary(NeuronCodegen& cg, const OpCall& c) {
  return math::emit_binary(cg, c.api, c.api, c.operand("x"), c.operand("y"), c.dtype, c.name,
                           c.mask);
}

ValueId handle_activation_fn(NeuronCodegen& cg, const OpCall& c) {
  return math::emit_activation(cg, c.api, c.tile("x"), c.dtype, c.name, c.mask);
}

// negative / logical_not / invert: one Vector tensor_scalar.
ValueId handle_vector_unary(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = math::tile_arg(cg, c, "x");
  check_bitvec_operand(cg, c.api, "x", {x});
  const auto shape = shape_of(cg, x);
  Instruction in = make_inst("tensor_scalar", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  add_operand(cg, in, "data", x);
  if (c.api == "negative") {
    add_scalar(in, "operand0", -1.0);
    in.attrs.push_back({"op0", std::string("multiply")});
  } else {
    in.attrs.push_back({"op0", c.api}); // a one-input ALU op: no operand0
  }
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(dtype_of(cg, x)));
}

// floor / ceil / trunc from the ALU's mod and fmod (NumPy mod takes the divisor's sign):
//   floor(x) = x - mod(x, 1),  ceil(x) = x + mod(-x, 1),  trunc(x) = x - fmod(x, 1).
ValueId handle_rounding(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = math::tile_arg(cg, c, "x");
  const auto shape = shape_of(cg, x);
  Predicate mask = align_mask(c.mask, shape.size());
  Instruction frac = make_inst("tensor_scalar", Engine::Vector);
  frac.mask = mask;
  add_operand(cg, frac, "data", x);
  if (c.api == "ceil") {
    add_scalar(frac, "operand0", -1.0);
    add_scalar(frac, "operand1", 1.0);
    frac.attrs.push_back({"op0", std::string("multiply")});
    frac.attrs.push_back({"op1", std::string("mod")});
  } else {
    add_scalar(frac, "operand0", 1.0);
    frac.attrs.push_back({"op0", std::string(c.api == "trunc" ? "fmod" : "mod")});
  }
  ValueId r =
      emit_result(cg, std::move(frac), math::derived_name(c.name, "frac"), shape, DType::Float32);
  Instruction out = make_inst("tensor_tensor", Engine::Vector);
  out.mask = mask;
  add_operand(cg, out, "x", x);
  add_operand(cg, out, "y", r);
  out.attrs.push_back({"op", std::string(c.api == "ceil" ? "add" : "subtract")});
  return emit_result(cg, std::move(out), c.name, shape, c.dtype.value_or(dtype_of(cg, x)));
}

ValueId handle_rand(NeuronCodegen& cg, const OpCall& c) {
  std::vector<int64_t> shape = c.attr_ints("shape");
  Instruction in = make_inst("rand", Engine::Vector);
  in.mask = align_mask(c.mask, shape.size());
  return emit_result(cg, std::move(in), c.name, shape, c.dtype.value_or(DType::Float32));
}

ValueId handle_random_seed(NeuronCodegen& cg, const OpCall& c) {
  const ValueOrScalar& seed = c.operand("seed");
  Instruction in = make_inst("random_seed", Engine::Vector);
  if (seed.is_scalar()) {
    add_scalar(in, "seed", seed.scalar);
  } else {
    ValueId s = as_tile(cg, seed.value, "seed", c.api);
    in.mask = align_mask(c.mask, shape_of(cg, s).size());
    add_operand(cg, in, "seed", s);
  }
  emit_effect(cg, std::move(in));
  return -1;
}

} // namespace

namespace math {

ValueId emit_binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
                    const ValueOrScalar& x, const ValueOrScalar& y, std::optional<DType> dtype,
                    const std::string& name, const MaskSpec& mask) {
  if (x.is_scalar() && y.is_scalar()) sema::err_needs_tile_operand(api);
  // power runs on GpSimd, which cannot reach PSUM.
  bool gpsimd = op == "power";
  Mem mem = gpsimd ? Mem::Sbuf : Mem::OnChip;
  ValueOrScalar xs = x, ys = y;
  if (!x.is_scalar()) xs.value = as_tile(cg, x.value, "x", api, mem);
  if (!y.is_scalar()) ys.value = as_tile(cg, y.value, "y", api, mem);
  check_bitvec_operand(cg, op, "x", xs);
  check_bitvec_operand(cg, op, "y", ys);

  if (xs.is_scalar() || ys.is_scalar()) {
    const ValueOrScalar& tile = xs.is_scalar() ? ys : xs;
    const ValueOrScalar& sc = xs.is_scalar() ? xs : ys;
    const auto shape = shape_of(cg, tile.value);
    DType result = dtype.value_or(promote(
        dtype_of(cg, tile.value), sc.scalar_type.value_or(scalar_dtype(sc.scalar_is_float))));
    Instruction in =
        tensor_scalar_inst(cg, gpsimd ? Engine::GpSimd : Engine::Vector,
                           align_mask(mask, shape.size()), tile.value, op, sc, xs.is_scalar());
    return emit_result(cg, std::move(in), name, shape, result);
  }

  // nl.* arithmetic broadcasts a one-partition operand along the partitions (NKI's nl.add doc
  // tests do; it costs a partition broadcast on hardware). nisa.tensor_tensor does not.
  const int64_t px = shape_of(cg, xs.value)[0], py = shape_of(cg, ys.value)[0];
  const bool partition_broadcast = api != "tensor_tensor" && px != py && (px == 1 || py == 1);
  if (!partition_broadcast) same_partitions(cg, api, {{"x", xs.value}, {"y", ys.value}});
  auto shape = broadcast_shapes(cg, api, {{"x", xs.value}, {"y", ys.value}});
  if (partition_broadcast) shape[0] = std::max(px, py);
  DType tx = dtype_of(cg, xs.value), ty = dtype_of(cg, ys.value);
  DType result = dtype.value_or(promote(tx, ty));
  const auto& sx = shape_of(cg, xs.value);
  const auto& sy = shape_of(cg, ys.value);
  Predicate m = align_mask(mask, shape.size());
  // A (P, 1) column against a full tile is a tensor_scalar with a vector operand.
  bool y_col = free_size(sy) == 1 && sx == shape && sx != sy && sy[0] == shape[0];
  bool x_col = free_size(sx) == 1 && sy == shape && sx != sy && sx[0] == shape[0];
  if (y_col || x_col) {
    Instruction in = tensor_scalar_inst(cg, gpsimd ? Engine::GpSimd : Engine::Vector, m,
                                        y_col ? xs.value : ys.value, op, y_col ? ys : xs, x_col);
    return emit_result(cg, std::move(in), name, shape, result);
  }
  // Integer add/subtract/multiply are exact on GpSimd (Vector computes in fp32).
  if (!gpsimd && (op == "add" || op == "subtract" || op == "multiply") && is_int(tx) &&
      is_int(ty) && !in_psum(cg, xs.value) && !in_psum(cg, ys.value))
    gpsimd = true;
  Instruction in = make_inst("tensor_tensor", gpsimd ? Engine::GpSimd : Engine::Vector);
  in.mask = m;
  add_operand(cg, in, "x", broadcast_to(cg, xs.value, shape));
  add_operand(cg, in, "y", broadcast_to(cg, ys.value, shape));
  in.attrs.push_back({"op", op});
  return emit_result(cg, std::move(in), name, shape, result);
}

ValueId emit_activation(NeuronCodegen& cg, const std::string& fn, ValueId x,
                        std::optional<DType> dtype, const std::string& name, const MaskSpec& mask) {
  x = as_tile(cg, x, "x", fn);
  const auto shape = shape_of(cg, x);
  Instruction in = make_inst("activation", Engine::Scalar);
  in.mask = align_mask(mask, shape.size());
  add_operand(cg, in, "data", x);
  in.attrs.push_back({"op", fn});
  return emit_result(cg, std::move(in), name, shape, dtype.value_or(dtype_of(cg, x)));
}

ValueId emit_tensor_scalar(NeuronCodegen& cg, ValueId x, const std::string& op0, double operand0,
                           std::optional<DType> dtype, const std::string& name,
                           const MaskSpec& mask) {
  const auto shape = shape_of(cg, x);
  ValueOrScalar s;
  s.scalar = operand0;
  Instruction in =
      tensor_scalar_inst(cg, Engine::Vector, align_mask(mask, shape.size()), x, op0, s, false);
  return emit_result(cg, std::move(in), name, shape, dtype.value_or(dtype_of(cg, x)));
}

} // namespace math

ValueId binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
               const ValueOrScalar& x, const ValueOrScalar& y, std::optional<DType> dtype,
               const std::string& name) {
  return math::emit_binary(cg, api, op, x, y, dtype, name, {});
}

void register_elementwise_ops(OpRegistry& r) {
  // nl.add ... nl.right_shift and nl.exp ... nl.square: the binary operators and the activation
  // functions of ir/op_names.h (copy and reciprocal are nl functions of their own).
  for (const std::string& api : ir::alu_names())
    if (!ir::alu_is_unary(*ir::find_alu(api))) r.add(api, handle_binary);
  for (const std::string& api : ir::activation_names())
    if (api != "copy" && api != "reciprocal") r.add(api, handle_activation_fn);
  for (const char* api : {"negative", "logical_not", "invert"}) r.add(api, handle_vector_unary);
  for (const char* api : {"floor", "ceil", "trunc"}) r.add(api, handle_rounding);
  r.add("rand", handle_rand);
  r.add("random_seed", handle_random_seed);
}

} // namespace nki::lang
