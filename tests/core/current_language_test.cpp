// The current language (`import nki`) in the core: strided views as access patterns, registers,
// loops over registers, pre-checked while loops, unrolled Python loops and their iterations,
// the kernel header, the JSON form — printed, and read back.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "current_support.h"
#include "printer/kernel_json.h"
#include "sema/sema.h"
#include "trace_fixture.h"

using namespace nki;
using curtest::CurrentKernel;

namespace {

std::string text_of(const std::shared_ptr<const ir::Kernel>& k) {
  return printer::to_text(*k);
}

bool has_line(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

} // namespace

TEST_F(TraceTest, current_kernel_header_names_the_language_and_lnc) {
  CurrentKernel t(2);
  int a = t.param("a", "[256,64]");
  t.open();
  int out = t.ndarray("out", "[256,64]", "float32", "shared_hbm");
  auto k = t.finish({out});
  std::string s = text_of(k);
  EXPECT_TRUE(has_line(s, "kernel @k(%a: hbm f32[256,64]) -> (%out) nki 0.6.0 lnc 2 {")) << s;
  EXPECT_EQ(k->grid(), std::vector<int64_t>{2});
  EXPECT_EQ(k->lnc(), 2);
  (void)a;
}

TEST_F(TraceTest, slices_print_per_dimension_on_the_storage) {
  CurrentKernel t;
  int a = t.param("a", "[256,1024]");
  t.open();
  int s = t.ndarray("s", "[128,512]", "float32", "sbuf");
  // a[128:256, 512:1024] = offset 128*1024 + 512, [[1024, 128], [1, 512]]
  t.isa("dma_copy", {{"dst", t.sv_whole(s)},
                     {"src", CurrentKernel::sv(a, "[[1024,128],[1,512]]", 128 * 1024 + 512)}});
  auto k = t.finish({});
  EXPECT_TRUE(has_line(text_of(k), "dma.dma_copy %s, %a[p + 128, f + 512]")) << text_of(k);
}

TEST_F(TraceTest, a_stepped_permuted_and_broadcast_view_stays_per_dimension) {
  CurrentKernel t;
  int a = t.param("a", "[4,128,64]");
  t.open();
  int s = t.ndarray("s", "[128,32,4]", "float32", "sbuf");
  // a.permute: axis0 = dim1 (stride 64), axis1 = dim2 step 2 (stride 2), axis2 = dim0 (8192)
  t.isa("dma_copy",
        {{"dst", t.sv_whole(s)}, {"src", CurrentKernel::sv(a, "[[64,128],[2,32],[8192,4]]", 0)}});
  int b = t.ndarray("b", "[128,1]", "float32", "sbuf");
  int c = t.ndarray("c", "[128,8]", "float32", "sbuf");
  t.isa("tensor_copy", {{"dst", t.sv_whole(c)}, {"src", CurrentKernel::sv(b, "[[1,128],[0,8]]")}});
  auto k = t.finish({});
  std::string txt = text_of(k);
  EXPECT_TRUE(has_line(txt, "%a[f1, p, 2*f0]")) << txt;
  EXPECT_TRUE(has_line(txt, "vector.tensor_copy %c, %b[p, 0]")) << txt;
}

TEST_F(TraceTest, merged_dimensions_address_a_flattened_alias) {
  CurrentKernel t;
  int a = t.param("a", "[4,8]");
  t.open();
  int s = t.ndarray("s", "[1,8]", "float32", "sbuf");
  // every 4th element of the flat array: not along one dimension of (4, 8)
  t.isa("dma_copy", {{"dst", t.sv_whole(s)}, {"src", CurrentKernel::sv(a, "[[32,1],[4,8]]")}});
  int m = t.ndarray("m", "[128,4,6]", "float32", "sbuf");
  int n = t.ndarray("n", "[128,24]", "float32", "sbuf");
  // m viewed as (128, 24): axis 1 spans both free dimensions
  t.isa("tensor_copy",
        {{"dst", t.sv_whole(n)}, {"src", CurrentKernel::sv(m, "[[24,128],[1,24]]")}});
  auto k = t.finish({});
  std::string txt = text_of(k);
  EXPECT_TRUE(has_line(txt, "dma.dma_copy %s, %a_flat[4*f]")) << txt;
  EXPECT_TRUE(has_line(txt, "vector.tensor_copy %n, %m_flat\n")) << txt;
  const ir::Tensor& flat = k->tensor(k->tensors().size() - 1);
  EXPECT_EQ(flat.alias_of, m);
  EXPECT_EQ(flat.shape, (std::vector<int64_t>{128, 24}));
}

TEST_F(TraceTest, a_dtype_view_addresses_an_alias_in_that_dtype) {
  CurrentKernel t;
  t.open();
  int s = t.ndarray("s", "[128,64]", "float32", "sbuf");
  int d = t.ndarray("d", "[128,128]", "bfloat16", "sbuf");
  t.isa("tensor_copy",
        {{"dst", t.sv_whole(d)},
         {"src", CurrentKernel::sv(s, "[[128,128],[1,128]]", 0, R"("dtype":"bfloat16")")}});
  auto k = t.finish({});
  EXPECT_TRUE(has_line(text_of(k), "vector.tensor_copy %d, %s_as_bf16")) << text_of(k);
}

TEST_F(TraceTest, an_on_chip_pattern_must_step_partitions_by_the_free_size) {
  CurrentKernel t;
  t.open();
  int s = t.ndarray("s", "[16,32]", "float32", "sbuf");
  int d = t.ndarray("d", "[8,32]", "float32", "sbuf");
  try {
    // the AP deep dive's illegal example: every other partition
    t.isa("tensor_copy", {{"dst", t.sv_whole(d)}, {"src", CurrentKernel::sv(s, "[[63,8],[1,32]]")}},
          "{}", 7);
    FAIL() << "accepted a partition step that is not a multiple of the free size";
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.code(), "ap-partition-step");
    EXPECT_NE(std::string(e.what()).find("must be its free size 32, got 63"), std::string::npos);
  }
  t.cg().builder.set_loc({});
  auto k = t.finish({});
}

