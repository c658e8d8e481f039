// Reductions and scans: tensor_reduce (free axes), tensor_partition_reduce (across
// partitions), tensor_tensor_scan, bn_stats / bn_aggr, loop_reduce. Arithmetic reductions
// accumulate in fp32; a run along the innermost axis is folded over 8 interleaved lanes (then
// the lanes in order), which keeps the loop vectorizable. Bitvec reductions are bit-exact.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "sema/sema.h"
#include "sim/bn_stats.h"
#include "sim/exec.h"
#include "sim/exec_util.h"
#include "sim/simd.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// Runs fold over 8 interleaved lanes, two F4 (simd.h). Loop vectorizers do not turn the lane
// loops below into vector code by themselves (the fold is a reduction they will not
// reassociate). NaN-propagating max / min: keep `a` where it wins or is NaN.
inline F4 pick(F4 a, F4 b, I4 keep_a) {
  return select4(keep_a, a, b);
}

// keep-a maximum / minimum of lanes: each lane the bits of alu_one(op, a, b).
template <Alu Op> inline F4 keep_a(F4 a, F4 b) {
  if constexpr (Op == Alu::Maximum)
    return pick(a, b, (a >= b) | (a != a));
  else
    return pick(a, b, (a <= b) | (a != a));
}

// The two lane vectors of a maximum / minimum fold over the 8-element blocks of v[0, 8 nb).
// That fold yields, per lane, the first NaN of the lane's elements, else the first of its
// greatest (least) ones: an associative operation that only ever returns one of its
// operands. So the lane's sequence is cut into four consecutive parts folded side by side
// (four independent chains instead of one the processor waits on) and the parts folded in
// order: the same bits as one chain.
template <Alu Op> void fold_blocks_exact(const float* v, int64_t nb, F4& l0, F4& l1) {
  const int64_t q = nb / 4;
  F4 a[4], b[4];
  for (int c = 0; c < 4; ++c) a[c] = l0, b[c] = l1;
  for (int64_t j = 0; j < q; ++j)
    for (int c = 0; c < 4; ++c) {
      const float* p = v + 8 * (c * q + j);
      a[c] = keep_a<Op>(a[c], load4(p));
      b[c] = keep_a<Op>(b[c], load4(p + 4));
    }
  for (int64_t j = 4 * q; j < nb; ++j) { // the last part's remaining blocks, in order
    a[3] = keep_a<Op>(a[3], load4(v + 8 * j));
    b[3] = keep_a<Op>(b[3], load4(v + 8 * j + 4));
  }
  l0 = keep_a<Op>(keep_a<Op>(keep_a<Op>(a[0], a[1]), a[2]), a[3]);
  l1 = keep_a<Op>(keep_a<Op>(keep_a<Op>(b[0], b[1]), b[2]), b[3]);
}

// Without NaNs keep_a is "a < b ? b : a" (maximum; "b < a ? b : a" for minimum), one
// instruction (pmax4 / pmin4): the parts are folded that way first, with a sum of every
// element beside them, which is NaN when an element is (or, harmlessly, when infinities of
// both signs meet); then the NaN-propagating form runs instead. Two parts, one sum (each step's
// four vectors added first): with four parts and four sums V8 kept a sum and a part in memory,
// each step waiting on a store (wasm, a row in cache: 0.17 -> 0.11 ns an element).
template <Alu Op> void fold_blocks(const float* v, int64_t nb, F4& l0, F4& l1) {
  auto pick_fast = [](F4 a, F4 b) {
    if constexpr (Op == Alu::Maximum)
      return pmax4(a, b);
    else
      return pmin4(a, b);
  };
  constexpr int kParts = 2;
  const int64_t q = nb / kParts;
  F4 a[kParts], b[kParts], sum = splat4(0.0f); // (the parts' order: any gives the same bits)
  for (int c = 0; c < kParts; ++c) a[c] = l0, b[c] = l1;
  for (int64_t j = 0; j < q; ++j) {
    F4 t = splat4(0.0f);
    for (int c = 0; c < kParts; ++c) {
      const float* p = v + 8 * (c * q + j);
      const F4 x = load4(p), y = load4(p + 4);
      a[c] = pick_fast(a[c], x);
      b[c] = pick_fast(b[c], y);
      t = c == 0 ? x + y : t + (x + y);
    }
    sum += t;
  }
  for (int64_t j = kParts * q; j < nb; ++j) {
    const F4 x = load4(v + 8 * j), y = load4(v + 8 * j + 4);
    a[kParts - 1] = pick_fast(a[kParts - 1], x);
    b[kParts - 1] = pick_fast(b[kParts - 1], y);
    sum += x + y;
  }
  if (!all4(sum == sum)) {
    fold_blocks_exact<Op>(v, nb, l0, l1);
    return;
  }
  l0 = a[0], l1 = b[0];
  for (int c = 1; c < kParts; ++c) l0 = pick_fast(l0, a[c]), l1 = pick_fast(l1, b[c]);
}

} // namespace

