// nl APIs that NKI lowers to several instructions: mean, var, softmax, rms_norm. Each is built
// from the same instructions a kernel author would write by hand (tensor_reduce, tensor_scalar,
// tensor_tensor, activation), so the simulator needs no opcode of its own for them.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/decode.h"
#include "lang/math_common.h"
#include "sema/sema.h"

namespace nki::lang {

using namespace nki::ir;
using namespace nki::lang::math;

namespace {

// The mask terms that still index a tile of rank `rank` (after a reduction dropped axes).
MaskSpec within_rank(const MaskSpec& mask, size_t rank) {
  MaskSpec out;
  for (const MaskTerm& t : mask)
    if (t.lhs.shape.size() <= rank && t.rhs.shape.size() <= rank) out.push_back(t);
  return out;
}

int64_t reduced_count(const std::vector<int64_t>& shape, const std::vector<int64_t>& axes) {
  int64_t n = 1;
  for (int64_t a : axes) n *= shape[a];
  return n;
}

// "dtype and compute_dtype behave the same": both set the compute and the result type.
std::optional<DType> compute_dtype(const OpCall& c) {
  const util::Json& j = c.attrs["compute_dtype"];
  if (j.is_null()) return std::nullopt;
  return decode_dtype(j);
}

ValueOrScalar tile(ValueId v) {
  ValueOrScalar o;
  o.value = v;
  return o;
}

// mean over `axes` (fp32 sum, then × 1/n); integer inputs give float32.
ValueId mean_of(NeuronCodegen& cg, ValueId x, const std::vector<int64_t>& axes, bool keepdims,
                std::optional<DType> dtype, const std::string& name, const MaskSpec& mask) {
  const auto shape = shape_of(cg, x);
  ValueId sum = emit_reduce(cg, "add", x, axes, keepdims, false, DType::Float32,
                            derived_name(name, "sum"), mask);
  DType in = dtype_of(cg, x);
  DType out = dtype.value_or(dtype_is_float(in) ? in : DType::Float32);
  return emit_tensor_scalar(cg, sum, "multiply",
                            1.0 / static_cast<double>(reduced_count(shape, axes)), out, name,
                            within_rank(mask, shape_of(cg, sum).size()));
}

ValueId handle_mean(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = tile_arg(cg, c, "x");
  auto axes = reduce_axes(c, shape_of(cg, x).size());
  return mean_of(cg, x, axes, c.attr_bool("keepdims"), c.dtype, c.name, c.mask);
}

// var = mean((x - mean(x))²), the population variance (NumPy's default ddof=0).
ValueId handle_var(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = tile_arg(cg, c, "x");
  const auto shape = shape_of(cg, x);
  auto axes = reduce_axes(c, shape.size());
  ValueId mu = mean_of(cg, x, axes, true, DType::Float32, derived_name(c.name, "mean"), c.mask);
  ValueId diff = emit_binary(cg, c.api, "subtract", tile(x), tile(mu), DType::Float32,
                             derived_name(c.name, "diff"), c.mask);
  ValueId sq =
      emit_activation(cg, "square", diff, DType::Float32, derived_name(c.name, "sq"), c.mask);
  DType in = dtype_of(cg, x);
  return mean_of(cg, sq, axes, false, c.dtype.value_or(dtype_is_float(in) ? in : DType::Float32),
                 c.name, c.mask);
}

// softmax = exp(x - max(x)) / sum(exp(x - max(x))) along `axis`.
ValueId handle_softmax(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = tile_arg(cg, c, "x");
  auto axes = reduce_axes(c, shape_of(cg, x).size());
  std::optional<DType> cd = compute_dtype(c);
  DType t = c.dtype.value_or(cd.value_or(dtype_of(cg, x)));
  ValueId mx =
      emit_reduce(cg, "maximum", x, axes, true, false, t, derived_name(c.name, "max"), c.mask);
  ValueId shifted = emit_binary(cg, c.api, "subtract", tile(x), tile(mx), t,
                                derived_name(c.name, "shifted"), c.mask);
  ValueId e = emit_activation(cg, "exp", shifted, t, derived_name(c.name, "exp"), c.mask);
  ValueId sum =
      emit_reduce(cg, "add", e, axes, true, false, t, derived_name(c.name, "sum"), c.mask);
  return emit_binary(cg, c.api, "divide", tile(e), tile(sum), t, c.name, c.mask);
}

// rms_norm = x * rsqrt(sum(x²)/n + epsilon) * w.
ValueId handle_rms_norm(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = tile_arg(cg, c, "x");
  ValueId w = tile_arg(cg, c, "w");
  const auto shape = shape_of(cg, x);
  auto axes = reduce_axes(c, shape.size());
  double n = c.attr_number("n", static_cast<double>(reduced_count(shape, axes)));
  double eps = c.attr_number("epsilon", 1e-6);
  std::optional<DType> cd = compute_dtype(c);
  DType t = c.dtype.value_or(cd.value_or(dtype_of(cg, x)));
  ValueId sq = emit_activation(cg, "square", x, t, derived_name(c.name, "sq"), c.mask);
  ValueId ss =
      emit_reduce(cg, "add", sq, axes, true, false, t, derived_name(c.name, "sumsq"), c.mask);
  Instruction ms = make_inst("tensor_scalar", Engine::Vector);
  ms.mask = align_mask(within_rank(c.mask, shape.size()), shape_of(cg, ss).size());
  add_operand(cg, ms, "data", ss);
  add_scalar(ms, "operand0", 1.0 / n);
  add_scalar(ms, "operand1", eps);
  ms.attrs.push_back({"op0", std::string("multiply")});
  ms.attrs.push_back({"op1", std::string("add")});
  ValueId meansq =
      emit_result(cg, std::move(ms), derived_name(c.name, "meansq"), shape_of(cg, ss), t);
  ValueId inv = emit_activation(cg, "rsqrt", meansq, t, derived_name(c.name, "inv_rms"), c.mask);
  ValueId normed = emit_binary(cg, c.api, "multiply", tile(x), tile(inv), t,
                               derived_name(c.name, "normed"), c.mask);
  return emit_binary(cg, c.api, "multiply", tile(normed), tile(w), t, c.name, c.mask);
}

} // namespace

void math::register_composite_ops(OpRegistry& r) {
  r.add("mean", handle_mean);
  r.add("var", handle_var);
  r.add("softmax", handle_softmax);
  r.add("rms_norm", handle_rms_norm);
}

} // namespace nki::lang
