// Tensor engine: nc_matmul (stationary.T @ moving into PSUM, fp32, accumulating when the
// instruction carries accumulate = 1) and nc_transpose (Tensor or Vector engine).
//
// Numerics: each output element is Σ_k stationary[k, m] · moving[k, n] in fp32, k ascending,
// then added to PSUM in fp32 when accumulating — the order a PSUM accumulation group sums in.
#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/exec.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

Predicate range_mask(int axis, int64_t lo, int64_t hi) {
  Predicate p;
  AffineExpr t = AffineExpr::var({VarKind::TileAxis, axis});
  p.terms.push_back({t, CmpOp::Ge, AffineExpr(lo)});
  p.terms.push_back({t, CmpOp::Le, AffineExpr(hi)});
  return p;
}

// Reads an operand tile [K, F...] (or [K, 2, F] for double-row) as fp32 rows: out[k][f] for
// f in [flo, fhi] of the flattened free axes. Rows of a double-row operand are (k, r) pairs.
std::vector<float> gather(Exec& ex, const Operand& o, bool double_row, int64_t flo, int64_t fhi,
                          int64_t& rows, int64_t& width) {
  const std::vector<int64_t>& s = o.ap.tile_shape;
  width = fhi - flo + 1;
  if (double_row) {
    rows = s[0] * 2;
    Domain dom(s, range_mask(2, flo, fhi), ex.env);
    View v = ex.view(o, dom);
    std::vector<float> out(static_cast<size_t>(rows * width));
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      read_f32(v, pos, lo, n, &out[static_cast<size_t>((pos[0] * 2 + pos[1]) * width + lo - flo)],
               ex);
    });
    return out;
  }
  rows = s[0];
  std::vector<float> out(static_cast<size_t>(rows * width));
  if (s.size() == 2) {
    Domain dom(s, range_mask(1, flo, fhi), ex.env);
    View v = ex.view(o, dom);
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      read_f32(v, pos, lo, n, &out[static_cast<size_t>(pos[0] * width + lo - flo)], ex);
    });
    return out;
  }
  Domain dom(s, {}, ex.env); // several free axes: flattened row-major
  View v = ex.view(o, dom);
  const int r = dom.rank();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t f = 0;
    for (int k = 1; k < r - 1; ++k) f = f * dom.extent(k) + pos[k];
    f = f * dom.extent(r - 1) + lo;
    read_f32(v, pos, lo, n, &out[static_cast<size_t>(pos[0] * width + f)], ex);
  });
  return out;
}

void exec_nc_matmul(Exec& ex, const Instruction& in) {
  std::vector<int64_t> shape = ex.out_shape(in);
  Domain dom(shape, in.mask, ex.env);
  int64_t blo[kMaxRank], bhi[kMaxRank];
  if (!dom.bounds(blo, bhi)) return;
  const bool double_row = ex.attr_str(in, "perf_mode").rfind("double_row", 0) == 0;
  const Operand& st = ex.need(in, "stationary");
  const Operand& mv = ex.need(in, "moving");
  const bool flat_n = mv.ap.tile_shape.size() != 2 && !double_row;
  int64_t n_total = 1;
  for (size_t i = 1; i < shape.size(); ++i) n_total *= shape[i];
  int64_t nlo = flat_n ? 0 : blo[1], nhi = flat_n ? n_total - 1 : bhi[1];
  int64_t k_s, mw, k_m, nw;
  std::vector<float> S = gather(ex, st, double_row, blo[0], bhi[0], k_s, mw);
  std::vector<float> V = gather(ex, mv, double_row, nlo, nhi, k_m, nw);
  if (k_s != k_m) ex.unsupported("nc_matmul with operands of different partition counts");
  ex.log.matmul_macs += k_s * mw * nw;
  // R[m][n] = Σ_k S[k][m] · V[k][n], k ascending.
  std::vector<float> R(static_cast<size_t>(mw * nw), 0.0f);
  for (int64_t m = 0; m < mw; ++m) {
    float* __restrict r = &R[static_cast<size_t>(m * nw)];
    for (int64_t k = 0; k < k_s; ++k) {
      const float s = S[static_cast<size_t>(k * mw + m)];
      const float* __restrict v = &V[static_cast<size_t>(k * nw)];
      for (int64_t j = 0; j < nw; ++j) r[j] += s * v[j];
    }
  }
  const bool acc = ex.attr_num(in, "accumulate", 0) != 0;
  View out = ex.output(in, dom);
  const int rank = dom.rank();
  float cur[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t m = pos[0] - blo[0];
    int64_t f = 0;
    for (int k = 1; k < rank - 1; ++k) f = f * dom.extent(k) + pos[k];
    f = f * dom.extent(rank - 1) + lo;
    const float* row = &R[static_cast<size_t>(m * nw + f - nlo)];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t w = std::min(kChunk, n - c);
      if (!acc) {
        write_f32(out, pos, lo + c, w, row + c);
        continue;
      }
      read_f32(out, pos, lo + c, w, cur, ex);
      for (int64_t i = 0; i < w; ++i) cur[i] += row[c + i];
      write_f32(out, pos, lo + c, w, cur);
    }
  });
}

// out[f, p] = data[p, f] (free axes flattened); bit-exact.
void exec_nc_transpose(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  const std::vector<int64_t>& s = d.ap.tile_shape;
  Domain ddom(s, {}, ex.env);
  View dv = ex.view(d, ddom);
  int64_t parts = s[0], free = 1;
  for (size_t i = 1; i < s.size(); ++i) free *= s[i];
  std::vector<int64_t> tile(static_cast<size_t>(parts * free));
  const int r = ddom.rank();
  ddom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t f = 0;
    for (int k = 1; k < r - 1; ++k) f = f * ddom.extent(k) + pos[k];
    f = f * ddom.extent(r - 1) + lo;
    int64_t buf[kChunk];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t w = std::min(kChunk, n - c);
      if (dtype_is_float(dv.dtype)) {
        float fb[kChunk];
        read_f32(dv, pos, lo + c, w, fb, ex);
        for (int64_t i = 0; i < w; ++i) std::memcpy(&buf[i], &fb[i], 4);
      } else {
        read_i64(dv, pos, lo + c, w, buf, ex);
      }
      std::copy(buf, buf + w, &tile[static_cast<size_t>(pos[0] * free + f + c)]);
    }
  });
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  const bool fl = dtype_is_float(dv.dtype);
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = tile[static_cast<size_t>((lo + i) * free + pos[0])];
      if (fl) {
        float f;
        std::memcpy(&f, &v, 4);
        write_f32(out, pos, lo + i, 1, &f);
      } else {
        write_i64(out, pos, lo + i, 1, &v);
      }
    }
  });
}

} // namespace

void register_matmul_execs(ExecTable& t) {
  t.add("nc_matmul", exec_nc_matmul);
  t.add("nc_transpose", exec_nc_transpose);
}

} // namespace nki::sim
