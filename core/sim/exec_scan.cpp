// tensor_tensor_scan: the recurrence state = op1(op0(state, data0), data1) along each
// partition's row, a block of four partitions side by side; with the plan, the multiply before
// it (its data1, KernelPlan::scan_pre) and the accumulation after it (KernelPlan::scan_post)
// computed as it runs.
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <vector>

#include "sema/sema.h"
#include "sim/exec.h"
#include "sim/exec_util.h"
#include "sim/simd.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// The arithmetic operators inline, as alu_one defines them (the scan's fast path).
template <Alu Op> inline float alu_inline(float a, float b) {
  if constexpr (Op == Alu::Add)
    return a + b;
  else if constexpr (Op == Alu::Subtract)
    return a - b;
  else if constexpr (Op == Alu::Multiply)
    return a * b;
  else if constexpr (Op == Alu::Maximum)
    return ((a >= b) | (a != a)) ? a : b;
  else
    return ((a <= b) | (a != a)) ? a : b; // Minimum
}

// One scan step per row for kScanRows rows side by side (independent chains, so the machine
// overlaps them), each row exactly the scalar recurrence. Row j of an operand starts `stride`
// elements after row j - 1.
constexpr int kScanRows = 8;
struct ScanRows {
  const float* a;
  int64_t sa;
  const float* b;
  int64_t sb;
  const float* c; // data1 = b · c when the scan computes its data1 (KernelPlan::scan_pre)
  int64_t sc;
  float* o;
  int64_t so;
  const float* pc; // y += o · pc when the scan computes the accumulation after it (scan_post)
  int64_t spc;
  float* py;
  int64_t spy;
};
using ScanFn = void (*)(const ScanRows&, float*, int64_t, bool, bool);

// alu_inline on four lanes: the same operation, lane by lane, with the same NaN rule.
template <Alu Op> inline F4 alu_lanes(F4 a, F4 b) {
  if constexpr (Op == Alu::Add)
    return a + b;
  else if constexpr (Op == Alu::Subtract)
    return a - b;
  else if constexpr (Op == Alu::Multiply)
    return a * b;
  else if constexpr (Op == Alu::Maximum)
    return select4((a >= b) | (a != a), a, b);
  else
    return select4((a <= b) | (a != a), a, b); // Minimum
}

// Four rows' recurrence over columns [0, 4) of their operand rows (row j at a + j · sa, ...):
// the 4 x 4 blocks of each operand transposed so that a vector holds one column of the four
// rows, the recurrence stepped column by column — each row's chain the scalar one, its
// operations in its order — and the results transposed back. Returns the rows' new state.
// Mul: data1 is b · c, each row's products rounded as the multiply instruction rounds them.
// Post: then y = y + o · pc, row by row, as the multiply and the add after the scan round them.
template <Alu Op0, Alu Op1, bool Mul, bool Post>
inline F4 scan_block(const float* a, int64_t sa, const float* b, int64_t sb, const float* c,
                     int64_t sc, float* o, int64_t so, const float* pc, int64_t spc, float* py,
                     int64_t spy, F4 s, bool r0, bool r1) {
  F4 x[4], y[4], t[4];
  transpose4(load4(a), load4(a + sa), load4(a + 2 * sa), load4(a + 3 * sa), x);
  if constexpr (Mul)
    transpose4(load4(b) * load4(c), load4(b + sb) * load4(c + sc),
               load4(b + 2 * sb) * load4(c + 2 * sc), load4(b + 3 * sb) * load4(c + 3 * sc), y);
  else
    transpose4(load4(b), load4(b + sb), load4(b + 2 * sb), load4(b + 3 * sb), y);
  for (int q = 0; q < 4; ++q) {
    const F4 u = r0 ? alu_lanes<Op0>(s, x[q]) : alu_lanes<Op0>(x[q], s);
    s = r1 ? alu_lanes<Op1>(y[q], u) : alu_lanes<Op1>(u, y[q]);
    x[q] = s;
  }
  transpose4(x[0], x[1], x[2], x[3], t);
  for (int k = 0; k < 4; ++k) store4(o + k * so, t[k]);
  if constexpr (Post)
    for (int k = 0; k < 4; ++k)
      store4(py + k * spy, load4(py + k * spy) + t[k] * load4(pc + k * spc));
  return s;
}

