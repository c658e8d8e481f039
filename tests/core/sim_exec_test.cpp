// The simulator on kernels built through the request protocol: SPMD + loops, PSUM
// accumulation, masks at partial tiles, if/else and do-while control flow, integer exactness.
#include <cmath>

#include "sema/sema.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;
using simtest::slice;

namespace {

std::string expr(const std::string& terms, const std::string& shape, int64_t c = 0) {
  return R"({"k":"expr","e":{"c":)" + std::to_string(c) + R"(,"t":)" + terms + R"(,"shape":)" +
         shape + "}}";
}

} // namespace

TEST_F(TraceTest, sim_tensor_add_over_grid_and_loop) {
  KernelUnderTest t({2});
  int a = t.param("a", "[256,1024]"), b = t.param("b", "[256,1024]");
  t.open();
  int out = t.ndarray("out", "[256,1024]", "float32", "shared_hbm");
  auto loop = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "j");
  std::string ax = std::to_string(loop.axis);
  std::string items = "[" + expr(R"([["P",0,128],["A",0,1]])", "[128,1]") + "," +
                      expr(R"([["L",)" + ax + R"(,512],["A",1,1]])", "[1,512]") + "]";
  int at = t.call("load", {{"src", KernelUnderTest::view(a, items)}});
  int bt = t.call("load", {{"src", KernelUnderTest::view(b, items)}});
  int s = t.call("add", {{"x", KernelUnderTest::v(at)}, {"y", KernelUnderTest::v(bt)}});
  t.call("store", {{"dst", KernelUnderTest::view(out, items)}, {"value", KernelUnderTest::v(s)}});
  loop.alloc->close();
  loop.loop->close();
  auto k = t.finish({out});
  auto x = simtest::iota_values(256 * 1024, 0.5f), y = simtest::iota_values(256 * 1024, 0.25f, 3);
  auto r = simtest::run(k, {x, y});
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(r[0][i], x[i] + y[i]) << i;
}

