// The current language's per-partition gathers and searches: nc_n_gather (each partition
// gathers its flattened free elements at its indices), nonzero_with_count (partitions 0, 16,
// ..., 112 list their nonzero positions, padding and the count) and topk (each 16-partition
// group's "snake" of n values gives its K largest, ascending, written back as a snake).
// Values are held as doubles: exact for every integer up to 32 bits and every float.
#include <algorithm>
#include <numeric>
#include <vector>

#include "sim/diagnostics.h"
#include "sim/exec.h"
#include "sim/exec_util.h"

namespace nki::sim {

using namespace nki::ir;

Tile2D read_tile(Exec& ex, const Operand& o, int64_t row_step) {
  Tile2D t;
  const std::vector<int64_t>& s = o.ap.tile_shape;
  t.parts = s.empty() ? 1 : s[0];
  for (size_t i = 1; i < s.size(); ++i) t.free *= s[i];
  t.v.resize(static_cast<size_t>(t.parts * t.free));
  Domain dom(s, {}, ex.env);
  View v = ex.view(o, dom);
  t.dtype = v.dtype;
  double* w = t.v.data();
  const bool ints = !dtype_is_float(v.dtype);
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    if (row_step > 1 && dom.rank() > 1 && pos[0] % row_step != 0) {
      std::fill(w, w + n, 0.0);
      w += n;
      return;
    }
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t m = std::min(kChunk, n - c);
      if (ints) {
        int64_t b[kChunk];
        read_i64(v, pos, lo + c, m, b, ex);
        for (int64_t i = 0; i < m; ++i) w[i] = static_cast<double>(b[i]);
      } else {
        float b[kChunk];
        read_f32(v, pos, lo + c, m, b, ex);
        for (int64_t i = 0; i < m; ++i) w[i] = b[i];
      }
      w += m;
    }
  });
  return t;
}

void write_tile(Exec& ex, const Operand& o, const Tile2D& t, const std::vector<uint8_t>* keep) {
  Domain dom(o.ap.tile_shape, {}, ex.env);
  View v = ex.view(o, dom);
  const bool ints = !dtype_is_float(v.dtype);
  int64_t at = 0;
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t start = 0; // the pending run of elements to write: [start, i)
    auto flush = [&](int64_t end) {
      for (int64_t c = start; c < end; c += kChunk) {
        const int64_t m = std::min(kChunk, end - c);
        const double* src = t.v.data() + at + c;
        if (ints) {
          int64_t b[kChunk];
          for (int64_t i = 0; i < m; ++i) b[i] = static_cast<int64_t>(src[i]);
          write_i64(v, pos, lo + c, m, b);
        } else {
          float b[kChunk];
          for (int64_t i = 0; i < m; ++i) b[i] = static_cast<float>(src[i]);
          write_f32(v, pos, lo + c, m, b);
        }
      }
    };
    if (keep) {
      for (int64_t i = 0; i < n; ++i)
        if (!(*keep)[static_cast<size_t>(at + i)]) {
          flush(i);
          start = i + 1;
        }
    }
    flush(n);
    at += n;
  });
}

namespace {

void exec_nc_n_gather(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  const Tile2D data = read_tile(ex, d), idx = read_tile(ex, ex.need(in, "indices"));
  const Operand& dst = ex.need(in, "dst");
  Tile2D out = read_shape(dst);
  for (int64_t p = 0; p < out.parts; ++p)
    for (int64_t j = 0; j < out.free; ++j) {
      const int64_t i = static_cast<int64_t>(idx.at(p, j));
      if (i < 0 || i >= data.free)
        err_tensor_access_out_of_bound(ex.k.tensor(d.ap.tensor).name, 1, i, i, data.free, in.loc);
      out.at(p, j) = data.at(p, i);
    }
  write_tile(ex, dst, out);
}

void exec_nonzero_with_count(Exec& ex, const Instruction& in) {
  const Tile2D src = read_tile(ex, ex.need(in, "src"), 16); // each core's partition 0
  const Operand& dst = ex.need(in, "dst");
  Tile2D out = read_shape(dst);
  std::vector<uint8_t> keep(out.v.size(), 0);
  const double offset = ex.attr_num(in, "index_offset", 0);
  const double pad = ex.attr_num(in, "padding_val", -1);
  for (int64_t p = 0; p < out.parts; p += 16) { // each GpSimd core's partition 0
    int64_t found = 0;
    for (int64_t i = 0; i < src.free; ++i)
      if (src.at(p, i) != 0) out.at(p, found++) = static_cast<double>(i) + offset;
    for (int64_t i = found; i < src.free; ++i) out.at(p, i) = pad;
    out.at(p, src.free) = static_cast<double>(found);
    std::fill(keep.begin() + p * out.free, keep.begin() + (p + 1) * out.free, 1);
  }
  write_tile(ex, dst, out, &keep);
}

// Snake position s of a 16-partition group: partition s % 16, column s / 16.
void exec_topk(Exec& ex, const Instruction& in) {
  const Tile2D src = read_tile(ex, ex.need(in, "src"));
  const Operand& vo = ex.need(in, "val_dst");
  const Operand& io = ex.need(in, "idx_dst");
  Tile2D val = read_shape(vo), idx = read_shape(io);
  std::vector<uint8_t> keep(val.v.size(), 0);
  const int64_t n = static_cast<int64_t>(ex.attr_num(in, "n", 8)), k = val.free;
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t base = 0; base + 16 <= src.parts; base += 16) {
    auto value = [&](int64_t s) { return src.at(base + s % 16, s / 16); };
    std::iota(order.begin(), order.end(), 0);
    // The K largest (a lower position first among equal values), then ascending.
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return value(a) > value(b); });
    for (int64_t j = 0; j < k; ++j) {
      const int64_t s = order[static_cast<size_t>(k - 1 - j)];
      const int64_t p = base + j % 16, f = j / 16;
      val.at(p, f) = value(s);
      idx.at(p, f) = static_cast<double>(s);
      keep[static_cast<size_t>(p * val.free + f)] = 1;
    }
  }
  write_tile(ex, vo, val, &keep);
  write_tile(ex, io, idx, &keep);
}

} // namespace

void register_gather_execs(ExecTable& t) {
  t.add("nc_n_gather", exec_nc_n_gather);
  t.add("nonzero_with_count", exec_nonzero_with_count);
  t.add("topk", exec_topk);
}

} // namespace nki::sim
