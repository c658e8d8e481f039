// The matmul / movement family end to end: kernels built through the request protocol, run on
// the simulator, compared with a reference computed here. Checks that the emitted instructions
// carry their whole meaning (transposes, aliases, constants, indirect DMA, gathers).
#include <cmath>
#include <cstring>

#include "sim/plan.h"
#include "sim_support.h"
#include "trace_fixture.h"

using namespace nki;
using simtest::KernelUnderTest;
using V = KernelUnderTest;

namespace {

std::string arange_p(int n) {
  return R"({"k":"expr","e":{"c":0,"t":[["A",0,1]],"shape":[)" + std::to_string(n) + ",1]}}";
}
std::string arange_f(int n) {
  return R"({"k":"expr","e":{"c":0,"t":[["A",1,1]],"shape":[1,)" + std::to_string(n) + "]}}";
}
std::string tile_item(int v) {
  return R"({"k":"tile","t":{"v":)" + std::to_string(v) + "}}";
}

std::vector<float> values(size_t n, int mul, int mod) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * mul) % mod) - mod / 2;
  return v;
}

} // namespace

TEST_F(TraceTest, sim_matmul_without_transpose_x_is_x_times_y) {
  KernelUnderTest t;
  int x = t.param("x", "[64,128]"), y = t.param("y", "[128,32]");
  t.open();
  int out = t.ndarray("out", "[64,32]", "float32", "shared_hbm");
  int xs = t.call("load", {{"src", V::v(x)}});
  int ys = t.call("load", {{"src", V::v(y)}});
  int r = t.call("matmul", {{"x", V::v(xs)}, {"y", V::v(ys)}});
  int rs = t.call("copy", {{"src", V::v(r)}});
  t.call("store", {{"dst", V::v(out)}, {"value", V::v(rs)}});
  auto k = t.finish({out});
  auto xv = values(64 * 128, 7, 9), yv = values(128 * 32, 5, 7);
  auto res = simtest::run(k, {xv, yv});
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 32; ++n) {
      float want = 0;
      for (int kk = 0; kk < 128; ++kk) want += xv[m * 128 + kk] * yv[kk * 32 + n];
      ASSERT_EQ(res[0][m * 32 + n], want) << m << "," << n;
    }
}

TEST_F(TraceTest, sim_transposes_swap_partitions_and_free_elements) {
  KernelUnderTest t;
  int a = t.param("a", "[96,128]"), s = t.param("s", "[16,24]");
  t.open();
  int o1 = t.ndarray("o1", "[128,96]", "float32", "shared_hbm");
  int o2 = t.ndarray("o2", "[24,16]", "float32", "shared_hbm");
  int o3 = t.ndarray("o3", "[128,96]", "float32", "shared_hbm");
  int at = t.call("load", {{"src", V::v(a)}});
  int t1 = t.call("transpose", {{"x", V::v(at)}}); // TensorE + eviction
  t.call("store", {{"dst", V::v(o1)}, {"value", V::v(t1)}});
  int st = t.call("load", {{"src", V::v(s)}});
  int t2 = t.call("transpose", {{"x", V::v(st)}}); // VectorE
  t.call("store", {{"dst", V::v(o2)}, {"value", V::v(t2)}});
  int t3 = t.call("load_transpose2d", {{"src", V::v(a)}});
  t.call("store", {{"dst", V::v(o3)}, {"value", V::v(t3)}});
  auto k = t.finish({o1, o2, o3});
  auto av = values(96 * 128, 3, 101), sv = values(16 * 24, 11, 37);
  auto r = simtest::run(k, {av, sv});
  for (int i = 0; i < 96; ++i)
    for (int j = 0; j < 128; ++j) {
      ASSERT_EQ(r[0][j * 96 + i], av[i * 128 + j]);
      ASSERT_EQ(r[2][j * 96 + i], av[i * 128 + j]);
    }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 24; ++j) ASSERT_EQ(r[1][j * 16 + i], sv[i * 24 + j]);
}

