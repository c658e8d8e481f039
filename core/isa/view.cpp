#include "isa/view.h"

#include <algorithm>
#include <cstdlib>

#include "lang/common.h"
#include "lang/decode.h"
#include "sema/sema.h"
#include "sema/sema_current.h"

namespace nki::isa {

using namespace nki::ir;
using util::Json;

namespace {

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> w(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) w[d - 1] = w[d] * shape[d];
  return w;
}

int64_t product(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// The outermost dimension whose row-major stride divides `step` (the last one always does).
size_t dim_for(const std::vector<int64_t>& w, int64_t step) {
  int64_t a = std::llabs(step);
  for (size_t d = 0; d < w.size(); ++d)
    if (a % w[d] == 0) return d;
  return w.size() - 1;
}

AffineExpr tile_axis(size_t k, int64_t coeff) {
  return AffineExpr::var({VarKind::TileAxis, static_cast<int>(k)}, coeff);
}

AffineExpr register_term(RegisterId r, int64_t coeff) {
  return AffineExpr::var({VarKind::Register, r}, coeff);
}

// The pattern's element range relative to its offset: [lo, hi].
std::pair<int64_t, int64_t> span(const StridedView& v, size_t first_axis) {
  int64_t lo = 0, hi = 0;
  for (size_t k = first_axis; k < v.pattern.size(); ++k) {
    int64_t reach = v.pattern[k][0] * (v.pattern[k][1] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

// Every view axis along one dimension of `frame`: the readable form (`%t[p, 8 + f]`).
std::optional<AccessPattern> per_dimension(const Tensor& frame, const StridedView& v,
                                           bool on_chip) {
  const std::vector<int64_t>& s = frame.shape;
  const std::vector<int64_t> w = row_major_strides(s);
  const size_t nd = s.size();
  AccessPattern ap;
  ap.tensor = frame.id;
  std::vector<int64_t> lo(nd), hi(nd);
  for (size_t d = 0; d < nd; ++d) {
    int64_t c = d == 0 ? v.offset / w[0] : (v.offset / w[d]) % s[d];
    ap.index.emplace_back(c);
    lo[d] = hi[d] = c;
  }
  for (size_t k = 0; k < v.pattern.size(); ++k) {
    auto [step, count] = v.pattern[k];
    ap.tile_shape.push_back(count);
    if (count == 1) {
      // A unit axis moves nothing; along its own dimension it is written like the others, so
      // that a whole tensor's view prints as the tensor.
      if (v.pattern.size() == nd && step == w[k]) ap.index[k] = ap.index[k] + tile_axis(k, 1);
      continue;
    }
    if (step == 0) continue; // a broadcast axis
    size_t d = dim_for(w, step);
    if (on_chip && (k == 0) != (d == 0)) return std::nullopt;
    int64_t coeff = step / w[d];
    ap.index[d] = ap.index[d] + tile_axis(k, coeff);
    (coeff < 0 ? lo[d] : hi[d]) += coeff * (count - 1);
  }
  for (size_t d = 0; d < nd; ++d)
    if (lo[d] < 0 || hi[d] >= s[d]) return std::nullopt;
  for (const auto& [reg, scale] : v.dyn) {
    size_t d = dim_for(w, scale);
    ap.index[d] = ap.index[d] + register_term(reg, scale / w[d]);
  }
  if (v.index >= 0) {
    size_t d = dim_for(w, v.index_scale);
    ap.indirect_dim = static_cast<int>(d);
    ap.indirect_scale = v.index_scale / w[d];
  }
  return ap;
}

// The flattened form: (partitions, free elements) on chip, one dimension in HBM.
AccessPattern flattened(NeuronCodegen& cg, const Tensor& frame, const StridedView& v, bool on_chip,
                        const std::string& name) {
  AccessPattern ap;
  for (const auto& pc : v.pattern) ap.tile_shape.push_back(pc[1]);
  const int64_t total = product(frame.shape);
  if (!on_chip) {
    ap.tensor = cg.view_alias(frame.id, {total}, frame.dtype, "_flat");
    AffineExpr e(v.offset);
    for (size_t k = 0; k < v.pattern.size(); ++k)
      if (v.pattern[k][1] > 1 && v.pattern[k][0] != 0) e = e + tile_axis(k, v.pattern[k][0]);
    for (const auto& [reg, scale] : v.dyn) e = e + register_term(reg, scale);
    ap.index.push_back(e);
    if (v.index >= 0) {
      ap.indirect_dim = 0;
      ap.indirect_scale = v.index_scale;
    }
    return ap;
  }
  const int64_t parts = frame.shape[0], free = total / parts;
  ap.tensor = cg.view_alias(frame.id, {parts, free}, frame.dtype, "_flat");
  AffineExpr p(v.offset / free), f(v.offset % free);
  if (!v.pattern.empty() && v.pattern[0][1] > 1) {
    int64_t step = v.pattern[0][0];
    if (step % free != 0) sema::err_ap_partition_step(name, step, free);
    p = p + tile_axis(0, step / free);
  }
  for (size_t k = 1; k < v.pattern.size(); ++k)
    if (v.pattern[k][1] > 1 && v.pattern[k][0] != 0) f = f + tile_axis(k, v.pattern[k][0]);
  auto [lo, hi] = span(v, 1);
  if (v.offset % free + lo < 0 || v.offset % free + hi >= free)
    sema::err_ap_leaves_partition(name, free);
  for (const auto& [reg, scale] : v.dyn) {
    if (scale % free == 0)
      p = p + register_term(reg, scale / free);
    else
      f = f + register_term(reg, scale);
  }
  ap.index = {p, f};
  if (v.index >= 0) {
    bool on_partition = v.index_scale % free == 0;
    ap.indirect_dim = on_partition ? 0 : 1;
    ap.indirect_scale = on_partition ? v.index_scale / free : v.index_scale;
  }
  return ap;
}

} // namespace

StridedView decode_view(NeuronCodegen& cg, const Json& j) {
  StridedView v;
  v.storage = static_cast<TensorId>(j["t"].integer());
  if (j["dtype"].is_string()) v.dtype = lang::decode_dtype(j["dtype"]);
  v.offset = j["off"].is_null() ? 0 : j["off"].integer();
  for (const Json& pc : j["pat"].array()) v.pattern.push_back({pc[0].integer(), pc[1].integer()});
  if (j["dyn"].is_array())
    for (const Json& d : j["dyn"].array())
      v.dyn.push_back({static_cast<RegisterId>(d[0].integer()), d[1].integer()});
  if (j.has("ind")) {
    const Json& ind = j["ind"];
    v.index = lang::decode_value(cg, ind["v"]);
    v.index_scale = ind["scale"].is_null() ? 1 : ind["scale"].integer();
    v.vector_index = ind["vector"].is_bool() && ind["vector"].boolean();
  }
  return v;
}

AccessPattern access_of(NeuronCodegen& cg, const StridedView& v) {
  const Kernel& k = cg.kernel();
  const Tensor& storage = k.tensor(v.storage);
  if (storage.alias_of != kNone) throw sema::InternalError("a view of an alias's storage");
  const bool on_chip = storage.memory() != Memory::HBM;
  // A reinterpreting view addresses the storage as an array of its dtype: the last dimension
  // scaled by the size ratio (Python checked it divides).
  TensorId frame_id = v.storage;
  DType dtype = v.dtype.value_or(storage.dtype);
  if (dtype != storage.dtype) {
    std::vector<int64_t> shape = storage.shape;
    shape.back() = shape.back() * dtype_size(storage.dtype) / dtype_size(dtype);
    frame_id = cg.view_alias(v.storage, shape, dtype, std::string("_as_") + dtype_short(dtype));
  }
  const Tensor& frame = k.tensor(frame_id);
  const int64_t total = product(frame.shape);
  auto [lo, hi] = span(v, 0);
  if (v.offset + lo < 0 || v.offset + hi >= total)
    sema::err_access_pattern_out_of_bound(storage.name, v.offset + lo, v.offset + hi, total);

  AccessPattern ap;
  if (auto pd = per_dimension(frame, v, on_chip))
    ap = std::move(*pd);
  else
    ap = flattened(cg, k.tensor(frame_id), v, on_chip, storage.name);
  if (v.index >= 0) {
    AccessPattern index = cg.value(v.index);
    const std::vector<int64_t>& is = index.tile_shape;
    // The index tile is read at the same tile position: a (1, 1) scalar offset broadcasts
    // over the whole access, a (P, 1) vector offset varies along the partitions only.
    AccessPattern at = index;
    at.tile_shape = ap.tile_shape;
    for (AffineExpr& e : at.index) {
      AffineExpr fixed(e.constant());
      for (const auto& [var, c] : e.terms())
        if (var.kind != VarKind::TileAxis || (v.vector_index && var.id == 0 && is[0] > 1))
          fixed = fixed + AffineExpr::var(var, c);
      e = fixed;
    }
    if (v.vector_index) {
      // The leading stride of a vector-offset pattern is ignored: the partition axis reads
      // its row through the index instead.
      AffineExpr& e = ap.index[static_cast<size_t>(ap.indirect_dim)];
      AffineExpr fixed(e.constant());
      for (const auto& [var, c] : e.terms())
        if (!(var.kind == VarKind::TileAxis && var.id == 0))
          fixed = fixed + AffineExpr::var(var, c);
      e = fixed;
    }
    ap.indirect = std::make_shared<AccessPattern>(std::move(at));
  }
  return ap;
}

lang::ValueId view_value(NeuronCodegen& cg, const Json& j) {
  return cg.add_value(access_of(cg, decode_view(cg, j)));
}

} // namespace nki::isa
