// Tensor engine: nc_matmul (stationary.T @ moving into PSUM, fp32, accumulating when the
// instruction carries accumulate = 1) and nc_transpose (Tensor or Vector engine).
//
// Numerics: each output element is Σ_k stationary[k, m] · moving[k, n] in fp32, k ascending,
// then added to PSUM in fp32 when accumulating — the order a PSUM accumulation group sums in.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sim/diagnostics.h"
#include "sim/exec.h"
#include "sim/exec_util.h"
#include "sim/interpreter.h"
#include "sim/simd.h"

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
// `out` (the executor's scratch, reused) is sized to rows x width; every element is written.
void gather(Exec& ex, const Operand& o, bool double_row, int64_t flo, int64_t fhi, int64_t& rows,
            int64_t& width, std::vector<float>& out) {
  const std::vector<int64_t>& s = o.ap.tile_shape;
  width = fhi - flo + 1;
  if (double_row) {
    rows = s[0] * 2;
    Domain dom(s, range_mask(2, flo, fhi), ex.env);
    View v = ex.view(o, dom);
    out.resize(static_cast<size_t>(rows * width));
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      read_f32(v, pos, lo, n, &out[static_cast<size_t>((pos[0] * 2 + pos[1]) * width + lo - flo)],
               ex);
    });
    return;
  }
  rows = s[0];
  out.resize(static_cast<size_t>(rows * width));
  if (s.size() == 2) {
    Domain dom(s, range_mask(1, flo, fhi), ex.env);
    View v = ex.view(o, dom);
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      read_f32(v, pos, lo, n, &out[static_cast<size_t>(pos[0] * width + lo - flo)], ex);
    });
    return;
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
}

// R[m][n] = Σ_k S[k][m] · V[k][n] in fp32, k ascending from 0 (S is [K, mw], V [K, nw], R
// [mw, nw]). Blocks of 4 rows by 8 columns keep their sums in registers across k; each sum is
// still 0 + s0·v0 + s1·v1 + ... in that order, one rounding per operation, as the plain loop.
void matmul_f32(const float* S, int64_t mw, const float* V, int64_t nw, int64_t K, float* R) {
  int64_t m = 0;
  for (; m + 4 <= mw; m += 4) {
    int64_t j = 0;
    for (; j + 8 <= nw; j += 8) {
      F4 a[4][2] = {};
      // (Pointers stepped row by row rather than indices multiplied: in wasm, whose
      // addresses are 32-bit, each 64-bit index product is several instructions a step.)
      const float *v = V + j, *s = S + m;
      for (int64_t k = 0; k < K; ++k, v += nw, s += mw) {
        const F4 v0 = load4(v), v1 = load4(v + 4);
        for (int r = 0; r < 4; ++r) {
          const F4 sr = splat4(s[r]);
          a[r][0] = a[r][0] + sr * v0;
          a[r][1] = a[r][1] + sr * v1;
        }
      }
      for (int r = 0; r < 4; ++r) {
        store4(R + (m + r) * nw + j, a[r][0]);
        store4(R + (m + r) * nw + j + 4, a[r][1]);
      }
    }
    for (; j < nw; ++j)
      for (int r = 0; r < 4; ++r) {
        float a = 0.0f;
        for (int64_t k = 0; k < K; ++k) a = a + S[k * mw + m + r] * V[k * nw + j];
        R[(m + r) * nw + j] = a;
      }
  }
  for (; m < mw; ++m)
    for (int64_t j = 0; j < nw; ++j) {
      float a = 0.0f;
      for (int64_t k = 0; k < K; ++k) a = a + S[k * mw + m] * V[k * nw + j];
      R[m * nw + j] = a;
    }
}

