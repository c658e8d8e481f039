#include "sim/access.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "sema/sema.h"
#include "sim/diagnostics.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// Element offset (in the view's elements) → base-buffer element.
inline int64_t base_elem(const View& v, int64_t off) {
  int bs = elem_size(v.buf->dtype);
  return bs == v.esize ? off : off * v.esize / bs;
}

inline bool written(const View& v, int64_t off) {
  return v.buf->written.test(base_elem(v, off));
}

// Memory is not filled when allocated: an element never written reads as the "unwritten"
// value (NaN for floats, 0 for integers), substituted here; the first such read is reported.
// Returns whether the run had any (false at once for a fully written buffer).
bool patch_f32(const View& v, int64_t off, int64_t s, int64_t n, float* out, Reporter& r) {
  if (v.buf->written.all()) return false;
  bool any = false;
  const float fill = dtype_is_float(v.dtype) ? std::numeric_limits<float>::quiet_NaN()
                                             : static_cast<float>(v.buf->int_fill);
  for (int64_t i = 0; i < n; ++i) {
    if (written(v, off + i * s)) continue;
    if (!any) r.unwritten_read(v, off + i * s);
    any = true;
    out[i] = fill;
  }
  return any;
}

bool patch_i64(const View& v, int64_t off, int64_t s, int64_t n, int64_t* out, Reporter& r) {
  if (v.buf->written.all()) return false;
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    if (written(v, off + i * s)) continue;
    if (!any) r.unwritten_read(v, off + i * s);
    any = true;
    out[i] = v.buf->int_fill;
  }
  return any;
}

inline void mark_one(const View& v, int64_t off) {
  v.buf->written.set(base_elem(v, off));
}

// Marks a run written.
void mark_run(const View& v, int64_t off, int64_t s, int64_t n) {
  WrittenMap& w = v.buf->written;
  if (w.all()) return;
  if (elem_size(v.buf->dtype) != v.esize) {
    for (int64_t i = 0; i < n; ++i) w.set(base_elem(v, off + i * s));
  } else if (s == 1) {
    w.set_range(off, n);
  } else {
    for (int64_t i = 0; i < n; ++i) w.set(off + i * s);
  }
}

// Per-element offsets of an indirect run; false entries (skipped out-of-bounds) get -1.
void indirect_offsets(const View& v, const int64_t* pos, int64_t lo, int64_t n, int64_t* offs,
                      Reporter& r) {
  int64_t idx[kChunk];
  read_i64(*v.ind, pos, lo, n, idx, r);
  // The static part of the indirect dimension's index is folded into origin/strides; the
  // bounds check needs it alone: ind_base holds it at the run start, dim stride = inner.
  int64_t base = v.ind_base;
  for (int k = 0; k < v.rank - 1; ++k) base += v.ind_dstride[k] * pos[k];
  for (int64_t i = 0; i < n; ++i) {
    int64_t total = base + v.ind_dstride[v.rank - 1] * (lo + i) + idx[i] * v.ind_scale;
    int64_t off = v.offset(pos, lo + i) + idx[i] * v.ind_stride;
    if (total < 0 || total >= v.ind_size) {
      if (v.skip_oob) {
        offs[i] = -1;
        continue;
      }
      // NKI's simulator names the element by its offset in the flattened tensor; an index
      // past an inner dimension that stays inside the tensor is named by its dimension.
      int64_t elems = 1;
      for (int64_t d : v.tensor->shape) elems *= d;
      const SourceLoc loc = v.loc ? *v.loc : SourceLoc{};
      if (off < 0 || off >= elems) err_indirect_index_out_of_bounds(off, elems, loc);
      err_tensor_access_out_of_bound(v.tensor->name, static_cast<size_t>(v.ind_dim), total, total,
                                     v.ind_size, loc);
    }
    offs[i] = off;
  }
}

} // namespace

