// Loops whose body is one fused strip group run partition by partition across their iterations
// (interpreter_loop_fused.cpp) and give the bytes of running them iteration by iteration (the
// same kernel with a mask that holds everywhere keeps every instruction on the ordinary path);
// a loop whose iterations write what another one accesses, or read what another wrote, or
// that reads memory not all written, runs the ordinary way. The current language's unrolled
// tile loops (ndarray tiles written by dma_copy and dst-first instructions) likewise.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "current_support.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;

namespace {

using simtest::run_bytes;
using simtest::RunBytes;
const char* const kEverywhere = simtest::kMaskEverywhere;
auto values = simtest::lcg_values;

// Columns [offset + step * L, offset + step * L + width) of loop axis `axis` (all partitions).
std::string cols(int axis, int64_t step, int64_t width, int64_t offset = 0) {
  const std::string t = R"([["L",)" + std::to_string(axis) + "," + std::to_string(step) + "]]";
  return R"([{"k":"slice"},{"k":"slice","start":{"c":)" + std::to_string(offset) + R"(,"t":)" + t +
         R"(},"stop":{"c":)" + std::to_string(offset + width) + R"(,"t":)" + t + "}}]";
}

// out[:, block j] = x[:, block j] + y[:, block j] over `trips` blocks `w` wide, stored at
// columns store_step * j (+ store_offset); with `sums`, also the block's row sums into
// column j of a second output.
std::shared_ptr<const ir::Kernel> tile_add(const std::string& mask, int64_t trips, int64_t w,
                                           int64_t store_step, bool sums = false) {
  KernelUnderTest t;
  const std::string shape = "[128," + std::to_string(trips * w) + "]";
  int x = t.param("x", shape), y = t.param("y", shape);
  t.open();
  int out = t.ndarray("out", shape, "float32", "shared_hbm");
  int sum =
      sums ? t.ndarray("sums", "[128," + std::to_string(trips) + "]", "float32", "shared_hbm") : -1;
  const std::string m = mask.empty() ? "" : "," + mask;
  auto j = t.cg().affine_range(0, trips, 1, ir::AxisType::Affine, "j");
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", KernelUnderTest::view(x, cols(j.axis, w, w))}}, mask);
  int yt = t.call("load", {{"src", KernelUnderTest::view(y, cols(j.axis, w, w))}}, mask);
  int s = t.call("add", {{"x", v(xt)}, {"y", v(yt)}}, mask);
  t.call("store",
         {{"dst", KernelUnderTest::view(out, cols(j.axis, store_step, w))}, {"value", v(s)}}, mask);
  if (sums) {
    int r = t.call("sum", {{"x", v(s)}}, R"("attrs":{"axis":[1],"keepdims":true})" + m);
    t.call("store", {{"dst", KernelUnderTest::view(sum, cols(j.axis, 1, 1))}, {"value", v(r)}},
           mask);
  }
  j.alloc->close();
  j.loop->close();
  return t.finish(sums ? std::vector<int>{out, sum} : std::vector<int>{out});
}

void expect_same(const RunBytes& a, const RunBytes& b) {
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.warning_texts, b.warning_texts);
}

} // namespace

TEST_F(TraceTest, sim_a_tile_loop_runs_partition_by_partition_across_its_iterations) {
  for (bool sums : {false, true}) {
    auto x = values(128 * 16 * 512, 1), y = values(128 * 16 * 512, 2);
    RunBytes a = run_bytes(tile_add("", 16, 512, 512, sums), {x, y});
    RunBytes b = run_bytes(tile_add(kEverywhere, 16, 512, 512, sums), {x, y});
    expect_same(a, b);
    EXPECT_EQ(a.interleaved, 16);
    EXPECT_EQ(b.interleaved, 0);
    EXPECT_EQ(a.warnings, 0u);
    // x and y read where they are, the sum written where the store puts it: 12 bytes an
    // element (and 4 a row per block for the sums).
    EXPECT_EQ(a.bytes_moved, 128 * 16 * 512 * 12 + (sums ? 128 * 16 * 4 : 0));
    std::vector<float> out(128 * 16 * 512);
    std::memcpy(out.data(), a.out.data(), out.size() * 4);
    for (size_t i = 0; i < out.size(); i += 97) ASSERT_EQ(out[i], x[i] + y[i]) << i;
  }
}

