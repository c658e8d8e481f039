// The simulator's whole-tile fast paths give exactly the values of the element-wise
// definitions: tensor_tensor_scan eight partitions at a time (and a last, partial group),
// bn_stats on rows read in place, nc_matmul in register blocks, nc_transpose by runs. Each
// expectation below is the definition computed here in the same fp32 order, compared bit for
// bit.
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "sim/math_kernels.h"
#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;

namespace {

// Deterministic values of varied sign and magnitude (finite).
std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = (static_cast<float>(static_cast<int32_t>(s)) / 2147483648.0f) * (1.0f + (s >> 28));
  }
  return v;
}

uint32_t bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

} // namespace

TEST_F(TraceTest, sim_scan_of_a_whole_tile_is_the_row_recurrence) {
  // 100 partitions: 12 groups of 8 and a partial one; 302 columns: 75 blocks of 4 and two
  // stepped one by one; x * s + y, then (y - t) max'ed, with NaNs in x.
  const int P = 100, F = 302;
  KernelUnderTest t;
  int x = t.param("x", "[100,302]"), y = t.param("y", "[100,302]"), i = t.param("i", "[100,1]");
  t.open();
  int out = t.ndarray("out", "[100,302]", "float32", "shared_hbm");
  int out2 = t.ndarray("out2", "[100,302]", "float32", "shared_hbm");
  int xt = t.call("load", {{"src", KernelUnderTest::v(x)}});
  int yt = t.call("load", {{"src", KernelUnderTest::v(y)}});
  int it = t.call("load", {{"src", KernelUnderTest::v(i)}});
  int s1 = t.call("tensor_tensor_scan",
                  {{"data0", KernelUnderTest::v(xt)},
                   {"data1", KernelUnderTest::v(yt)},
                   {"initial", KernelUnderTest::v(it)}},
                  R"("attrs":{"op0":"multiply","op1":"add"})");
  int s2 = t.call("tensor_tensor_scan",
                  {{"data0", KernelUnderTest::v(xt)},
                   {"data1", KernelUnderTest::v(yt)},
                   {"initial", R"({"s":0.5})"}},
                  R"("attrs":{"op0":"maximum","op1":"subtract","reverse1":true})");
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(s1)}});
  t.call("store", {{"dst", KernelUnderTest::v(out2)}, {"value", KernelUnderTest::v(s2)}});
  auto k = t.finish({out, out2});
  auto xv = values(P * F, 1), yv = values(P * F, 2), iv = values(P, 3);
  for (float& v : xv) v *= 0.5f; // keep the products bounded
  for (int e : {5, 302 * 17 + 300, 302 * 96 + 41}) xv[e] = std::numeric_limits<float>::quiet_NaN();
  auto r = simtest::run(k, {xv, yv, iv});
  for (int p = 0; p < P; ++p) {
    float s = iv[p], u = 0.5f;
    for (int f = 0; f < F; ++f) {
      const float a = xv[p * F + f], b = yv[p * F + f];
      s = a * s + b;
      const float m = ((a >= u) | (a != a)) ? a : u;
      u = b - m;
      ASSERT_EQ(bits(r[0][p * F + f]), bits(s)) << p << "," << f;
      ASSERT_EQ(bits(r[1][p * F + f]), bits(u)) << p << "," << f;
    }
  }
}

