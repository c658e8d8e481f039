// Fused strip groups (sim/plan.h StripGroup::fuse, Interpreter::run_fused): a row-local run
// executed a partition at a time, its instructions interleaved by chunks, gives the bytes of
// running each instruction over its whole tile (the same kernel with a mask that holds
// everywhere keeps it on the ordinary path), moves fewer bytes, and an instruction reading
// what an earlier one wrote through another view waits for it. The maximum / minimum fold the
// reductions use, which runs four chains side by side, gives the bits of one chain.
#include <cmath>
#include <cstring>
#include <limits>

#include "sim/exec_util.h"
#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;

namespace {

using simtest::run_bytes;
using simtest::RunBytes;
const char* const kEverywhere = simtest::kMaskEverywhere;
auto values = simtest::lcg_values;

// Softmax rows of x [128, 3000] (a row of two whole chunks and a part), then
// y = softmax * g + 0.25 through tensor_scalar, stored; `mask` on every instruction, or none.
std::shared_ptr<const ir::Kernel> softmax_scaled(const std::string& mask) {
  KernelUnderTest t;
  int x = t.param("x", "[128,3000]"), g = t.param("g", "[128,3000]");
  t.open();
  int out = t.ndarray("out", "[128,3000]", "float32", "shared_hbm");
  const std::string m = mask.empty() ? "" : "," + mask;
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}}, mask);
  int gt = t.call("load", {{"src", v(g)}}, mask);
  int mx = t.call("max", {{"x", v(xt)}}, R"("attrs":{"axis":[1],"keepdims":true})" + m);
  int sh = t.call("subtract", {{"x", v(xt)}, {"y", v(mx)}}, mask);
  int e = t.call("exp", {{"x", v(sh)}}, mask);
  int sm = t.call("sum", {{"x", v(e)}}, R"("attrs":{"axis":[1],"keepdims":true})" + m);
  int r = t.call("divide", {{"x", v(e)}, {"y", v(sm)}}, mask);
  int w = t.call("multiply", {{"x", v(r)}, {"y", v(gt)}}, mask);
  int y = t.call("add", {{"x", v(w)}, {"y", R"({"s":0.25})"}}, mask);
  t.call("store", {{"dst", v(out)}, {"value", v(y)}}, mask);
  return t.finish({out});
}

// The fold_run order before the parts: lane l of eight folds elements l, l + 8, ... one by one,
// then the lanes in order, then the tail.
float fold_one_chain(sim::Alu op, float acc, const float* v, int64_t n) {
  float lane[8];
  std::fill(lane, lane + 8, sim::alu_identity(op));
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int l = 0; l < 8; ++l) lane[l] = sim::alu_one(op, lane[l], v[i + l]);
  for (float l : lane) acc = sim::alu_one(op, acc, l);
  for (; i < n; ++i) acc = sim::alu_one(op, acc, v[i]);
  return acc;
}

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

} // namespace

TEST_F(TraceTest, sim_a_fused_softmax_gives_the_bytes_of_the_whole_tile_run) {
  auto fused = softmax_scaled(""), whole = softmax_scaled(kEverywhere);
  sim::KernelPlan plan = sim::plan_kernel(*fused);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_TRUE(plan.groups[0].fuse);
  EXPECT_EQ(plan.groups[0].insts.size(), 10u);
  auto x = values(128 * 3000, 7), g = values(128 * 3000, 8);
  x[5] = std::numeric_limits<float>::quiet_NaN(); // a NaN row, a row of infinities and zeros
  for (int f = 0; f < 3000; ++f)
    x[3000 + f] = f % 3 ? -0.0f : std::numeric_limits<float>::infinity();
  RunBytes a = run_bytes(fused, {x, g}), b = run_bytes(whole, {x, g});
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.warnings, 0u);
  EXPECT_EQ(b.warnings, 0u);
  // x read by max and subtract, g by multiply, out written: 16 bytes per element; the whole-tile
  // run also writes and reads sh, e, r, w and y.
  EXPECT_EQ(a.bytes_moved, 128 * 3000 * 16);
  EXPECT_GT(b.bytes_moved, 2 * a.bytes_moved);
}

