// Two ALU operators in one pass (sim/alu_pairs.cpp alu_pair_f32) give the bits of the two
// passes of alu_f32 / alu_f32_scalar, for every covered operator pair, operand order and operand
// kind, over values that round, NaNs of two payloads, infinities and signed zeros; and the
// simulator's uses of it: tensor_scalar / scalar_tensor_tensor (ordinary executor and fused
// group) and a fused chain of two tensor_tensor instructions give the bytes of the instructions
// run one after the other.
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "sim/math_kernels.h"
#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using sim::Alu;
using simtest::KernelUnderTest;
using simtest::run_bytes;
using simtest::RunBytes;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

float from_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// n values: pseudo-random ones of mixed magnitudes (sums and products that round), every few a
// NaN (two payloads), an infinity of either sign, a signed zero or a subnormal.
std::vector<float> awkward(size_t n, uint32_t seed) {
  std::vector<float> v = simtest::lcg_values(n, seed);
  const float special[] = {from_bits(0x7fc00000u),
                           from_bits(0xffc12345u),
                           kInf,
                           -kInf,
                           0.0f,
                           -0.0f,
                           1e-40f,
                           -3e-39f,
                           1.0f / 3.0f,
                           16777217.0f};
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    if (seed % 5 == 0)
      v[i] = special[(seed >> 8) % 10];
    else if (seed % 5 == 1)
      v[i] *= 1e-3f + static_cast<float>((seed >> 12) % 7) * 1e5f;
  }
  return v;
}

// The first element where `got` and `want` differ, or -1: every bit, except that of two NaNs
// (the sign and payload of a NaN made from NaNs of different bits follow the operand order the
// compiler picks for an addition or a multiplication, in the two passes as in one).
int64_t first_difference(const void* got, const void* want, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float g, w;
    std::memcpy(&g, static_cast<const char*>(got) + 4 * i, 4);
    std::memcpy(&w, static_cast<const char*>(want) + 4 * i, 4);
    if (std::memcmp(&g, &w, 4) != 0 && !(std::isnan(g) && std::isnan(w))) return i;
  }
  return -1;
}

const Alu kCovered[] = {Alu::Add,    Alu::Subtract, Alu::Multiply,
                        Alu::Divide, Alu::Maximum,  Alu::Minimum};

// The two passes: t = A(a, y) (swapped when ra), o = B(t, z) (swapped when rb); y / z arrays,
// or the constants when null.
void two_passes(Alu A, bool ra, Alu B, bool rb, const float* a, const float* yp, float ys,
                const float* zp, float zs, float* o, int64_t n) {
  std::vector<float> t(static_cast<size_t>(n));
  if (!yp)
    sim::alu_f32_scalar(A, a, ys, ra, t.data(), n);
  else if (ra)
    sim::alu_f32(A, yp, a, t.data(), n);
  else
    sim::alu_f32(A, a, yp, t.data(), n);
  if (!zp)
    sim::alu_f32_scalar(B, t.data(), zs, rb, o, n);
  else if (rb)
    sim::alu_f32(B, zp, t.data(), o, n);
  else
    sim::alu_f32(B, t.data(), zp, o, n);
}

} // namespace