TEST_F(TraceTest, sim_bn_stats_of_whole_rows_counts_means_and_squared_deviations_in_order) {
  // Rows run sixteen at a time, what is left four at a time, then one by one: 128 rows, 7 (a
  // four and three), 37 (two sixteens, a four and one) and 21 of length 1; odd and even lengths
  // (sixteens read sixteen columns at a time, then four, then two, then the odd last: lengths
  // 501, 38, 2 and 7).
  for (auto [P, F] :
       {std::pair<int, int>{128, 501}, {7, 6}, {37, 9}, {21, 1}, {16, 2}, {32, 7}, {16, 38}}) {
    KernelUnderTest t;
    const std::string shape = "[" + std::to_string(P) + "," + std::to_string(F) + "]";
    int x = t.param("x", shape);
    t.open();
    int out = t.ndarray("out", "[" + std::to_string(P) + ",6]", "float32", "shared_hbm");
    int xt = t.call("load", {{"src", KernelUnderTest::v(x)}});
    int st = t.call("bn_stats", {{"data", KernelUnderTest::v(xt)}});
    t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(st)}});
    auto k = t.finish({out});
    auto xv = values(P * F, 4);
    auto r = simtest::run(k, {xv});
    for (int p = 0; p < P; ++p)
      for (int parity = 0; parity < 2; ++parity) {
        float count = 0, sum = 0, m2 = 0;
        for (int f = parity; f < F; f += 2) count += 1, sum += xv[p * F + f];
        const float mean = count > 0 ? sum / count : 0.0f; // (an empty odd half: 0)
        for (int f = parity; f < F; f += 2) {
          const float d = xv[p * F + f] - mean;
          m2 += d * d;
        }
        const float* got = &r[0][p * 6 + parity * 3];
        EXPECT_EQ(got[0], count) << P << ":" << p;
        EXPECT_EQ(bits(got[1]), bits(mean)) << P << ":" << p;
        EXPECT_EQ(bits(got[2]), bits(m2)) << P << ":" << p;
      }
  }
}

TEST_F(TraceTest, sim_matmul_blocks_sum_each_output_in_k_order) {
  // M = 70 and N = 45: full 4 x 8 blocks and both kinds of edge.
  const int K = 128, M = 70, N = 45;
  KernelUnderTest t;
  int a = t.param("a", "[128,70]"), b = t.param("b", "[128,45]");
  t.open();
  int out = t.ndarray("out", "[70,45]", "float32", "shared_hbm");
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}});
  int bt = t.call("load", {{"src", KernelUnderTest::v(b)}});
  int m = t.call("nc_matmul",
                 {{"stationary", KernelUnderTest::v(at)}, {"moving", KernelUnderTest::v(bt)}});
  int c = t.call("copy", {{"src", KernelUnderTest::v(m)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(c)}});
  auto k = t.finish({out});
  auto av = values(K * M, 5), bv = values(K * N, 6);
  auto r = simtest::run(k, {av, bv});
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int kk = 0; kk < K; ++kk) s = s + av[kk * M + i] * bv[kk * N + j];
      ASSERT_EQ(bits(r[0][i * N + j]), bits(s)) << i << "," << j;
    }
}

TEST_F(TraceTest, sim_nc_transpose_moves_every_element_exactly) {
  KernelUnderTest t;
  int x = t.param("x", "[96,40]");
  t.open();
  int out = t.ndarray("out", "[40,96]", "float32", "shared_hbm");
  int xt = t.call("load", {{"src", KernelUnderTest::v(x)}});
  int tr = t.call("nc_transpose", {{"data", KernelUnderTest::v(xt)}});
  int c = t.call("copy", {{"src", KernelUnderTest::v(tr)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(c)}});
  auto k = t.finish({out});
  auto xv = values(96 * 40, 7);
  auto r = simtest::run(k, {xv});
  for (int p = 0; p < 96; ++p)
    for (int f = 0; f < 40; ++f) ASSERT_EQ(bits(r[0][f * 96 + p]), bits(xv[p * 40 + f]));
}

TEST_F(TraceTest, sim_exp_activation_with_a_column_scale_is_exp_of_the_rounded_products) {
  // activation(exp, data, scale = a (P, 1) column) runs the multiply and the exp in one pass,
  // fused (load, activation, store: one row-by-row run) and on the ordinary path (masked): both
  // are the bits of exp_f32 over the fp32 products, NaN and out-of-range products included.
  for (const char* mask : {"", simtest::kMaskEverywhere}) {
    KernelUnderTest t;
    int x = t.param("x", "[128,600]"), s = t.param("s", "[128,1]");
    t.open();
    int out = t.ndarray("out", "[128,600]", "float32", "shared_hbm");
    auto v = KernelUnderTest::v;
    const std::string m = *mask ? std::string(",") + mask : "";
    int xt = t.call("load", {{"src", v(x)}}, mask);
    int st = t.call("load", {{"src", v(s)}}, mask);
    int e =
        t.call("activation", {{"data", v(xt)}, {"scale", v(st)}}, R"("attrs":{"op":"exp"})" + m);
    t.call("store", {{"dst", v(out)}, {"value", v(e)}}, mask);
    auto k = t.finish({out});
    auto xv = values(128 * 600, 7), sv = values(128, 8);
    xv[77] = std::numeric_limits<float>::quiet_NaN();
    xv[600 * 3 + 5] = 1e4f; // a product far outside the fast path's range
    auto r = simtest::run(k, {xv, sv});
    std::vector<float> prod(xv.size()), want(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) prod[i] = xv[i] * sv[i / 600];
    sim::exp_f32(prod.data(), want.data(), static_cast<int64_t>(prod.size()));
    for (size_t i = 0; i < xv.size(); ++i)
      ASSERT_EQ(bits(r[0][i]), bits(want[i])) << (*mask ? "masked " : "fused ") << i;
  }
}

