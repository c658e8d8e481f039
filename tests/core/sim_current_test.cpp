// The simulator on the current language's IR (NKI 0.6.0's simulator contract): loops over
// registers with dynamic offsets, pre-checked while loops, unrolled iterations, LNC2 as two
// instances over shared HBM, in-place updates of inputs, the NaN / 4 sentinels, NKI_PRECISE_FP.
#include <cmath>

#include "current_support.h"
#include "sim/plan.h"
#include "trace_fixture.h"

using namespace nki;
using curtest::CurrentKernel;

namespace {

std::string end(const util::Json& reply, const char* key) {
  return R"({"op":"pop","region":)" + std::to_string(reply[key].integer()) + "}";
}

} // namespace

TEST_F(TraceTest, sim_fori_loop_copies_the_rows_its_register_bound_reads) {
  CurrentKernel t;
  int a = t.param("a", "[4,8]"), n = t.param("n", "[1,1]", "int32");
  t.open();
  int out = t.ndarray("out", "[4,8]", "float32", "shared_hbm");
  int nsb = t.ndarray("n_sb", "[1,1]", "int32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(nsb)}, {"src", t.sv_whole(n)}});
  int ub = static_cast<int>(t.req(R"({"op":"isa_register_alloc","name":"ub"})")["r"].integer());
  t.req(R"({"op":"isa_register_load","dst":)" + std::to_string(ub) + R"(,"src":)" +
        t.sv_whole(nsb) + "}");
  auto loop = t.req(R"({"op":"loop","lb":{"imm":0},"ub":{"reg":)" + std::to_string(ub) +
                    R"(},"name":"i"})");
  std::string dyn = R"("dyn":[[)" + std::to_string(loop["r"].integer()) + ",8]]";
  int row = t.ndarray("row", "[1,8]", "float32", "sbuf");
  t.isa("dma_copy",
        {{"dst", t.sv_whole(row)}, {"src", CurrentKernel::sv(a, "[[8,1],[1,8]]", 0, dyn)}});
  t.isa("tensor_scalar",
        {{"dst", t.sv_whole(row)},
         {"data", t.sv_whole(row)},
         {"operand0", CurrentKernel::scalar(10)}},
        R"({"op0":"add"})");
  t.isa("dma_copy",
        {{"dst", CurrentKernel::sv(out, "[[8,1],[1,8]]", 0, dyn)}, {"src", t.sv_whole(row)}});
  t.req(end(loop, "alloc"));
  t.req(end(loop, "loop"));
  auto k = t.finish({out});
  std::vector<float> av(32);
  for (int i = 0; i < 32; ++i) av[i] = static_cast<float>(i);
  auto r = curtest::run(k, {av, {3.0f}}, curtest::current_options());
  for (int i = 0; i < 24; ++i) EXPECT_EQ(r[0][i], av[i] + 10) << i;
  for (int i = 24; i < 32; ++i) EXPECT_TRUE(std::isnan(r[0][i])) << "row 3 was never written";
  // a bound of zero runs no iteration (a counted loop, not Beta 1's "runs once")
  auto z = curtest::run(k, {av, {0.0f}}, curtest::current_options());
  for (float v : z[0]) EXPECT_TRUE(std::isnan(v));
}

TEST_F(TraceTest, sim_while_loop_checks_its_register_before_every_iteration) {
  CurrentKernel t;
  int n = t.param("n", "[1,1]", "int32");
  t.open();
  int acc = t.ndarray("acc", "[1,1]", "float32", "shared_hbm");
  int acc_sb = t.ndarray("acc_sb", "[1,1]", "float32", "sbuf");
  t.isa("memset", {{"dst", t.sv_whole(acc_sb)}, {"value", CurrentKernel::scalar(0)}});
  int cnt = t.ndarray("cnt", "[1,1]", "int32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(cnt)}, {"src", t.sv_whole(n)}});
  int c = static_cast<int>(t.req(R"({"op":"isa_register_alloc","name":"c"})")["r"].integer());
  std::string load = R"({"op":"isa_register_load","dst":)" + std::to_string(c) + R"(,"src":)" +
                     t.sv_whole(cnt) + "}";
  t.req(load);
  auto w = t.req(R"({"op":"push","kind":"WhileScope","cond":)" + std::to_string(c) + "}");
  t.isa("tensor_scalar",
        {{"dst", t.sv_whole(acc_sb)},
         {"data", t.sv_whole(acc_sb)},
         {"operand0", CurrentKernel::scalar(1)}},
        R"({"op0":"add"})");
  t.isa(
      "tensor_scalar",
      {{"dst", t.sv_whole(cnt)}, {"data", t.sv_whole(cnt)}, {"operand0", CurrentKernel::scalar(1)}},
      R"({"op0":"subtract"})");
  t.req(load);
  t.req(end(w, "alloc"));
  t.req(end(w, "while"));
  t.isa("dma_copy", {{"dst", t.sv_whole(acc)}, {"src", t.sv_whole(acc_sb)}});
  auto k = t.finish({acc});
  EXPECT_EQ(curtest::run(k, {{5.0f}}, curtest::current_options())[0][0], 5.0f);
  EXPECT_EQ(curtest::run(k, {{0.0f}}, curtest::current_options())[0][0], 0.0f)
      << "a zero condition runs the body no time (pre-checked, not do-while)";
}

TEST_F(TraceTest, sim_unrolled_iterations_run_in_order_and_inputs_update_in_place) {
  CurrentKernel t;
  int a = t.param("a", "[1,4]");
  t.open();
  int s = t.ndarray("s", "[1,4]", "float32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(s)}, {"src", t.sv_whole(a)}});
  auto loop = t.req(R"({"op":"loop","name":"i","unrolled":"range","lb":0,"ub":3})");
  for (int i = 0; i < 3; ++i) {
    auto it = t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":)" +
                    std::to_string(i) + "}");
    // s = s * 2 + i: order matters
    t.isa("tensor_scalar",
          {{"dst", t.sv_whole(s)},
           {"data", t.sv_whole(s)},
           {"operand0", CurrentKernel::scalar(2)},
           {"operand1", CurrentKernel::scalar(i)}},
          R"({"op0":"multiply","op1":"add"})");
    t.req(R"({"op":"pop","region":)" + std::to_string(it.integer()) + "}");
  }
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + R"(,"trip":3})");
  t.isa("dma_copy", {{"dst", t.sv_whole(a)}, {"src", t.sv_whole(s)}}); // writes the input
  auto k = t.finish({});
  std::vector<std::vector<float>> after;
  curtest::run(k, {{1, 2, 3, 4}}, curtest::current_options(), nullptr, &after);
  // ((x*2 + 0)*2 + 1)*2 + 2 = 8x + 4
  EXPECT_EQ(after[0], (std::vector<float>{12, 20, 28, 36}));
}

TEST_F(TraceTest, sim_lnc2_runs_each_cores_body_over_shared_hbm) {
  CurrentKernel t(2);
  int a = t.param("a", "[2,4]");
  t.open();
  int out = t.ndarray("out", "[2,4]", "float32", "shared_hbm");
  for (int core = 0; core < 2; ++core) {
    int region =
        static_cast<int>(t.req(R"({"op":"push","kind":"ScopeRegion","tag":"core","core":)" +
                               std::to_string(core) + "}")
                             .integer());
    int s = t.ndarray("s", "[1,4]", "float32", "sbuf");
    t.isa("dma_copy",
          {{"dst", t.sv_whole(s)}, {"src", CurrentKernel::sv(a, "[[4,1],[1,4]]", 4 * core)}});
    t.isa("tensor_scalar",
          {{"dst", t.sv_whole(s)},
           {"data", t.sv_whole(s)},
           {"operand0", CurrentKernel::scalar(100 * (core + 1))}},
          R"({"op0":"add"})");
    t.isa("dma_copy",
          {{"dst", CurrentKernel::sv(out, "[[4,1],[1,4]]", 4 * core)}, {"src", t.sv_whole(s)}});
    t.req(R"({"op":"pop","region":)" + std::to_string(region) + "}");
  }
  auto k = t.finish({out});
  EXPECT_NE(printer::to_text(*k).find("ScopeRegion core 1 {"), std::string::npos);
  auto r = curtest::run(k, {{0, 1, 2, 3, 4, 5, 6, 7}}, curtest::current_options());
  EXPECT_EQ(r[0], (std::vector<float>{100, 101, 102, 103, 204, 205, 206, 207}));
}

TEST_F(TraceTest, sim_never_written_integers_read_4_and_the_check_is_labelled_ours) {
  CurrentKernel t;
  t.open();
  int out = t.ndarray("out", "[1,2]", "int32", "shared_hbm");
  int s = t.ndarray("s", "[1,2]", "int32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(s)}});
  auto k = t.finish({out});
  sim::RunLog log;
  auto r = curtest::run(k, {}, curtest::current_options(), &log);
  EXPECT_EQ(r[0], (std::vector<float>{4, 4}));
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_NE(log.warnings[0].text.find("[nki-playground check, not NKI's] reading memory that was "
                                      "never written"),
            std::string::npos)
      << log.warnings[0].text;
  EXPECT_NE(log.warnings[0].text.find("4 for integer tensors"), std::string::npos);
}

TEST_F(TraceTest, sim_precise_fp_off_keeps_low_precision_tiles_in_fp32) {
  CurrentKernel t;
  int x = t.param("x", "[1,1]");
  t.open();
  int out = t.ndarray("out", "[1,1]", "float32", "shared_hbm");
  int xs = t.ndarray("xs", "[1,1]", "float32", "sbuf");
  int h = t.ndarray("h", "[1,1]", "bfloat16", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(xs)}, {"src", t.sv_whole(x)}});
  t.isa("tensor_copy", {{"dst", t.sv_whole(h)}, {"src", t.sv_whole(xs)}});
  t.isa("tensor_scalar",
        {{"dst", t.sv_whole(xs)}, {"data", t.sv_whole(h)}, {"operand0", CurrentKernel::scalar(1)}},
        R"({"op0":"subtract"})");
  t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(xs)}});
  auto k = t.finish({out});
  const float x0 = 1.0f + std::ldexp(1.0f, -10); // not a bfloat16
  auto precise = curtest::run(k, {{x0}}, curtest::current_options());
  EXPECT_EQ(precise[0][0], 0.0f);
  sim::SimOptions o = curtest::current_options();
  o.precise_fp = false;
  auto fp32 = curtest::run(k, {{x0}}, o);
  EXPECT_EQ(fp32[0][0], std::ldexp(1.0f, -10));
}