float fold_run(Alu op, float acc, const float* v, int64_t n) {
  if (op == Alu::Add || op == Alu::Maximum || op == Alu::Minimum) {
    const float id = alu_identity(op);
    F4 l0 = {id, id, id, id}, l1 = l0;
    int64_t i = 0;
    if (op == Alu::Add) {
      for (; i + 8 <= n; i += 8) l0 += load4(v + i), l1 += load4(v + i + 4);
    } else {
      // (The identity starts every part: keep_a(id, x) is x, bit for bit.)
      if (op == Alu::Maximum)
        fold_blocks<Alu::Maximum>(v, n / 8, l0, l1);
      else
        fold_blocks<Alu::Minimum>(v, n / 8, l0, l1);
      i = n / 8 * 8;
    }
    for (int l = 0; l < 4; ++l) acc = alu_one(op, acc, l0[l]);
    for (int l = 0; l < 4; ++l) acc = alu_one(op, acc, l1[l]);
    for (; i < n; ++i) acc = alu_one(op, acc, v[i]);
    return acc;
  }
  for (int64_t i = 0; i < n; ++i) acc = alu_one(op, acc, v[i]);
  return acc;
}

namespace {

// Writes acc[flat] for every touched flat position of the output (row-major over its shape).
void write_touched(Exec& ex, const Instruction& in, const std::vector<float>& acc,
                   const std::vector<uint8_t>& touched) {
  std::vector<int64_t> shape = ex.out_shape(in);
  Domain dom(shape, {}, ex.env);
  const int r = dom.rank();
  // Whether every position the domain visits (all of them, or a window's) was touched.
  bool all = true;
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 0; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = flat * dom.extent(r - 1) + lo;
    for (int64_t i = 0; i < n && all; ++i) all = touched[static_cast<size_t>(flat + i)] != 0;
  });
  View out = ex.output(in, dom, all);
  // All of a row-major tile whose rows lie back to back: one run.
  if (all && r == 2 && !dom.masked() && !dom.windowed() && !out.ind && !out.linear &&
      out.rank == 2 && out.stride[1] == 1 && out.stride[0] == dom.extent(1) &&
      static_cast<int64_t>(acc.size()) == dom.extent(0) * dom.extent(1)) {
    const int64_t pos[2] = {0, 0};
    write_f32(out, pos, 0, static_cast<int64_t>(acc.size()), acc.data());
    return;
  }
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 0; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = flat * dom.extent(r - 1) + lo;
    for (int64_t i = 0; i < n;) {
      if (!touched[static_cast<size_t>(flat + i)]) {
        ++i;
        continue;
      }
      int64_t j = i;
      while (j < n && touched[static_cast<size_t>(flat + j)]) ++j;
      for (int64_t c = i; c < j; c += kChunk)
        write_f32(out, pos, lo + c, std::min(kChunk, j - c), &acc[static_cast<size_t>(flat + c)]);
      i = j;
    }
  });
}

void exec_tensor_reduce(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  const std::vector<int64_t>& s = d.ap.tile_shape;
  Domain dom(s, in.mask, ex.env);
  View data = ex.view(d, dom);
  std::string name = ex.attr_str(in, "op");
  auto op = parse_alu(name);
  if (!op) ex.unsupported("tensor_reduce(op=" + name + ")");
  std::vector<int64_t> axes = ex.attr_ints(in, "axis");
  const int r = dom.rank();
  std::vector<int64_t> ostride(r, 0);
  int64_t count = 1;
  for (int a = r - 1; a >= 0; --a) {
    if (std::find(axes.begin(), axes.end(), a) != axes.end()) continue;
    ostride[a] = count;
    count *= dom.extent(a);
  }
  std::vector<float> acc(static_cast<size_t>(count), alu_identity(*op));
  std::vector<uint8_t> touched(static_cast<size_t>(count), 0);
  const bool bitvec = alu_is_bitvec(*op);
  std::vector<int64_t> iacc(bitvec ? static_cast<size_t>(count) : 0,
                            *op == Alu::BitwiseAnd ? -1 : 0);
  float v[kChunk];
  int64_t iv[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t base = 0;
    for (int k = 0; k < r - 1; ++k) base += ostride[k] * pos[k];
    const int64_t is = ostride[r - 1];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      if (bitvec) {
        read_i64(data, pos, lo + c, m, iv, ex);
        for (int64_t i = 0; i < m; ++i) {
          size_t o = static_cast<size_t>(base + is * (lo + c + i));
          iacc[o] = alu_i64(*op, iacc[o], iv[i]);
          touched[o] = 1;
        }
        continue;
      }
      const float* pv = in_f32(ex, data, pos, lo + c, m, v);
      if (is == 0) {
        acc[static_cast<size_t>(base)] = fold_run(*op, acc[static_cast<size_t>(base)], pv, m);
        touched[static_cast<size_t>(base)] = 1;
        continue;
      }
      for (int64_t i = 0; i < m; ++i) {
        size_t o = static_cast<size_t>(base + is * (lo + c + i));
        acc[o] = alu_one(*op, acc[o], pv[i]);
        touched[o] = 1;
      }
    }
  });
  if (bitvec)
    for (size_t i = 0; i < acc.size(); ++i) acc[i] = static_cast<float>(iacc[i]);
  if (ex.attr_num(in, "negate", 0) != 0)
    for (float& x : acc) x = -x;
  write_touched(ex, in, acc, touched);
}