TEST_F(TraceTest, sim_a_loop_of_more_iterations_than_a_batch_interleaves_them_all) {
  // 300 iterations of four steps: batches of 128, 128 and 44 iterations.
  auto x = values(128 * 300 * 8, 3), y = values(128 * 300 * 8, 4);
  RunBytes a = run_bytes(tile_add("", 300, 8, 8), {x, y});
  RunBytes b = run_bytes(tile_add(kEverywhere, 300, 8, 8), {x, y});
  expect_same(a, b);
  EXPECT_EQ(a.interleaved, 300);
}

TEST_F(TraceTest, sim_iterations_writing_the_same_memory_run_in_order) {
  // Every iteration stores into the same columns (the last one's sums remain), or into
  // columns half of which the next iteration stores again.
  for (int64_t step : {0, 256}) {
    auto x = values(128 * 8 * 512, 5), y = values(128 * 8 * 512, 6);
    RunBytes a = run_bytes(tile_add("", 8, 512, step), {x, y});
    RunBytes b = run_bytes(tile_add(kEverywhere, 8, 512, step), {x, y});
    expect_same(a, b);
    EXPECT_EQ(a.interleaved, 0) << step;
    std::vector<float> out(128 * 8 * 512);
    std::memcpy(out.data(), a.out.data(), out.size() * 4);
    const int64_t last = 7 * 512, at = 7 * step;
    for (int64_t p = 0; p < 128; p += 13)
      for (int64_t f = 0; f < 512; f += 7)
        ASSERT_EQ(out[p * 4096 + at + f], x[p * 4096 + last + f] + y[p * 4096 + last + f]);
  }
}

TEST_F(TraceTest, sim_an_iteration_reading_what_another_wrote_runs_in_order) {
  // Iteration j doubles rows j..j+127 of z's column block j into block j + 1: the next
  // iteration reads that block one row lower, so row p + 1 of its read is row p of this
  // iteration's write. Partition by partition, partition p of iteration j + 1 would come
  // before partition p + 1 of iteration j.
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int z =
        t.req(R"({"op":"param","name":"z","shape":[136,4608],"dtype":"float32","mutable":true})");
    t.open();
    auto j = t.cg().affine_range(0, 8, 1, ir::AxisType::Affine, "j");
    const std::string l = R"([["L",)" + std::to_string(j.axis) + ",1]]";
    auto block = [&](int64_t offset) {
      std::string c = cols(j.axis, 512, 512, offset);
      return R"([{"k":"slice","start":{"c":0,"t":)" + l + R"(},"stop":{"c":128,"t":)" + l + "}}" +
             c.substr(c.find("},{") + 1);
    };
    int c = t.call("load", {{"src", KernelUnderTest::view(z, block(0))}}, mask);
    int tw = t.call("multiply", {{"x", KernelUnderTest::v(c)}, {"y", R"({"s":2.0})"}}, mask);
    t.call("store",
           {{"dst", KernelUnderTest::view(z, block(512))}, {"value", KernelUnderTest::v(tw)}},
           mask);
    j.alloc->close();
    j.loop->close();
    return t.finish({z});
  };
  auto zv = values(136 * 4608, 8);
  std::vector<float> want = zv;
  for (int64_t j = 0; j < 8; ++j)
    for (int64_t p = 0; p < 128; ++p)
      for (int64_t f = 0; f < 512; ++f)
        want[(j + p) * 4608 + (j + 1) * 512 + f] = 2.0f * want[(j + p) * 4608 + j * 512 + f];
  for (const std::string& mask : {std::string(), std::string(kEverywhere)}) {
    sim::RunLog log;
    std::vector<std::vector<float>> after;
    auto outs = simtest::run(kernel(mask), {zv}, &log, {}, &after);
    EXPECT_EQ(log.interleaved_iterations, 0);
    ASSERT_EQ(outs.size(), 1u);
    EXPECT_EQ(outs[0], want);
  }
}

