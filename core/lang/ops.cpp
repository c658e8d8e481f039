#include "lang/ops.h"

#include <algorithm>

#include "lang/promotion.h"
#include "printer/printer.h"
#include "sema/sema.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

constexpr int64_t kPmax = 128;

AccessPattern identity_pattern(const Tensor& t) {
  AccessPattern ap;
  ap.tensor = t.id;
  ap.tile_shape = t.shape;
  for (size_t d = 0; d < t.shape.size(); ++d)
    ap.index.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(d)}));
  return ap;
}

const Tensor& tensor_of(const NeuronCodegen& cg, ValueId v) {
  return cg.kernel().tensor(cg.value(v).tensor);
}

std::string described(const NeuronCodegen& cg, ValueId v) {
  return sema::describe(tensor_of(cg, v).name, cg.value(v).tile_shape);
}

void check_tile(const std::string& name, const std::vector<int64_t>& shape) {
  if (shape.size() < 2) sema::err_insufficient_rank(name, shape.size());
  if (shape[0] > kPmax) sema::err_num_partition_exceed_arch_limit(shape[0], kPmax);
}

void require_memory(const NeuronCodegen& cg, ValueId v, const std::string& operand,
                    const std::string& api, bool hbm) {
  Memory m = tensor_of(cg, v).memory();
  bool ok = hbm ? m == Memory::HBM : m != Memory::HBM;
  if (!ok) sema::err_unexpected_address_space(operand, api, hbm ? "hbm" : "psum|sbuf",
                                              memory_name(m));
}

Operand operand_of(const NeuronCodegen& cg, const std::string& role, ValueId v) {
  Operand o;
  o.role = role;
  o.ap = cg.value(v);
  return o;
}

ValueId new_tile(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                 DType dtype, Buffer buffer) {
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = buffer;
  TensorId id = cg.builder.create_tensor(std::move(t));
  return cg.add_value(identity_pattern(cg.kernel().tensor(id)));
}

IndexItem full_slice() {
  IndexItem it;
  it.kind = IndexItem::Kind::Slice;
  return it;
}

// The index expression of a subscript item over the new view's tile axes.
struct Resolved {
  std::vector<AffineExpr> subst;  // one per indexed axis of the base value
  std::vector<int64_t> tile_shape;
};

}  // namespace

ValueInfo value_info(const NeuronCodegen& cg, ValueId v) {
  const AccessPattern& ap = cg.value(v);
  const Tensor& t = cg.kernel().tensor(ap.tensor);
  return {v, ap.tile_shape, t.dtype, t.buffer, t.name};
}

ValueId param(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape, DType dtype,
              bool mutable_param) {
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = Buffer::Input;
  t.role = TensorRole::Param;
  t.mutable_param = mutable_param;
  TensorId id = cg.builder.create_tensor(std::move(t));
  cg.builder.add_param(id);
  return cg.add_value(identity_pattern(cg.kernel().tensor(id)));
}

ValueId ndarray(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                DType dtype, Buffer buffer, std::optional<double> init, const std::string& api) {
  bool on_chip = memory_of(buffer) != Memory::HBM;
  if (on_chip) check_tile(name.empty() ? "t" : name, shape);
  if (!on_chip && init) sema::err_hbm_tensor_with_init_value();
  ValueId v = new_tile(cg, name, shape, dtype, buffer);
  Instruction in;
  in.opcode = api;
  in.engine = init ? Engine::Vector : Engine::None;
  in.result = cg.value(v).tensor;
  if (init) in.attrs.push_back({"value", *init});
  cg.builder.create_inst(std::move(in));
  return v;
}

AffineExpr program_id(NeuronCodegen& cg, int64_t axis) {
  size_t rank = cg.options().grid.size();
  if (axis < 0 || static_cast<size_t>(axis) >= std::max<size_t>(rank, 1))
    sema::err_program_id_axis(axis, rank);
  if (rank == 0) return AffineExpr(0);  // a plain call is a grid of one
  return AffineExpr::var({VarKind::ProgramId, static_cast<int>(axis)});
}