// Reduction across partitions: out[0, f...] = op over p of data[p, f...].
void exec_tensor_partition_reduce(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  Domain dom(d.ap.tile_shape, in.mask, ex.env);
  View data = ex.view(d, dom);
  auto op = parse_alu(ex.attr_str(in, "op"));
  if (!op) ex.unsupported("tensor_partition_reduce(op=" + ex.attr_str(in, "op") + ")");
  const int r = dom.rank();
  int64_t count = 1;
  for (int k = 1; k < r; ++k) count *= dom.extent(k);
  std::vector<float> acc(static_cast<size_t>(count), alu_identity(*op));
  std::vector<uint8_t> touched(static_cast<size_t>(count), 0);
  float v[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 1; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = r > 1 ? flat * dom.extent(r - 1) + lo : 0;
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(data, pos, lo + c, m, v, ex);
      for (int64_t i = 0; i < m; ++i) {
        size_t o = static_cast<size_t>(flat + c + i);
        if (alu_is_bitvec(*op))
          acc[o] = static_cast<float>(
              alu_i64(*op, static_cast<int64_t>(acc[o]), static_cast<int64_t>(v[i])));
        else
          acc[o] = alu_one(*op, acc[o], v[i]);
        touched[o] = 1;
      }
    }
  });
  write_touched(ex, in, acc, touched);
}

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

// Per partition: the elements of its rows, in order (masked-off elements left out), with
// their flat free index.
struct Rows {
  std::vector<std::vector<float>> values;
  std::vector<std::vector<int64_t>> index;
};

Rows gather_rows(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  Domain dom(d.ap.tile_shape, in.mask, ex.env);
  View data = ex.view(d, dom);
  Rows rows;
  rows.values.resize(static_cast<size_t>(dom.extent(0)));
  rows.index.resize(rows.values.size());
  const int r = dom.rank();
  int64_t per_row = 1; // (room for an unmasked row, reserved up front)
  for (int k = 1; k < r; ++k) per_row *= dom.extent(k);
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    size_t p = static_cast<size_t>(r > 1 ? pos[0] : 0);
    int64_t flat = 0;
    for (int k = 1; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = r > 1 ? flat * dom.extent(r - 1) + lo : lo;
    std::vector<float>& vals = rows.values[p];
    std::vector<int64_t>& idx = rows.index[p];
    if (vals.empty()) vals.reserve(static_cast<size_t>(per_row)), idx.reserve(vals.capacity());
    const size_t at = vals.size();
    vals.resize(at + static_cast<size_t>(n));
    idx.resize(vals.size());
    for (int64_t c = 0; c < n; c += kChunk)
      read_f32(data, pos, lo + c, std::min(kChunk, n - c), vals.data() + at + c, ex);
    for (int64_t i = 0; i < n; ++i) idx[at + static_cast<size_t>(i)] = flat + i;
  });
  return rows;
}

