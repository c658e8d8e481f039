// Indirect (runtime) indexing: a tile used inside a subscript, `data[idx_tile[i_p, 0], i_f]`.
// The view's AccessPattern reads the index tile at the same tile position (`indirect`) and adds
// the static offset of that dimension (reference §3.3).
#include "lang/common.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

IndirectIndex indirect_index_item(const NeuronCodegen& cg, ValueId tile, size_t item,
                                  std::vector<int64_t>& shape) {
  require_visible(cg, tile);
  const Tensor& t = tensor_of(cg, tile);
  if (t.memory() != Memory::SBUF) sema::err_indirect_indices_sbuf();
  IndirectIndex ind;
  ind.index = cg.value(tile);
  ind.item = item;
  if (ind.index.indirect)
    sema::err_not_supported_yet("an index tile that is itself indexed indirectly");
  shape = ind.index.tile_shape;
  // A single element (`idx[0, i]`) is a scalar index; a 1-d view of a tile runs along its
  // partitions.
  if (elements(shape) == 1) shape.clear();
  if (shape.size() == 1) shape.push_back(1);
  return ind;
}

void attach_indirect(const NeuronCodegen& cg, const AccessPattern& base, AccessPattern& out,
                     const IndirectIndex& ind, const std::vector<int>& axis_of_item) {
  const Tensor& t = cg.kernel().tensor(base.tensor);
  if (base.indirect)
    sema::err_not_supported_yet("indexing a view that already has an indirect index with "
                                "another index tile");
  // The tensor dimension the subscript item addresses (unit stride in the base view).
  const Var axis{VarKind::TileAxis, static_cast<int>(ind.item)};
  int dim = -1;
  for (size_t e = 0; e < base.index.size(); ++e) {
    int64_t c = base.index[e].coeff_of(axis);
    if (c == 0) continue;
    if (c != 1 || dim >= 0)
      sema::err_not_supported_yet("an indirect index on a strided or reshaped view");
    dim = static_cast<int>(e);
  }
  if (dim < 0) sema::err_not_supported_yet("an indirect index on a broadcast view");

  // The index tile's own axes, re-expressed as axes of the view's tile.
  const std::vector<int64_t> own = ind.index.tile_shape;
  std::vector<AffineExpr> remap;
  bool single = elements(own) == 1;
  for (size_t k = 0; k < own.size(); ++k) {
    if (single || own[k] == 1 || k >= axis_of_item.size()) {
      remap.push_back(AffineExpr(0));
    } else {
      remap.push_back(AffineExpr::var({VarKind::TileAxis, axis_of_item[k]}));
    }
  }
  auto idx = std::make_shared<AccessPattern>(ind.index);
  for (auto& e : idx->index) e = e.substitute_tile_axes(remap);
  idx->tile_shape = out.tile_shape;

  if (t.memory() == Memory::HBM) {
    // DMA gathers/scatters whole rows: the index may vary along the partition axis only and
    // must address the dimension that carries the partitions (or one before it).
    for (const auto& e : idx->index)
      for (const auto& [v, c] : e.terms())
        if (v.kind == VarKind::TileAxis && v.id > 0) sema::err_indirect_indices_free_dim();
    for (size_t e = 0; e < out.index.size(); ++e) {
      if (static_cast<int>(e) == dim) continue;
      if (out.index[e].coeff_of({VarKind::TileAxis, 0}) != 0) {
        if (static_cast<int>(e) < dim) sema::err_indirect_indices_free_dim();
        break;
      }
    }
    if (!single && own.size() >= 2 && free_size(own) > 1)
      sema::err_indirect_index_tile_shape(
          sema::describe(cg.kernel().tensor(ind.index.tensor).name, own), own[0]);
  }
  out.indirect = std::move(idx);
  out.indirect_dim = dim;
}

void carry_indirect(const AccessPattern& base, AccessPattern& out,
                    const std::vector<AffineExpr>& subst) {
  if (!base.indirect) return;
  auto idx = std::make_shared<AccessPattern>(*base.indirect);
  for (auto& e : idx->index) e = e.substitute_tile_axes(subst);
  idx->tile_shape = out.tile_shape;
  out.indirect = std::move(idx);
  out.indirect_dim = base.indirect_dim;
}

} // namespace nki::lang