ValueId view(NeuronCodegen& cg, ValueId v, const std::vector<IndexItem>& items_in) {
  const AccessPattern base = cg.value(v);
  const Tensor& t = cg.kernel().tensor(base.tensor);
  const size_t rank = base.tile_shape.size();

  // Expand `...` into full slices.
  std::vector<IndexItem> items;
  size_t consumed = 0;
  for (const auto& it : items_in)
    if (it.kind != IndexItem::Kind::Ellipsis) ++consumed;
  for (const auto& it : items_in) {
    if (it.kind == IndexItem::Kind::Ellipsis) {
      for (size_t k = consumed; k < rank; ++k) items.push_back(full_slice());
      consumed = rank;
    } else {
      items.push_back(it);
    }
  }
  if (items.size() > rank) sema::err_too_many_indices(t.name, items.size(), rank);
  while (items.size() < rank) items.push_back(full_slice());

  bool any_advanced = false, any_slice = false;
  for (const auto& it : items) {
    if (it.kind == IndexItem::Kind::Expr && !it.expr.shape.empty()) {
      any_advanced = true;
      if (it.expr.shape.size() == 1) sema::err_1d_arange(t.name);
    }
    if (it.kind == IndexItem::Kind::Slice) any_slice = true;
  }
  // Unindexed trailing dimensions count as full slices; NKI rejects only explicit mixing.
  if (any_advanced && any_slice) {
    bool explicit_slice = false;
    for (size_t i = 0; i < items_in.size(); ++i)
      if (items_in[i].kind == IndexItem::Kind::Slice) explicit_slice = true;
    if (explicit_slice) sema::err_mixing_basic_advanced_indexing();
  }

  Resolved r;
  r.subst.resize(rank);
  if (any_advanced) {
    // Advanced indexing: index expressions broadcast together (right-aligned, NumPy rules);
    // the tile's leading axes are the broadcast shape, then any unindexed dimensions.
    size_t bdim = 0;
    for (const auto& it : items)
      if (it.kind == IndexItem::Kind::Expr) bdim = std::max(bdim, it.expr.shape.size());
    std::vector<int64_t> bshape(bdim, 1);
    for (const auto& it : items) {
      if (it.kind != IndexItem::Kind::Expr) continue;
      size_t off = bdim - it.expr.shape.size();
      for (size_t k = 0; k < it.expr.shape.size(); ++k) {
        int64_t e = it.expr.shape[k];
        int64_t& b = bshape[off + k];
        if (e == 1) continue;
        if (b != 1 && b != e) {
          std::string params;
          for (const auto& jt : items) {
            if (jt.kind != IndexItem::Kind::Expr) continue;
            if (!params.empty()) params += ", ";
            params += sema::describe("index", jt.expr.shape);
          }
          sema::err_broadcast_shapes(params, "indexing");
        }
        b = e;
      }
    }
    r.tile_shape = bshape;
    for (size_t d = 0; d < rank; ++d) {
      const IndexItem& it = items[d];
      if (it.kind == IndexItem::Kind::Int) {
        r.subst[d] = AffineExpr(it.value < 0 ? it.value + base.tile_shape[d] : it.value);
      } else if (it.kind == IndexItem::Kind::Expr) {
        size_t off = bdim - it.expr.shape.size();
        std::vector<AffineExpr> remap;
        for (size_t k = 0; k < it.expr.shape.size(); ++k)
          remap.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(off + k)}));
        r.subst[d] = it.expr.expr.substitute_tile_axes(remap);
      } else {  // implicit trailing full slice
        r.subst[d] = AffineExpr::var({VarKind::TileAxis, static_cast<int>(r.tile_shape.size())});
        r.tile_shape.push_back(base.tile_shape[d]);
      }
    }
  } else {
    for (size_t d = 0; d < rank; ++d) {
      const IndexItem& it = items[d];
      int64_t n = base.tile_shape[d];
      switch (it.kind) {
        case IndexItem::Kind::Int:
          r.subst[d] = AffineExpr(it.value < 0 ? it.value + n : it.value);
          break;
        case IndexItem::Kind::Expr:
          r.subst[d] = it.expr.expr;
          break;
        case IndexItem::Kind::Slice: {
          if (it.step <= 0)
            throw sema::NkiError("NKISyntaxError", "slice step must be a positive integer");
          AffineExpr start = it.start ? *it.start : AffineExpr(0);
          AffineExpr stop = it.stop ? *it.stop : AffineExpr(n);
          if (start.is_constant() && start.constant() < 0) start = start + n;
          if (stop.is_constant() && stop.constant() < 0) stop = stop + n;
          if (start.is_constant() && stop.is_constant())
            stop = AffineExpr(std::min(stop.constant(), n));
          AffineExpr size = stop - start;
          if (!size.is_constant()) sema::err_slice_size_not_static(t.name, d);
          int64_t extent = std::max<int64_t>(0, (size.constant() + it.step - 1) / it.step);
          int axis = static_cast<int>(r.tile_shape.size());
          r.subst[d] = start + AffineExpr::var({VarKind::TileAxis, axis}, it.step);
          r.tile_shape.push_back(extent);
          break;
        }
        case IndexItem::Kind::Ellipsis: break;
      }
    }
  }

  AccessPattern out;
  out.tensor = base.tensor;
  out.tile_shape = r.tile_shape;
  for (const auto& e : base.index) out.index.push_back(e.substitute_tile_axes(r.subst));
  return cg.add_value(std::move(out));
}