TEST(AluPairs, one_pass_gives_the_bits_of_two_passes_for_every_covered_pair) {
  const int64_t n = 1037; // a vector body and a tail
  auto a = awkward(n, 1), y = awkward(n, 2), z = awkward(n, 3);
  const float constants[] = {from_bits(0x7fc00000u), -0.0f, 0.0f, kInf, 2.5f, -1.0f / 3.0f};
  int checked = 0;
  for (Alu A : kCovered)
    for (Alu B : kCovered)
      for (int mode = 0; mode < 16; ++mode) {
        const bool ra = mode & 1, rb = mode & 2, yarr = mode & 4, zarr = mode & 8;
        for (float c : constants) {
          const float* yp = yarr ? y.data() : nullptr;
          const float* zp = zarr ? z.data() : nullptr;
          std::vector<float> want(n), got(n), inplace = a;
          two_passes(A, ra, B, rb, a.data(), yp, c, zp, -c, want.data(), n);
          ASSERT_TRUE(sim::alu_pair_f32(A, ra, B, rb, a.data(), yp, c, zp, -c, got.data(), n));
          ASSERT_TRUE(
              sim::alu_pair_f32(A, ra, B, rb, inplace.data(), yp, c, zp, -c, inplace.data(), n));
          ASSERT_EQ(first_difference(got.data(), want.data(), n), -1)
              << sim::alu_name(A) << " " << ra << " " << sim::alu_name(B) << " " << rb << " "
              << yarr << zarr << " c=" << c;
          ASSERT_EQ(first_difference(inplace.data(), want.data(), n), -1);
          ++checked;
        }
      }
  EXPECT_EQ(checked, 6 * 6 * 16 * 6);
  // Not covered: nothing written, the caller runs the two passes.
  EXPECT_FALSE(sim::alu_pair_covered(Alu::Power, Alu::Add));
  EXPECT_FALSE(sim::alu_pair_covered(Alu::Add, Alu::Bypass));
  float o = 7.0f;
  EXPECT_FALSE(sim::alu_pair_f32(Alu::Add, false, Alu::Mod, false, a.data(), nullptr, 1.0f, nullptr,
                                 1.0f, &o, 1));
  EXPECT_EQ(o, 7.0f);
}

TEST(AluPairs, four_operators_in_one_pass_give_the_bits_of_four_passes) {
  const int64_t n = 1037;
  auto a = awkward(n, 4), u = awkward(n, 5), w = awkward(n, 6);
  const float constants[] = {from_bits(0x7fc00000u), -0.0f, kInf, 2.5f, -1.0f / 3.0f};
  const Alu first[] = {Alu::Add, Alu::Subtract, Alu::Multiply, Alu::Divide};
  const Alu last[] = {Alu::Add, Alu::Subtract, Alu::Multiply};
  int checked = 0;
  for (Alu A : first)
    for (Alu B : first)
      for (Alu C : last)
        for (Alu D : last)
          for (int mode = 0; mode < 4; ++mode) {
            const bool rc = mode & 1, rd = mode & 2;
            for (float c : constants) {
              std::vector<float> t(n), want(n), got(n), in_a = a, in_u = u, in_w = w;
              two_passes(A, false, B, false, a.data(), nullptr, c, nullptr, -c, t.data(), n);
              two_passes(C, rc, D, rd, t.data(), u.data(), 0, w.data(), 0, want.data(), n);
              ASSERT_TRUE(sim::alu_quad_covered(A, false, B, false, C, rc, D, rd));
              ASSERT_TRUE(sim::alu_quad_f32(A, false, B, false, C, rc, D, rd, a.data(), c, -c,
                                            u.data(), w.data(), got.data(), n));
              ASSERT_EQ(first_difference(got.data(), want.data(), n), -1)
                  << sim::alu_name(A) << " " << sim::alu_name(B) << " " << sim::alu_name(C) << " "
                  << rc << " " << sim::alu_name(D) << " " << rd << " c=" << c;
              // In place over each array operand.
              sim::alu_quad_f32(A, false, B, false, C, rc, D, rd, in_a.data(), c, -c, u.data(),
                                w.data(), in_a.data(), n);
              sim::alu_quad_f32(A, false, B, false, C, rc, D, rd, a.data(), c, -c, in_u.data(),
                                w.data(), in_u.data(), n);
              sim::alu_quad_f32(A, false, B, false, C, rc, D, rd, a.data(), c, -c, u.data(),
                                in_w.data(), in_w.data(), n);
              for (const auto* v : {&in_a, &in_u, &in_w})
                ASSERT_EQ(first_difference(v->data(), want.data(), n), -1);
              ++checked;
            }
          }
  EXPECT_EQ(checked, 4 * 4 * 3 * 3 * 4 * 5);
  // Not covered: swapped first operators, maximum, a unary operator; nothing written.
  EXPECT_FALSE(sim::alu_quad_covered(Alu::Subtract, true, Alu::Add, false, Alu::Add, false,
                                     Alu::Add, false));
  EXPECT_FALSE(sim::alu_quad_covered(Alu::Add, false, Alu::Maximum, false, Alu::Add, false,
                                     Alu::Add, false));
  EXPECT_FALSE(
      sim::alu_quad_covered(Alu::Add, false, Alu::Add, false, Alu::Divide, false, Alu::Add, false));
  float o = 7.0f;
  EXPECT_FALSE(sim::alu_quad_f32(Alu::Add, false, Alu::Add, false, Alu::Add, false, Alu::Bypass,
                                 false, a.data(), 1, 1, u.data(), w.data(), &o, 1));
  EXPECT_EQ(o, 7.0f);
}