TEST_F(TraceTest, sim_dma_transpose_of_three_axes_reverses_them) {
  KernelUnderTest t;
  int a = t.param("a", "[4,6,8]");
  t.open();
  int out = t.ndarray("out", "[8,6,4]", "float32", "shared_hbm");
  int tr = t.call("dma_transpose", {{"src", V::v(a)}});
  t.call("store", {{"dst", V::v(out)}, {"value", V::v(tr)}});
  auto k = t.finish({out});
  auto av = values(4 * 6 * 8, 1, 1000);
  auto r = simtest::run(k, {av});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      for (int l = 0; l < 8; ++l) ASSERT_EQ(r[0][(l * 6 + j) * 4 + i], av[(i * 6 + j) * 8 + l]);
}

TEST_F(TraceTest, sim_reshape_alias_and_partition_broadcast) {
  KernelUnderTest t;
  int x = t.param("x", "[128,64]"), g = t.param("g", "[64]");
  t.open();
  int out = t.ndarray("out", "[128,64]", "float32", "shared_hbm");
  int xt = t.call("load", {{"src", V::v(x)}});
  int g2 = t.call("reshape", {{"x", V::v(g)}}, R"("attrs":{"shape":[1,64]})");
  int gt = t.call("load", {{"src", V::v(g2)}});
  int gb = t.call("broadcast_to", {{"src", V::v(gt)}}, R"("attrs":{"shape":[128,64]})");
  int prod = t.call("multiply", {{"x", V::v(xt)}, {"y", V::v(gb)}});
  t.call("store", {{"dst", V::v(out)}, {"value", V::v(prod)}});
  auto k = t.finish({out});
  auto xv = values(128 * 64, 3, 17), gv = values(64, 5, 13);
  auto r = simtest::run(k, {xv, gv});
  for (int p = 0; p < 128; ++p)
    for (int f = 0; f < 64; ++f) ASSERT_EQ(r[0][p * 64 + f], xv[p * 64 + f] * gv[f]);
  // The reshape writes nothing, so g stays read-only, its load aliases it and the broadcast
  // aliases that (partition stride 0): storage is x, g, out and the product's tile, nothing
  // for g's load or its broadcast (a 128-row copy of g before).
  sim::KernelPlan plan = sim::plan_kernel(*k);
  EXPECT_TRUE(plan.read_only[static_cast<size_t>(k->params()[1])]);
  for (const ir::Instruction& in : k->instructions())
    if (in.opcode == "broadcast_to") EXPECT_TRUE(plan.alias[static_cast<size_t>(in.id)]);
  sim::Simulator sim(k);
  std::memcpy(sim.input(0), xv.data(), xv.size() * 4);
  std::memcpy(sim.input(1), gv.data(), gv.size() * 4);
  sim.run();
  EXPECT_EQ(sim.peak_bytes(), 3 * 128 * 64 * 4 + 64 * 4);
}