TEST_F(TraceTest, sim_a_fused_read_of_another_view_of_a_write_waits_for_the_whole_row) {
  // y[:, 0:2048] = 2x; c = y[:, 1:2049] (written by the store except its last column); out = 3c.
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int x = t.param("x", "[128,2048]");
    int y =
        t.req(R"({"op":"param","name":"y","shape":[128,4096],"dtype":"float32","mutable":true})");
    t.open();
    int out = t.ndarray("out", "[128,2048]", "float32", "shared_hbm");
    auto v = KernelUnderTest::v;
    auto cols = [](int lo) {
      return R"([{"k":"slice"},{"k":"slice","start":{"c":)" + std::to_string(lo) +
             R"(},"stop":{"c":)" + std::to_string(lo + 2048) + "}}]";
    };
    int xt = t.call("load", {{"src", v(x)}}, mask);
    int tw = t.call("multiply", {{"x", v(xt)}, {"y", R"({"s":2.0})"}}, mask);
    t.call("store", {{"dst", KernelUnderTest::view(y, cols(0))}, {"value", v(tw)}}, mask);
    int c = t.call("load", {{"src", KernelUnderTest::view(y, cols(1))}}, mask);
    int d = t.call("multiply", {{"x", v(c)}, {"y", R"({"s":3.0})"}}, mask);
    t.call("store", {{"dst", v(out)}, {"value", v(d)}}, mask);
    return t.finish({out, y});
  };
  auto fused = kernel(""), whole = kernel(kEverywhere);
  sim::KernelPlan plan = sim::plan_kernel(*fused);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_TRUE(plan.groups[0].fuse);
  auto xv = values(128 * 2048, 3), yv = values(128 * 4096, 4);
  RunBytes a = run_bytes(fused, {xv, yv}), b = run_bytes(whole, {xv, yv});
  EXPECT_EQ(a.out, b.out);
  std::vector<float> out(128 * 2048);
  std::memcpy(out.data(), a.out.data(), out.size() * 4);
  for (int p = 0; p < 128; p += 9)
    for (int f = 0; f < 2048; ++f) {
      const float c = f + 1 < 2048 ? 2.0f * xv[p * 2048 + f + 1] : yv[p * 4096 + 2048];
      ASSERT_EQ(out[p * 2048 + f], 3.0f * c) << p << "," << f;
    }
}

TEST(SimFold, maximum_and_minimum_in_four_chains_give_the_bits_of_one) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = INFINITY;
  for (sim::Alu op : {sim::Alu::Maximum, sim::Alu::Minimum})
    for (int64_t n : {0, 1, 7, 8, 9, 31, 32, 33, 63, 100, 257, 1000, 1024})
      for (int kind = 0; kind < 4; ++kind) {
        std::vector<float> v = values(static_cast<size_t>(n), static_cast<uint32_t>(n * 4 + kind));
        for (int64_t i = 0; i < n; ++i) {
          if (kind == 1) // ties of signed zeros at the maximum
            v[i] = std::fabs(v[i]) < 1.0f ? ((i / 8 + i / 5) % 2 ? 0.0f : -0.0f) : -std::fabs(v[i]);
          if (kind == 2 && i % 37 == 11) { // NaNs with their own payloads
            uint32_t b = 0x7fc00000u + static_cast<uint32_t>(i);
            std::memcpy(&v[i], &b, 4);
          }
          if (kind == 3) v[i] = i % 3 == 0 ? inf : (i % 3 == 1 ? -inf : v[i]);
        }
        for (float acc : {sim::alu_identity(op), 0.5f, nan}) {
          float want = fold_one_chain(op, acc, v.data(), n);
          float got = sim::fold_run(op, acc, v.data(), n);
          ASSERT_EQ(bits(got), bits(want)) << sim::alu_name(op) << " n=" << n << " kind=" << kind;
        }
      }
}

