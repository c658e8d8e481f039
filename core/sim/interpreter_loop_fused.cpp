// Loops whose body is one fused strip group (a load-compute-store tile loop, the shape of most
// element-wise kernels): the iterations run partition by partition — every iteration's steps
// on partition 0, then on partition 1, ... — instead of iteration by iteration. A loop over
// column tiles of a row-major tensor then walks each row from its start to its end instead of
// jumping a whole row ahead every few kilobytes, which is what memory streams at full speed.
//
// The order changes nothing when memory that one iteration writes is accessed by no other
// iteration, or only written by the others, each elsewhere (the iterations' own tiles, one
// row each, aside): each location then receives the writes of one iteration, in that
// iteration's order, and every read sees what it would have seen. fuse_batch checks this
// on the resolved steps of a batch of iterations before running any; a loop that does not
// qualify, or an iteration whose checks fail (a mask, memory not all written, a run-time
// error), runs the ordinary way from there, so errors are raised where and when they always
// were.
#include <algorithm>
#include <functional>

#include "sim/interpreter.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// Steps prepared at a time (a step holds its views): iterations per batch = this / body size.
// (A batch that ends mid-row splits each row's writes in two: 128 unrolled iterations of 7
// instructions fit in one.)
constexpr int64_t kLoopSteps = 1024;

using Kind = FusedStep::Kind;

// Memory a step accesses outside its own tiles; for a write, the range: rows g.rows,
// `stride` elements apart, `width` long.
struct Access {
  const Buffer* buf;
  int64_t origin, stride, width, iteration;
  bool write;
};

// Whether two iterations' writes of one buffer, all `stride` elements apart row to row and no
// wider than a row, never touch the same element: each covers the row lines
// [origin / stride, + rows) and the columns [origin % stride, + width) of every line.
bool disjoint(std::vector<Access>& ws, int64_t rows) {
  const int64_t s = ws.front().stride;
  for (const Access& w : ws)
    if (w.stride != s || s <= 0 || w.origin < 0 || w.width < 1 || w.origin % s + w.width > s)
      return false;
  std::sort(ws.begin(), ws.end(),
            [s](const Access& x, const Access& y) { return x.origin % s < y.origin % s; });
  for (size_t i = 0; i < ws.size(); ++i) {
    const int64_t ci = ws[i].origin % s, li = ws[i].origin / s;
    for (size_t j = i + 1; j < ws.size() && ws[j].origin % s < ci + ws[i].width; ++j) {
      const int64_t lj = ws[j].origin / s;
      if (ws[j].iteration != ws[i].iteration && li < lj + rows && lj < li + rows) return false;
    }
  }
  return true;
}

// Whether view b continues view a by `width` columns: the same rows of the same memory, the
// next `width` columns (or, along a broadcast axis, the same ones).
bool next_to(const View& a, const View& b, int64_t width) {
  return a.buf == b.buf && a.dtype == b.dtype && a.esize == b.esize && a.rank == 2 && b.rank == 2 &&
         !a.ind && !b.ind && a.stride[0] == b.stride[0] && a.stride[1] == b.stride[1] &&
         b.origin == a.origin + width * a.stride[1];
}

bool next_source(const Source& a, const Source& b, int64_t width) {
  if (a.scalar || b.scalar) return a.scalar && b.scalar && a.value == b.value;
  return next_to(a.view, b.view, width);
}

// Whether iteration b's steps are iteration a's on the next column tile: then both run as one
// step twice as wide (every step element-wise: no reduction, whose fold would change).
bool continues(const std::vector<FusedStep>& a, const std::vector<FusedStep>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const FusedStep &x = a[i], &y = b[i];
    if (x.kind == Kind::Reduce || y.kind != x.kind || y.width != x.width || y.phase != x.phase ||
        y.op0 != x.op0 || y.op1 != x.op1 || y.r0 != x.r0 || y.r1 != x.r1 || y.scaled != x.scaled ||
        y.biased != x.biased || y.bits != x.bits || y.skip != x.skip || y.fed != x.fed ||
        y.fn != x.fn || y.merged != x.merged || y.chain != x.chain || y.cop != x.cop ||
        y.quad != x.quad)
      return false;
    const int64_t w = x.width;
    if (!next_to(x.out, y.out, w) || !next_to(x.a, y.a, w)) return false;
    if (x.kind == Kind::Binary && !next_to(x.b, y.b, w)) return false;
    if (x.chain != 0 && (!next_to(x.ca, y.ca, w) || !next_to(x.cb, y.cb, w))) return false;
    if ((x.kind == Kind::TwoOps || x.kind == Kind::Activation) &&
        (!next_source(x.s0, y.s0, w) || !next_source(x.s1, y.s1, w)))
      return false;
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
  const int64_t batch = std::max<int64_t>(2, kLoopSteps / static_cast<int64_t>(g->insts.size()));
  std::vector<const StripGroup*> gs;
  int64_t done = 0;
  while (a.trip_count - done >= 2) {
    gs.assign(static_cast<size_t>(std::min(batch, a.trip_count - done)), g);
    if (!fuse_batch(gs, [&](int64_t k) { iv = a.lb + (done + k) * a.stride; })) break;
    done += static_cast<int64_t>(gs.size());
  }
  return done;
}

