// Tensor views and shape ops: reshape and view(dtype) (alias tensors), astype, expand_dims,
// assert_shape / nt.tensor annotations, and broadcast_to (a zero-stride access pattern).
// docs/ops/movement.md.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

std::string shape_list(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A tensor sharing the storage of `v`'s tensor (row-major), defined by a no-op instruction so
// the IR shows where it came from. Parameters keep their role: writing through an alias of an
// immutable input is refused like writing the input.
ValueId alias(NeuronCodegen& cg, ValueId v, std::vector<int64_t> shape, DType dtype,
              const std::string& opcode, const std::string& name) {
  const Tensor base = tensor_of(cg, v); // a copy: creating a tensor may move the table
  if (!cg.value(v).is_identity(base))
    sema::err_not_supported_yet(opcode + " of a part of a tensor (" + opcode +
                                " the whole tensor, then index the result)");
  if (base.partition_dim > 0)
    sema::err_not_supported_yet(opcode + " of a tensor with block dimensions");
  Tensor t;
  t.name = name.empty() ? base.name : name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = base.buffer;
  t.role = base.role;
  t.mutable_param = base.mutable_param;
  t.alias_of = base.alias_of != kNone ? base.alias_of : base.id;
  TensorId id = cg.builder.create_tensor(std::move(t));
  ValueId out = cg.add_value(identity_pattern(cg.kernel().tensor(id)));
  Instruction in = make_inst(opcode, Engine::None);
  add_operand(cg, in, "src", v);
  in.result = id;
  cg.builder.create_inst(std::move(in));
  return out;
}

ValueId handle_reshape(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  const std::vector<int64_t> old = shape_of(cg, x);
  std::vector<int64_t> shape = c.attr_ints("shape");
  int64_t known = 1;
  int unknown = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (shape[i] <= 0) {
      sema::err_reshape(described(cg, x), shape_list(shape), "dimensions must be positive");
    } else {
      known *= shape[i];
    }
  }
  if (unknown >= 0 && known > 0 && elements(old) % known == 0)
    shape[unknown] = elements(old) / known;
  if (elements(shape) != elements(old))
    sema::err_reshape(described(cg, x), shape_list(shape),
                      "it has " + std::to_string(elements(old)) + " elements");
  if (shape == old) return x;
  const Tensor& t = tensor_of(cg, x);
  if (t.memory() != Memory::HBM) {
    if (shape.size() < 2 || shape[0] != old[0])
      sema::err_reshape(described(cg, x), shape_list(shape),
                        "an SBUF/PSUM tile keeps its partition dimension (dimension 0)");
  }
  return alias(cg, x, shape, t.dtype, "reshape", c.name);
}

ValueId handle_view(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  DType from = dtype_of(cg, x);
  DType to = c.dtype.value_or(from);
  if (to == from) return x;
  std::vector<int64_t> shape = shape_of(cg, x);
  int64_t bytes = shape.back() * dtype_size(from);
  if (bytes % dtype_size(to)) sema::err_view_dtype(described(cg, x), dtype_name(to));
  shape.back() = bytes / dtype_size(to);
  return alias(cg, x, shape, to, "view", c.name);
}

ValueId handle_astype(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  require_memory(cg, x, "x", "astype", Mem::OnChip);
  check_is_tile(cg, x);
  Instruction in = make_inst("tensor_copy", Engine::Vector);
  add_operand(cg, in, "src", x);
  return emit_result(cg, std::move(in), c.name, shape_of(cg, x), c.dtype.value_or(dtype_of(cg, x)));
}

ValueId handle_expand_dims(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("data");
  AccessPattern ap = cg.value(x);
  std::vector<int64_t> axes = c.attr_ints("axis");
  int64_t rank = static_cast<int64_t>(ap.tile_shape.size());
  int64_t n = static_cast<int64_t>(axes.size());
  for (int64_t a : axes) {
    int64_t norm = a < 0 ? a + rank + n : a;
    if (norm < rank || norm >= rank + n) sema::err_expand_dims_axis(described(cg, x), a);
  }
  for (int64_t i = 0; i < n; ++i) ap.tile_shape.push_back(1);
  if (ap.indirect) {
    auto idx = std::make_shared<AccessPattern>(*ap.indirect);
    idx->tile_shape = ap.tile_shape;
    ap.indirect = std::move(idx);
  }
  return cg.add_value(std::move(ap));
}

ValueId handle_assert_shape(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  std::vector<int64_t> expected = c.attr_ints("shape");
  if (shape_of(cg, x) != expected) {
    if (c.attr_bool("annotation"))
      sema::err_annotation_shape_mismatch(described(cg, x), shape_list(expected));
    sema::err_tile_shape_mismatch(shape_list(expected), shape_list(shape_of(cg, x)));
  }
  return x;
}

// Partition (and free) broadcast of a tile: the source is read through an access pattern
// whose index ignores the broadcast axes.
ValueId handle_broadcast_to(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  require_memory(cg, src, "src", "broadcast_to", Mem::OnChip);
  check_is_tile(cg, src);
  const std::vector<int64_t> s = shape_of(cg, src);
  std::vector<int64_t> target = c.attr_ints("shape");
  if (target == s) return src;
  auto fail = [&] {
    sema::err_broadcast_shapes(described(cg, src) + ", " + sema::describe("shape", target),
                               "broadcast_to");
  };
  if (target.size() < s.size()) fail();
  size_t off = target.size() - s.size();
  std::vector<AffineExpr> subst;
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t t = target[off + i];
    if (s[i] != t && s[i] != 1) fail();
    subst.push_back(s[i] == 1 && t != 1
                        ? AffineExpr(0)
                        : AffineExpr::var({VarKind::TileAxis, static_cast<int>(off + i)}));
  }
  const AccessPattern& base = cg.value(src);
  AccessPattern ap;
  ap.tensor = base.tensor;
  ap.tile_shape = target;
  for (const auto& e : base.index) ap.index.push_back(e.substitute_tile_axes(subst));
  carry_indirect(base, ap, subst);
  ValueId view = cg.add_value(std::move(ap));
  Instruction in = make_inst("broadcast_to", Engine::None);
  in.mask = align_mask(c.mask, target.size());
  add_operand(cg, in, "src", view);
  return emit_result(cg, std::move(in), c.name, target, dtype_of(cg, src));
}

} // namespace

void register_view_ops(OpRegistry& r) {
  r.add("reshape", handle_reshape);
  r.add("view", handle_view);
  r.add("astype", handle_astype);
  r.add("expand_dims", handle_expand_dims);
  r.add("assert_shape", handle_assert_shape);
  r.add("broadcast_to", handle_broadcast_to);
}

} // namespace nki::lang