TEST_F(TraceTest, a_pattern_outside_its_storage_is_refused) {
  CurrentKernel t;
  int a = t.param("a", "[4,8]");
  t.open();
  int s = t.ndarray("s", "[1,8]", "float32", "sbuf");
  try {
    t.isa("dma_copy", {{"dst", t.sv_whole(s)}, {"src", CurrentKernel::sv(a, "[[32,1],[5,8]]")}});
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.code(), "access-pattern-out-of-bound");
    EXPECT_NE(std::string(e.what()).find("[0, 35] outside its 32 elements"), std::string::npos);
  }
  t.finish({});
}

TEST_F(TraceTest, registers_print_as_operands_and_loops_over_registers_print_their_bounds) {
  CurrentKernel t;
  int a = t.param("a", "[4,512]"), n = t.param("n", "[1,1]", "int32");
  t.open();
  int out = t.ndarray("out", "[4,512]", "float32", "shared_hbm");
  int nsb = t.ndarray("n_sb", "[1,1]", "int32", "sbuf");
  t.isa("dma_copy", {{"dst", t.sv_whole(nsb)}, {"src", t.sv_whole(n)}});
  auto r = t.req(R"({"op":"isa_register_alloc","name":"ub"})");
  int ub = static_cast<int>(r["r"].integer());
  t.req(R"({"op":"isa_register_load","dst":)" + std::to_string(ub) + R"(,"src":)" +
        t.sv_whole(nsb) + "}");
  auto loop = t.req(R"({"op":"loop","lb":{"imm":0},"ub":{"reg":)" + std::to_string(ub) +
                        R"(},"step":1,"name":"i"})",
                    9);
  int iv = static_cast<int>(loop["r"].integer());
  int tile = t.ndarray("tile", "[1,512]", "float32", "sbuf", 10);
  std::string dyn = R"("dyn":[[)" + std::to_string(iv) + ",512]]";
  t.isa("dma_copy",
        {{"dst", t.sv_whole(tile)}, {"src", CurrentKernel::sv(a, "[[512,1],[1,512]]", 0, dyn)}});
  t.isa("dma_copy",
        {{"dst", CurrentKernel::sv(out, "[[512,1],[1,512]]", 0, dyn)}, {"src", t.sv_whole(tile)}});
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["alloc"].integer()) + "}");
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + "}");
  auto k = t.finish({out});
  std::string txt = text_of(k);
  EXPECT_TRUE(has_line(txt, "register_alloc %ub")) << txt;
  EXPECT_TRUE(has_line(txt, "register_load %ub, %n_sb")) << txt;
  EXPECT_TRUE(has_line(txt, "LoopScope dynamic %i in [0, %ub) {")) << txt;
  EXPECT_TRUE(has_line(txt, "dma.dma_copy %tile, %a[%i + p, f]")) << txt;
  EXPECT_TRUE(has_line(txt, "dma.dma_copy %out[%i + p, f], %tile")) << txt;
}