TEST_F(TraceTest, sim_a_partition_broadcast_of_a_computed_row_joins_a_fused_run) {
  // y = x * broadcast(2 * g) + x: the broadcast's source is a tile the kernel computed (not
  // read-only memory, so a copy, not an alias), and the broadcast, the multiply, the add and
  // the store are one fused run.
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int x = t.param("x", "[128,3000]"), g = t.param("g", "[1,3000]");
    t.open();
    int out = t.ndarray("out", "[128,3000]", "float32", "shared_hbm");
    auto v = KernelUnderTest::v;
    int xt = t.call("load", {{"src", v(x)}}, mask);
    int gt = t.call("load", {{"src", v(g)}});
    int g2 = t.call("multiply", {{"x", v(gt)}, {"y", R"({"s":2.0})"}});
    int gb = t.call("broadcast_to", {{"src", v(g2)}},
                    R"("attrs":{"shape":[128,3000]})" + (mask.empty() ? "" : "," + mask));
    int p = t.call("multiply", {{"x", v(xt)}, {"y", v(gb)}}, mask);
    int y = t.call("add", {{"x", v(p)}, {"y", v(xt)}}, mask);
    t.call("store", {{"dst", v(out)}, {"value", v(y)}}, mask);
    return t.finish({out});
  };
  auto fused = kernel(""), whole = kernel(kEverywhere);
  sim::KernelPlan plan = sim::plan_kernel(*fused);
  bool found = false;
  for (const sim::StripGroup& g : plan.groups)
    if (fused->inst(g.insts.front()).opcode == "broadcast_to") found = g.fuse;
  EXPECT_TRUE(found);
  auto x = values(128 * 3000, 9), g = values(3000, 10);
  RunBytes a = run_bytes(fused, {x, g}), b = run_bytes(whole, {x, g});
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.instructions, b.instructions);
  // Fused: x read by the multiply and the add and out written, 12 bytes an element (the load
  // of x aliases, the broadcast and the product are row buffers); the 1-row g2 computed from
  // gt (read and written once) and read once by the broadcast.
  const int64_t n = 128 * 3000;
  EXPECT_EQ(a.bytes_moved, 12 * n + 3 * 4 * 3000);
  EXPECT_GT(b.bytes_moved, a.bytes_moved);
  std::vector<float> got(n);
  std::memcpy(got.data(), a.out.data(), a.out.size());
  for (int64_t p = 0; p < 128; p += 7)
    for (int64_t f = 0; f < 3000; f += 13)
      ASSERT_EQ(got[p * 3000 + f], x[p * 3000 + f] * (2.0f * g[f]) + x[p * 3000 + f]);
}

TEST_F(TraceTest, sim_a_row_wider_than_a_chunk_runs_conversions_chunk_by_chunk) {
  // Rows of 6000 (wider than five chunks): w = x + x2 in place could run a whole row at once,
  // but its group also stores w into a bfloat16 tensor (a conversion, through scratch of a
  // chunk); and z = x * 0.5 + y reads the bfloat16 y through scratch. Each group runs chunk by
  // chunk, with the bytes of the ordinary path.
  for (int which = 0; which < 2; ++which) {
    SCOPED_TRACE(which);
    auto kernel = [which](const std::string& mask) {
      KernelUnderTest t;
      int x = t.param("x", "[128,6000]"), x2 = t.param("x2", "[128,6000]");
      int y = t.param("y", "[128,6000]", "bfloat16");
      t.open();
      int out = t.ndarray("out", "[128,6000]", which == 0 ? "bfloat16" : "float32", "shared_hbm");
      auto v = KernelUnderTest::v;
      int xt = t.call("load", {{"src", v(x)}}, mask);
      int r;
      if (which == 0) {
        int x2t = t.call("load", {{"src", v(x2)}}, mask);
        r = t.call("add", {{"x", v(xt)}, {"y", v(x2t)}}, mask);
      } else {
        int yt = t.call("load", {{"src", v(y)}}, mask);
        r = t.call("scalar_tensor_tensor",
                   {{"data", v(xt)}, {"operand0", R"({"s":0.5})"}, {"operand1", v(yt)}},
                   R"("attrs":{"op0":"multiply","op1":"add"})" + (mask.empty() ? "" : "," + mask));
      }
      t.call("store", {{"dst", v(out)}, {"value", v(r)}}, mask);
      return t.finish({out});
    };
    auto fused = kernel(""), whole = kernel(kEverywhere);
    sim::KernelPlan plan = sim::plan_kernel(*fused);
    ASSERT_EQ(plan.groups.size(), 1u);
    EXPECT_TRUE(plan.groups[0].fuse);
    const auto x = values(128 * 6000, 11), x2 = values(128 * 6000, 12), y = values(128 * 6000, 13);
    sim::RunLog fl;
    auto a = simtest::run(fused, {x, x2, y}, &fl), b = simtest::run(whole, {x, x2, y});
    EXPECT_EQ(a, b);
    EXPECT_EQ(fl.warnings.size(), 0u);
    for (int64_t i = 0; i < 128 * 6000; i += 101) {
      const float want = which == 0 ? x[i] + x2[i] : x[i] * 0.5f + y[i]; // (y read as bfloat16)
      ASSERT_LE(std::fabs(a[0][static_cast<size_t>(i)] - want),
                std::fabs(want) / 64 + std::fabs(y[i]) / 64 + 1e-3f)
          << i;
    }
  }
}

