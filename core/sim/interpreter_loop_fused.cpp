// Loops whose body is one fused strip group (a load-compute-store tile loop, the shape of most
// element-wise kernels): the iterations run partition by partition — every iteration's steps
// on partition 0, then on partition 1, ... — instead of iteration by iteration. A loop over
// column tiles of a row-major tensor then walks each row from its start to its end instead of
// jumping a whole row ahead every few kilobytes, which is what memory streams at full speed.
//
// The order changes nothing an iteration reads when no iteration writes memory another
// iteration accesses and nothing the loop reads is written in it (its own tiles, one row each,
// aside): each location then receives the writes of one iteration, in that iteration's order,
// and every read sees the memory the loop started with. fuse_iterations checks this on the
// resolved steps of a batch of iterations before running any; a loop that does not qualify,
// or an iteration whose checks fail (a mask, a run-time error), runs the ordinary way from
// there, so errors are raised where and when they always were.
#include <algorithm>

#include "sim/interpreter.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// Steps prepared at a time (a step holds its views): iterations per batch = this / body size.
constexpr int64_t kLoopSteps = 512;

using Kind = FusedStep::Kind;

// A non-own memory range a step writes: rows g.rows, `stride` elements apart, `width` long.
struct Write {
  const Buffer* buf;
  int64_t origin, stride, width, iteration;
};

// Whether two iterations' writes of one buffer, all `stride` elements apart row to row and no
// wider than a row, never touch the same element: each covers the row lines
// [origin / stride, + rows) and the columns [origin % stride, + width) of every line.
bool disjoint(std::vector<Write>& ws, int64_t rows) {
  const int64_t s = ws.front().stride;
  for (const Write& w : ws)
    if (w.stride != s || s <= 0 || w.origin < 0 || w.width < 1 || w.origin % s + w.width > s)
      return false;
  std::sort(ws.begin(), ws.end(),
            [s](const Write& x, const Write& y) { return x.origin % s < y.origin % s; });
  for (size_t i = 0; i < ws.size(); ++i) {
    const int64_t ci = ws[i].origin % s, li = ws[i].origin / s;
    for (size_t j = i + 1; j < ws.size() && ws[j].origin % s < ci + ws[i].width; ++j) {
      const int64_t lj = ws[j].origin / s;
      if (ws[j].iteration != ws[i].iteration && li < lj + rows && lj < li + rows) return false;
    }
  }
  return true;
}

} // namespace

const StripGroup* Interpreter::loop_group(const Region& r) const {
  const Region* b = &r;
  while (!b->body.empty() && b->body.front().kind == Item::Kind::Region) {
    if (b->body.size() != 1) return nullptr;
    const Region& c = k_.region(b->body.front().id);
    if (c.kind == RegionKind::LoopScope || c.kind == RegionKind::WhileScope ||
        c.kind == RegionKind::IfScope || c.payload.core >= 0)
      return nullptr;
    b = &c;
  }
  if (b->body.empty()) return nullptr;
  const int32_t gi = ex_.plan.group_of[static_cast<size_t>(b->body.front().id)];
  if (gi < 0) return nullptr;
  const StripGroup& g = ex_.plan.groups[static_cast<size_t>(gi)];
  // A group is consecutive instructions of one body: as long as the body, it is all of it.
  return g.fuse && g.insts.size() == b->body.size() ? &g : nullptr;
}

int64_t Interpreter::run_loop_fused(const Region& r, const LoopAxis& a, int64_t& iv) {
  const StripGroup* g = a.trip_count >= 2 ? loop_group(r) : nullptr;
  if (!g) return 0;
  const int64_t per = static_cast<int64_t>(g->insts.size());
  const int64_t batch = std::max<int64_t>(2, kLoopSteps / per);
  int64_t done = 0;
  while (a.trip_count - done >= 2) {
    const int64_t n = std::min(batch, a.trip_count - done);
    if (!fuse_iterations(*g, a, iv, done, n)) break;
    done += n;
  }
  return done;
}

bool Interpreter::fuse_iterations(const StripGroup& g, const LoopAxis& a, int64_t& iv,
                                  int64_t first, int64_t n) {
  StripScope scope{ex_, g};
  const int64_t log_bytes = ex_.log.bytes_moved;
  auto decline = [&] {
    ex_.log.bytes_moved = log_bytes; // the ordinary path counts them again
    return false;
  };
  if (static_cast<int64_t>(loop_steps_.size()) < n) loop_steps_.resize(static_cast<size_t>(n));
  std::vector<const Buffer*> rowbufs;
  std::vector<Redirect> strips;
  std::vector<TensorId> aliased;
  for (int64_t k = 0; k < n; ++k) {
    iv = a.lb + (first + k) * a.stride;
    if (!strips_ready(g, strips, aliased)) return decline();
    ex_.pool.clear();
    if (!prepare_fused(g, aliased, loop_steps_[static_cast<size_t>(k)])) return decline();
    if (k == 0)
      rowbufs = fused_rowbufs_;
    else if (fused_rowbufs_ != rowbufs)
      return decline(); // a row buffer was made anew
  }
  auto own = [&](const Buffer* b) {
    return std::find(rowbufs.begin(), rowbufs.end(), b) != rowbufs.end();
  };
  // What the iterations write outside their own tiles, and that none of it is read.
  std::vector<Write> writes;
  for (int64_t k = 0; k < n; ++k)
    for (const FusedStep& s : loop_steps_[static_cast<size_t>(k)]) {
      if (own(s.out.buf)) continue;
      const int64_t width = s.kind == Kind::Reduce ? 1 : s.width;
      if (width > 1 && s.out.stride[1] != 1) return decline();
      writes.push_back({s.out.buf, s.out.origin, s.out.stride[0], width, k});
    }
  auto written = [&](const Buffer* b) {
    return std::any_of(writes.begin(), writes.end(), [b](const Write& w) { return w.buf == b; });
  };
  for (int64_t k = 0; k < n; ++k)
    for (const FusedStep& s : loop_steps_[static_cast<size_t>(k)]) {
      if (s.skip) continue; // a copy onto itself: its source is its destination
      for (const View* v : {&s.a, s.kind == Kind::Binary ? &s.b : nullptr,
                            s.s0.scalar ? nullptr : &s.s0.view, s.s1.scalar ? nullptr : &s.s1.view})
        if (v && v->buf && !own(v->buf) && written(v->buf)) return decline();
    }
  std::sort(writes.begin(), writes.end(),
            [](const Write& x, const Write& y) { return x.buf < y.buf; });
  for (size_t i = 0; i < writes.size();) {
    size_t j = i;
    while (j < writes.size() && writes[j].buf == writes[i].buf) ++j;
    std::vector<Write> same(writes.begin() + static_cast<std::ptrdiff_t>(i),
                            writes.begin() + static_cast<std::ptrdiff_t>(j));
    if (!disjoint(same, g.rows)) return decline();
    i = j;
  }
  // Partition by partition, iteration by iteration.
  const int64_t per = static_cast<int64_t>(g.insts.size()), seq0 = ex_.seq;
  for (int64_t p = 0; p < g.rows; ++p)
    for (int64_t k = 0; k < n; ++k)
      fused_row(loop_steps_[static_cast<size_t>(k)], p, seq0 + k * per);
  ex_.seq = seq0 + n * per;
  ex_.log.instructions += n * per;
  ex_.log.interleaved_iterations += n;
  iv = a.lb + (first + n - 1) * a.stride;
  return true;
}

} // namespace nki::sim