View resolve(Storage& storage, const Kernel& k, const AccessPattern& ap, const Domain& dom,
             const Env& env, const SourceLoc& loc, std::deque<View>& pool) {
  View v;
  v.tensor = &k.tensor(ap.tensor);
  // A tile aliasing read-only memory (Storage::Redirect) is read there, with its strides.
  const Redirect* rd = storage.redirect(ap.tensor);
  v.buf = rd ? rd->buf : &storage.buffer(ap.tensor);
  v.dtype = v.tensor->dtype;
  // precise_fp off: a low-precision tensor is held (and read) as float32.
  if (v.buf->dtype == DType::Float32 && v.dtype != DType::Float32 &&
      k.tensor(storage.base(ap.tensor)).dtype == v.dtype)
    v.dtype = DType::Float32;
  v.esize = elem_size(v.dtype);
  v.data = v.buf->bytes();
  v.rank = dom.rank();
  v.loc = &loc;
  const std::vector<int64_t>& shape = v.tensor->shape;
  const size_t nd = shape.size();
  // The tensor's strides and, below, the domain axis of each tile axis: on the stack up to
  // kMaxRank axes (two heap blocks a call were 40% of resolving a tile's view).
  int64_t tstride_small[kMaxRank];
  std::vector<int64_t> tstride_big;
  const size_t ns = rd ? std::max(nd, rd->stride.size()) : nd;
  int64_t* tstride = tstride_small;
  if (ns > static_cast<size_t>(kMaxRank)) {
    tstride_big.resize(ns);
    tstride = tstride_big.data();
  }
  std::fill(tstride, tstride + ns, int64_t{1});
  if (rd) {
    std::copy(rd->stride.begin(), rd->stride.end(), tstride);
    v.origin = rd->origin;
  } else {
    for (size_t d = nd; d-- > 1;) tstride[d - 1] = tstride[d] * shape[d];
  }

  // Which domain axis each tile axis of the pattern runs along (-1: fixed at 0).
  const int r = static_cast<int>(ap.tile_shape.size());
  int axis_small[kMaxRank];
  std::vector<int> axis_big;
  int* axis_of = axis_small;
  if (r > kMaxRank) {
    axis_big.resize(static_cast<size_t>(r));
    axis_of = axis_big.data();
  }
  std::fill(axis_of, axis_of + r, -1);
  bool aligned = true;
  for (int j = 0; j < r; ++j) {
    int a = j + v.rank - r;
    int64_t e = ap.tile_shape[j];
    if (a < 0) {
      if (e != 1) aligned = false;
      continue;
    }
    if (e == dom.extent(a))
      axis_of[j] = a;
    else if (e != 1)
      aligned = false;
  }
  if (!aligned) { // same non-unit extents in the same order (a reshape by unit axes)
    std::fill(axis_of, axis_of + r, -1);
    int a = 0;
    for (int j = 0; j < r; ++j) {
      if (ap.tile_shape[j] == 1) continue;
      while (a < v.rank && dom.extent(a) == 1) ++a;
      if (a >= v.rank || dom.extent(a) != ap.tile_shape[j]) {
        // Another shape with as many elements: paired in row-major order (the caller
        // materializes it; Exec::view). Anything else is a shape the IR never produces.
        int64_t ne = 1, nd = 1;
        for (int64_t e : ap.tile_shape) ne *= e;
        for (int k2 = 0; k2 < v.rank; ++k2) nd *= dom.extent(k2);
        if (ne != nd)
          err_not_supported_in_simulator("an access of tile shape " +
                                             sema::describe("", ap.tile_shape) +
                                             " onto a tile of a different size",
                                         loc);
        v.linear = true;
        return v;
      }
      axis_of[j] = a++;
    }
  }

  int64_t blo[kMaxRank], bhi[kMaxRank];
  bool visited = dom.bounds(blo, bhi);
  for (size_t d = 0; d < nd && d < ap.index.size(); ++d) {
    const AffineExpr& e = ap.index[d];
    int64_t base = env.eval_symbols(e);
    v.origin += tstride[d] * base;
    int64_t mn = base, mx = base;
    int64_t dstride[kMaxRank] = {0};
    for (const auto& [var, c] : e.terms()) {
      if (var.kind != VarKind::TileAxis || var.id >= r) continue;
      int a = axis_of[var.id];
      if (a < 0) continue;
      v.stride[a] += tstride[d] * c;
      dstride[a] += c;
      if (visited) {
        mn += c * (c > 0 ? blo[a] : bhi[a]);
        mx += c * (c > 0 ? bhi[a] : blo[a]);
      }
    }
    if (static_cast<int>(d) == ap.indirect_dim) {
      v.ind_dim = static_cast<int64_t>(d);
      v.ind_stride = tstride[d] * ap.indirect_scale;
      v.ind_scale = ap.indirect_scale;
      v.ind_size = shape[d];
      v.ind_base = base; // the static part at tile position 0; ind_dstride: along the tile
      for (int a = 0; a < kMaxRank; ++a) v.ind_dstride[a] = dstride[a];
      continue;
    }
    if (visited && (mn < 0 || mx >= shape[d]))
      err_tensor_access_out_of_bound(v.tensor->name, d, mn, mx, shape[d], loc);
  }
  if (ap.indirect) {
    pool.push_back(resolve(storage, k, *ap.indirect, dom, env, loc, pool));
    v.ind = &pool.back();
  }
  return v;
}

