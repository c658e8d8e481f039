// Selections: select (nl.where), affine_select (a predicate computed from the tile's
// positions), range_select, select_reduce and tensor_copy_predicated.
#include <algorithm>
#include <vector>

#include "sim/exec.h"
#include "sim/exec_util.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// A comparison operator's name, parsed once per execution (not per element).
enum class Cmp : uint8_t { Lt, Le, Gt, Ge, Eq, Ne, Never };

Cmp parse_cmp(const std::string& op) {
  if (op == "<" || op == "less") return Cmp::Lt;
  if (op == "<=" || op == "less_equal") return Cmp::Le;
  if (op == ">" || op == "greater") return Cmp::Gt;
  if (op == ">=" || op == "greater_equal") return Cmp::Ge;
  if (op == "==" || op == "equal") return Cmp::Eq;
  if (op == "!=" || op == "not_equal") return Cmp::Ne;
  return Cmp::Never;
}

template <typename T> bool cmp_holds(Cmp op, T a, T b) {
  switch (op) {
  case Cmp::Lt:
    return a < b;
  case Cmp::Le:
    return a <= b;
  case Cmp::Gt:
    return a > b;
  case Cmp::Ge:
    return a >= b;
  case Cmp::Eq:
    return a == b;
  case Cmp::Ne:
    return a != b;
  default:
    return false;
  }
}

void exec_select(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View pred = ex.view(ex.need(in, "predicate"), dom);
  Source t = ex.source(in, "on_true", dom), f = ex.source(in, "on_false", dom);
  View out = ex.output(in, dom);
  float p[kChunk], a[kChunk], b[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(pred, pos, lo + c, m, p, ex);
      ex.read(t, pos, lo + c, m, a);
      ex.read(f, pos, lo + c, m, b);
      for (int64_t i = 0; i < m; ++i) a[i] = p[i] != 0.0f ? a[i] : b[i];
      write_f32(out, pos, lo + c, m, a);
    }
  });
}

// out = (affine(t) <cmp> 0) ? on_true : on_false_value; "affine" = [c, kind, id, coeff, ...].
void exec_affine_select(Exec& ex, const Instruction& in) {
  if (ex.has_attr(in, "pattern")) return exec_affine_select_pattern(ex, in); // current language
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View x = ex.view(ex.need(in, "on_true_tile"), dom);
  float fv = static_cast<float>(ex.need(in, "on_false_value").scalar);
  View out = ex.output(in, dom);
  std::vector<int64_t> aff = ex.attr_ints(in, "affine");
  const Cmp cmp = parse_cmp(ex.attr_str(in, "cmp", ">="));
  int64_t base = aff.empty() ? 0 : aff[0];
  int64_t a[kMaxRank] = {0};
  for (size_t i = 1; i + 3 <= aff.size(); i += 3) {
    int64_t kind = aff[i], id = aff[i + 1], c = aff[i + 2];
    if (kind == 0)
      base += c * ex.env.iv.at(static_cast<size_t>(id));
    else if (kind == 1)
      base += c * (id < static_cast<int64_t>(ex.env.pid.size()) ? ex.env.pid[id] : 0);
    else if (id < dom.rank())
      a[id] += c;
  }
  const int r = dom.rank();
  float v[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t v0 = base;
    for (int k = 0; k < r - 1; ++k) v0 += a[k] * pos[k];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(x, pos, lo + c, m, v, ex);
      // The affine value is an integer (exact as a double): compared as one.
      const int64_t step = a[r - 1], first = v0 + step * (lo + c);
      for (int64_t i = 0; i < m; ++i)
        if (!cmp_holds<int64_t>(cmp, first + step * i, 0)) v[i] = fv;
      write_f32(out, pos, lo + c, m, v);
    }
  });
}