// NKI 0.5.0's simulator warns when accumulate=True starts on PSUM nothing wrote (undefined on
// hardware); once per run.
void warn_once_accumulate(Exec& ex) {
  for (const RunWarning& w : ex.log.warnings)
    if (w.code == "accumulate-uninitialized-psum") return;
  ex.warn(warn_accumulate_uninitialized_psum());
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
  std::vector<float>&S = ex.scratch[0], &V = ex.scratch[1], &R = ex.scratch[2];
  gather(ex, st, double_row, blo[0], bhi[0], k_s, mw, S);
  gather(ex, mv, double_row, nlo, nhi, k_m, nw, V);
  if (k_s != k_m) ex.unsupported("nc_matmul with operands of different partition counts");
  ex.log.matmul_macs += k_s * mw * nw;
  R.resize(static_cast<size_t>(mw * nw));
  matmul_f32(S.data(), mw, V.data(), nw, k_s, R.data());
  store_matmul_result(ex, in, dom, blo[0], nlo, nw, R.data());
}

// out[f, p] = data[p, f] (free axes flattened); bit-exact: float tiles move as fp32 values
// (every float dtype's values survive fp32 exactly), integer tiles as integers.
template <typename T> void transpose_as(Exec& ex, const Instruction& in, std::vector<T>& tile) {
  const Operand& d = ex.need(in, "data");
  const std::vector<int64_t>& s = d.ap.tile_shape;
  Domain ddom(s, {}, ex.env);
  View dv = ex.view(d, ddom);
  int64_t parts = s[0], free = 1;
  for (size_t i = 1; i < s.size(); ++i) free *= s[i];
  tile.resize(static_cast<size_t>(parts * free));
  const int r = ddom.rank();
  ddom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t f = 0;
    for (int k = 1; k < r - 1; ++k) f = f * ddom.extent(k) + pos[k];
    f = f * ddom.extent(r - 1) + lo;
    T* row = &tile[static_cast<size_t>(pos[0] * free + f)];
    for (int64_t c = 0; c < n; c += kChunk) {
      if constexpr (std::is_same_v<T, float>)
        read_f32(dv, pos, lo + c, std::min(kChunk, n - c), row + c, ex);
      else
        read_i64(dv, pos, lo + c, std::min(kChunk, n - c), row + c, ex);
    }
  });
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  T col[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t w = std::min(kChunk, n - c);
      for (int64_t i = 0; i < w; ++i)
        col[i] = tile[static_cast<size_t>((lo + c + i) * free + pos[0])];
      if constexpr (std::is_same_v<T, float>)
        write_f32(out, pos, lo + c, w, col);
      else
        write_i64(out, pos, lo + c, w, col);
    }
  });
}

void exec_nc_transpose(Exec& ex, const Instruction& in) {
  if (dtype_is_float(ex.k.tensor(ex.need(in, "data").ap.tensor).dtype)) {
    transpose_as<float>(ex, in, ex.scratch[0]);
    return;
  }
  std::vector<int64_t> tile;
  transpose_as<int64_t>(ex, in, tile);
}

} // namespace

void store_matmul_result(Exec& ex, const Instruction& in, const Domain& dom, int64_t m0,
                         int64_t nlo, int64_t nw, const float* R) {
  // accumulate: 0 overwrites, 1 adds; "auto" (the current language's accumulate=None) adds
  // onto the elements some instruction already wrote and overwrites the others.
  const bool autoacc = ex.attr_str(in, "accumulate") == "auto";
  const bool acc = autoacc || ex.attr_num(in, "accumulate", 0) != 0;
  View out = ex.output(in, dom);
  const int rank = dom.rank();
  float cur[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t m = pos[0] - m0;
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
      if (autoacc) {
        for (int64_t i = 0; i < w; ++i) {
          float x = row[c + i];
          if (out.buf->written.test(out.offset(pos, lo + c + i))) {
            read_f32(out, pos, lo + c + i, 1, &cur[i], ex);
            x += cur[i];
          }
          write_f32(out, pos, lo + c + i, 1, &x);
        }
        continue;
      }
      if (ex.opts && ex.opts->label_own_checks && !out.buf->written.all() &&
          !out.buf->written.test(out.offset(pos, lo + c)))
        warn_once_accumulate(ex);
      read_f32(out, pos, lo + c, w, cur, ex);
      for (int64_t i = 0; i < w; ++i) cur[i] += row[c + i];
      write_f32(out, pos, lo + c, w, cur);
    }
  });
}

void register_matmul_execs(ExecTable& t) {
  t.add("nc_matmul", exec_nc_matmul);
  t.add("nc_transpose", exec_nc_transpose);
}

} // namespace nki::sim
