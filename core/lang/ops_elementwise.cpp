// Element-wise arithmetic (nl.add & co. and the tile operators).
#include <algorithm>

#include "lang/call.h"
#include "lang/common.h"
#include "lang/ops.h"
#include "lang/promotion.h"
#include "sema/sema.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

ValueId handle_binary(NeuronCodegen& cg, const OpCall& c) {
  return binary(cg, c.api, c.api, c.operand("x"), c.operand("y"), c.dtype, c.name);
}

}  // namespace

ValueId binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
               const ValueOrScalar& x, const ValueOrScalar& y, std::optional<DType> dtype,
               const std::string& name) {
  if (x.is_scalar() && y.is_scalar())
    throw sema::NkiError("TypeError", "'" + api + "' needs at least one tile operand");
  for (const auto* o : {&x, &y}) {
    if (o->is_scalar()) continue;
    require_memory(cg, o->value, o == &x ? "x" : "y", api, Mem::OnChip);
    check_is_tile(cg, o->value);
  }

  std::vector<int64_t> shape;
  DType result;
  Instruction in = make_inst("", Engine::Vector);
  if (!x.is_scalar() && !y.is_scalar()) {
    const auto& xs = shape_of(cg, x.value);
    const auto& ys = shape_of(cg, y.value);
    require_same_partitions(cg, api, {x.value, y.value});
    // Free-dimension broadcasting (a (P,1) column against (P,F)), NumPy rules.
    size_t n = std::max(xs.size(), ys.size());
    shape.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      int64_t a = i < n - xs.size() ? 1 : xs[i - (n - xs.size())];
      int64_t b = i < n - ys.size() ? 1 : ys[i - (n - ys.size())];
      if (a != b && a != 1 && b != 1)
        sema::err_broadcast_shapes(described(cg, x.value) + ", " + described(cg, y.value), api);
      shape[i] = std::max(a, b);
    }
    result = promote(dtype_of(cg, x.value), dtype_of(cg, y.value));
    in.opcode = "tensor_tensor";
    add_operand(cg, in, "x", x.value);
    add_operand(cg, in, "y", y.value);
    in.attrs.push_back({"op", op});
  } else {
    const ValueOrScalar& tile = x.is_scalar() ? y : x;
    const ValueOrScalar& sc = x.is_scalar() ? x : y;
    shape = shape_of(cg, tile.value);
    result = promote(dtype_of(cg, tile.value), scalar_dtype(sc.scalar_is_float));
    in.opcode = "tensor_scalar";
    add_operand(cg, in, "data", tile.value);
    add_scalar(in, "operand0", sc.scalar);
    in.attrs.push_back({"op0", op});
    if (x.is_scalar()) in.attrs.push_back({"reverse0", int64_t{1}});
  }
  if (dtype) result = *dtype;
  return emit_result(cg, std::move(in), name, shape, result);
}

void register_elementwise_ops(OpRegistry& r) {
  for (const char* api : {"add", "subtract", "multiply", "divide"}) r.add(api, handle_binary);
}

}  // namespace nki::lang