namespace {

// x [128, 2500] and columns m, s [128, 1] (and g, b [128, 2500]) loaded; then `body` computes a
// tile from them, which is stored. `mask` on every instruction (the ordinary path) or none.
using Body =
    std::function<int(KernelUnderTest&, const std::string&, int x, int m, int s, int g, int b)>;
std::shared_ptr<const ir::Kernel> kernel(const std::string& mask, const Body& body) {
  KernelUnderTest t;
  int x = t.param("x", "[128,2500]"), m = t.param("m", "[128,1]"), s = t.param("s", "[128,1]");
  int g = t.param("g", "[128,2500]"), b = t.param("b", "[128,2500]");
  t.open();
  int out = t.ndarray("out", "[128,2500]", "float32", "shared_hbm");
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}}, mask), mt = t.call("load", {{"src", v(m)}}, mask);
  int st = t.call("load", {{"src", v(s)}}, mask), gt = t.call("load", {{"src", v(g)}}, mask);
  int bt = t.call("load", {{"src", v(b)}}, mask);
  int y = body(t, mask.empty() ? "" : "," + mask, xt, mt, st, gt, bt);
  t.call("store", {{"dst", v(out)}, {"value", v(y)}}, mask);
  return t.finish({out});
}

struct Inputs {
  std::vector<float> x = awkward(128 * 2500, 11), m = awkward(128, 12), s = awkward(128, 13),
                     g = awkward(128 * 2500, 14), b = awkward(128 * 2500, 15);
  std::vector<std::vector<float>> all() const { return {x, m, s, g, b}; }
};

// Runs `body` fused and on the ordinary path: the same bytes as `want`, and the fused run
// is one fused group without warnings.
void expect_bytes(const Body& body, const std::vector<float>& want) {
  Inputs in;
  auto fused = kernel("", body), whole = kernel(simtest::kMaskEverywhere, body);
  sim::KernelPlan plan = sim::plan_kernel(*fused);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_TRUE(plan.groups[0].fuse);
  RunBytes f = run_bytes(fused, in.all()), w = run_bytes(whole, in.all());
  ASSERT_EQ(f.out.size(), want.size() * 4);
  EXPECT_EQ(f.warnings, 0u);
  const int64_t n = static_cast<int64_t>(want.size());
  EXPECT_EQ(first_difference(f.out.data(), want.data(), n), -1) << "fused";
  EXPECT_EQ(first_difference(w.out.data(), want.data(), n), -1) << "ordinary";
}

// Row by row, o = B(A(x, y), z) by the two passes, y / z a column (per row constant) or a tile.
std::vector<float> rows_two_passes(Alu A, bool ra, const std::vector<float>& y, Alu B, bool rb,
                                   const std::vector<float>& z) {
  Inputs in;
  std::vector<float> o(128 * 2500);
  for (size_t p = 0; p < 128; ++p) {
    auto at = [&](const std::vector<float>& v) { return v.size() == 128 ? nullptr : &v[p * 2500]; };
    two_passes(A, ra, B, rb, &in.x[p * 2500], at(y), y.size() == 128 ? y[p] : 0, at(z),
               z.size() == 128 ? z[p] : 0, &o[p * 2500], 2500);
  }
  return o;
}

} // namespace