void Interpreter::run_unrolled(const Region& r) {
  // The iterations of an unrolled loop are its child regions, each its own instructions.
  for (const Item& it : r.body)
    if (it.kind != Item::Kind::Region || k_.region(it.id).kind != RegionKind::ScopeRegion ||
        k_.region(it.id).payload.core >= 0) {
      body(r);
      return;
    }
  std::vector<const StripGroup*> gs;
  for (size_t i = 0; i < r.body.size();) {
    gs.clear();
    int64_t steps = 0;
    size_t j = i;
    for (; j < r.body.size(); ++j) {
      const StripGroup* g = loop_group(k_.region(r.body[j].id));
      if (!g || (!gs.empty() && steps + static_cast<int64_t>(g->insts.size()) > kLoopSteps)) break;
      gs.push_back(g);
      steps += static_cast<int64_t>(g->insts.size());
    }
    if (gs.size() >= 2 && fuse_batch(gs, [](int64_t) {})) {
      i = j;
      continue;
    }
    // In turn: the iterations tried (so that each is prepared at most once more), or the next.
    for (size_t e = std::max(j, i + 1); i < e; ++i) region(k_.region(r.body[i].id));
  }
}

bool Interpreter::fuse_batch(const std::vector<const StripGroup*>& gs,
                             const std::function<void(int64_t)>& enter) {
  const int64_t n = static_cast<int64_t>(gs.size());
  const int64_t rows = gs.front()->rows;
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
    const StripGroup& g = *gs[static_cast<size_t>(k)];
    if (g.rows != rows) return decline();
    enter(k);
    StripScope scope{ex_, g}; // (the steps hold the views the redirects resolved to)
    if (!strips_ready(g, strips, aliased)) return decline();
    ex_.pool.clear();
    if (!prepare_fused(g, aliased, loop_steps_[static_cast<size_t>(k)])) return decline();
    if (k == 0)
      rowbufs = fused_rowbufs_;
    else if (fused_rowbufs_ != rowbufs) // a row buffer was made anew
      return decline();
  }
  auto own = [&](const Buffer* b) {
    return std::find(rowbufs.begin(), rowbufs.end(), b) != rowbufs.end();
  };
  // What the iterations access outside their own tiles: memory one of them writes must be
  // accessed by that iteration alone, or only written, by each iteration elsewhere.
  std::vector<Access> acc;
  for (int64_t k = 0; k < n; ++k)
    for (const FusedStep& s : loop_steps_[static_cast<size_t>(k)]) {
      if (!own(s.out.buf)) {
        const int64_t width = s.kind == Kind::Reduce ? 1 : s.width;
        if (width > 1 && s.out.stride[1] != 1) return decline();
        acc.push_back({s.out.buf, s.out.origin, s.out.stride[0], width, k, true});
      }
      if (s.skip) continue; // a copy onto itself: its source is its destination
      for (const View* v : {&s.a, s.kind == Kind::Binary ? &s.b : nullptr,
                            s.s0.scalar ? nullptr : &s.s0.view, s.s1.scalar ? nullptr : &s.s1.view})
        if (v && v->buf && !own(v->buf)) acc.push_back({v->buf, 0, 0, 0, k, false});
    }
  std::sort(acc.begin(), acc.end(), [](const Access& x, const Access& y) {
    return x.buf != y.buf ? x.buf < y.buf : x.write > y.write;
  });
  for (size_t i = 0; i < acc.size();) {
    size_t j = i;
    bool one = true, reads = false;
    while (j < acc.size() && acc[j].buf == acc[i].buf) {
      one = one && acc[j].iteration == acc[i].iteration;
      reads = reads || !acc[j].write;
      ++j;
    }
    if (acc[i].write && !one) { // (writes sort first)
      if (reads) return decline();
      std::vector<Access> ws(acc.begin() + static_cast<std::ptrdiff_t>(i),
                             acc.begin() + static_cast<std::ptrdiff_t>(j));
      if (!disjoint(ws, rows)) return decline();
    }
    i = j;
  }
  // Iterations whose steps continue the previous iteration's on the next column tile run as
  // one step as wide as all of them: a row of 128 such 512-column tiles is one run of 65536.
  std::vector<int64_t> spans; // the first iteration of each
  for (int64_t k = 0; k < n; ++k) {
    auto& steps = loop_steps_[static_cast<size_t>(k)];
    if (k > 0 && continues(loop_steps_[static_cast<size_t>(k) - 1], steps)) {
      auto& head = loop_steps_[static_cast<size_t>(spans.back())];
      for (size_t i = 0; i < steps.size(); ++i) head[i].width += steps[i].width;
      continue; // (iteration k keeps its own steps, which its successor is compared with)
    }
    spans.push_back(k);
  }
  // Partition by partition, iteration (or span of iterations) by iteration.
  std::vector<int64_t> seq(static_cast<size_t>(n) + 1, ex_.seq);
  for (int64_t k = 0; k < n; ++k)
    seq[static_cast<size_t>(k) + 1] =
        seq[static_cast<size_t>(k)] +
        static_cast<int64_t>(gs[static_cast<size_t>(k)]->insts.size());
  for (int64_t p = 0; p < rows; ++p)
    for (int64_t k : spans)
      fused_row(loop_steps_[static_cast<size_t>(k)], p, seq[static_cast<size_t>(k)]);
  ex_.log.instructions += seq.back() - seq.front();
  ex_.seq = seq.back();
  ex_.log.interleaved_iterations += n;
  return true;
}

} // namespace nki::sim