TEST_F(TraceTest, writing_a_frozen_induction_register_is_refused) {
  CurrentKernel t;
  t.open();
  auto loop = t.req(R"({"op":"loop","lb":{"imm":0},"ub":{"imm":4},"name":"i","frozen":true})");
  try {
    t.req(R"({"op":"isa_register_move","dst":)" + std::to_string(loop["r"].integer()) +
          R"(,"imm":3})");
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "AssertionError");
    EXPECT_EQ(e.code(), "register-frozen");
  }
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["alloc"].integer()) + "}");
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + "}");
  t.finish({});
}

TEST_F(TraceTest, unrolled_loops_show_their_trip_count_and_each_iteration) {
  CurrentKernel t;
  t.open();
  int s = t.ndarray("s", "[128,64]", "float32", "sbuf");
  auto loop = t.req(R"({"op":"loop","name":"i","unrolled":"range","lb":0,"ub":3,"step":1})", 5);
  for (int i = 0; i < 3; ++i) {
    int it =
        static_cast<int>(t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":)" +
                               std::to_string(i) + "}")
                             .integer());
    t.isa("memset", {{"dst", CurrentKernel::sv(s, "[[64,128],[1,8]]", 8 * i)},
                     {"value", CurrentKernel::scalar(i)}});
    t.req(R"({"op":"pop","region":)" + std::to_string(it) + "}");
  }
  t.req(R"({"op":"pop","region":)" + std::to_string(loop["loop"].integer()) + R"(,"trip":3})");
  // an unrolled `while` over Python values that emitted nothing is dropped
  auto empty = t.req(R"({"op":"loop","unrolled":"while"})");
  t.req(R"({"op":"pop","region":)" + std::to_string(empty["loop"].integer()) +
        R"(,"trip":0,"drop":true})");
  auto k = t.finish({});
  std::string txt = text_of(k);
  EXPECT_TRUE(has_line(txt, "LoopScope unrolled %i in [0, 3) trip 3 {")) << txt;
  EXPECT_TRUE(has_line(txt, "ScopeRegion iteration %i = 2 {")) << txt;
  EXPECT_TRUE(has_line(txt, "vector.memset %s[p, f + 16] {value = 2.0}")) << txt;
  EXPECT_FALSE(has_line(txt, "unrolled while")) << txt;
  // the tensor made in the kernel stays the kernel's; iterations do not own tensors
  EXPECT_EQ(k->tensor(s).region, k->root());
}