namespace {

// h = scan(d, u * b, initial) over [P, F], b a broadcast row (the selective scan's delta·u·B),
// op0 multiply, op1 add, `mask` on the scan; h stored into out, and (`second`) `second` into
// out2: "h" or "prod".
std::shared_ptr<const ir::Kernel> scan_of_product(int P, int F, const std::string& mask,
                                                  const std::string& second) {
  const std::string shape = "[" + std::to_string(P) + "," + std::to_string(F) + "]";
  KernelUnderTest t;
  auto v = KernelUnderTest::v;
  int d = t.param("d", shape), u = t.param("u", shape),
      b = t.param("b", "[1," + std::to_string(F) + "]"),
      i = t.param("i", "[" + std::to_string(P) + ",1]");
  t.open();
  int out = t.ndarray("out", shape, "float32", "shared_hbm");
  int out2 = second.empty() ? -1 : t.ndarray("out2", shape, "float32", "shared_hbm");
  int dt = t.call("load", {{"src", v(d)}}), ut = t.call("load", {{"src", v(u)}});
  int bt = t.call("broadcast_to", {{"src", v(t.call("load", {{"src", v(b)}}))}},
                  R"("attrs":{"shape":)" + shape + "}");
  int it = t.call("load", {{"src", v(i)}});
  int prod = t.call("multiply", {{"x", v(ut)}, {"y", v(bt)}});
  const std::string m = mask.empty() ? "" : "," + mask;
  int h = t.call("tensor_tensor_scan", {{"data0", v(dt)}, {"data1", v(prod)}, {"initial", v(it)}},
                 R"("attrs":{"op0":"multiply","op1":"add"})" + m);
  t.call("store", {{"dst", v(out)}, {"value", v(h)}});
  if (second.empty()) return t.finish({out});
  t.call("store", {{"dst", v(out2)}, {"value", v(second == "prod" ? prod : h)}});
  return t.finish({out, out2});
}

} // namespace

TEST_F(TraceTest, sim_scan_computes_the_multiply_before_it_that_only_it_reads) {
  // h = scan(d, u * b, initial) with b a broadcast row (the selective scan's delta·u·B): the
  // scan computes each u · b itself (KernelPlan::scan_pre), on the whole-tile path (100
  // partitions: a partial group of eight) and on the ordinary one (the scan masked), and leaves
  // the multiply to itself when the product is also stored. Each row is the recurrence over the
  // fp32 products, bit for bit, NaNs in u included; every instruction is counted as executed.
  for (int variant = 0; variant < 3; ++variant) {
    const bool masked = variant == 1, stored = variant == 2;
    const int P = masked ? 128 : 100, F = 302;
    auto k = scan_of_product(P, F, masked ? simtest::kMaskEverywhere : "", stored ? "prod" : "h");
    const sim::KernelPlan plan = sim::plan_kernel(*k);
    int32_t scan = -1, mul = -1;
    for (const ir::Instruction& in : k->instructions()) {
      if (in.opcode == "tensor_tensor_scan") scan = in.id;
      if (in.opcode == "tensor_tensor") mul = in.id;
    }
    ASSERT_GE(scan, 0);
    EXPECT_EQ(plan.scan_pre[static_cast<size_t>(scan)], stored ? -1 : mul) << variant;
    auto dv = values(P * F, 1), uv = values(P * F, 2), bv = values(F, 3), iv = values(P, 4);
    for (float& x : dv) x *= 0.5f; // keep the state bounded
    for (int e : {5, F * 17 + 300, F * 96 + 41}) uv[e] = std::numeric_limits<float>::quiet_NaN();
    sim::RunLog log;
    auto r = simtest::run(k, {dv, uv, bv, iv}, &log);
    EXPECT_EQ(log.instructions, static_cast<int64_t>(k->instructions().size())) << variant;
    for (int p = 0; p < P; ++p) {
      float s = iv[p];
      for (int f = 0; f < F; ++f) {
        const float x = uv[p * F + f] * bv[f];
        s = dv[p * F + f] * s + x;
        ASSERT_EQ(bits(r[0][p * F + f]), bits(s)) << variant << ": " << p << "," << f;
        ASSERT_EQ(bits(r[1][p * F + f]), bits(stored ? x : s)) << variant << ": " << p << "," << f;
      }
    }
  }
}

