// What the simulator catches: reads of never-written memory (NaN, first read reported with its
// source line), SBUF / PSUM capacity (NKI's "stack overflow" texts), run-time out-of-bounds.
#include <cmath>

#include "sema/sema.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;
using simtest::slice;

TEST_F(TraceTest, sim_reports_the_first_read_of_never_written_memory) {
  KernelUnderTest t;
  int x = t.param("x", "[128,8]");
  t.open();
  int out = t.ndarray("out", "[128,8]", "float32", "shared_hbm", "", 3);
  int half = t.ndarray("half", "[128,8]", "float32", "sbuf", "", 4);
  int top = t.call("load", {{"src", KernelUnderTest::view(x, "[" + slice(0, 64) + "]")}}, "", 5);
  t.assign(KernelUnderTest::view(half, "[" + slice(0, 64) + "]"), KernelUnderTest::v(top), "", 6);
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(half)}}, "", 7);
  auto k = t.finish({out});
  sim::RunLog log;
  auto r = simtest::run(k, {simtest::iota_values(128 * 8)}, &log);
  EXPECT_EQ(r[0][0], 0.0f);
  EXPECT_TRUE(std::isnan(r[0][64 * 8])) << "never-written SBUF reads as NaN";
  ASSERT_EQ(log.warnings.size(), 1u);
  const std::string& text = log.warnings[0].text;
  EXPECT_EQ(text.rfind("k.py:7:1: warning: reading memory that was never written", 0), 0u) << text;
  EXPECT_NE(text.find("`half[64, 0]`"), std::string::npos) << text;
  EXPECT_EQ(log.warnings[0].code, "unwritten-read"); // docs/errors.md#unwritten-read
  EXPECT_EQ(log.unwritten_reads, 1);                 // one store instruction, reported once
}

TEST_F(TraceTest, sim_fully_written_tiles_report_nothing) {
  KernelUnderTest t;
  int x = t.param("x", "[128,8]");
  t.open();
  int out = t.ndarray("out", "[128,8]", "float32", "shared_hbm");
  int buf = t.ndarray("buf", "[128,8]", "float32", "sbuf");
  int a = t.call("load", {{"src", KernelUnderTest::view(x, "[" + slice(0, 64) + "]")}});
  int b = t.call("load", {{"src", KernelUnderTest::view(x, "[" + slice(64, 128) + "]")}});
  t.assign(KernelUnderTest::view(buf, "[" + slice(0, 64) + "]"), KernelUnderTest::v(a));
  t.assign(KernelUnderTest::view(buf, "[" + slice(64, 128) + "]"), KernelUnderTest::v(b));
  t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(buf)}});
  auto k = t.finish({out});
  sim::RunLog log;
  auto xv = simtest::iota_values(128 * 8);
  auto r = simtest::run(k, {xv}, &log);
  EXPECT_EQ(r[0], xv);
  EXPECT_TRUE(log.warnings.empty()) << log.warnings[0].text;
}

// Capacity follows NKI's allocator: a tile holds its space from its definition to its last use
// (the store below), and the space of dead tiles is reused.
static std::shared_ptr<const ir::Kernel> two_big_tiles(bool first_dies_early) {
  KernelUnderTest t;
  int x = t.param("x", "[128,30000]");
  t.open();
  int out1 = t.ndarray("out1", "[128,30000]", "float32", "shared_hbm");
  int out2 = t.ndarray("out2", "[128,30000]", "float32", "shared_hbm");
  int big1 = t.call("load", {{"src", KernelUnderTest::v(x)}}, "", 10);
  if (first_dies_early)
    t.call("store", {{"dst", KernelUnderTest::v(out1)}, {"value", KernelUnderTest::v(big1)}});
  int big2 = t.call("load", {{"src", KernelUnderTest::v(x)}}, "", 11);
  if (!first_dies_early)
    t.call("store", {{"dst", KernelUnderTest::v(out1)}, {"value", KernelUnderTest::v(big1)}});
  t.call("store", {{"dst", KernelUnderTest::v(out2)}, {"value", KernelUnderTest::v(big2)}});
  return t.finish({out1, out2});
}

TEST_F(TraceTest, sim_sbuf_capacity_counts_live_tiles_with_nki_stack_overflow_text) {
  auto k = two_big_tiles(false);
  try {
    simtest::run(k, {simtest::iota_values(128 * 30000)});
    FAIL() << "expected a capacity error";
  } catch (const sema::NkiError& e) {
    EXPECT_STREQ(e.what(), "stack overflow: required sbuf size 240000 exceeds available sbuf "
                           "size 196608");
    EXPECT_EQ(e.loc().line, 11);
  }
}