TEST_F(TraceTest, the_json_form_reads_back_to_the_same_text) {
  // Every construct of the current language's IR: per-core bodies, registers (a frozen one),
  // a loop over registers, a pre-checked while, unrolled loops over a range and over values,
  // register and indirect (scaled) offsets, flattened and reinterpreting aliases.
  CurrentKernel t(2);
  int a = t.param("a", "[4,512]"), n = t.param("n", "[1,1]", "int32");
  t.open();
  int out = t.ndarray("out", "[4,512]", "float32", "shared_hbm");
  for (int core = 0; core < 2; ++core) {
    int body = static_cast<int>(t.req(R"({"op":"push","kind":"ScopeRegion","tag":"core","core":)" +
                                      std::to_string(core) + "}")
                                    .integer());
    int nsb = t.ndarray("n_sb", "[1,1]", "int32", "sbuf");
    t.isa("dma_copy", {{"dst", t.sv_whole(nsb)}, {"src", t.sv_whole(n)}});
    std::string c = std::to_string(
        t.req(R"({"op":"isa_register_alloc","name":"c","src":)" + t.sv_whole(nsb) + "}")["r"]
            .integer());
    auto w = t.req(R"({"op":"push","kind":"WhileScope","cond":)" + c + "}");
    auto u = t.req(R"({"op":"loop","name":"j","unrolled":"values"})");
    auto it = t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":0})");
    int row = t.ndarray("row", "[1,512]", "float32", "sbuf");
    t.isa("dma_copy",
          {{"dst", t.sv_whole(row)},
           {"src", CurrentKernel::sv(a, "[[512,1],[1,512]]", 0,
                                     R"("ind":{"v":)" + t.sv_whole(nsb) + R"(,"scale":1024})")}},
          R"({"dge_mode":"swdge","name":"gather"})");
    t.req(R"({"op":"pop","region":)" + std::to_string(it.integer()) + "}");
    t.req(R"({"op":"pop","region":)" + std::to_string(u["loop"].integer()) + R"(,"trip":1})");
    t.req(R"({"op":"isa_register_move","dst":)" + c + R"(,"imm":0})");
    t.req(R"({"op":"pop","region":)" + std::to_string(w["alloc"].integer()) + "}");
    t.req(R"({"op":"pop","region":)" + std::to_string(w["while"].integer()) + "}");
    auto f = t.req(R"({"op":"loop","lb":{"imm":0},"ub":{"reg":)" + c +
                   R"(},"step":2,"name":"i","frozen":true})");
    std::string iv = std::to_string(f["r"].integer());
    auto r = t.req(R"({"op":"loop","name":"k","unrolled":"range","lb":0,"ub":2,"step":1})");
    for (int k = 0; k < 2; ++k) {
      auto itk = t.req(R"({"op":"push","kind":"ScopeRegion","tag":"iteration","index":)" +
                       std::to_string(k) + "}");
      int s = t.ndarray("s", "[2,4,64]", "float32", "sbuf");
      t.isa("dma_copy", {{"dst", CurrentKernel::sv(s, "[[256,1],[1,256]]")},
                         {"src", CurrentKernel::sv(a, "[[512,1],[1,256]]", 256 * k,
                                                   R"("dyn":[[)" + iv + ",512]]")}});
      int h = t.ndarray("h", "[2,512]", "bfloat16", "sbuf");
      t.isa("tensor_copy",
            {{"dst", CurrentKernel::sv(h, "[[512,2],[1,512]]")},
             {"src", CurrentKernel::sv(s, "[[512,2],[1,512]]", 0, R"("dtype":"bfloat16")")}});
      t.req(R"({"op":"pop","region":)" + std::to_string(itk.integer()) + "}");
    }
    t.req(R"({"op":"pop","region":)" + std::to_string(r["loop"].integer()) + R"(,"trip":2})");
    int reg_out = t.ndarray("i_out", "[1,1]", "int32", "sbuf");
    t.req(R"({"op":"isa_register_store","dst":)" + t.sv_whole(reg_out) + R"(,"src":)" + iv + "}");
    t.req(R"({"op":"pop","region":)" + std::to_string(f["alloc"].integer()) + "}");
    t.req(R"({"op":"pop","region":)" + std::to_string(f["loop"].integer()) + "}");
    t.req(R"({"op":"pop","region":)" + std::to_string(body) + "}");
  }
  auto k = t.finish({out});
  std::string json = printer::to_json(*k);
  // The golden is also the schema test's document of the current language's JSON fields
  // (tests/runtime/ir-schema.test.js); NKI_UPDATE_GOLDENS=1 rewrites it.
  const std::string golden = std::string(NKI_SOURCE_DIR) + "/tests/golden/current_core.json";
  if (std::getenv("NKI_UPDATE_GOLDENS")) std::ofstream(golden) << json << "\n";
  std::ifstream in(golden);
  std::string want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(json + "\n", want) << "regenerate with NKI_UPDATE_GOLDENS=1 and review the diff";
  auto back = printer::kernel_from_json(json);
  EXPECT_EQ(printer::to_text(*back), text_of(k));
  EXPECT_EQ(printer::to_json(*back), json);
  std::string txt = text_of(k);
  for (const char* line :
       {"ScopeRegion core 1 {", "register_alloc %c, %n_sb", "WhileScope while %c != 0 {",
        "LoopScope unrolled %j trip 1 {", "ScopeRegion iteration #0 {",
        "%a[2*%n_sb[0, 0] + p, f] {dge_mode = swdge, name = gather}",
        "LoopScope dynamic %i in [0, %c) step 2 {", "LoopScope unrolled %k in [0, 2) trip 2 {",
        "register_move %c, 0\n", "%s.1_flat[0, f], %a[%i + p, f + 256]", "%h, %s_as_bf16_flat",
        "register_store %i_out, %i"})
    EXPECT_TRUE(has_line(txt, line)) << line << "\n" << txt;
}