TEST_F(TraceTest, sim_scan_computing_its_data1_runs_in_strips_into_its_store) {
  // The same scan over rows of 2048, its result stored whole: the scan and the store run in
  // strips (the result living in the store's destination) while the scan computes u * b — so
  // neither the product's tile nor the scan's is ever allocated: the peak is the parameters and
  // the output. Each row the recurrence over the fp32 products, bit for bit.
  const int P = 100, F = 2048;
  auto k = scan_of_product(P, F, "", "");
  const sim::KernelPlan plan = sim::plan_kernel(*k);
  ASSERT_FALSE(plan.groups.empty());
  EXPECT_EQ(k->inst(plan.groups.back().insts[0]).opcode, "tensor_tensor_scan");
  auto dv = values(P * F, 1), uv = values(P * F, 2), bv = values(F, 3), iv = values(P, 4);
  for (float& x : dv) x *= 0.5f;
  simtest::RunBytes r = simtest::run_bytes(k, {dv, uv, bv, iv});
  const int64_t tile = int64_t{P} * F * 4;
  EXPECT_LT(r.peak, 4 * tile) << "a tile of the product or of the scan was allocated";
  std::vector<float> got(static_cast<size_t>(P) * F);
  std::memcpy(got.data(), r.out.data(), got.size() * 4);
  for (int p = 0; p < P; ++p) {
    float s = iv[p];
    for (int f = 0; f < F; ++f) {
      s = dv[p * F + f] * s + uv[p * F + f] * bv[f];
      ASSERT_EQ(bits(got[p * F + f]), bits(s)) << p << "," << f;
    }
  }
}

namespace {

// h = scan(d, x, initial) (op0 multiply, op1 add) over [P, F]; then `between` ("store": h
// stored into out_h; "write_y": Y overwritten with h), T = h * c (c a broadcast row), Y += T,
// Y (loaded from y0) stored into out_y; with `store_t`, T stored into out_t too.
std::shared_ptr<const ir::Kernel> scan_then_accumulate(int P, const std::string& between,
                                                       bool store_t) {
  const int F = 302;
  const std::string shape = "[" + std::to_string(P) + "," + std::to_string(F) + "]";
  KernelUnderTest t;
  auto v = KernelUnderTest::v;
  int d = t.param("d", shape), x = t.param("x", shape), y0 = t.param("y0", shape),
      c = t.param("c", "[1," + std::to_string(F) + "]"),
      i = t.param("i", "[" + std::to_string(P) + ",1]");
  t.open();
  int out_h = t.ndarray("out_h", shape, "float32", "shared_hbm");
  int out_y = t.ndarray("out_y", shape, "float32", "shared_hbm");
  int out_t = store_t ? t.ndarray("out_t", shape, "float32", "shared_hbm") : -1;
  int dt = t.call("load", {{"src", v(d)}}), xt = t.call("load", {{"src", v(x)}});
  int yt = t.call("load", {{"src", v(y0)}}), it = t.call("load", {{"src", v(i)}});
  int ct = t.call("broadcast_to", {{"src", v(t.call("load", {{"src", v(c)}}))}},
                  R"("attrs":{"shape":)" + shape + "}");
  int h = t.call("tensor_tensor_scan", {{"data0", v(dt)}, {"data1", v(xt)}, {"initial", v(it)}},
                 R"("attrs":{"op0":"multiply","op1":"add"})");
  if (between == "write_y") t.assign(v(yt), v(h));
  t.call("store", {{"dst", v(out_h)}, {"value", v(h)}});
  int prod = t.call("multiply", {{"x", v(h)}, {"y", v(ct)}});
  t.assign(v(yt), v(prod), "add");
  t.call("store", {{"dst", v(out_y)}, {"value", v(yt)}});
  if (!store_t) return t.finish({out_h, out_y});
  t.call("store", {{"dst", v(out_t)}, {"value", v(prod)}});
  return t.finish({out_h, out_y, out_t});
}

} // namespace