TEST_F(TraceTest, sim_tensor_scalar_of_two_columns_gives_the_bytes_of_two_passes) {
  Inputs in;
  auto v = KernelUnderTest::v;
  // layernorm's (x - mean) * inv_std, then the reversed forms and maximum / minimum.
  struct Case {
    const char *op0, *op1;
    bool r0, r1;
    Alu A, B;
  } cases[] = {{"subtract", "multiply", false, false, Alu::Subtract, Alu::Multiply},
               {"divide", "subtract", true, true, Alu::Divide, Alu::Subtract},
               {"maximum", "minimum", true, false, Alu::Maximum, Alu::Minimum},
               {"add", "maximum", false, true, Alu::Add, Alu::Maximum}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.op0) + " " + c.op1);
    const std::string attrs = std::string(R"("attrs":{"op0":")") + c.op0 + R"(","op1":")" + c.op1 +
                              R"(","reverse0":)" + (c.r0 ? "true" : "false") + R"(,"reverse1":)" +
                              (c.r1 ? "true" : "false") + "}";
    expect_bytes(
        [&](KernelUnderTest& t, const std::string& m, int x, int mt, int st, int, int) {
          return t.call("tensor_scalar", {{"data", v(x)}, {"operand0", v(mt)}, {"operand1", v(st)}},
                        attrs + m);
        },
        rows_two_passes(c.A, c.r0, in.m, c.B, c.r1, in.s));
  }
}

TEST_F(TraceTest, sim_scalar_tensor_tensor_gives_the_bytes_of_two_passes) {
  Inputs in;
  auto v = KernelUnderTest::v;
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int mt, int, int gt, int) {
        return t.call("scalar_tensor_tensor",
                      {{"data", v(x)}, {"operand0", v(mt)}, {"operand1", v(gt)}},
                      R"("attrs":{"op0":"multiply","op1":"subtract","reverse1":true})" + m);
      },
      rows_two_passes(Alu::Multiply, false, in.m, Alu::Subtract, true, in.g));
}

TEST_F(TraceTest, sim_a_fused_chain_of_two_tensor_tensor_gives_the_bytes_of_both) {
  Inputs in;
  auto v = KernelUnderTest::v;
  // y = (x * g) + b (layernorm's affine step), and y = maximum(b, x / g): the middle tile is
  // the second instruction's y operand.
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int, int, int gt, int bt) {
        int w = t.call("multiply", {{"x", v(x)}, {"y", v(gt)}}, m.empty() ? "" : m.substr(1));
        return t.call("add", {{"x", v(w)}, {"y", v(bt)}}, m.empty() ? "" : m.substr(1));
      },
      rows_two_passes(Alu::Multiply, false, in.g, Alu::Add, false, in.b));
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int, int, int gt, int bt) {
        int w = t.call("divide", {{"x", v(x)}, {"y", v(gt)}}, m.empty() ? "" : m.substr(1));
        return t.call("maximum", {{"x", v(bt)}, {"y", v(w)}}, m.empty() ? "" : m.substr(1));
      },
      rows_two_passes(Alu::Divide, false, in.g, Alu::Maximum, true, in.b));
}

namespace {

// Row by row: t = B(A(x, m), s) (columns), then o = D(C(t, g), b) (tiles), by four passes.
std::vector<float> rows_four_passes(Alu A, Alu B, Alu C, bool rc, Alu D, bool rd) {
  Inputs in;
  std::vector<float> t = rows_two_passes(A, false, in.m, B, false, in.s), o(t.size());
  two_passes(C, rc, D, rd, t.data(), in.g.data(), 0, in.b.data(), 0, o.data(),
             static_cast<int64_t>(o.size()));
  return o;
}

} // namespace

