// The simulator's per-kernel plan (sim/plan.h): a load of a parameter nothing writes reads the
// parameter in place (no copy, no tile storage), and every case where that would change a
// result copies as before — the parameter is written later, the tile is written again, the
// tile is masked. The current language's dma_copy into an ndarray's tile likewise.
#include <algorithm>
#include <cmath>

#include "current_support.h"
#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;
using simtest::slice;

namespace {

int mutable_param(KernelUnderTest& t, const std::string& name, const std::string& shape) {
  return t.req(R"({"op":"param","name":")" + name + R"(","shape":)" + shape +
               R"(,"dtype":"float32","mutable":true})");
}

const ir::Instruction& first(const ir::Kernel& k, const std::string& opcode) {
  for (const ir::Instruction& in : k.instructions())
    if (in.opcode == opcode) return in;
  throw std::runtime_error("no " + opcode);
}

} // namespace

TEST_F(TraceTest, sim_load_of_a_read_only_input_reads_it_in_place) {
  KernelUnderTest t; // (tiles small enough to run whole, not in strips)
  int a = t.param("a", "[128,64]"), b = t.param("b", "[128,64]");
  t.open();
  int out = t.ndarray("out", "[128,64]", "float32", "shared_hbm");
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}});
  int bt = t.call("load", {{"src", KernelUnderTest::v(b)}});
  int s = t.call("add", {{"x", KernelUnderTest::v(at)}, {"y", KernelUnderTest::v(bt)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(s)}});
  auto k = t.finish({out});
  sim::KernelPlan plan = sim::plan_kernel(*k);
  EXPECT_TRUE(plan.read_only[static_cast<size_t>(k->params()[0])]);
  EXPECT_TRUE(plan.alias[static_cast<size_t>(first(*k, "load").id)]);
  sim::RunLog log;
  auto x = simtest::iota_values(128 * 64, 0.5f), y = simtest::iota_values(128 * 64, 0.25f, 3);
  sim::Simulator sim(k);
  std::memcpy(sim.input(0), x.data(), x.size() * 4);
  std::memcpy(sim.input(1), y.data(), y.size() * 4);
  sim.run();
  const float* r = reinterpret_cast<const float*>(sim.output(0));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(r[i], x[i] + y[i]) << i;
  // Storage: a, b, out and the sum's tile; the loads moved nothing: 4 + 4 (add's inputs, read
  // in place) + 4 (its result) + 4 + 4 (the store) bytes per element.
  const int64_t tile = 128 * 64 * 4;
  EXPECT_EQ(sim.peak_bytes(), 4 * tile);
  EXPECT_EQ(sim.log().bytes_moved, 5 * tile);
}

TEST_F(TraceTest, sim_load_of_an_input_the_kernel_overwrites_keeps_the_loaded_values) {
  // t = load(x); x = 2 * t (stored); out = t + 1 — t must hold x as it was when loaded.
  KernelUnderTest t;
  int x = mutable_param(t, "x", "[128,64]");
  t.open();
  int out = t.ndarray("out", "[128,64]", "float32", "shared_hbm");
  int xt = t.call("load", {{"src", KernelUnderTest::v(x)}});
  int twice = t.call("multiply", {{"x", KernelUnderTest::v(xt)}, {"y", R"({"s":2.0})"}});
  t.call("store", {{"dst", KernelUnderTest::v(x)}, {"value", KernelUnderTest::v(twice)}});
  int plus = t.call("add", {{"x", KernelUnderTest::v(xt)}, {"y", R"({"s":1.0})"}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(plus)}});
  auto k = t.finish({out, x});
  EXPECT_FALSE(sim::plan_kernel(*k).read_only[static_cast<size_t>(k->params()[0])]);
  auto xv = simtest::iota_values(128 * 64);
  auto r = simtest::run(k, {xv});
  for (size_t i = 0; i < xv.size(); ++i) {
    ASSERT_EQ(r[0][i], xv[i] + 1.0f) << i;
    ASSERT_EQ(r[1][i], 2.0f * xv[i]) << i;
  }
}