TEST_F(TraceTest, sim_matmul_accumulates_in_psum_over_k_tiles) {
  KernelUnderTest t;
  int a = t.param("a_t", "[256,128]"), b = t.param("b", "[256,64]");
  t.open();
  int c = t.ndarray("c", "[128,64]", "float32", "shared_hbm");
  int acc = t.ndarray("acc", "[128,64]", "float32", "psum", "0");
  auto loop = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "k");
  std::string ax = std::to_string(loop.axis);
  std::string rows = R"({"k":"slice","start":{"c":0,"t":[["L",)" + ax +
                     R"(,128]]},"stop":{"c":128,"t":[["L",)" + ax + R"(,128]]}})";
  int lhs = t.call("load", {{"src", KernelUnderTest::view(a, "[" + rows + "]")}});
  int rhs = t.call("load", {{"src", KernelUnderTest::view(b, "[" + rows + "]")}});
  int m = t.call("nc_matmul",
                 {{"stationary", KernelUnderTest::v(lhs)}, {"moving", KernelUnderTest::v(rhs)}});
  t.assign(KernelUnderTest::v(acc), KernelUnderTest::v(m), "add");
  loop.alloc->close();
  loop.loop->close();
  int res = t.call("copy", {{"src", KernelUnderTest::v(acc)}});
  t.call("store", {{"dst", KernelUnderTest::v(c)}, {"value", KernelUnderTest::v(res)}});
  auto k = t.finish({c});
  std::vector<float> av(256 * 128), bv(256 * 64);
  for (size_t i = 0; i < av.size(); ++i) av[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  for (size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<float>((i * 5) % 11) - 5.0f;
  auto r = simtest::run(k, {av, bv});
  for (int mi = 0; mi < 128; ++mi)
    for (int n = 0; n < 64; ++n) {
      double want = 0;
      for (int kk = 0; kk < 256; ++kk) want += av[kk * 128 + mi] * bv[kk * 64 + n];
      ASSERT_EQ(r[0][mi * 64 + n], static_cast<float>(want)) << mi << "," << n;
    }
}

TEST_F(TraceTest, sim_psum_accumulation_adds_each_matmul_in_program_order_in_fp32) {
  // acc += 2^24, then += 1 twice: in fp32 each +1 is lost (ties to even), so the result is
  // exactly 2^24 — not 2^24 + 2, which summing the contributions first would give.
  KernelUnderTest t;
  int x = t.param("x", "[3,1,1]"), ones = t.param("one", "[1,1]");
  t.open();
  int out = t.ndarray("out", "[1,1]", "float32", "shared_hbm");
  int acc = t.ndarray("acc", "[1,1]", "float32", "psum", "0");
  int one = t.call("load", {{"src", KernelUnderTest::v(ones)}});
  for (int i = 0; i < 3; ++i) {
    int s = t.call(
        "load",
        {{"src", KernelUnderTest::view(x, "[{\"k\":\"int\",\"v\":" + std::to_string(i) + "}]")}});
    int m = t.call("nc_matmul",
                   {{"stationary", KernelUnderTest::v(s)}, {"moving", KernelUnderTest::v(one)}});
    t.assign(KernelUnderTest::v(acc), KernelUnderTest::v(m), "add");
  }
  int res = t.call("copy", {{"src", KernelUnderTest::v(acc)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(res)}});
  auto k = t.finish({out});
  auto r = simtest::run(k, {{16777216.0f, 1.0f, 1.0f}, {1.0f}});
  EXPECT_EQ(r[0][0], 16777216.0f);
}

TEST_F(TraceTest, sim_masks_limit_partial_tiles) {
  KernelUnderTest t;
  int x = t.param("x", "[200,64]");
  t.open();
  int out = t.ndarray("out", "[200,64]", "float32", "shared_hbm");
  auto loop = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "t");
  std::string ax = std::to_string(loop.axis);
  std::string rows_t = R"([["L",)" + ax + R"(,128],["A",0,1]])";
  std::string items = "[" + expr(rows_t, "[128,1]") + "," + expr(R"([["A",1,1]])", "[1,64]") + "]";
  std::string mask =
      R"("mask":[{"lhs":{"c":0,"t":)" + rows_t + R"(,"shape":[128,1]},"op":"<","rhs":{"c":200}}])";
  int xt = t.call("load", {{"src", KernelUnderTest::view(x, items)}}, mask);
  int y = t.call("copy", {{"src", KernelUnderTest::v(xt)}}, mask + R"(,"dtype":"bfloat16")");
  t.call("store", {{"dst", KernelUnderTest::view(out, items)}, {"value", KernelUnderTest::v(y)}},
         mask);
  loop.alloc->close();
  loop.loop->close();
  auto k = t.finish({out});
  sim::RunLog log;
  auto xv = simtest::iota_values(200 * 64);
  auto r = simtest::run(k, {xv}, &log);
  for (size_t i = 0; i < xv.size(); ++i)
    ASSERT_EQ(r[0][i], sim::round_to(ir::DType::BFloat16, xv[i])) << i;
  EXPECT_EQ(log.unwritten_reads, 0) << (log.warnings.empty() ? "" : log.warnings[0].text);
}