TEST_F(TraceTest, sim_scalar_and_vector_offsets_read_their_index_tiles_at_run_time) {
  CurrentKernel t;
  int a = t.param("a", "[4,3]"), idx = t.param("idx", "[2,1]", "int32");
  t.open();
  int out = t.ndarray("out", "[2,3]", "float32", "shared_hbm");
  int isb = t.ndarray("i_sb", "[2,1]", "int32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(isb)}, {"src", t.sv_whole(idx)}});
  int g = t.ndarray("g", "[2,3]", "float32", "sbuf");
  // gather rows idx[p] of a: .ap([[3, 2], [1, 3]], vector_offset=i_sb, indirect_dim=0)
  t.isa("dma_copy", {{"dst", t.sv_whole(g)},
                     {"src", CurrentKernel::sv(a, "[[3,2],[1,3]]", 0,
                                               R"("ind":{"v":)" + t.sv_whole(isb) +
                                                   R"(,"scale":3,"vector":true})")}});
  // then add row idx[0] of a to both rows: a scalar offset from a (1, 1) tile
  int one = t.ndarray("one", "[2,3]", "float32", "sbuf");
  t.isa("dma_copy",
        {{"dst", t.sv_whole(one)},
         {"src", CurrentKernel::sv(a, "[[0,2],[1,3]]", 0,
                                   R"("ind":{"v":)" + CurrentKernel::sv(isb, "[[1,1],[1,1]]") +
                                       R"(,"scale":3})")}});
  t.isa("tensor_tensor",
        {{"dst", t.sv_whole(g)}, {"data1", t.sv_whole(g)}, {"data2", t.sv_whole(one)}},
        R"({"op":"add"})");
  t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(g)}});
  auto k = t.finish({out});
  std::vector<float> av(12);
  for (int i = 0; i < 12; ++i) av[i] = static_cast<float>(i);
  auto r = curtest::run(k, {av, {3, 1}}, curtest::current_options());
  // rows 3 and 1, plus row 3
  EXPECT_EQ(r[0], (std::vector<float>{18, 20, 22, 12, 14, 16}));
}