TEST_F(TraceTest, sim_loaded_tile_written_again_is_a_copy_and_the_input_is_untouched) {
  // t = load(a); t[0:64] = load(b); out = t — writing t must not write a.
  KernelUnderTest t;
  int a = t.param("a", "[128,8]"), b = t.param("b", "[64,8]");
  t.open();
  int out = t.ndarray("out", "[128,8]", "float32", "shared_hbm");
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}});
  int bt = t.call("load", {{"src", KernelUnderTest::v(b)}});
  int zero = t.call("multiply", {{"x", KernelUnderTest::v(bt)}, {"y", R"({"s":0.0})"}});
  t.assign(KernelUnderTest::view(at, "[" + slice(0, 64) + "]"), KernelUnderTest::v(zero));
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(at)}});
  auto k = t.finish({out});
  EXPECT_FALSE(sim::plan_kernel(*k).alias[static_cast<size_t>(first(*k, "load").id)]);
  auto av = simtest::iota_values(128 * 8, 1.0f, 1.0f), bv = simtest::iota_values(64 * 8);
  sim::Simulator sim(k);
  std::memcpy(sim.input(0), av.data(), av.size() * 4);
  std::memcpy(sim.input(1), bv.data(), bv.size() * 4);
  sim.run();
  const float* r = reinterpret_cast<const float*>(sim.output(0));
  const float* in = reinterpret_cast<const float*>(sim.input(0));
  for (size_t i = 0; i < av.size(); ++i) {
    ASSERT_EQ(r[i], i < 64 * 8 ? 0.0f : av[i]) << i;
    ASSERT_EQ(in[i], av[i]) << "input element " << i << " was written";
  }
}

TEST_F(TraceTest, sim_masked_load_of_a_read_only_input_leaves_the_rest_never_written) {
  // t = load(a, mask=p < 64): rows 64.. of t were never written; reading them warns (NaN).
  KernelUnderTest t;
  int a = t.param("a", "[128,8]");
  t.open();
  int out = t.ndarray("out", "[128,8]", "float32", "shared_hbm");
  std::string mask =
      R"("mask":[{"lhs":{"c":0,"t":[["A",0,1]],"shape":[128,1]},"op":"<","rhs":{"c":64}}])";
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}}, mask);
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(at)}});
  auto k = t.finish({out});
  sim::RunLog log;
  auto av = simtest::iota_values(128 * 8);
  auto r = simtest::run(k, {av}, &log);
  EXPECT_EQ(r[0][8], av[8]);
  EXPECT_TRUE(std::isnan(r[0][64 * 8]));
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].code, "unwritten-read");
}

TEST_F(TraceTest, sim_dma_copy_into_a_tile_reads_a_read_only_input_in_place) {
  // x = ndarray; dma_copy(x <- a); y = x + 1 (tensor_scalar, dst=y); dma_copy(out <- y) — and,
  // with `again`, x += 1 in place before that: x is then written twice and must be a copy, a
  // untouched.
  for (bool again : {false, true}) {
    curtest::CurrentKernel t;
    int a = t.param("a", "[128,64]");
    t.open();
    int out = t.ndarray("out", "[128,64]", "float32", "shared_hbm");
    int x = t.ndarray("x", "[128,64]", "float32", "sbuf");
    t.isa("dma_copy", {{"dst", t.sv_whole(x)}, {"src", t.sv_whole(a)}});
    if (again)
      t.isa("tensor_scalar",
            {{"dst", t.sv_whole(x)}, {"data", t.sv_whole(x)}, {"operand0", t.scalar(1)}},
            R"({"op0":"add"})");
    int y = t.ndarray("y", "[128,64]", "float32", "sbuf");
    t.isa("tensor_scalar",
          {{"dst", t.sv_whole(y)}, {"data", t.sv_whole(x)}, {"operand0", t.scalar(1)}},
          R"({"op0":"add"})");
    t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(y)}});
    auto k = t.finish({out});
    EXPECT_EQ(sim::plan_kernel(*k).alias[static_cast<size_t>(first(*k, "dma_copy").id)], !again);
    auto av = simtest::iota_values(128 * 64, 0.5f);
    std::vector<std::vector<float>> after;
    auto r = curtest::run(k, {av}, curtest::current_options(), nullptr, &after);
    for (size_t i = 0; i < av.size(); ++i) {
      ASSERT_EQ(r[0][i], av[i] + (again ? 2.0f : 1.0f)) << i;
      ASSERT_EQ(after[0][i], av[i]) << i;
    }
  }
}