// Two groups of four rows (scan_block), four columns at a time; the columns left over step one
// by one. The rows' pointers, strides and states are locals, not read through `r` or `state`
// at each step (which the compiler must otherwise assume the stores may change: in wasm, the
// state went through memory at every block).
template <Alu Op0, Alu Op1, bool Mul, bool Post = false>
void scan_rows(const ScanRows& r, float* state, int64_t n, bool r0, bool r1) {
  static_assert(kScanRows == 8, "two groups of four rows");
  const float *a = r.a, *b = r.b, *c = r.c, *pc = r.pc;
  float *o = r.o, *py = r.py;
  const int64_t sa = r.sa, sb = r.sb, sc = r.sc, so = r.so, spc = r.spc, spy = r.spy;
  const float *a4 = a + 4 * sa, *b4 = b + 4 * sb, *c4 = Mul ? c + 4 * sc : nullptr;
  const float* pc4 = Post ? pc + 4 * spc : nullptr;
  float *o4 = o + 4 * so, *py4 = Post ? py + 4 * spy : nullptr;
  F4 s0 = load4(state), s1 = load4(state + 4);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 = scan_block<Op0, Op1, Mul, Post>(a + i, sa, b + i, sb, c + i, sc, o + i, so, pc + i, spc,
                                         py + i, spy, s0, r0, r1);
    s1 = scan_block<Op0, Op1, Mul, Post>(a4 + i, sa, b4 + i, sb, c4 + i, sc, o4 + i, so, pc4 + i,
                                         spc, py4 + i, spy, s1, r0, r1);
  }
  store4(state, s0);
  store4(state + 4, s1);
  for (; i < n; ++i)
    for (int j = 0; j < kScanRows; ++j) {
      const float x = a[j * sa + i], y = Mul ? b[j * sb + i] * c[j * sc + i] : b[j * sb + i];
      const float u = r0 ? alu_inline<Op0>(state[j], x) : alu_inline<Op0>(x, state[j]);
      state[j] = r1 ? alu_inline<Op1>(y, u) : alu_inline<Op1>(u, y);
      o[j * so + i] = state[j];
      if constexpr (Post) py[j * spy + i] = py[j * spy + i] + state[j] * pc[j * spc + i];
    }
}

constexpr Alu kScanOps[] = {Alu::Add, Alu::Subtract, Alu::Multiply, Alu::Maximum, Alu::Minimum};

template <Alu Op0, bool Mul, size_t... I> ScanFn scan_fn_for(Alu op1, std::index_sequence<I...>) {
  ScanFn f = nullptr;
  ((op1 == kScanOps[I] ? (f = scan_rows<Op0, kScanOps[I], Mul>) : f), ...);
  return f;
}
template <bool Mul, size_t... I> ScanFn scan_fn(Alu op0, Alu op1, std::index_sequence<I...> seq) {
  ScanFn f = nullptr;
  ((op0 == kScanOps[I] ? (f = scan_fn_for<kScanOps[I], Mul>(op1, seq)) : f), ...);
  return f;
}

// The accumulation after a scan that the scan computes (KernelPlan::scan_post): y += h · c.
struct PostViews {
  View c, y;
};

// Whether the scan computes `post` too: both fp32 tiles read in place, every row, fully
// written, sharing no memory with the scan's operands or with each other.
bool post_ready(const PostViews& post, const Domain& dom, std::initializer_list<const View*> scan) {
  const View &c = post.c, &y = post.y;
  if (c.ind || y.ind || c.linear || y.linear || c.buf == y.buf || y.buf->read_only) return false;
  // (Y's rows apart, each element written once: a view may be any slice of its tensor.)
  if (y.rank != 2 || std::abs(y.stride[0]) < dom.extent(1)) return false;
  for (const View* v : scan)
    if (v && (v->buf == c.buf || v->buf == y.buf)) return false;
  if ((dom.row_hi() - dom.row_lo()) % kScanRows != 0) return false;
  for (int64_t p0 = dom.row_lo(); p0 < dom.row_hi(); p0 += kScanRows) {
    int64_t pos[1] = {p0};
    if (!direct_in(c, pos, 0) || !direct_in(y, pos, 0) || !direct_out(y, pos, 0)) return false;
  }
  return true;
}