void read_f32(const View& v, const int64_t* pos, int64_t lo, int64_t n, float* out, Reporter& r) {
  if (v.ind) {
    int64_t offs[kChunk];
    indirect_offsets(v, pos, lo, n, offs, r);
    for (int64_t i = 0; i < n; ++i) {
      if (offs[i] < 0) {
        out[i] = 0.0f;
        continue;
      }
      out[i] = load_f32(v.dtype, v.data + offs[i] * v.esize);
      patch_f32(v, offs[i], 0, 1, out + i, r);
    }
    return;
  }
  int64_t off = v.offset(pos, lo), s = v.inner_stride();
  if (s == 0) {
    float x = load_f32(v.dtype, v.data + off * v.esize);
    patch_f32(v, off, 0, 1, &x, r);
    for (int64_t i = 0; i < n; ++i) out[i] = x;
    return;
  }
  decode_f32(v.dtype, v.data + off * v.esize, s, n, out);
  patch_f32(v, off, s, n, out, r);
}

void write_f32(const View& v, const int64_t* pos, int64_t lo, int64_t n, const float* in) {
  if (v.ind) {
    struct Quiet : Reporter {
      void unwritten_read(const View&, int64_t) override {}
    } quiet;
    int64_t offs[kChunk];
    indirect_offsets(v, pos, lo, n, offs, quiet);
    for (int64_t i = 0; i < n; ++i) {
      if (offs[i] < 0) continue;
      store_f32(v.dtype, v.data + offs[i] * v.esize, in[i]);
      if (!v.buf->written.all()) mark_one(v, offs[i]);
    }
    return;
  }
  int64_t off = v.offset(pos, lo), s = v.inner_stride();
  encode_f32(v.dtype, v.data + off * v.esize, s, s == 0 ? 1 : n, s == 0 ? in + n - 1 : in);
  if (!v.buf->written.all()) mark_run(v, off, s, s == 0 ? 1 : n);
}

void read_i64(const View& v, const int64_t* pos, int64_t lo, int64_t n, int64_t* out, Reporter& r) {
  if (v.ind) {
    int64_t offs[kChunk];
    indirect_offsets(v, pos, lo, n, offs, r);
    for (int64_t i = 0; i < n; ++i) {
      if (offs[i] < 0) {
        out[i] = 0;
        continue;
      }
      decode_i64(v.dtype, v.data + offs[i] * v.esize, 1, 1, out + i);
      patch_i64(v, offs[i], 0, 1, out + i, r);
    }
    return;
  }
  int64_t off = v.offset(pos, lo), s = v.inner_stride();
  decode_i64(v.dtype, v.data + off * v.esize, s, n, out);
  patch_i64(v, off, s, n, out, r);
}

void write_i64(const View& v, const int64_t* pos, int64_t lo, int64_t n, const int64_t* in) {
  if (v.ind) {
    struct Quiet : Reporter {
      void unwritten_read(const View&, int64_t) override {}
    } quiet;
    int64_t offs[kChunk];
    indirect_offsets(v, pos, lo, n, offs, quiet);
    for (int64_t i = 0; i < n; ++i) {
      if (offs[i] < 0) continue;
      encode_i64(v.dtype, v.data + offs[i] * v.esize, 1, 1, in + i);
      if (!v.buf->written.all()) mark_one(v, offs[i]);
    }
    return;
  }
  int64_t off = v.offset(pos, lo), s = v.inner_stride();
  encode_i64(v.dtype, v.data + off * v.esize, s, s == 0 ? 1 : n, s == 0 ? in + n - 1 : in);
  if (!v.buf->written.all()) mark_run(v, off, s, s == 0 ? 1 : n);
}

