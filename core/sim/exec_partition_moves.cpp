// Moves across or within groups of partitions: nc_stream_shuffle (each 32-partition quadrant of
// dst copies the partitions of src its shuffle_mask names) and local_gather (each 16-partition
// GpSimd core gathers runs of elements at its indices). Values go through fp32.
#include <algorithm>
#include <vector>

#include "sim/diagnostics.h"
#include "sim/exec.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

/// A tile read whole, row-major, as fp32: `parts` partitions of `free` elements.
struct WholeTile {
  int64_t parts = 1, free = 1;
  std::vector<float> v;
  float at(int64_t p, int64_t f) const { return v[static_cast<size_t>(p * free + f)]; }
};

WholeTile read_whole(Exec& ex, const Operand& o, View* view_out = nullptr) {
  WholeTile t;
  const std::vector<int64_t>& s = o.ap.tile_shape;
  t.parts = s.empty() ? 1 : s[0];
  for (size_t i = 1; i < s.size(); ++i) t.free *= s[i];
  t.v.resize(static_cast<size_t>(t.parts * t.free));
  Domain dom(s, {}, ex.env);
  View v = ex.view(o, dom);
  float* w = t.v.data();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    read_f32(v, pos, lo, n, w, ex);
    w += n;
  });
  if (view_out) *view_out = v;
  return t;
}

/// Partition and free offset (row-major over the free axes) of element `lo + i` of a run.
struct RunCursor {
  const Domain& dom;
  int64_t partition(const int64_t* pos, int64_t e) const { return dom.rank() > 1 ? pos[0] : e; }
  int64_t free_offset(const int64_t* pos, int64_t e) const {
    if (dom.rank() < 2) return 0;
    int64_t f = 0;
    for (int k = 1; k < dom.rank() - 1; ++k) f = f * dom.extent(k) + pos[k];
    return f * dom.extent(dom.rank() - 1) + e;
  }
};

void exec_nc_stream_shuffle(Exec& ex, const Instruction& in) {
  const WholeTile src = read_whole(ex, ex.need(in, "src")); // before dst: in place is allowed
  const std::vector<int64_t> mask = ex.attr_ints(in, "shuffle_mask");
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View dst = ex.output(in, dom);
  RunCursor cur{dom};
  float vals[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    // Runs of elements to write: a partition whose mask entry is 255 is left as it is.
    int64_t start = 0;
    auto flush = [&](int64_t end) {
      if (end > start) write_f32(dst, pos, lo + start, end - start, vals + (start % kChunk));
    };
    for (int64_t i = 0; i < n; ++i) {
      if (i % kChunk == 0) {
        flush(i);
        start = i;
      }
      const int64_t e = lo + i, p = cur.partition(pos, e);
      const int64_t m = mask[static_cast<size_t>(p % 32)];
      if (m == 255) {
        flush(i);
        start = i + 1;
        continue;
      }
      vals[i % kChunk] = src.at(p - p % 32 + m, cur.free_offset(pos, e));
    }
    flush(n);
  });
}

void exec_local_gather(Exec& ex, const Instruction& in) {
  View sv;
  const WholeTile src = read_whole(ex, ex.need(in, "src_buffer"), &sv);
  const WholeTile index = read_whole(ex, ex.need(in, "index"));
  const int64_t per_idx = static_cast<int64_t>(ex.attr_num(in, "num_elem_per_idx", 1));
  Domain dom(ex.out_shape(in), in.mask, ex.env); // [P, valid, per_idx]
  View out = ex.output(in, dom);
  RunCursor cur{dom};
  float vals[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t m = std::min(kChunk, n - c);
      for (int64_t i = 0; i < m; ++i) {
        const int64_t e = lo + c + i, p = cur.partition(pos, e);
        const int64_t f = cur.free_offset(pos, e), k = f / per_idx, j = f % per_idx;
        // The core's indices, flattened partition first (column-major over its 16 rows).
        const int64_t base = p - p % 16;
        const int64_t at = static_cast<int64_t>(index.at(base + k % 16, k / 16)) + j;
        if (at < 0 || at >= src.free)
          err_tensor_access_out_of_bound(sv.tensor->name, 1, at, at, src.free, in.loc);
        vals[i] = src.at(p, at);
      }
      write_f32(out, pos, lo + c, m, vals);
    }
  });
}

} // namespace

void register_partition_move_execs(ExecTable& t) {
  t.add("nc_stream_shuffle", exec_nc_stream_shuffle);
  t.add("local_gather", exec_local_gather);
}

} // namespace nki::sim