TEST_F(TraceTest, sim_sbuf_space_of_a_dead_tile_is_reused) {
  auto k = two_big_tiles(true);
  auto xv = simtest::iota_values(128 * 30000);
  auto r = simtest::run(k, {xv});
  EXPECT_EQ(r[0], xv);
  EXPECT_EQ(r[1], xv);
}

TEST_F(TraceTest, sim_a_tile_read_in_a_loop_lives_until_the_loop_ends) {
  // big1 is read at the top of the loop body, big2 allocated after that read: the next
  // iteration reads big1 again, so both are live.
  for (bool read_in_loop : {false, true}) {
    KernelUnderTest t;
    int x = t.param("x", "[128,30000]");
    t.open();
    int out = t.ndarray("out", "[128,30000]", "float32", "shared_hbm");
    int big1 = t.call("load", {{"src", KernelUnderTest::v(x)}}, "", 10);
    if (!read_in_loop)
      t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(big1)}});
    auto loop = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "i");
    if (read_in_loop)
      t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(big1)}});
    int big2 = t.call("load", {{"src", KernelUnderTest::v(x)}}, "", 12);
    t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(big2)}});
    loop.alloc->close();
    loop.loop->close();
    auto k = t.finish({out});
    if (!read_in_loop) {
      EXPECT_NO_THROW(simtest::run(k, {simtest::iota_values(128 * 30000)}));
      continue;
    }
    try {
      simtest::run(k, {simtest::iota_values(128 * 30000)});
      FAIL() << "expected a capacity error";
    } catch (const sema::NkiError& e) {
      EXPECT_STREQ(e.what(), "stack overflow: required sbuf size 240000 exceeds available sbuf "
                             "size 196608");
      EXPECT_EQ(e.loc().line, 12);
    }
  }
}

TEST_F(TraceTest, sim_psum_banks_are_counted_while_their_tiles_are_live) {
  // Eight 2 KiB PSUM tiles per loop iteration fit (each iteration's die before the next); a
  // ninth allocated before the loop and read after it does not.
  for (int extra : {0, 1}) {
    KernelUnderTest t;
    int x = t.param("x", "[128,4]");
    t.open();
    int out = t.ndarray("out", "[128,4]", "float32", "shared_hbm");
    int outer = extra ? t.ndarray("outer", "[128,512]", "float32", "psum", "0", 20) : -1;
    auto loop = t.cg().affine_range(0, 2, 1, ir::AxisType::Affine, "i");
    std::vector<int> p;
    for (int i = 0; i < 8; ++i)
      p.push_back(t.ndarray("p" + std::to_string(i), "[128,512]", "float32", "psum", "0", 30 + i));
    for (int pi : p) t.call("copy", {{"src", KernelUnderTest::v(pi)}});
    loop.alloc->close();
    loop.loop->close();
    if (extra) t.call("copy", {{"src", KernelUnderTest::v(outer)}});
    int xt = t.call("load", {{"src", KernelUnderTest::v(x)}});
    t.call("store", {{"dst", KernelUnderTest::v(out)}, {"value", KernelUnderTest::v(xt)}});
    auto k = t.finish({out});
    if (!extra) {
      EXPECT_NO_THROW(simtest::run(k, {simtest::iota_values(512)}));
      continue;
    }
    try {
      simtest::run(k, {simtest::iota_values(512)});
      FAIL() << "expected a PSUM capacity error";
    } catch (const sema::NkiError& e) {
      EXPECT_STREQ(e.what(),
                   "stack overflow: required psum banks 9 exceeds available psum banks 8");
      EXPECT_EQ(e.loc().line, 37);
    }
  }
}

TEST_F(TraceTest, sim_unsupported_opcodes_are_named) {
  auto k = std::make_shared<ir::Kernel>();
  ir::IRBuilder b(*k);
  b.set_kernel_info("k", {}, {"k.py", 1, 1});
  b.create_region(ir::RegionKind::KernelScope, {});
  b.set_insertion_region(0);
  b.set_loc({"k.py", 4, 2});
  ir::Instruction in;
  in.opcode = "frobnicate";
  b.create_inst(in);
  sim::Simulator s(k);
  try {
    s.run();
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_STREQ(e.what(), "not supported in the simulator yet: frobnicate");
    EXPECT_EQ(e.loc().line, 4);
  }
}