void copy_bits(const View& dst, const View& src, const int64_t* pos, int64_t lo, int64_t n,
               Reporter& r) {
  if (dst.ind || src.ind) { // element by element through the run-time offsets, bytes as-is
    struct Quiet : Reporter {
      void unwritten_read(const View&, int64_t) override {}
    } quiet;
    int64_t so[kChunk], dof[kChunk];
    if (src.ind)
      indirect_offsets(src, pos, lo, n, so, r);
    else
      for (int64_t i = 0; i < n; ++i) so[i] = src.offset(pos, lo + i);
    if (dst.ind)
      indirect_offsets(dst, pos, lo, n, dof, quiet);
    else
      for (int64_t i = 0; i < n; ++i) dof[i] = dst.offset(pos, lo + i);
    const int es = dst.esize;
    for (int64_t i = 0; i < n; ++i) {
      if (so[i] < 0 || dof[i] < 0) continue; // skipped out-of-bounds rows (oob_mode=skip)
      if (!src.buf->written.all() && !written(src, so[i])) {
        r.unwritten_read(src, so[i]);
        uint8_t fill[4];
        fill_unwritten(src.dtype, fill, 1, src.buf->int_fill);
        std::memcpy(dst.data + dof[i] * es, fill, static_cast<size_t>(es));
      } else {
        std::memcpy(dst.data + dof[i] * es, src.data + so[i] * es, static_cast<size_t>(es));
      }
      if (!dst.buf->written.all()) mark_one(dst, dof[i]);
    }
    return;
  }
  if (dst.esize != src.esize) {
    int64_t tmp[kChunk];
    read_i64(src, pos, lo, n, tmp, r);
    write_i64(dst, pos, lo, n, tmp);
    return;
  }
  const int es = dst.esize;
  int64_t doff = dst.offset(pos, lo), ds = dst.inner_stride();
  int64_t soff = src.offset(pos, lo), ss = src.inner_stride();
  if (!src.buf->written.all()) { // never-written source elements: the slow, substituting path
    int64_t tmp[kChunk];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      if (dtype_is_float(src.dtype)) { // every float dtype's values survive fp32 exactly
        float f[kChunk];
        read_f32(src, pos, lo + c, m, f, r);
        write_f32(dst, pos, lo + c, m, f);
      } else {
        read_i64(src, pos, lo + c, m, tmp, r);
        write_i64(dst, pos, lo + c, m, tmp);
      }
    }
    return;
  }
  if (ds == 1 && ss == 1) {
    copy_bytes(dst.data + doff * es, src.data + soff * es, static_cast<size_t>(n * es));
  } else {
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst.data + (doff + i * ds) * es, src.data + (soff + i * ss) * es, es);
  }
  if (!dst.buf->written.all()) mark_run(dst, doff, ds, ds == 0 ? 1 : n);
}

const float* direct_in(const View& v, const int64_t* pos, int64_t lo) {
  if (v.dtype != DType::Float32 || v.ind || v.inner_stride() != 1 || !v.buf->written.all())
    return nullptr;
  return reinterpret_cast<const float*>(v.data) + v.offset(pos, lo);
}

float* direct_out(const View& v, const int64_t* pos, int64_t lo) {
  if (v.dtype != DType::Float32 || v.ind || v.inner_stride() != 1) return nullptr;
  return reinterpret_cast<float*>(v.data) + v.offset(pos, lo);
}

void wrote_direct(const View& v, const int64_t* pos, int64_t lo, int64_t n) {
  if (!v.buf->written.all()) mark_run(v, v.offset(pos, lo), 1, n);
}

void note_write_coverage(const View& v, const Domain& dom) {
  Buffer& b = *v.buf;
  if (b.written.all() || dom.masked() || dom.windowed() || v.ind || v.origin != 0) return;
  if (elem_size(b.dtype) != v.esize) return;
  std::vector<std::pair<int64_t, int64_t>> axes; // (stride, extent)
  int64_t count = 1;
  for (int k = 0; k < v.rank; ++k) {
    count *= dom.extent(k);
    if (dom.extent(k) > 1) axes.push_back({v.stride[k], dom.extent(k)});
  }
  if (count != b.elems) return;
  std::sort(axes.begin(), axes.end());
  int64_t expect = 1;
  for (const auto& [s, e] : axes) {
    if (s != expect) return;
    expect *= e;
  }
  b.written.set_all();
}

} // namespace nki::sim