TEST_F(TraceTest, sim_tensor_scalar_then_a_chain_gives_the_bytes_of_the_three_instructions) {
  // Layernorm's epilogue: (x - mean) * inv_std, * gamma, + beta — one pass of four operators
  // (merge_quads); then the tensor_scalar's tile as the y operand of reversed subtractions.
  auto v = KernelUnderTest::v;
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int mt, int st, int gt, int bt) {
        int n = t.call("tensor_scalar", {{"data", v(x)}, {"operand0", v(mt)}, {"operand1", v(st)}},
                       R"("attrs":{"op0":"subtract","op1":"multiply"})" + m);
        int w = t.call("multiply", {{"x", v(n)}, {"y", v(gt)}}, m.empty() ? "" : m.substr(1));
        return t.call("add", {{"x", v(w)}, {"y", v(bt)}}, m.empty() ? "" : m.substr(1));
      },
      rows_four_passes(Alu::Subtract, Alu::Multiply, Alu::Multiply, false, Alu::Add, false));
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int mt, int st, int gt, int bt) {
        int n = t.call("tensor_scalar", {{"data", v(x)}, {"operand0", v(mt)}, {"operand1", v(st)}},
                       R"("attrs":{"op0":"divide","op1":"add"})" + m);
        int w = t.call("subtract", {{"x", v(gt)}, {"y", v(n)}}, m.empty() ? "" : m.substr(1));
        return t.call("subtract", {{"x", v(bt)}, {"y", v(w)}}, m.empty() ? "" : m.substr(1));
      },
      rows_four_passes(Alu::Divide, Alu::Add, Alu::Subtract, true, Alu::Subtract, true));
  // A tensor_scalar of one operator is no quad; the chain still gives the bytes.
  Inputs in;
  std::vector<float> t(in.x.size()), want(in.x.size());
  for (size_t p = 0; p < 128; ++p)
    sim::alu_f32_scalar(Alu::Multiply, &in.x[p * 2500], in.m[p], false, &t[p * 2500], 2500);
  two_passes(Alu::Add, false, Alu::Multiply, false, t.data(), in.g.data(), 0, in.b.data(), 0,
             want.data(), static_cast<int64_t>(want.size()));
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int mt, int, int gt, int bt) {
        int n = t.call("tensor_scalar", {{"data", v(x)}, {"operand0", v(mt)}},
                       R"("attrs":{"op0":"multiply"})" + m);
        int w = t.call("add", {{"x", v(n)}, {"y", v(gt)}}, m.empty() ? "" : m.substr(1));
        return t.call("multiply", {{"x", v(w)}, {"y", v(bt)}}, m.empty() ? "" : m.substr(1));
      },
      want);
}

TEST_F(TraceTest, sim_a_quad_whose_first_tile_is_read_again_runs_step_by_step) {
  // n = (x - m) * s; w = n * g; y = w + b; out = y - n: n is read again, so it is written.
  Inputs in;
  auto v = KernelUnderTest::v;
  std::vector<float> nn = rows_two_passes(Alu::Subtract, false, in.m, Alu::Multiply, false, in.s);
  std::vector<float> y = rows_four_passes(Alu::Subtract, Alu::Multiply, Alu::Multiply, false,
                                          Alu::Add, false),
                     want(y.size());
  sim::alu_f32(Alu::Subtract, y.data(), nn.data(), want.data(), static_cast<int64_t>(y.size()));
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int mt, int st, int gt, int bt) {
        const std::string mm = m.empty() ? "" : m.substr(1);
        int n = t.call("tensor_scalar", {{"data", v(x)}, {"operand0", v(mt)}, {"operand1", v(st)}},
                       R"("attrs":{"op0":"subtract","op1":"multiply"})" + m);
        int w = t.call("multiply", {{"x", v(n)}, {"y", v(gt)}}, mm);
        int yy = t.call("add", {{"x", v(w)}, {"y", v(bt)}}, mm);
        return t.call("subtract", {{"x", v(yy)}, {"y", v(n)}}, mm);
      },
      want);
}

