// The current language's pattern-driven instructions: nisa.iota and nisa.affine_select take a
// [step, num] pattern over dst's free elements instead of Beta 1's affine expression:
//   value(p, f) = offset + channel_multiplier * p + Σ step_k * digit_k(f)
// where digit_k are the mixed-radix digits of f (dst's free position, row-major) over the nums.
#include <algorithm>
#include <vector>

#include "sim/exec.h"
#include "sim/exec_util.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

struct Pattern {
  std::vector<int64_t> step, num;
  int64_t offset = 0, cm = 0;

  Pattern(const Exec& ex, const Instruction& in) {
    std::vector<int64_t> flat = ex.attr_ints(in, "pattern");
    for (size_t i = 0; i + 1 < flat.size(); i += 2) {
      step.push_back(flat[i]);
      num.push_back(flat[i + 1]);
    }
    offset = static_cast<int64_t>(ex.attr_num(in, "offset", 0));
    cm = static_cast<int64_t>(ex.attr_num(in, "channel_multiplier", 0));
  }

  int64_t value(int64_t p, int64_t f) const {
    int64_t v = offset + cm * p;
    for (size_t k = num.size(); k-- > 0;) {
      v += step[k] * (f % num[k]);
      f /= num[k];
    }
    return static_cast<int32_t>(v);
  }
};

bool holds(const std::string& op, double a) {
  if (op == "less") return a < 0;
  if (op == "less_equal") return a <= 0;
  if (op == "greater") return a > 0;
  if (op == "greater_equal") return a >= 0;
  if (op == "not_equal") return a != 0;
  return a == 0; // equal
}

// Calls f(pos, lo, n, p, f0): every run of `dom` with its partition and first free position.
template <typename F> void runs_with_free(const Domain& dom, F&& f) {
  const int r = dom.rank();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t free = 0;
    for (int k = 1; k < r - 1; ++k) free = free * dom.extent(k) + pos[k];
    free = free * (r > 1 ? dom.extent(r - 1) : 1) + (r > 1 ? lo : 0);
    f(pos, lo, n, r > 1 ? pos[0] : lo, free);
  });
}

} // namespace

void exec_iota_pattern(Exec& ex, const Instruction& in) {
  Pattern pat(ex, in);
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  int64_t vals[kChunk];
  runs_with_free(dom, [&](const int64_t* pos, int64_t lo, int64_t n, int64_t p, int64_t f0) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      for (int64_t i = 0; i < m; ++i) vals[i] = pat.value(p, f0 + c + i);
      write_i64(out, pos, lo + c, m, vals);
    }
  });
}

void exec_affine_select_pattern(Exec& ex, const Instruction& in) {
  Pattern pat(ex, in);
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View x = ex.view(ex.need(in, "on_true_tile"), dom);
  float fv = static_cast<float>(ex.need(in, "on_false_value").scalar);
  View out = ex.output(in, dom);
  std::string cmp = ex.attr_str(in, "cmp_op", "equal");
  float v[kChunk];
  runs_with_free(dom, [&](const int64_t* pos, int64_t lo, int64_t n, int64_t p, int64_t f0) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(x, pos, lo + c, m, v, ex);
      for (int64_t i = 0; i < m; ++i)
        if (!holds(cmp, static_cast<double>(pat.value(p, f0 + c + i)))) v[i] = fv;
      write_f32(out, pos, lo + c, m, v);
    }
  });
}

} // namespace nki::sim