TEST_F(TraceTest, sim_capacity_counts_the_tiles_live_at_once_not_every_unrolled_tile) {
  auto kernel = [](bool keep_all) {
    CurrentKernel t;
    int a = t.param("a", "[128,16384]");
    t.open();
    int out = t.ndarray("out", "[128,16384]", "float32", "shared_hbm");
    std::vector<int> tiles;
    auto loop = t.req(R"({"op":"loop","name":"i","unrolled":"range","lb":0,"ub":5})");
    for (int i = 0; i < 5; ++i) {
      auto it = t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":)" +
                      std::to_string(i) + "}");
      int s = t.ndarray("s", "[128,16384]", "float32", "sbuf", 20 + i); // 64 KiB per partition
      t.isa("dma_copy", {{"dst", t.sv_whole(s)}, {"src", t.sv_whole(a)}});
      if (!keep_all) t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(s)}});
      tiles.push_back(s);
      t.req(R"({"op":"pop","region":)" + std::to_string(it.integer()) + "}");
    }
    t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + R"(,"trip":5})");
    if (keep_all) // a Python list of tiles, all read after the loop
      for (int s : tiles) t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(s)}});
    return t.finish({out});
  };
  std::vector<float> av(128 * 16384, 1.0f);
  sim::RunLog log;
  curtest::run(kernel(false), {av}, curtest::current_options(), &log);
  EXPECT_TRUE(log.warnings.empty()) << log.warnings[0].text;
  curtest::run(kernel(true), {av}, curtest::current_options(), &log);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_EQ(log.warnings[0].code, "sbuf-over-capacity");
  EXPECT_NE(log.warnings[0].text.find("k.py:24:1: warning: [nki-playground check, not NKI's] the "
                                      "tensors live here need 327680 bytes of SBUF per partition, "
                                      "more than the 262144 of trn3"),
            std::string::npos)
      << log.warnings[0].text;
}

