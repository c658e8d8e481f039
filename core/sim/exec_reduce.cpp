// Reductions: tensor_reduce (free axes), tensor_partition_reduce (across partitions),
// bn_stats / bn_aggr, loop_reduce (tensor_tensor_scan: exec_scan.cpp). Arithmetic reductions
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

// Reduces along free axes only, into a result of the data's rank (keepdims): partition p of
// the result is partition p's reduction.
bool free_axes_only(const Kernel& k, const Instruction& in) {
  const std::vector<int64_t> a = attr_axes(in, "axis");
  if (a.empty() || std::any_of(a.begin(), a.end(), [](int64_t x) { return x < 1; })) return false;
  return in.result != kNone && k.tensor(in.result).shape.size() == main_shape(k, in).size();
}

// Along axis 1 of a rank-2 tile: what run_fused reduces, a row at a time.
bool last_axis(const Kernel&, const Instruction& in) {
  return attr_axes(in, "axis") == std::vector<int64_t>{1};
}

} // namespace

void register_reduce_execs(ExecTable& t) {
  OpFacts reduce;
  reduce.row_local = reduce.fusable = true;
  reduce.row_local_if = free_axes_only;
  reduce.fusable_if = last_axis;
  t.add("tensor_reduce", exec_tensor_reduce, reduce);
  t.add("tensor_partition_reduce", exec_tensor_partition_reduce);
  t.add("bn_stats", exec_bn_stats);
  t.add("bn_aggr", exec_bn_aggr);
  t.add("loop_reduce", exec_loop_reduce);
}

} // namespace nki::sim