TEST_F(TraceTest, sim_scan_computes_the_accumulation_of_its_result_after_it) {
  // y += h * c right after the scan h (the selective scan's output): the scan computes it as it
  // writes h (KernelPlan::scan_post) with a store of h between them, so that T = h * c is never
  // allocated; with 100 partitions (a partial group of eight) the planned fold is declined at
  // run time and the two instructions run. Not planned when T is also stored, or when the
  // instruction between them writes Y. Every case bit for bit the scan, then h * c rounded,
  // then the add, NaNs in x and in y0 included; every instruction counted as executed.
  struct Case {
    int P;
    const char* between;
    bool store_t, planned;
  };
  for (const Case& cs : {Case{128, "", false, true}, Case{100, "", false, true},
                         Case{128, "", true, false}, Case{128, "write_y", false, false}}) {
    const int P = cs.P, F = 302;
    const std::string name = std::to_string(P) + cs.between + (cs.store_t ? " store_t" : "");
    auto k = scan_then_accumulate(P, cs.between, cs.store_t);
    const sim::KernelPlan plan = sim::plan_kernel(*k);
    int32_t scan = -1, mul = -1, add = -1;
    for (const ir::Instruction& in : k->instructions()) {
      if (in.opcode == "tensor_tensor_scan") scan = in.id;
      if (in.opcode == "tensor_tensor" && in.result != ir::kNone) mul = in.id;
      if (in.opcode == "tensor_tensor" && in.result == ir::kNone) add = in.id;
    }
    ASSERT_GE(scan, 0);
    ASSERT_GE(add, 0) << name;
    EXPECT_EQ(plan.scan_post[static_cast<size_t>(scan)].mul, cs.planned ? mul : -1) << name;
    EXPECT_EQ(plan.scan_post[static_cast<size_t>(scan)].add, cs.planned ? add : -1) << name;
    auto dv = values(P * F, 1), xv = values(P * F, 2), yv = values(P * F, 3), cv = values(F, 4),
         iv = values(P, 5);
    for (float& e : dv) e *= 0.5f; // keep the state bounded
    for (int e : {7, F * 9 + 200, F * 97 + 3}) xv[e] = std::numeric_limits<float>::quiet_NaN();
    yv[F * 40 + 11] = std::numeric_limits<float>::quiet_NaN();
    std::vector<std::vector<float>> in = {dv, xv, yv, cv, iv};
    simtest::RunBytes r = simtest::run_bytes(k, in);
    EXPECT_EQ(r.instructions, static_cast<int64_t>(k->instructions().size())) << name;
    const int64_t tile = int64_t{P} * F * 4;
    // Parameters d, x, y0 and outputs h, y (and T): a tile each; Y's and h's own tiles.
    if (cs.planned && P == 128) EXPECT_LT(r.peak, 7 * tile + tile / 2) << "T was allocated";
    ASSERT_EQ(r.out.size(), static_cast<size_t>((cs.store_t ? 3 : 2) * tile));
    std::vector<float> got(r.out.size() / 4);
    std::memcpy(got.data(), r.out.data(), r.out.size());
    const float* gh = got.data();
    const float* gy = got.data() + P * F;
    for (int p = 0; p < P; ++p) {
      float s = iv[p];
      for (int f = 0; f < F; ++f) {
        const int e = p * F + f;
        s = dv[e] * s + xv[e];
        const float prod = s * cv[f];
        const float y = (std::string(cs.between) == "write_y" ? s : yv[e]) + prod;
        ASSERT_EQ(bits(gh[e]), bits(s)) << name << ": h " << p << "," << f;
        ASSERT_EQ(bits(gy[e]), bits(y)) << name << ": y " << p << "," << f;
        if (cs.store_t) ASSERT_EQ(bits(got[2 * P * F + e]), bits(prod)) << name << ": t";
      }
    }
  }
}