TEST_F(TraceTest, sim_a_loop_reading_memory_not_all_written_runs_in_order) {
  // The loop reads blocks of an HBM tensor written before it except in its last block: the
  // last iteration reads never-written memory, reported as when the iterations run in turn.
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int x = t.param("x", "[128,4096]");
    t.open();
    int out = t.ndarray("out", "[128,4096]", "float32", "shared_hbm");
    int tmp = t.ndarray("tmp", "[128,4096]", "float32", "shared_hbm");
    auto v = KernelUnderTest::v;
    int head = t.call(
        "load",
        {{"src", KernelUnderTest::view(x, "[{\"k\":\"slice\"}," + simtest::slice(0, 3584) + "]")}});
    t.call("store", {{"dst", KernelUnderTest::view(tmp, "[{\"k\":\"slice\"}," +
                                                            simtest::slice(0, 3584) + "]")},
                     {"value", v(head)}});
    auto j = t.cg().affine_range(0, 8, 1, ir::AxisType::Affine, "j");
    int tt =
        t.call("load", {{"src", KernelUnderTest::view(tmp, cols(j.axis, 512, 512))}}, mask, 30);
    int d = t.call("multiply", {{"x", v(tt)}, {"y", R"({"s":3.0})"}}, mask);
    t.call("store", {{"dst", KernelUnderTest::view(out, cols(j.axis, 512, 512))}, {"value", v(d)}},
           mask);
    j.alloc->close();
    j.loop->close();
    return t.finish({out});
  };
  auto xv = values(128 * 4096, 9);
  RunBytes a = run_bytes(kernel(""), {xv}), b = run_bytes(kernel(kEverywhere), {xv});
  expect_same(a, b);
  EXPECT_EQ(a.interleaved, 0);
  ASSERT_EQ(a.warnings, 1u);
  EXPECT_NE(a.warning_texts[0].find("k.py:30:"), std::string::npos) << a.warning_texts[0];
}

namespace {

// The current language's tile add: an unrolled loop over `trips` column blocks `w` wide, each
// iteration allocating x, y and s (sbuf), dma_copy-ing the blocks of a and b in — only the
// first `w_in` columns of x — adding them into s and dma_copy-ing s out.
std::shared_ptr<const ir::Kernel> current_tile_add(int64_t trips, int64_t w, int64_t w_in) {
  curtest::CurrentKernel t;
  const int64_t cols = trips * w;
  const std::string shape = "[128," + std::to_string(cols) + "]";
  int a = t.param("a", shape), b = t.param("b", shape);
  t.open();
  int out = t.ndarray("out", shape, "float32", "shared_hbm");
  auto loop = t.req(R"({"op":"loop","name":"j","unrolled":"range","lb":0,"ub":)" +
                    std::to_string(trips) + "}");
  const std::string block = "[[" + std::to_string(cols) + ",128],[1," + std::to_string(w) + "]]";
  const std::string part = "[[" + std::to_string(cols) + ",128],[1," + std::to_string(w_in) + "]]";
  const std::string tile = "[128," + std::to_string(w) + "]";
  for (int64_t j = 0; j < trips; ++j) {
    auto it = t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":)" +
                    std::to_string(j) + "}");
    int x = t.ndarray("x", tile, "float32", "sbuf"), y = t.ndarray("y", tile, "float32", "sbuf");
    const std::string xpart = "[[" + std::to_string(w) + ",128],[1," + std::to_string(w_in) + "]]";
    t.isa("dma_copy",
          {{"dst", curtest::CurrentKernel::sv(x, xpart)},
           {"src", curtest::CurrentKernel::sv(a, part, j * w)}},
          "{}", 20);
    t.isa("dma_copy",
          {{"dst", t.sv_whole(y)}, {"src", curtest::CurrentKernel::sv(b, block, j * w)}});
    int s = t.ndarray("s", tile, "float32", "sbuf");
    t.isa("tensor_tensor",
          {{"dst", t.sv_whole(s)}, {"data1", t.sv_whole(x)}, {"data2", t.sv_whole(y)}},
          R"({"op":"add"})", 22);
    t.isa("dma_copy",
          {{"dst", curtest::CurrentKernel::sv(out, block, j * w)}, {"src", t.sv_whole(s)}});
    t.req(R"({"op":"pop","region":)" + std::to_string(it.integer()) + "}");
  }
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + R"(,"trip":)" +
        std::to_string(trips) + "}");
  return t.finish({out});
}

} // namespace

