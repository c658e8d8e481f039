// Runs of row-local instructions execute a strip of partitions at a time (sim/plan.h
// StripGroup, Interpreter::run_strips) with exactly the results of running each instruction
// over its whole tile: the same kernel with a mask that holds everywhere (which keeps it on the
// ordinary path) gives the same bytes, and the strip run needs less memory. Accesses that
// would make strips see rows out of order keep the ordinary path.
#include <cmath>
#include <cstring>

#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;

namespace {

using simtest::run_bytes;
using simtest::RunBytes;
const char* const kEverywhere = simtest::kMaskEverywhere;

std::vector<float> values(size_t n) {
  return simtest::lcg_values(n, 99);
}

// Row softmax of x [128, 2048] (max, subtract, exp, sum, divide, store), then the row maxima
// stored after a transpose (which ends the run): `mask` on every step of the run, or none.
std::shared_ptr<const ir::Kernel> softmax(const std::string& mask) {
  KernelUnderTest t;
  int x = t.param("x", "[128,2048]");
  t.open();
  int out = t.ndarray("out", "[128,2048]", "float32", "shared_hbm");
  int peaks = t.ndarray("peaks", "[1,128]", "float32", "shared_hbm");
  const std::string m = mask.empty() ? "" : "," + mask;
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}}, mask);
  int mx = t.call("max", {{"x", v(xt)}}, R"("attrs":{"axis":[1],"keepdims":true})" + m);
  int sh = t.call("subtract", {{"x", v(xt)}, {"y", v(mx)}}, mask);
  int e = t.call("exp", {{"x", v(sh)}}, mask);
  int sm = t.call("sum", {{"x", v(e)}}, R"("attrs":{"axis":[1],"keepdims":true})" + m);
  int r = t.call("divide", {{"x", v(e)}, {"y", v(sm)}}, mask);
  t.call("store", {{"dst", v(out)}, {"value", v(r)}}, mask);
  int tr = t.call("nc_transpose", {{"data", v(mx)}});
  int trc = t.call("copy", {{"src", v(tr)}});
  t.call("store", {{"dst", v(peaks)}, {"value", v(trc)}});
  return t.finish({out, peaks});
}

} // namespace

TEST_F(TraceTest, sim_softmax_in_strips_gives_the_bytes_of_the_whole_tile_run) {
  auto strips = softmax(""), whole = softmax(kEverywhere);
  sim::KernelPlan plan = sim::plan_kernel(*strips);
  ASSERT_FALSE(plan.groups.empty());
  EXPECT_EQ(plan.groups[0].insts.size(), 7u);   // load .. store
  EXPECT_EQ(plan.groups[0].local.size(), 4u);   // x's tile, sh, e, the sums (mx is read later)
  ASSERT_EQ(plan.groups[0].forward.size(), 1u); // r lives in out: its store copies onto itself
  auto x = values(128 * 2048);
  RunBytes a = run_bytes(strips, {x}), b = run_bytes(whole, {x});
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.warnings, 0u); // the row maxima were fully written: no never-written reads
  EXPECT_EQ(b.warnings, 0u);
  EXPECT_LT(a.peak, b.peak - 3 * 128 * 2048 * 4 / 2) << "sh and e held a strip each, r none";
}

TEST_F(TraceTest, sim_a_tile_lives_in_its_store_destination_only_if_nothing_reads_that_first) {
  // t = 2x; c = y (loaded after t is made); y = t (stored); out = c: c must be y's old values.
  KernelUnderTest t;
  int x = t.param("x", "[128,2048]");
  int y = t.req(R"({"op":"param","name":"y","shape":[128,2048],"dtype":"float32","mutable":true})");
  t.open();
  int out = t.ndarray("out", "[128,2048]", "float32", "shared_hbm");
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}});
  int tw = t.call("multiply", {{"x", v(xt)}, {"y", R"({"s":2.0})"}});
  int c = t.call("load", {{"src", v(y)}});
  t.call("store", {{"dst", v(y)}, {"value", v(tw)}});
  t.call("store", {{"dst", v(out)}, {"value", v(c)}});
  auto k = t.finish({out, y});
  sim::KernelPlan plan = sim::plan_kernel(*k);
  ASSERT_FALSE(plan.groups.empty());
  for (const auto& [tile, store] : plan.groups[0].forward) // c may live in out; t not in y
    for (const ir::Operand& o : k->inst(store).operands)
      if (o.role == "dst") EXPECT_NE(o.ap.tensor, k->params()[1]) << "t placed in y";
  auto xv = values(128 * 2048), yv = values(128 * 2048);
  for (float& f : yv) f += 1.0f;
  auto r = simtest::run(k, {xv, yv});
  for (size_t i = 0; i < xv.size(); i += 61) {
    ASSERT_EQ(r[0][i], yv[i]) << i;
    ASSERT_EQ(r[1][i], 2.0f * xv[i]) << i;
  }
}