namespace {

// Two iterations j of: h = scan(d_j, x_j, initial) over [P, F] (op0 multiply, op1 add; d_j, x_j
// column blocks j of [P, 2F] parameters), h stored into block j of out_h, then c_j made, T =
// h * c_j, Y[:, block j] += T, Y loaded from y0 before the loop and stored into out_y after it.
// c_j: row j of c ([2, F]) loaded and broadcast ("row"); the same from a copy (line 42) of a
// row tile of which only columns [0, F / 2) are written ("half_row"); block j of c ([P, 2F])
// copied into a tile made
// before the loop ("outer"). The initial state is i, or (`partial`) a tile of which only rows
// [0, 64) are written: the others read as NaN. The scan is at line 40.
std::shared_ptr<const ir::Kernel> scan_then_accumulate_blocks(int P, int F, bool partial,
                                                              const std::string& c_mode) {
  const std::string tile = "[" + std::to_string(P) + "," + std::to_string(F) + "]";
  const std::string wide = "[" + std::to_string(P) + "," + std::to_string(2 * F) + "]";
  const std::string col = "[" + std::to_string(P) + ",1]";
  KernelUnderTest t;
  auto v = KernelUnderTest::v;
  auto view = KernelUnderTest::view;
  int d = t.param("d", wide), x = t.param("x", wide), y0 = t.param("y0", wide),
      c = t.param("c", c_mode == "outer" ? wide : "[2," + std::to_string(F) + "]"),
      i = t.param("i", col);
  t.open();
  int out_h = t.ndarray("out_h", wide, "float32", "shared_hbm");
  int out_y = t.ndarray("out_y", wide, "float32", "shared_hbm");
  int yt = t.call("load", {{"src", v(y0)}});
  int cbuf = c_mode == "outer" ? t.ndarray("cbuf", tile, "float32", "sbuf") : -1;
  auto j = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "j");
  const std::string t_ = R"([["L",)" + std::to_string(j.axis) + "," + std::to_string(F) + "]]";
  const std::string block = R"([{"k":"slice"},{"k":"slice","start":{"c":0,"t":)" + t_ +
                            R"(},"stop":{"c":)" + std::to_string(F) + R"(,"t":)" + t_ + "}}]";
  const std::string r_ = R"([["L",)" + std::to_string(j.axis) + ",1]]";
  const std::string row = R"([{"k":"slice","start":{"c":0,"t":)" + r_ + R"(},"stop":{"c":1,"t":)" +
                          r_ + R"(}},{"k":"slice"}])";
  int dt = t.call("load", {{"src", view(d, block)}}),
      xt = t.call("load", {{"src", view(x, block)}});
  int it = t.call("load", {{"src", v(i)}});
  if (partial) {
    it = t.ndarray("init", col, "float32", "sbuf");
    t.assign(view(it, "[" + simtest::slice(0, 64) + "]"),
             v(t.call("load", {{"src", view(i, "[" + simtest::slice(0, 64) + "]")}})));
  }
  int h = t.call("tensor_tensor_scan", {{"data0", v(dt)}, {"data1", v(xt)}, {"initial", v(it)}},
                 R"("attrs":{"op0":"multiply","op1":"add"})", 40);
  t.call("store", {{"dst", view(out_h, block)}, {"value", v(h)}});
  int ct = cbuf;
  if (c_mode == "outer") {
    t.assign(v(cbuf), v(t.call("load", {{"src", view(c, block)}})));
  } else {
    int crow = -1;
    if (c_mode == "row") {
      crow = t.call("load", {{"src", view(c, row)}});
    } else {
      const std::string half = R"([{"k":"slice"},)" + simtest::slice(0, F / 2) + "]";
      crow = t.ndarray("crow", "[1," + std::to_string(F) + "]", "float32", "sbuf");
      t.assign(view(crow, half), view(t.call("load", {{"src", view(c, row)}}), half));
      crow = t.call("tensor_copy", {{"src", v(crow)}}, "", 42);
    }
    ct = t.call("broadcast_to", {{"src", v(crow)}}, R"("attrs":{"shape":)" + tile + "}");
  }
  int prod = t.call("multiply", {{"x", v(h)}, {"y", v(ct)}});
  t.assign(view(yt, block), v(prod), "add");
  j.alloc->close();
  j.loop->close();
  t.call("store", {{"dst", v(out_y)}, {"value", v(yt)}});
  return t.finish({out_h, out_y});
}

} // namespace