// Per partition: (count, mean, variance·count) of the even-indexed and the odd-indexed elements.
void exec_bn_stats(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  const std::vector<int64_t>& s = d.ap.tile_shape;
  if (s.size() == 2) { // one run per partition, in order: the rows read in place
    Domain dom(s, in.mask, ex.env);
    if (!dom.masked()) {
      View data = ex.view(d, dom);
      std::vector<float> acc(static_cast<size_t>(s[0] * 6), 0.0f);
      std::vector<uint8_t> touched(acc.size(), s[1] > 0 ? 1 : 0);
      std::vector<float>& row = ex.scratch[0];
      row.resize(static_cast<size_t>(s[1]));
      // Rows read in place wait in sixteens (all of one length: whole rows of the tile); what
      // is left at the end runs in fours, then one by one.
      const float* wait[16];
      float* wait_out[16];
      int waiting = 0;
      dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
        float* o = &acc[static_cast<size_t>(pos[0] * 6)];
        const float* v = direct_in(data, pos, lo);
        if (v && n == s[1]) {
          wait[waiting] = v;
          wait_out[waiting++] = o;
          if (waiting == 16) bn_stats_rows16(wait, n, wait_out), waiting = 0;
          return;
        }
        if (!v) {
          for (int64_t c = 0; c < n; c += kChunk)
            read_f32(data, pos, lo + c, std::min(kChunk, n - c), row.data() + c, ex);
          v = row.data();
        }
        bn_stats_row(v, n, o);
      });
      bn_stats_rows(wait, waiting, s[1], wait_out);
      write_touched(ex, in, acc, touched);
      return;
    }
  }
  Rows rows = gather_rows(ex, in);
  std::vector<float> acc(rows.values.size() * 6, 0.0f);
  std::vector<uint8_t> touched(acc.size(), 0);
  for (size_t p = 0; p < rows.values.size(); ++p) {
    if (rows.values[p].empty()) continue;
    for (int parity = 0; parity < 2; ++parity) {
      float count = 0, sum = 0;
      for (size_t i = 0; i < rows.values[p].size(); ++i)
        if ((rows.index[p][i] & 1) == parity) count += 1, sum += rows.values[p][i];
      float mean = count > 0 ? sum / count : 0.0f, m2 = 0;
      for (size_t i = 0; i < rows.values[p].size(); ++i)
        if ((rows.index[p][i] & 1) == parity) {
          float dlt = rows.values[p][i] - mean;
          m2 += dlt * dlt;
        }
      acc[p * 6 + parity * 3 + 0] = count;
      acc[p * 6 + parity * 3 + 1] = mean;
      acc[p * 6 + parity * 3 + 2] = m2;
    }
    std::fill(touched.begin() + p * 6, touched.begin() + p * 6 + 6, 1);
  }
  write_touched(ex, in, acc, touched);
}

// Per partition: mean and variance from (count, mean, variance·count) triples.
void exec_bn_aggr(Exec& ex, const Instruction& in) {
  Rows rows = gather_rows(ex, in);
  std::vector<float> acc(rows.values.size() * 2, 0.0f);
  std::vector<uint8_t> touched(acc.size(), 0);
  for (size_t p = 0; p < rows.values.size(); ++p) {
    const std::vector<float>& v = rows.values[p];
    if (v.size() < 3) continue;
    float n = 0, weighted = 0;
    for (size_t i = 0; i + 2 < v.size(); i += 3) n += v[i], weighted += v[i] * v[i + 1];
    float mean = n > 0 ? weighted / n : 0.0f, m2 = 0;
    for (size_t i = 0; i + 2 < v.size(); i += 3) {
      float dlt = v[i + 1] - mean;
      m2 += v[i + 2] + v[i] * dlt * dlt;
    }
    acc[p * 2] = mean;
    acc[p * 2 + 1] = n > 0 ? m2 / n : 0.0f;
    touched[p * 2] = touched[p * 2 + 1] = 1;
  }
  write_touched(ex, in, acc, touched);
}

// loop_reduce: the result accumulates `data` across the iterations of the given loops (the
// first iteration of all of them copies).
void exec_loop_reduce(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View data = ex.view(ex.need(in, "data"), dom);
  auto op = parse_alu(ex.attr_str(in, "op"));
  if (!op) ex.unsupported("loop_reduce(op=" + ex.attr_str(in, "op") + ")");
  bool first = true;
  for (int64_t axis : ex.attr_ints(in, "loops"))
    if (ex.env.iv.at(static_cast<size_t>(axis)) != ex.k.loop_axis(static_cast<int>(axis)).lb)
      first = false;
  View out = first || in.result == kNone ? ex.output(in, dom) : ex.tensor_view(in.result, dom);
  float a[kChunk], b[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(data, pos, lo + c, m, a, ex);
      if (!first) {
        read_f32(out, pos, lo + c, m, b, ex);
        alu_f32(*op, b, a, a, m);
      }
      write_f32(out, pos, lo + c, m, a);
    }
  });
}

} // namespace

void register_reduce_execs(ExecTable& t) {
  t.add("tensor_reduce", exec_tensor_reduce);
  t.add("tensor_partition_reduce", exec_tensor_partition_reduce);
  t.add("tensor_tensor_scan", exec_tensor_tensor_scan);
  t.add("bn_stats", exec_bn_stats);
  t.add("bn_aggr", exec_bn_aggr);
  t.add("loop_reduce", exec_loop_reduce);
}

} // namespace nki::sim
