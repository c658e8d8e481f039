#include <algorithm>
#include <optional>

#include "lang/common.h"
#include "lang/movement.h"
#include "lang/ops.h"
#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

IndexItem full_slice() {
  IndexItem it;
  it.kind = IndexItem::Kind::Slice;
  return it;
}

// The index expression of each indexed axis of the base value, over the view's tile axes.
struct Resolved {
  std::vector<AffineExpr> subst;
  std::vector<int64_t> tile_shape;
};

} // namespace

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

  // An index tile (indirect indexing) takes part in the subscript as an index of its shape
  // whose static part is 0; its values are attached to the view afterwards.
  std::optional<IndirectIndex> indirect;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].kind != IndexItem::Kind::Tile) continue;
    if (indirect) sema::err_not_supported_yet("more than one index tile in one subscript");
    std::vector<int64_t> ishape;
    indirect = indirect_index_item(cg, static_cast<ValueId>(items[i].value), i, ishape);
    // `idx[0, b] + iy`: a static index added to a single dynamic offset.
    IndexExpr offset = items[i].expr;
    bool has_offset = !offset.shape.empty() || !(offset.expr == ir::AffineExpr(0));
    items[i] = IndexItem{};
    if (has_offset) {
      if (!ishape.empty())
        sema::err_not_supported_yet("an index tile of several elements plus an index expression");
      items[i].kind = IndexItem::Kind::Expr;
      items[i].expr = offset;
    } else if (!ishape.empty()) {
      items[i].kind = IndexItem::Kind::Expr;
      items[i].expr.shape = ishape;
    }
  }

  bool any_advanced = false, any_slice = false;
  for (const auto& it : items) {
    if (it.kind == IndexItem::Kind::Expr && !it.expr.shape.empty()) {
      any_advanced = true;
      if (it.expr.shape.size() == 1) sema::err_1d_arange_not_supported(t.name);
    }
    if (it.kind == IndexItem::Kind::Slice) any_slice = true;
  }
  // Unindexed trailing dimensions count as full slices; NKI rejects only explicit mixing.
  if (any_advanced && any_slice) {
    bool explicit_slice = false;
    for (size_t i = 0; i < items_in.size(); ++i)
      if (items_in[i].kind == IndexItem::Kind::Slice) explicit_slice = true;
    if (explicit_slice) sema::err_unsupported_mixing_basic_advanced_tensor_indexing();
  }

  Resolved r;
  r.subst.resize(rank);
  std::vector<int> indirect_axes; // view tile axis of each axis of the index tile
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
        if (indirect && indirect->item == d)
          for (size_t k = 0; k < it.expr.shape.size(); ++k)
            indirect_axes.push_back(static_cast<int>(off + k));
        std::vector<AffineExpr> remap;
        for (size_t k = 0; k < it.expr.shape.size(); ++k)
          remap.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(off + k)}));
        r.subst[d] = it.expr.expr.substitute_tile_axes(remap);
      } else { // implicit trailing full slice
        r.subst[d] = AffineExpr::var({VarKind::TileAxis, static_cast<int>(r.tile_shape.size())});
        r.tile_shape.push_back(base.tile_shape[d]);
      }
    }
  } else {
    // Integer (and scalar) indices drop their dimension, as in NumPy — unless the tile would
    // be left with fewer than two axes: a tile keeps its partition and a free axis, so
    // `a[0:128, 3]` is a [128, 1] tile and `a[0]` a [1, F] one, as NKI's kernels expect.
    size_t slices = 0;
    for (const auto& it : items)
      if (it.kind == IndexItem::Kind::Slice) ++slices;
    const bool keep_points = rank >= 2 && slices < 2;
    auto point = [&](AffineExpr at) {
      if (!keep_points) return at;
      int axis = static_cast<int>(r.tile_shape.size());
      r.tile_shape.push_back(1);
      return at + AffineExpr::var({VarKind::TileAxis, axis});
    };
    for (size_t d = 0; d < rank; ++d) {
      const IndexItem& it = items[d];
      int64_t n = base.tile_shape[d];
      switch (it.kind) {
      case IndexItem::Kind::Int:
        r.subst[d] = point(AffineExpr(it.value < 0 ? it.value + n : it.value));
        break;
      case IndexItem::Kind::Expr:
        r.subst[d] = point(it.expr.expr);
        break;
      case IndexItem::Kind::Slice: {
        if (it.step <= 0) sema::err_slice_step_not_positive();
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
      case IndexItem::Kind::Ellipsis:
      case IndexItem::Kind::Tile:
        break; // replaced above
      }
    }
  }

  AccessPattern out;
  out.tensor = base.tensor;
  out.tile_shape = r.tile_shape;
  for (const auto& e : base.index) out.index.push_back(e.substitute_tile_axes(r.subst));
  if (indirect) {
    attach_indirect(cg, base, out, *indirect, indirect_axes);
  } else {
    carry_indirect(base, out, r.subst);
  }
  return cg.add_value(std::move(out));
}

} // namespace nki::lang