TEST_F(TraceTest, per_partition_operands_are_an_immediate_or_one_element_per_partition) {
  // tensor_scalar's operand0, range_select's bounds, dropout's prob, activation's reduce_res:
  // an immediate or an on-chip (P, 1) tile of the data's partitions.
  CurrentKernel t;
  t.open();
  int d = t.ndarray("d", "[128,8]", "float32", "sbuf");
  int col = t.ndarray("col", "[128,1]", "float32", "sbuf");
  int wide = t.ndarray("wide", "[128,2]", "float32", "sbuf");
  int few = t.ndarray("few", "[64,1]", "float32", "sbuf");
  t.isa("tensor_scalar",
        {{"dst", t.sv_whole(d)},
         {"data", t.sv_whole(d)},
         {"operand0", t.sv_whole(col)},
         {"operand1", CurrentKernel::scalar(2)}},
        R"({"op0":"add","op1":"multiply"})");
  t.isa("activation",
        {{"dst", t.sv_whole(d)}, {"data", t.sv_whole(d)}, {"reduce_res", t.sv_whole(col)}},
        R"({"op":"exp","reduce_op":"add"})");
  auto refused = [&](const std::string& api, std::vector<std::pair<std::string, std::string>> ops,
                     const std::string& attrs) -> std::string {
    try {
      t.isa(api, ops, attrs);
    } catch (const sema::NkiError& e) {
      EXPECT_EQ(e.code(), "operand-not-vector") << e.what();
      EXPECT_EQ(e.kind(), "ValueError");
      return e.what();
    }
    return "accepted";
  };
  const std::string dd = t.sv_whole(d), w = t.sv_whole(wide), f = t.sv_whole(few);
  EXPECT_EQ(
      refused("tensor_scalar", {{"dst", dd}, {"data", dd}, {"operand0", w}}, R"({"op0":"add"})"),
      "'operand0' param of 'tensor_scalar' must be a scalar or a vector in partition "
      "dimension (one element per partition), operand0.shape=(128, 2)");
  EXPECT_EQ(
      refused("tensor_scalar", {{"dst", dd}, {"data", dd}, {"operand0", f}}, R"({"op0":"add"})"),
      "'operand0' param of 'tensor_scalar' must be a scalar or a vector in partition "
      "dimension (one element per partition), operand0.shape=(64, 1)");
  EXPECT_EQ(refused("range_select",
                    {{"dst", dd},
                     {"on_true_tile", dd},
                     {"bound0", CurrentKernel::scalar(0)},
                     {"bound1", w},
                     {"on_false_value", CurrentKernel::scalar(0)}},
                    R"({"comp_op0":"greater_equal","comp_op1":"less"})"),
            "'bound1' param of 'range_select' must be a scalar or a vector in partition "
            "dimension (one element per partition), bound1.shape=(128, 2)");
  EXPECT_EQ(refused("dropout", {{"dst", dd}, {"data", dd}, {"prob", f}}, "{}"),
            "'prob' param of 'dropout' must be a scalar or a vector in partition dimension (one "
            "element per partition), prob.shape=(64, 1)");
  EXPECT_EQ(refused("activation", {{"dst", dd}, {"data", dd}, {"reduce_res", w}},
                    R"({"op":"exp","reduce_op":"add"})"),
            "'reduce_res' param of 'activation' must be a scalar or a vector in partition "
            "dimension (one element per partition), reduce_res.shape=(128, 2)");
  auto k = t.finish({});
  std::string txt = text_of(k);
  EXPECT_TRUE(has_line(txt, "tensor_scalar %d, %d, %col, 2.0")) << txt;
  EXPECT_TRUE(has_line(txt, "activation %d, %d, %col")) << txt;
}