// The scan of a whole unmasked [P, F] tile whose inputs are fully written and whose output
// shares no memory with them, kScanRows partitions at a time: the same values, reads and
// writes as the row-by-row loop (nothing it reads can be a never-written element, and no row
// it writes is read afterwards). False when the case does not apply. With `post`, also the
// accumulation after it when post_ready (`posted`).
bool scan_tile(Exec& ex, const Domain& dom, const View& d0, const View& d1, const View* d1_by,
               const Source& init, const View& out, Alu op0, Alu op1, bool r0, bool r1,
               const PostViews* post, bool& posted) {
  posted = false;
  if (dom.rank() != 2 || dom.masked()) return false;
  constexpr auto ops = std::make_index_sequence<sizeof(kScanOps) / sizeof(kScanOps[0])>();
  // (With data1 a product, only recurrences of adds, subtracts and multiplies — the selective
  // scan's — have their own loops; the others take the loop below: fewer loops in the module.)
  constexpr auto arith = std::make_index_sequence<3>(); // add, subtract, multiply
  ScanFn fn = d1_by ? scan_fn<true>(op0, op1, arith) : scan_fn<false>(op0, op1, ops);
  if (!fn) return false;
  for (const View* v : {&d0, &d1, d1_by, init.scalar ? nullptr : &init.view}) {
    if (v && (v->ind || !v->buf->written.all() || v->buf == out.buf)) return false;
  }
  if (out.ind) return false;
  // (The accumulation only after h = a · h + x, the planner's pattern: two loops more.)
  if (post && op0 == Alu::Multiply && op1 == Alu::Add && !r0 && !r1 &&
      post_ready(*post, dom, {&d0, &d1, d1_by, init.scalar ? nullptr : &init.view, &out})) {
    posted = true;
    fn = d1_by ? scan_rows<Alu::Multiply, Alu::Add, true, true>
               : scan_rows<Alu::Multiply, Alu::Add, false, true>;
  }
  // (Partitions [row_lo, row_hi): a strip's, when the scan runs in strips.)
  const int64_t rows = dom.row_hi(), n = dom.extent(1);
  // Scratch: kScanRows rows of each operand (used when a view cannot be read in place), and
  // the padding rows of a last, partial group.
  std::vector<float>& buf = ex.scratch[0];
  buf.resize(static_cast<size_t>(4 * kScanRows * n));
  float* scratch[4] = {buf.data(), buf.data() + kScanRows * n, buf.data() + 2 * kScanRows * n,
                       buf.data() + 3 * kScanRows * n};
  auto rows_of = [&](const View& v, int64_t p0, int g, float* tmp, int64_t& stride) {
    int64_t pos[1] = {p0};
    const float* p = g == kScanRows ? direct_in(v, pos, 0) : nullptr;
    if (p) {
      stride = v.stride[0];
      return p;
    }
    for (int j = 0; j < kScanRows; ++j) {
      pos[0] = p0 + j;
      if (j < g)
        read_f32(v, pos, 0, n, tmp + j * n, ex);
      else
        std::fill(tmp + j * n, tmp + (j + 1) * n, 0.0f);
    }
    stride = n;
    return static_cast<const float*>(tmp);
  };
  float state[kScanRows];
  for (int64_t p0 = dom.row_lo(); p0 < rows; p0 += kScanRows) {
    const int g = static_cast<int>(std::min<int64_t>(kScanRows, rows - p0));
    for (int j = 0; j < kScanRows; ++j) {
      int64_t pos[1] = {p0 + j};
      state[j] = 0.0f;
      if (j < g) ex.read(init, pos, 0, 1, &state[j]);
    }
    ScanRows r;
    r.a = rows_of(d0, p0, g, scratch[0], r.sa);
    r.b = rows_of(d1, p0, g, scratch[1], r.sb);
    r.c = d1_by ? rows_of(*d1_by, p0, g, scratch[3], r.sc) : nullptr;
    r.sc = d1_by ? r.sc : 0;
    int64_t pos[1] = {p0};
    float* direct = g == kScanRows ? direct_out(out, pos, 0) : nullptr;
    r.o = direct ? direct : scratch[2];
    r.so = direct ? out.stride[0] : n;
    r.pc = posted ? direct_in(post->c, pos, 0) : nullptr;
    r.spc = posted ? post->c.stride[0] : 0;
    r.py = posted ? direct_out(post->y, pos, 0) : nullptr;
    r.spy = posted ? post->y.stride[0] : 0;
    fn(r, state, n, r0, r1);
    for (int j = 0; j < g; ++j) {
      pos[0] = p0 + j;
      if (direct)
        wrote_direct(out, pos, 0, n);
      else
        write_f32(out, pos, 0, n, scratch[2] + j * n);
      if (posted) wrote_direct(post->y, pos, 0, n);
    }
  }
  return true;
}