TEST_F(TraceTest, sim_a_run_that_reads_another_partition_of_what_it_writes_is_not_stripped) {
  // t = 2x; out = x + t[127] (broadcast to every partition): partition 0 needs partition 127.
  KernelUnderTest t;
  int x = t.param("x", "[128,2048]");
  t.open();
  int out = t.ndarray("out", "[128,2048]", "float32", "shared_hbm");
  auto v = KernelUnderTest::v;
  int xt = t.call("load", {{"src", v(x)}});
  int tw = t.call("multiply", {{"x", v(xt)}, {"y", R"({"s":2.0})"}});
  std::string last = R"([{"k":"slice","start":{"c":127},"stop":{"c":128}}])";
  int b = t.call("broadcast_to", {{"src", KernelUnderTest::view(tw, last)}},
                 R"("attrs":{"shape":[128,2048]})");
  int s = t.call("add", {{"x", v(xt)}, {"y", v(b)}});
  t.call("store", {{"dst", v(out)}, {"value", v(s)}});
  auto k = t.finish({out});
  for (const sim::StripGroup& g : sim::plan_kernel(*k).groups) {
    bool writes_t = false, broadcasts_t = false;
    for (ir::InstId id : g.insts) {
      writes_t = writes_t || k->inst(id).opcode == "tensor_scalar"; // t = 2x
      broadcasts_t = broadcasts_t || k->inst(id).opcode == "broadcast_to";
    }
    EXPECT_FALSE(writes_t && broadcasts_t) << "one run writes t and broadcasts its partition 127";
  }
  auto xv = values(128 * 2048);
  auto r = simtest::run(k, {xv});
  for (int p = 0; p < 128; ++p)
    for (int f = 0; f < 2048; f += 97)
      ASSERT_EQ(r[0][p * 2048 + f], xv[p * 2048 + f] + 2.0f * xv[127 * 2048 + f]) << p << "," << f;
}

// NKI Beta 1's simulator computes bfloat16 tiles in fp32 (precise_fp off): a bfloat16 tile made
// inside a strip run is held as fp32 there as well as on the ordinary path, and a bfloat16
// constant keeps its values.
TEST_F(TraceTest, sim_precise_fp_off_holds_bfloat16_tiles_of_a_strip_run_in_fp32) {
  auto kernel = [](const std::string& mask) {
    KernelUnderTest t;
    int x = t.param("x", "[128,2048]");
    t.open();
    int out = t.ndarray("out", "[128,2048]", "float32", "shared_hbm");
    auto v = KernelUnderTest::v;
    const std::string m = mask.empty() ? "" : "," + mask;
    int xt = t.call("load", {{"src", v(x)}}, mask);
    int e = t.call("exp", {{"x", v(xt)}}, R"("dtype":"bfloat16")" + m);
    int c = t.call("copy", {{"src", v(e)}}, R"("dtype":"float32")" + m);
    t.call("store", {{"dst", v(out)}, {"value", v(c)}}, mask);
    return t.finish({out});
  };
  auto x = values(128 * 2048);
  for (float& f : x) f /= 4.0f;
  sim::SimOptions fp32 = simtest::test_options();
  fp32.precise_fp = false;
  auto strips = simtest::run(kernel(""), {x}, nullptr, fp32)[0];
  auto whole = simtest::run(kernel(kEverywhere), {x}, nullptr, fp32)[0];
  auto rounded = simtest::run(kernel(""), {x})[0];
  ASSERT_EQ(strips, whole);
  size_t not_bf16 = 0;
  for (size_t i = 0; i < strips.size(); ++i) {
    uint32_t bits;
    std::memcpy(&bits, &rounded[i], 4);
    ASSERT_EQ(bits & 0xffffu, 0u) << i; // precise_fp on: bfloat16 values
    not_bf16 += strips[i] != rounded[i];
  }
  EXPECT_GT(not_bf16, strips.size() / 2);

  KernelUnderTest t;
  int y = t.param("y", "[2,2]");
  t.open();
  int out = t.ndarray("out", "[2,2]", "float32", "shared_hbm");
  auto v = KernelUnderTest::v;
  int c = t.call("shared_constant", {},
                 R"("dtype":"bfloat16","attrs":{"shape":[2,2],"values":[1,2,3,4]})");
  int cs = t.call("load", {{"src", v(c)}}, R"("dtype":"float32")");
  int ys = t.call("load", {{"src", v(y)}});
  int s = t.call("add", {{"x", v(cs)}, {"y", v(ys)}});
  t.call("store", {{"dst", v(out)}, {"value", v(s)}});
  auto r = simtest::run(t.finish({out}), {{0.5f, 0.5f, 0.5f, 0.5f}}, nullptr, fp32);
  EXPECT_EQ(r[0], (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f}));
}