TEST_F(TraceTest, sim_a_current_language_tile_loop_runs_fused_across_its_iterations) {
  auto k = current_tile_add(16, 512, 512);
  auto x = values(128 * 16 * 512, 11), y = values(128 * 16 * 512, 12);
  sim::Simulator s(k, curtest::current_options());
  std::memcpy(s.input(0), x.data(), x.size() * 4);
  std::memcpy(s.input(1), y.data(), y.size() * 4);
  s.run();
  const float* out = reinterpret_cast<const float*>(s.output(0));
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i], x[i] + y[i]) << i;
  EXPECT_EQ(s.log().interleaved_iterations, 16);
  EXPECT_EQ(s.log().instructions, 1 + 16 * 7); // out's ndarray, then seven an iteration
  EXPECT_TRUE(s.log().warnings.empty());
  // x and y read a and b in place, s lives in out's block: a and b read, out written, 12
  // bytes an element, and no tile storage at all (a, b and out only).
  EXPECT_EQ(s.log().bytes_moved, 128 * 16 * 512 * 12);
  EXPECT_EQ(s.peak_bytes(), 3 * 128 * 16 * 512 * 4);
}

TEST_F(TraceTest, sim_a_current_language_tile_written_in_part_runs_in_order) {
  // x is written in its first 256 columns only: the add reads never-written memory, reported
  // at its line as on the ordinary path (NaN there).
  auto k = current_tile_add(4, 512, 256);
  auto x = values(128 * 4 * 512, 13), y = values(128 * 4 * 512, 14);
  sim::RunLog log;
  auto r = curtest::run(k, {x, y}, curtest::current_options(), &log);
  EXPECT_EQ(log.interleaved_iterations, 0);
  ASSERT_FALSE(log.warnings.empty());
  EXPECT_NE(log.warnings[0].text.find("k.py:22:"), std::string::npos) << log.warnings[0].text;
  for (int64_t p = 0; p < 128; p += 17)
    for (int64_t f = 0; f < 2048; f += 101) {
      const float v = r[0][p * 2048 + f];
      if (f % 512 < 256)
        ASSERT_EQ(v, x[p * 2048 + f] + y[p * 2048 + f]);
      else
        ASSERT_TRUE(std::isnan(v));
    }
}

TEST_F(TraceTest, sim_a_mask_that_holds_everywhere_masks_nothing) {
  // The public tutorials mask whole tiles (`i * 128 + p < rows` with rows a multiple of 128,
  // `j * 512 + f < cols`): such a mask masks nothing, and the instructions take their unmasked
  // paths — the loop interleaved, x and y read in place — with the same outputs, bytes and
  // peak as without it. Kept as written (SimOptions::keep_masks) they run the ordinary way; a
  // mask that does leave rows out (p < 100) is never dropped.
  auto x = values(128 * 16 * 512, 1), y = values(128 * 16 * 512, 2);
  const sim::SimOptions plain; // the simulator's defaults
  RunBytes a = run_bytes(tile_add("", 16, 512, 512), {x, y}, plain);
  const std::string cols_mask =
      R"("mask":[{"lhs":{"c":0,"t":[["A",1,1]],"shape":[1,512]},"op":"<","rhs":{"c":512}}])";
  for (const std::string& mask : {std::string(kEverywhere), cols_mask}) {
    RunBytes b = run_bytes(tile_add(mask, 16, 512, 512), {x, y}, plain);
    expect_same(a, b);
    EXPECT_EQ(b.interleaved, 16) << mask;
    EXPECT_EQ(b.bytes_moved, a.bytes_moved) << mask;
    EXPECT_EQ(b.peak, a.peak) << mask;
    RunBytes kept = run_bytes(tile_add(mask, 16, 512, 512), {x, y}, simtest::test_options());
    expect_same(a, kept);
    EXPECT_EQ(kept.interleaved, 0) << mask;
    EXPECT_GT(kept.peak, a.peak) << mask;
  }
  const std::string rows_mask =
      R"("mask":[{"lhs":{"c":0,"t":[["A",0,1]],"shape":[128,1]},"op":"<","rhs":{"c":100}}])";
  RunBytes d = run_bytes(tile_add(rows_mask, 16, 512, 512), {x, y}, plain);
  EXPECT_EQ(d.interleaved, 0);
  ASSERT_EQ(d.out.size(), a.out.size());
  const size_t row = 16 * 512 * 4;
  EXPECT_TRUE(std::equal(d.out.begin(), d.out.begin() + 100 * row, a.out.begin()));
  uint32_t nan;
  std::memcpy(&nan, d.out.data() + 100 * row, 4);
  EXPECT_EQ(nan & 0x7f800000u, 0x7f800000u) << "rows 100.. are never written";
}