// r[p, 0] = op1(op0(data0[p, 0], initial[p]), data1[p, 0]); r[p, i] uses r[p, i-1].
// With Exec::scan_pre set (the multiply before the scan, KernelPlan::scan_pre), data1 is the
// product of that multiply's operands, computed here: d1 · d1_by.
void exec_tensor_tensor_scan(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  const Instruction* pre = ex.scan_pre;
  View d0 = ex.view(ex.need(in, "data0"), dom);
  View d1 = ex.view(pre ? ex.need(*pre, "x") : ex.need(in, "data1"), dom), d1_by;
  if (pre) d1_by = ex.view(ex.need(*pre, "y"), dom);
  Source init = ex.source(in, "initial", dom);
  View out = ex.output(in, dom);
  auto op0 = parse_alu(ex.attr_str(in, "op0")), op1 = parse_alu(ex.attr_str(in, "op1"));
  if (!op0 || !op1) ex.unsupported("tensor_tensor_scan operators");
  bool r0 = ex.attr_num(in, "reverse0", 0) != 0, r1 = ex.attr_num(in, "reverse1", 0) != 0;
  ex.log.scan_steps += dom.count();
  // The accumulation after the scan (KernelPlan::scan_post), resolved as its instructions
  // would resolve them; outside a strip (whose window the later instructions do not share).
  const KernelPlan::Post& fold = ex.plan.scan_post[static_cast<size_t>(in.id)];
  std::optional<PostViews> post;
  if (fold.mul >= 0 && ex.env.win_rows == 0 && (fold.early == 0 || ex.post_early)) {
    const Instruction &m = ex.k.inst(fold.mul), &a = ex.k.inst(fold.add);
    try {
      post.emplace();
      post->c = resolve(ex.storage, ex.k, ex.need(m, "y").ap, dom, ex.env, m.loc, ex.pool);
      post->y = resolve(ex.storage, ex.k, ex.need(a, "dst").ap, dom, ex.env, a.loc, ex.pool);
    } catch (const sema::NkiError&) {
      post.reset(); // they run, and report the error where they always did
    }
  }
  bool posted = false;
  if (scan_tile(ex, dom, d0, d1, pre ? &d1_by : nullptr, init, out, *op0, *op1, r0, r1,
                post ? &*post : nullptr, posted)) {
    if (posted) { // M read h and c, A read Y and M's tile and wrote Y (Exec::count_bytes)
      ex.count_bytes(post->c, dom);
      ex.count_bytes(post->y, dom);
      ex.count_bytes(post->y, dom);
      ex.post_mul = fold.mul;
      ex.post_add = fold.add;
    }
    return;
  }
  std::vector<float> state(static_cast<size_t>(dom.extent(0)));
  std::vector<uint8_t> started(state.size(), 0);
  float a[kChunk], b[kChunk], by[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    size_t p = static_cast<size_t>(dom.rank() > 1 ? pos[0] : 0);
    if (!started[p]) {
      ex.read(init, pos, lo, 1, &state[p]);
      started[p] = 1;
    }
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(d0, pos, lo + c, m, a, ex);
      read_f32(d1, pos, lo + c, m, b, ex);
      if (pre) {
        read_f32(d1_by, pos, lo + c, m, by, ex);
        for (int64_t i = 0; i < m; ++i) b[i] *= by[i];
      }
      float s = state[p];
      for (int64_t i = 0; i < m; ++i) {
        float t = r0 ? alu_one(*op0, s, a[i]) : alu_one(*op0, a[i], s);
        s = r1 ? alu_one(*op1, b[i], t) : alu_one(*op1, t, b[i]);
        a[i] = s;
      }
      state[p] = s;
      write_f32(out, pos, lo + c, m, a);
    }
  });
}

} // namespace

void register_scan_execs(ExecTable& t) {
  OpFacts scan;
  scan.row_local = true; // a recurrence along each partition's row
  t.add("tensor_tensor_scan", exec_tensor_tensor_scan, scan);
}

} // namespace nki::sim