TEST_F(TraceTest, sim_indirect_rows_are_gathered_scattered_and_added) {
  KernelUnderTest t;
  int data = t.param("data", "[16,8]"), idx = t.param("idx", "[4,1]", "int32");
  t.open();
  int gathered = t.ndarray("gathered", "[4,8]", "float32", "shared_hbm");
  int scattered = t.ndarray("scattered", "[16,8]", "float32", "shared_hbm");
  int zero = t.ndarray("zero", "[16,8]", "float32", "sbuf", "0");
  t.call("store", {{"dst", V::v(scattered)}, {"value", V::v(zero)}});
  int it = t.call("load", {{"src", V::v(idx)}});
  std::string rows = "[" + tile_item(it) + "," + arange_f(8) + "]";
  int g = t.call("load", {{"src", V::view(data, rows)}});
  t.call("store", {{"dst", V::v(gathered)}, {"value", V::v(g)}});
  t.call("store", {{"dst", V::view(scattered, rows)}, {"value", V::v(g)}});
  t.call("atomic_rmw", {{"dst", V::view(scattered, rows)}, {"value", V::v(g)}},
         R"("attrs":{"op":"add"})");
  auto k = t.finish({gathered, scattered});
  auto dv = values(16 * 8, 1, 1000);
  std::vector<float> iv = {3, 0, 9, 14};
  auto r = simtest::run(k, {dv, iv});
  for (int i = 0; i < 4; ++i)
    for (int f = 0; f < 8; ++f) {
      float row = dv[static_cast<int>(iv[i]) * 8 + f];
      ASSERT_EQ(r[0][i * 8 + f], row);
      ASSERT_EQ(r[1][static_cast<int>(iv[i]) * 8 + f], 2 * row); // stored, then added
    }
  ASSERT_EQ(r[1][1 * 8 + 0], 0.0f); // rows not indexed stay as stored
}

TEST_F(TraceTest, sim_identity_constant_times_a_tile_is_the_tile) {
  KernelUnderTest t;
  int x = t.param("x", "[32,16]");
  t.open();
  int out = t.ndarray("out", "[32,16]", "float32", "shared_hbm");
  int id = t.call("shared_identity_matrix", {}, R"("dtype":"float32","attrs":{"n":32})");
  int ids = t.call("load", {{"src", V::v(id)}});
  int xs = t.call("load", {{"src", V::v(x)}});
  int p = t.call("nc_matmul", {{"stationary", V::v(ids)}, {"moving", V::v(xs)}});
  int ps = t.call("copy", {{"src", V::v(p)}});
  t.call("store", {{"dst", V::v(out)}, {"value", V::v(ps)}});
  auto k = t.finish({out});
  auto xv = values(32 * 16, 7, 23);
  auto r = simtest::run(k, {xv});
  for (size_t i = 0; i < xv.size(); ++i) ASSERT_EQ(r[0][i], xv[i]);
}

TEST_F(TraceTest, sim_gather_flattened_and_dynamic_offsets) {
  KernelUnderTest t;
  int x = t.param("x", "[4,12]"), ind = t.param("ind", "[4,3]", "uint32");
  int off = t.param("off", "[1,1]", "int32");
  t.open();
  int o1 = t.ndarray("o1", "[4,3]", "float32", "shared_hbm");
  int o2 = t.ndarray("o2", "[4,1]", "float32", "shared_hbm");
  int xs = t.call("load", {{"src", V::v(x)}});
  int is = t.call("load", {{"src", V::v(ind)}});
  int g = t.call("gather_flattened", {{"data", V::v(xs)}, {"indices", V::v(is)}});
  t.call("store", {{"dst", V::v(o1)}, {"value", V::v(g)}});
  int os = t.call("load", {{"src", V::v(off)}});
  std::string scalar_idx = R"({"k":"tile","t":{"v":)" + std::to_string(os) +
                           R"(,"items":[{"k":"int","v":0},{"k":"int","v":0}]}})";
  int d = t.call("tensor_copy_dynamic_src",
                 {{"src", V::view(xs, "[" + arange_p(4) + "," + scalar_idx + "]")}});
  t.call("store", {{"dst", V::v(o2)}, {"value", V::v(d)}});
  auto k = t.finish({o1, o2});
  auto xv = values(4 * 12, 1, 1000);
  std::vector<float> iv = {0, 5, 11, 1, 1, 2, 7, 3, 0, 11, 10, 9};
  auto r = simtest::run(k, {xv, iv, {5}});
  for (int p = 0; p < 4; ++p) {
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(r[0][p * 3 + j], xv[p * 12 + static_cast<int>(iv[p * 3 + j])]);
    ASSERT_EQ(r[1][p], xv[p * 12 + 5]);
  }
}