TEST_F(TraceTest, sim_dma_copy_into_an_output_copies) {
  // t = ndarray (sbuf); dma_copy(t <- a); dma_copy(out <- t): t may read a in place, but out is
  // the kernel's output and gets the bytes.
  curtest::CurrentKernel t;
  int a = t.param("a", "[2,3]");
  t.open();
  int out = t.ndarray("out", "[2,3]", "float32", "shared_hbm");
  int x = t.ndarray("x", "[2,3]", "float32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(x)}, {"src", t.sv_whole(a)}});
  t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(x)}});
  auto k = t.finish({out});
  auto r = curtest::run(k, {{1, 2, 3, 4, 5, 6}}, curtest::current_options());
  EXPECT_EQ(r[0], (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(TraceTest, sim_large_tensors_do_not_share_their_addresses_low_twelve_bits) {
  // a + b into out, each 256 KiB, and a 32 KiB g: the four buffers start at offsets modulo 4 KiB
  // at least 256 bytes apart (both ways round), so that a loop loading some while storing
  // another never has a load wait on a store it only appears to depend on. Small buffers (under
  // 16 KiB) are unaffected.
  KernelUnderTest t;
  int a = t.param("a", "[128,512]"), b = t.param("b", "[128,512]");
  int s = t.param("s", "[4,8]"), g = t.param("g", "[8,1024]");
  t.open();
  int out = t.ndarray("out", "[128,512]", "float32", "shared_hbm");
  int at = t.call("load", {{"src", KernelUnderTest::v(a)}});
  int bt = t.call("load", {{"src", KernelUnderTest::v(b)}});
  int sum = t.call("add", {{"x", KernelUnderTest::v(at)}, {"y", KernelUnderTest::v(bt)}});
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(sum)}});
  auto k = t.finish({out});
  sim::Simulator sim(k);
  auto x = simtest::iota_values(128 * 512, 0.5f), y = simtest::iota_values(128 * 512, 0.25f, 3);
  std::memcpy(sim.input(0), x.data(), x.size() * 4);
  std::memcpy(sim.input(1), y.data(), y.size() * 4);
  std::memset(sim.input(2), 0, 4 * 8 * 4);
  std::memset(sim.input(3), 0, 8 * 1024 * 4);
  sim.run();
  const uintptr_t at_a = reinterpret_cast<uintptr_t>(sim.input(0)) % 4096,
                  at_b = reinterpret_cast<uintptr_t>(sim.input(1)) % 4096,
                  at_o = reinterpret_cast<uintptr_t>(sim.output(0)) % 4096,
                  at_g = reinterpret_cast<uintptr_t>(sim.input(3)) % 4096;
  auto apart = [](uintptr_t p, uintptr_t q) {
    const uintptr_t d = (p - q) & 4095;
    return std::min(d, 4096 - d);
  };
  EXPECT_GE(apart(at_a, at_b), 256u);
  EXPECT_GE(apart(at_a, at_o), 256u);
  EXPECT_GE(apart(at_b, at_o), 256u);
  for (uintptr_t other : {at_a, at_b, at_o}) EXPECT_GE(apart(at_g, other), 256u);
  // The rule itself: the k-th buffer of 16 KiB or more made starts k * 1280 bytes past a 4 KiB
  // boundary (modulo 4096) — here a, b, g (the inputs, in order), then out.
  std::vector<uintptr_t> got = {at_a, at_b, at_g, at_o}, want = {0, 1280, 2560, 3840};
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(at_a % 256, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(sim.input(2)) % 8, 0u);
  const float* r = reinterpret_cast<const float*>(sim.output(0));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(r[i], x[i] + y[i]) << i;
}