TEST_F(TraceTest, sim_if_else_follows_loop_predicates) {
  KernelUnderTest t;
  int x = t.param("x", "[4,8]");
  t.open();
  int out = t.ndarray("out", "[4,8]", "float32", "shared_hbm");
  auto loop = t.cg().affine_range(0, 4, 1, ir::AxisType::Affine, "i");
  std::string row = "[{\"k\":\"slice\",\"start\":{\"c\":0,\"t\":[[\"L\"," +
                    std::to_string(loop.axis) + ",1]]},\"stop\":{\"c\":1,\"t\":[[\"L\"," +
                    std::to_string(loop.axis) + ",1]]}}]";
  int xt = t.call("load", {{"src", KernelUnderTest::view(x, row)}});
  ir::Predicate p;
  p.terms.push_back(
      {ir::AffineExpr::var({ir::VarKind::LoopIv, loop.axis}), ir::CmpOp::Lt, ir::AffineExpr(2)});
  {
    auto g = t.cg().if_scope(p);
    int y = t.call("multiply", {{"x", KernelUnderTest::v(xt)}, {"y", R"({"s":10})"}});
    t.call("store", {{"dst", KernelUnderTest::view(out, row)}, {"value", KernelUnderTest::v(y)}});
  }
  {
    auto g = t.cg().if_scope({}, true);
    int y = t.call("multiply", {{"x", KernelUnderTest::v(xt)}, {"y", R"({"s":-1})"}});
    t.call("store", {{"dst", KernelUnderTest::view(out, row)}, {"value", KernelUnderTest::v(y)}});
  }
  loop.alloc->close();
  loop.loop->close();
  auto k = t.finish({out});
  auto xv = simtest::iota_values(32, 1.0f, 1.0f);
  auto r = simtest::run(k, {xv});
  for (int i = 0; i < 32; ++i) EXPECT_EQ(r[0][i], xv[i] * (i / 8 < 2 ? 10.0f : -1.0f)) << i;
}

TEST_F(TraceTest, sim_do_while_runs_until_its_condition_fails) {
  KernelUnderTest t;
  int x = t.param("x", "[1,4]");
  t.open();
  int out = t.ndarray("out", "[1,4]", "float32", "shared_hbm");
  int tile = t.call("load", {{"src", KernelUnderTest::v(x)}});
  int probe = t.ndarray("probe", "[1,1]", "float32", "sbuf");
  ir::RegionId w;
  {
    auto g = t.cg().while_scope();
    w = g.region();
    int h = t.call("multiply", {{"x", KernelUnderTest::v(tile)}, {"y", R"({"s":0.5})"}});
    t.assign(KernelUnderTest::view(tile, R"([{"k":"ellipsis"}])"), KernelUnderTest::v(h));
    t.assign(KernelUnderTest::v(probe),
             KernelUnderTest::view(tile, "[" + slice(0, 1) + "," + slice(0, 1) + "]"));
    t.req(R"({"op":"while_cond","region":)" + std::to_string(w) + R"(,"scalar":{"v":)" +
          std::to_string(probe) + R"(},"cmp":">=","rhs":1.0})");
  }
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(tile)}});
  auto k = t.finish({out});
  auto r = simtest::run(k, {{20.0f, 1.0f, 2.0f, 3.0f}});
  // 20 -> 10 -> 5 -> 2.5 -> 1.25 -> 0.625: five halvings.
  EXPECT_EQ(r[0][0], 0.625f);
  EXPECT_EQ(r[0][1], 1.0f / 32);
}

TEST_F(TraceTest, sim_int32_values_stay_exact_through_dma_and_gpsimd) {
  KernelUnderTest t;
  int a = t.param("a", "[2,2]", "int32"), b = t.param("b", "[2,2]", "int32");
  t.open();
  int out = t.ndarray("out", "[2,2]", "int32", "shared_hbm");
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}});
  int bt = t.call("load", {{"src", KernelUnderTest::v(b)}});
  int s = t.call("add", {{"x", KernelUnderTest::v(at)}, {"y", KernelUnderTest::v(bt)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(s)}});
  auto k = t.finish({out});
  sim::Simulator s2(k);
  int32_t av[4] = {16777217, -2147483647, 7, 123456789}, bv[4] = {1, -1, -8, 987654321};
  std::memcpy(s2.input(0), av, 16);
  std::memcpy(s2.input(1), bv, 16);
  s2.run();
  int32_t r[4];
  std::memcpy(r, s2.output(0), 16);
  // GpSimd adds integers exactly; the Vector engine computes in fp32 (then casts on write).
  bool exact = false;
  for (const ir::Instruction& in : k->instructions())
    if (in.opcode == "tensor_tensor") exact = in.engine == ir::Engine::GpSimd;
  EXPECT_EQ(r[0], exact ? 16777218 : 16777216);
  EXPECT_EQ(r[1], -2147483647 - 1);
  EXPECT_EQ(r[2], -1);
  EXPECT_EQ(r[3], exact ? 1111111110 : 1111111168);
}