TEST_F(TraceTest, sim_a_scan_into_its_dst_and_the_dma_copy_of_it_run_in_strips) {
  // tensor_tensor_scan(dst=h) then dma_copy(out <- h), 100 partitions of 2048: the two run a
  // strip of partitions at a time (plan.cpp: a scan starts its run and takes the stores after
  // it); each row is the scalar recurrence h = x * h + y from 0.5.
  CurrentKernel t;
  int x = t.param("x", "[100,2048]"), y = t.param("y", "[100,2048]");
  t.open();
  int out = t.ndarray("out", "[100,2048]", "float32", "shared_hbm");
  int xt = t.ndarray("xt", "[100,2048]", "float32", "sbuf");
  int yt = t.ndarray("yt", "[100,2048]", "float32", "sbuf");
  int h = t.ndarray("h", "[100,2048]", "float32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(xt)}, {"src", t.sv_whole(x)}});
  t.isa("dma_copy", {{"dst", t.sv_whole(yt)}, {"src", t.sv_whole(y)}});
  t.isa("tensor_tensor_scan",
        {{"dst", t.sv_whole(h)},
         {"data0", t.sv_whole(xt)},
         {"data1", t.sv_whole(yt)},
         {"initial", CurrentKernel::scalar(0.5)}},
        R"({"op0":"multiply","op1":"add"})");
  t.isa("dma_copy", {{"dst", t.sv_whole(out)}, {"src", t.sv_whole(h)}});
  auto k = t.finish({out});
  sim::KernelPlan plan = sim::plan_kernel(*k);
  bool grouped = false;
  for (const sim::StripGroup& g : plan.groups)
    grouped = grouped || (k->inst(g.insts.front()).opcode == "tensor_tensor_scan" &&
                          g.insts.size() == 2 && k->inst(g.insts[1]).opcode == "dma_copy");
  EXPECT_TRUE(grouped) << "the scan and the dma_copy of its dst form a run";
  std::vector<float> xv(100 * 2048), yv(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    xv[i] = 0.09f * static_cast<float>(static_cast<int>(i * 7 % 23) - 11) / 11.0f;
    yv[i] = static_cast<float>(static_cast<int>(i * 13 % 17) - 8) / 8.0f;
  }
  auto r = curtest::run(k, {xv, yv}, curtest::current_options());
  for (int p = 0; p < 100; ++p) {
    float s = 0.5f;
    for (int f = 0; f < 2048; ++f) {
      s = xv[p * 2048 + f] * s + yv[p * 2048 + f];
      ASSERT_EQ(r[0][p * 2048 + f], s) << p << "," << f;
    }
  }
}