// Keeps elements whose free index (plus range_start) satisfies both comparisons with the
// partition's bounds; optional max-reduce of the result into reduce_res.
void exec_range_select(Exec& ex, const Instruction& in) {
  std::vector<int64_t> shape = ex.out_shape(in);
  Domain dom(shape, in.mask, ex.env);
  View x = ex.view(ex.need(in, "on_true_tile"), dom);
  Source b0 = ex.source(in, "bound0", dom), b1 = ex.source(in, "bound1", dom);
  float fv = static_cast<float>(ex.need(in, "on_false_value").scalar);
  View out = ex.output(in, dom);
  const Cmp c0 = parse_cmp(ex.attr_str(in, "comp_op0")),
            c1 = parse_cmp(ex.attr_str(in, "comp_op1"));
  int64_t start = static_cast<int64_t>(ex.attr_num(in, "range_start", 0));
  PartitionReduce red(ex, in, PartitionReduce::Mode::Vector, "maximum");
  const int r = dom.rank();
  float v[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    float lo_b, hi_b;
    ex.read(b0, pos, lo, 1, &lo_b);
    ex.read(b1, pos, lo, 1, &hi_b);
    int64_t flat = 0; // free index of the run start (free axes row-major)
    for (int k = 1; k < r - 1; ++k) flat = flat * shape[k] + pos[k];
    if (r > 1) flat = flat * shape[r - 1];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(x, pos, lo + c, m, v, ex);
      for (int64_t i = 0; i < m; ++i) {
        double idx = static_cast<double>(start + flat + lo + c + i);
        if (!(cmp_holds<double>(c0, idx, lo_b) && cmp_holds<double>(c1, idx, hi_b))) v[i] = fv;
      }
      write_f32(out, pos, lo + c, m, v);
      red.add(r > 1 ? pos[0] : 0, v, m);
    }
  });
  red.finish();
}

// dst = predicate ? on_true : on_false (reverse_pred flips it); optional max-reduce.
void exec_select_reduce(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View pred = ex.view(ex.need(in, "predicate"), dom);
  Source t = ex.source(in, "on_true", dom), f = ex.source(in, "on_false", dom);
  View out = ex.output(in, dom);
  bool rev = ex.attr_num(in, "reverse_pred", 0) != 0;
  PartitionReduce red(ex, in, PartitionReduce::Mode::Vector, "maximum");
  float p[kChunk], a[kChunk], b[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(pred, pos, lo + c, m, p, ex);
      ex.read(t, pos, lo + c, m, a);
      ex.read(f, pos, lo + c, m, b);
      for (int64_t i = 0; i < m; ++i) a[i] = ((p[i] != 0.0f) != rev) ? a[i] : b[i];
      write_f32(out, pos, lo + c, m, a);
      red.add(dom.rank() > 1 ? pos[0] : 0, a, m);
    }
  });
  red.finish();
}

// dst = src where the predicate holds (flipped by reverse_pred); elsewhere dst is unchanged.
void exec_tensor_copy_predicated(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View pred = ex.view(ex.need(in, "predicate"), dom);
  Source src = ex.source(in, "src", dom);
  View out = ex.output(in, dom);
  bool rev = ex.attr_num(in, "reverse_pred", 0) != 0;
  float p[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(pred, pos, lo + c, m, p, ex);
      for (int64_t i = 0; i < m; ++i) {
        if ((p[i] != 0.0f) == rev) continue;
        if (src.scalar)
          write_f32(out, pos, lo + c + i, 1, &src.value);
        else
          copy_bits(out, src.view, pos, lo + c + i, 1, ex);
      }
    }
  });
}

} // namespace

void register_select_execs(ExecTable& t) {
  OpFacts rowwise;
  rowwise.row_local = true; // its condition is affine in the partition index: still row by row
  t.add("select", exec_select);
  t.add("affine_select", exec_affine_select, rowwise);
  t.add("range_select", exec_range_select);
  t.add("select_reduce", exec_select_reduce);
  t.add("tensor_copy_predicated", exec_tensor_copy_predicated);
}

} // namespace nki::sim