namespace {

// u = x op c (a (P, 1) column: tensor_tensor, or a tensor_scalar of one operator), then
// e = exp(u), stored; with `keep`, u is stored too (a second reader: no merged pass).
std::shared_ptr<const ir::Kernel> op_then_exp(const std::string& mask, bool scalar_form,
                                              const std::string& op, bool reverse, bool keep) {
  KernelUnderTest t;
  int x = t.param("x", "[128,700]"), c = t.param("c", "[128,1]");
  t.open();
  int out = t.ndarray("out", "[128,700]", "float32", "shared_hbm");
  int mid = t.ndarray("mid", "[128,700]", "float32", "shared_hbm");
  const std::string m = mask.empty() ? "" : "," + mask;
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}}, mask);
  int ct = t.call("load", {{"src", v(c)}}, mask);
  int u = scalar_form ? t.call("tensor_scalar", {{"data", v(xt)}, {"operand0", v(ct)}},
                               R"("attrs":{"op0":")" + op + R"(","reverse0":)" +
                                   (reverse ? "true" : "false") + "}" + m)
                      : t.call(op, {{"x", v(xt)}, {"y", v(ct)}}, mask);
  int e = t.call("exp", {{"x", v(u)}}, mask);
  t.call("store", {{"dst", v(out)}, {"value", v(e)}}, mask);
  if (keep) t.call("store", {{"dst", v(mid)}, {"value", v(u)}}, mask);
  return t.finish(keep ? std::vector<int>{out, mid} : std::vector<int>{out});
}

} // namespace

TEST_F(TraceTest, sim_a_fused_exp_of_x_op_a_column_gives_the_bytes_of_both_passes) {
  // The fused run computes exp(x op c) in one pass where u has no other reader; the same bytes
  // as the ordinary path in every form (each operator, tensor_tensor and tensor_scalar, a
  // reversed operand, u stored too), NaN and out-of-range values included.
  auto x = values(128 * 700, 11), c = values(128, 12);
  x[9] = std::numeric_limits<float>::quiet_NaN();
  x[700 * 2 + 3] = 200.0f;
  x[700 * 5 + 64] = -200.0f;
  struct Case {
    bool scalar_form;
    const char* op;
    bool reverse, keep;
  } cases[] = {{false, "subtract", false, false}, {false, "add", false, false},
               {false, "multiply", false, false}, {true, "subtract", false, false},
               {true, "multiply", false, false},  {true, "subtract", true, false},
               {false, "subtract", false, true},  {true, "add", false, true}};
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(k.scalar_form ? "tensor_scalar " : "tensor_tensor ") + k.op +
                 (k.reverse ? " reversed" : "") + (k.keep ? " kept" : ""));
    auto fused = op_then_exp("", k.scalar_form, k.op, k.reverse, k.keep);
    auto whole = op_then_exp(kEverywhere, k.scalar_form, k.op, k.reverse, k.keep);
    sim::KernelPlan plan = sim::plan_kernel(*fused);
    ASSERT_EQ(plan.groups.size(), 1u);
    EXPECT_TRUE(plan.groups[0].fuse);
    RunBytes a = run_bytes(fused, {x, c}), b = run_bytes(whole, {x, c});
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.warnings, 0u);
  }
}