TEST_F(TraceTest, sim_a_chain_whose_middle_tile_is_read_again_runs_step_by_step) {
  // w = x - g; y = w * b; out = y + w: w is read twice, so it is written (else the add would
  // read a row buffer left unwritten).
  Inputs in;
  auto v = KernelUnderTest::v;
  std::vector<float> want(128 * 2500);
  std::vector<float> w(want.size()), y(want.size());
  const int64_t n = static_cast<int64_t>(want.size());
  sim::alu_f32(Alu::Subtract, in.x.data(), in.g.data(), w.data(), n);
  sim::alu_f32(Alu::Multiply, w.data(), in.b.data(), y.data(), n);
  sim::alu_f32(Alu::Add, y.data(), w.data(), want.data(), n);
  expect_bytes(
      [&](KernelUnderTest& t, const std::string& m, int x, int, int, int gt, int bt) {
        const std::string mm = m.empty() ? "" : m.substr(1);
        int w = t.call("subtract", {{"x", v(x)}, {"y", v(gt)}}, mm);
        int y = t.call("multiply", {{"x", v(w)}, {"y", v(bt)}}, mm);
        return t.call("add", {{"x", v(y)}, {"y", v(w)}}, mm);
      },
      want);
}

TEST_F(TraceTest, sim_a_tile_loop_of_chains_runs_interleaved_with_the_bytes_of_each_step) {
  // out[:, block j] = x[:, block j] * g[:, block j] - b[:, block j] over 6 blocks 700 wide:
  // the loop interleaves its iterations (interpreter_loop_fused.cpp), each a merged chain.
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int x = t.param("x", "[128,4200]"), g = t.param("g", "[128,4200]");
    int b = t.param("b", "[128,4200]");
    t.open();
    int out = t.ndarray("out", "[128,4200]", "float32", "shared_hbm");
    auto j = t.cg().affine_range(0, 6, 1, ir::AxisType::Affine, "j");
    const std::string t_ = R"([["L",)" + std::to_string(j.axis) + ",700]]";
    const std::string block = R"([{"k":"slice"},{"k":"slice","start":{"c":0,"t":)" + t_ +
                              R"(},"stop":{"c":700,"t":)" + t_ + "}}]";
    auto v = KernelUnderTest::v;
    auto load = [&](int p) {
      return t.call("load", {{"src", KernelUnderTest::view(p, block)}}, mask);
    };
    int xt = load(x), gt = load(g), bt = load(b);
    int w = t.call("multiply", {{"x", v(xt)}, {"y", v(gt)}}, mask);
    int y = t.call("subtract", {{"x", v(w)}, {"y", v(bt)}}, mask);
    t.call("store", {{"dst", KernelUnderTest::view(out, block)}, {"value", v(y)}}, mask);
    j.alloc->close();
    j.loop->close();
    return t.finish({out});
  };
  std::vector<float> x = awkward(128 * 4200, 31), g = awkward(128 * 4200, 32),
                     b = awkward(128 * 4200, 33), want(128 * 4200), w(128 * 4200);
  const int64_t n = static_cast<int64_t>(want.size());
  sim::alu_f32(Alu::Multiply, x.data(), g.data(), w.data(), n);
  sim::alu_f32(Alu::Subtract, w.data(), b.data(), want.data(), n);
  RunBytes f = run_bytes(kernel(""), {x, g, b});
  RunBytes o = run_bytes(kernel(simtest::kMaskEverywhere), {x, g, b});
  EXPECT_EQ(f.interleaved, 6);
  EXPECT_EQ(f.warnings, 0u);
  EXPECT_EQ(first_difference(f.out.data(), want.data(), n), -1);
  EXPECT_EQ(first_difference(o.out.data(), want.data(), n), -1);
}