void check_bounds(const NeuronCodegen& cg, const AccessPattern& ap) {
  const Tensor& t = cg.kernel().tensor(ap.tensor);
  for (size_t d = 0; d < ap.index.size(); ++d) {
    auto [lo, hi] = cg.range_of(ap.index[d], ap.tile_shape);
    if (lo < 0 || hi >= t.shape[d]) sema::err_out_of_bound_access(t.name, d, lo, hi, t.shape[d]);
  }
}

ValueId load(NeuronCodegen& cg, ValueId src, std::optional<DType> dtype, const std::string& name) {
  require_memory(cg, src, "src", "load", /*hbm=*/true);
  const AccessPattern ap = cg.value(src);
  check_bounds(cg, ap);
  check_tile(name.empty() ? "t" : name, ap.tile_shape);
  ValueId out = new_tile(cg, name, ap.tile_shape, dtype.value_or(tensor_of(cg, src).dtype),
                         Buffer::Sbuf);
  Instruction in;
  in.opcode = "load";
  in.engine = Engine::Dma;
  in.result = cg.value(out).tensor;
  in.operands.push_back(operand_of(cg, "src", src));
  cg.builder.create_inst(std::move(in));
  return out;
}

void store(NeuronCodegen& cg, ValueId dst, ValueId value) {
  require_memory(cg, dst, "dst", "store", /*hbm=*/true);
  require_memory(cg, value, "value", "store", /*hbm=*/false);
  const Tensor& dt = tensor_of(cg, dst);
  if (dt.role == TensorRole::Param && !dt.mutable_param) sema::err_immutable_parameter(dt.name);
  check_bounds(cg, cg.value(dst));
  const auto& ds = cg.value(dst).tile_shape;
  const auto& vs = cg.value(value).tile_shape;
  auto elems = [](const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (auto x : s) n *= x;
    return n;
  };
  if (ds.empty() || vs.empty() || ds[0] != vs[0] || elems(ds) != elems(vs))
    sema::err_broadcast_shapes(described(cg, dst) + ", " + described(cg, value), "store");
  Instruction in;
  in.opcode = "store";
  in.engine = Engine::Dma;
  in.operands.push_back(operand_of(cg, "dst", dst));
  in.operands.push_back(operand_of(cg, "value", value));
  cg.builder.create_inst(std::move(in));
}

ValueId binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
               const ValueOrScalar& x, const ValueOrScalar& y, std::optional<DType> dtype,
               const std::string& name) {
  if (x.is_scalar() && y.is_scalar())
    throw sema::NkiError("TypeError", "'" + api + "' needs at least one tile operand");
  for (const auto* o : {&x, &y})
    if (!o->is_scalar()) require_memory(cg, o->value, o == &x ? "x" : "y", api, false);

  std::vector<int64_t> shape;
  DType result;
  Instruction in;
  in.engine = Engine::Vector;
  if (!x.is_scalar() && !y.is_scalar()) {
    const auto& xs = cg.value(x.value).tile_shape;
    const auto& ys = cg.value(y.value).tile_shape;
    if (xs.empty() || ys.empty() || xs[0] != ys[0])
      sema::err_num_partition_mismatch(described(cg, x.value) + ", " + described(cg, y.value),
                                       api);
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
    result = promote(tensor_of(cg, x.value).dtype, tensor_of(cg, y.value).dtype);
    in.opcode = "tensor_tensor";
    in.operands.push_back(operand_of(cg, "x", x.value));
    in.operands.push_back(operand_of(cg, "y", y.value));
    in.attrs.push_back({"op", op});
  } else {
    const ValueOrScalar& tile = x.is_scalar() ? y : x;
    const ValueOrScalar& sc = x.is_scalar() ? x : y;
    shape = cg.value(tile.value).tile_shape;
    result = promote(tensor_of(cg, tile.value).dtype, scalar_dtype(sc.scalar_is_float));
    in.opcode = "tensor_scalar";
    in.operands.push_back(operand_of(cg, "data", tile.value));
    Operand s;
    s.role = "operand0";
    s.is_scalar = true;
    s.scalar = sc.scalar;
    in.operands.push_back(s);
    in.attrs.push_back({"op0", op});
    if (x.is_scalar()) in.attrs.push_back({"reverse0", int64_t{1}});
  }
  if (dtype) result = *dtype;
  check_tile(name.empty() ? "t" : name, shape);
  ValueId out = new_tile(cg, name, shape, result, Buffer::Sbuf);
  in.result = cg.value(out).tensor;
  cg.builder.create_inst(std::move(in));
  return out;
}

void set_outputs(NeuronCodegen& cg, const std::vector<ValueId>& values) {
  std::vector<TensorId> outs;
  for (ValueId v : values) {
    const Tensor& t = tensor_of(cg, v);
    if (t.memory() != Memory::HBM || !cg.value(v).is_identity(t)) sema::err_output_not_hbm(t.name);
    outs.push_back(t.id);
  }
  cg.builder.set_outputs(std::move(outs));
}

}  // namespace nki::lang