TEST_F(TraceTest, sim_scan_runs_after_the_instructions_making_its_accumulations_tile) {
  // c is made after the scan (the public selective-scan tutorials' order), with a store of h
  // before it: what makes c runs before the scan, the store after it (KernelPlan::scan_post's
  // `early`), and the scan computes Y += h * c into a column block of Y; T is never allocated.
  // When the scan's initial state is partly unwritten, the scan runs where it stands (its read
  // is the one reported, not that of the copy after it) and the accumulation is left to the
  // multiply and the add — the scan does not compute it with the c of the iteration before,
  // which a tile made before the loop still holds. All bit for bit: the scan, h * c rounded,
  // the add; every instruction counted as executed.
  const int P = 128, F = 260;
  struct Case {
    bool partial;
    const char* c_mode;
    int between, early, insts; // (instructions executed)
  };
  for (const Case& cs : {Case{false, "row", 3, 6, 22}, Case{true, "row", 3, 6, 26},
                         Case{true, "half_row", 6, 62, 32}, Case{false, "outer", 2, 2, 21},
                         Case{true, "outer", 2, 2, 25}}) {
    const std::string name = std::string(cs.c_mode) + (cs.partial ? " partial" : "");
    auto k = scan_then_accumulate_blocks(P, F, cs.partial, cs.c_mode);
    const sim::KernelPlan plan = sim::plan_kernel(*k);
    int32_t scan = -1;
    for (const ir::Instruction& in : k->instructions())
      if (in.opcode == "tensor_tensor_scan") scan = in.id;
    ASSERT_GE(scan, 0);
    const sim::KernelPlan::Post& post = plan.scan_post[static_cast<size_t>(scan)];
    EXPECT_GE(post.mul, 0) << name;
    EXPECT_EQ(post.between, cs.between) << name;
    EXPECT_EQ(post.early, cs.early) << name << ": what makes c, not the store";
    const bool outer = std::string(cs.c_mode) == "outer";
    auto dv = values(P * 2 * F, 1), xv = values(P * 2 * F, 2), yv = values(P * 2 * F, 3),
         cv = values(outer ? P * 2 * F : 2 * F, 4), iv = values(P, 5);
    for (float& e : dv) e *= 0.5f;
    xv[F * 3 + 100] = std::numeric_limits<float>::quiet_NaN();
    simtest::RunBytes r = simtest::run_bytes(k, {dv, xv, yv, cv, iv});
    EXPECT_EQ(r.instructions, cs.insts) << name;
    EXPECT_EQ(r.warnings, cs.partial ? 1u : 0u) << name;
    if (cs.partial) EXPECT_NE(r.warning_texts[0].find("k.py:40:"), std::string::npos) << name;
    const int64_t tile = int64_t{P} * F * 4;
    // Parameters d, x, y0 (and c), outputs h, y and Y's tile: two tiles each; h's own tile
    // (and c's).
    if (!cs.partial) EXPECT_LT(r.peak, (outer ? 16 : 13) * tile + tile / 2) << "T allocated";
    std::vector<float> got(r.out.size() / 4);
    std::memcpy(got.data(), r.out.data(), r.out.size());
    const float* gh = got.data();
    const float* gy = got.data() + P * 2 * F;
    for (int p = 0; p < P; ++p)
      for (int jj = 0; jj < 2; ++jj) {
        float s = cs.partial && p >= 64 ? std::numeric_limits<float>::quiet_NaN() : iv[p];
        for (int f = 0; f < F; ++f) {
          const int e = p * 2 * F + jj * F + f;
          s = dv[e] * s + xv[e];
          ASSERT_EQ(bits(gh[e]), bits(s)) << name << ": h " << p << "," << jj << "," << f;
          const float cf = outer ? cv[e]
                           : std::string(cs.c_mode) == "half_row" && f >= F / 2
                               ? std::numeric_limits<float>::quiet_NaN()
                               : cv[jj * F + f];
          ASSERT_EQ(bits(gy[e]), bits(yv[e] + s * cf))
              << name << ": y " << p << "," << jj << "," << f;
        }
      }
  }
}