namespace {

// h = x * h + y along each of 100 rows of 2048 (tensor_tensor_scan from h = 0.5), stored; the
// loads run before it, apart (a scan starts its run): `mask` on the scan and the store, or none;
// into a bfloat16 `out`, h cannot live there (the store rounds) and holds a strip of rows.
std::shared_ptr<const ir::Kernel> scan_then_store(const std::string& mask,
                                                  const std::string& out_dtype = "float32") {
  KernelUnderTest t;
  int x = t.param("x", "[100,2048]"), y = t.param("y", "[100,2048]");
  t.open();
  int out = t.ndarray("out", "[100,2048]", out_dtype, "shared_hbm");
  auto v = KernelUnderTest::v;
  const std::string m = mask.empty() ? "" : "," + mask;
  int xt = t.call("load", {{"src", v(x)}});
  int yt = t.call("load", {{"src", v(y)}});
  int h = t.call("tensor_tensor_scan",
                 {{"data0", v(xt)}, {"data1", v(yt)}, {"initial", R"({"s":0.5})"}},
                 R"("attrs":{"op0":"multiply","op1":"add"})" + m);
  t.call("store", {{"dst", v(out)}, {"value", v(h)}}, mask);
  return t.finish({out});
}

} // namespace

TEST_F(TraceTest, sim_a_scan_and_its_store_run_in_strips_writing_the_store_destination) {
  // 100 partitions in strips of sixteen (the budget's multiple of sixteen): six whole strips of
  // two groups of eight rows, then one of four rows (a partial group).
  auto strips = scan_then_store(""), whole = scan_then_store(kEverywhere);
  sim::KernelPlan plan = sim::plan_kernel(*strips);
  ASSERT_EQ(plan.groups.size(), 2u); // the loads; the scan and the store
  ASSERT_EQ(plan.groups[1].insts.size(), 2u);
  EXPECT_EQ(strips->inst(plan.groups[1].insts[0]).opcode, "tensor_tensor_scan");
  EXPECT_EQ(plan.groups[1].forward.size(), 1u); // h lives in out: the store copies onto itself
  auto x = values(100 * 2048), y = values(100 * 2048);
  for (float& e : x) e *= 0.09f; // |x| < 1: the recurrence stays bounded
  RunBytes a = run_bytes(strips, {x, y}), b = run_bytes(whole, {x, y});
  EXPECT_EQ(a.out, b.out);
  EXPECT_LT(a.peak, b.peak) << "h needed no buffer of its own";
  std::vector<float> got(a.out.size() / 4);
  std::memcpy(got.data(), a.out.data(), a.out.size());
  for (int p = 0; p < 100; ++p) {
    float s = 0.5f;
    for (int f = 0; f < 2048; ++f) {
      s = x[p * 2048 + f] * s + y[p * 2048 + f];
      ASSERT_EQ(got[p * 2048 + f], s) << p << "," << f;
    }
  }
}

TEST_F(TraceTest, sim_a_scan_in_strips_holds_a_strip_of_its_rows_when_its_store_rounds) {
  auto strips = scan_then_store("", "bfloat16"), whole = scan_then_store(kEverywhere, "bfloat16");
  sim::KernelPlan plan = sim::plan_kernel(*strips);
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_TRUE(plan.groups[1].forward.empty());
  ASSERT_EQ(plan.groups[1].local.size(), 1u); // h: sixteen rows at a time
  auto x = values(100 * 2048), y = values(100 * 2048);
  for (float& e : x) e *= 0.09f;
  RunBytes a = run_bytes(strips, {x, y}), b = run_bytes(whole, {x, y});
  EXPECT_EQ(a.out, b.out);
  EXPECT_LT(a.peak, b.peak - 100 * 2048 * 4 / 2) << "h held a strip, not its whole tile";
}
