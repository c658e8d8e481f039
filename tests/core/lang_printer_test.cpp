#include <gtest/gtest.h>

#include "lang/ops.h"
#include "printer/printer.h"
#include "protocol/requests.h"
#include "sema/sema.h"
#include "trace_fixture.h"
#include "util/json.h"

using namespace nki;
using lang::IndexItem;

namespace {

lang::IndexItem expr_item(ir::AffineExpr e, std::vector<int64_t> shape = {}) {
  IndexItem it;
  it.kind = IndexItem::Kind::Expr;
  it.expr.expr = std::move(e);
  it.expr.shape = std::move(shape);
  return it;
}

ir::AffineExpr tile(int axis) {
  return ir::AffineExpr::var({ir::VarKind::TileAxis, axis});
}

/// The tiled tensor add, built directly through the language layer: a 2×? grid over rows,
/// a loop over column tiles.
std::unique_ptr<ir::Kernel> trace_tensor_add() {
  trace::TraceSession s(TraceTest::opts("tensor_add", {2}));
  auto& cg = s.codegen();
  cg.builder.set_loc({"add.py", 4, 1});
  lang::ValueId a = lang::param(cg, "a", {256, 1024}, ir::DType::Float32, false);
  lang::ValueId b = lang::param(cg, "b", {256, 1024}, ir::DType::Float32, false);
  {
    auto k = cg.kernel_scope("tensor_add");
    cg.builder.set_loc({"add.py", 5, 11});
    lang::ValueId out =
        lang::ndarray(cg, "out", {256, 1024}, ir::DType::Float32, ir::Buffer::SharedHbm, {});
    ir::AffineExpr pid = lang::program_id(cg, 0);
    auto loop = cg.affine_range(0, 2, 1, ir::AxisType::Affine, "j");
    std::vector<IndexItem> idx = {expr_item(pid * 128 + tile(0), {128, 1}),
                                  expr_item(loop.iv * 512 + tile(1), {1, 512})};
    cg.builder.set_loc({"add.py", 8, 13});
    lang::ValueId at = lang::load(cg, lang::view(cg, a, idx), {}, "a_tile");
    cg.builder.set_loc({"add.py", 9, 13});
    lang::ValueId bt = lang::load(cg, lang::view(cg, b, idx), {}, "b_tile");
    cg.builder.set_loc({"add.py", 10, 13});
    lang::ValueId c = lang::binary(cg, "add", "add", {at}, {bt}, {}, "c_tile");
    cg.builder.set_loc({"add.py", 11, 5});
    lang::store(cg, lang::view(cg, out, idx), c);
    loop.alloc->close();
    loop.loop->close();
    lang::set_outputs(cg, {out});
  }
  return s.finalize();
}

} // namespace

TEST_F(TraceTest, tensor_add_prints_regions_and_locations) {
  auto k = trace_tensor_add();
  std::string text = printer::to_text(*k);
  EXPECT_NE(text.find("kernel @tensor_add(%a: hbm f32[256,1024], %b: hbm f32[256,1024]) -> "
                      "(%out) grid [2] {"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  KernelScope @tensor_add {"), std::string::npos) << text;
  EXPECT_NE(text.find("    LoopScope affine %j in [0, 2) trip 2 {"), std::string::npos) << text;
  EXPECT_NE(text.find("%a_tile = dma.load %a[128*%pid0 + p, 512*%j + f] : sbuf f32[128,512]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("@ add.py:8:13"), std::string::npos) << text;
  EXPECT_NE(text.find("%c_tile = vector.tensor_tensor %a_tile, %b_tile {op = add} : sbuf "
                      "f32[128,512]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dma.store %out[128*%pid0 + p, 512*%j + f], %c_tile"), std::string::npos)
      << text;
}

TEST_F(TraceTest, printer_sinks_agree) {
  auto k = trace_tensor_add();
  printer::RecordSink records;
  printer::print_kernel(*k, records);
  std::string joined;
  for (const auto& r : records.records()) joined += r.text + "\n";
  EXPECT_EQ(joined, printer::to_text(*k));
  // Each instruction line carries its op id, region and location.
  int insts = 0;
  for (const auto& r : records.records()) {
    if (r.op_id < 0) continue;
    ++insts;
    EXPECT_EQ(k->inst(r.op_id).region, r.region_id);
    EXPECT_EQ(r.loc.file, "add.py");
    EXPECT_GT(r.loc.line, 0);
  }
  EXPECT_EQ(insts, static_cast<int>(k->instructions().size()));
  // The JSON forms parse and carry the version.
  util::Json ir = util::Json::parse(printer::to_json(*k));
  EXPECT_EQ(ir["version"].integer(), printer::kIrJsonVersion);
  EXPECT_EQ(ir["body"]["kind"].string(), "KernelScope");
  util::Json recs = util::Json::parse(printer::records_to_json(records.records()));
  EXPECT_EQ(recs.size(), records.records().size());
}

TEST_F(TraceTest, region_records_summarise_each_region_once) {
  auto k = trace_tensor_add();
  printer::RecordSink sink;
  printer::print_kernel(*k, sink);
  const auto& lines = sink.records();
  const auto& regions = sink.regions();
  ASSERT_EQ(regions.size(), k->regions().size());
  // The kernel's region first: its name and signature, every instruction and engine in it.
  const printer::RegionRecord& root = regions[0];
  EXPECT_EQ(root.parent, -1);
  EXPECT_EQ(root.label, "kernel @tensor_add");
  EXPECT_EQ(root.detail, "@tensor_add");
  EXPECT_EQ(root.signature, "(f32[256,1024], f32[256,1024]) grid [2]");
  EXPECT_EQ(root.line, 0);
  EXPECT_EQ(root.instructions, static_cast<int>(k->instructions().size()));
  EXPECT_EQ(root.engines, (std::vector<std::string>{"dma", "vector"}));
  // Every other region's label is its opening line without " {" and the location.
  for (size_t i = 1; i < regions.size(); ++i) {
    const printer::RegionRecord& r = regions[i];
    const printer::LineRecord& open = lines.at(static_cast<size_t>(r.line));
    EXPECT_EQ(open.region_id, r.region);
    EXPECT_EQ(open.text.substr(0, open.text.find(" {")),
              std::string(open.depth * 2, ' ') + r.label);
    EXPECT_EQ(r.label, r.detail.empty() ? r.kind : r.kind + " " + r.detail);
  }
  const printer::RegionRecord& loop = regions[1];
  EXPECT_EQ(loop.kind, "LoopScope");
  EXPECT_EQ(loop.detail, "affine %j in [0, 2) trip 2");
  EXPECT_EQ(loop.axis, 0);
  EXPECT_EQ(loop.depth, 1);
  EXPECT_EQ(loop.instructions, 4);
  // Its span runs from the loop's own line to the last line inside it (the store's).
  EXPECT_TRUE(loop.has_span);
  EXPECT_EQ(loop.span_start, loop.loc.line);
  EXPECT_EQ(loop.span_end, 11);
  util::Json json = util::Json::parse(printer::regions_to_json(regions));
  EXPECT_EQ(json.size(), regions.size());
  EXPECT_EQ(json[0]["signature"].string(), root.signature);
  EXPECT_EQ(json[1]["span"]["end_line"].integer(), 11);
}

TEST_F(TraceTest, load_from_sbuf_raises_address_space_error) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId t =
      lang::ndarray(cg, "t", {128, 64}, ir::DType::Float32, ir::Buffer::Sbuf, std::nullopt);
  try {
    lang::load(cg, t, {}, "");
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_STREQ(e.what(),
                 "Expected operand 'src' of 'load' to be in address space 'hbm', but got a tile "
                 "in 'sbuf' instead.");
  }
}

TEST_F(TraceTest, partition_dimension_over_128_is_rejected) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId a = lang::param(cg, "a", {256, 512}, ir::DType::Float32, false);
  std::vector<IndexItem> idx = {expr_item(tile(0), {256, 1}), expr_item(tile(1), {1, 512})};
  try {
    lang::load(cg, lang::view(cg, a, idx), {}, "");
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "ValueError");
    EXPECT_STREQ(e.what(), "number of partitions 256 exceed architecture limitation of 128.");
  }
}

TEST_F(TraceTest, static_out_of_bound_access_names_dimension_and_range) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId x = lang::param(cg, "x", {128, 4000}, ir::DType::Float32, false);
  auto loop = cg.affine_range(0, 8, 1);
  std::vector<IndexItem> idx = {expr_item(tile(0), {128, 1}),
                                expr_item(loop.iv * 512 + tile(1), {1, 512})};
  try {
    lang::load(cg, lang::view(cg, x, idx), {}, "");
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "IndexError");
    EXPECT_STREQ(e.what(),
                 "Out-of-bound access for tensor `x` on dimension 1: index range [0, 4095] "
                 "exceed dimension size of 4000");
  }
}

TEST_F(TraceTest, storing_into_an_input_parameter_is_refused) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId x = lang::param(cg, "x", {128, 64}, ir::DType::Float32, false);
  lang::ValueId t = lang::load(cg, x, {}, "t");
  try {
    lang::store(cg, x, t);
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "TypeError");
    EXPECT_STREQ(e.what(), "Cannot update immutable parameter `x`");
  }
}

TEST_F(TraceTest, views_compose_and_slices_make_tile_axes) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId x = lang::param(cg, "x", {4, 128, 512}, ir::DType::BFloat16, false);
  IndexItem one;
  one.kind = IndexItem::Kind::Int;
  one.value = 2;
  IndexItem half;
  half.kind = IndexItem::Kind::Slice;
  half.start = ir::AffineExpr(256);
  lang::ValueId v = lang::view(cg, x, {one, IndexItem{IndexItem::Kind::Ellipsis}, half});
  EXPECT_EQ(cg.value(v).tile_shape, (std::vector<int64_t>{128, 256}));
  IndexItem first_rows;
  first_rows.kind = IndexItem::Kind::Slice;
  first_rows.stop = ir::AffineExpr(64);
  lang::ValueId w = lang::view(cg, v, {first_rows});
  EXPECT_EQ(cg.value(w).tile_shape, (std::vector<int64_t>{64, 256}));
  EXPECT_EQ(printer::format_access(cg.kernel(), cg.value(w)), "%x[2, p, f + 256]");
}

TEST_F(TraceTest, mixing_slices_and_aranges_is_rejected) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  lang::ValueId x = lang::param(cg, "x", {128, 512}, ir::DType::Float32, false);
  IndexItem sl;
  sl.kind = IndexItem::Kind::Slice;
  try {
    lang::view(cg, x, {sl, expr_item(tile(1), {1, 512})});
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_STREQ(e.what(),
                 "Mixing basic tensor indexing and advanced tensor indexing is not supported.");
  }
}

TEST_F(TraceTest, program_id_beyond_the_grid_rank_is_an_index_error) {
  trace::TraceSession s(opts("k", {2, 2}));
  auto& cg = s.codegen();
  EXPECT_NO_THROW(lang::program_id(cg, 1));
  try {
    lang::program_id(cg, 2);
    FAIL();
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "IndexError");
  }
}

TEST_F(TraceTest, requests_decode_into_ops_and_reply_with_values) {
  trace::TraceSession s(opts("k", {}));
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  auto reply = [&](const char* j) {
    return util::Json::parse(protocol::handle_request(cg, util::Json::parse(j)));
  };
  util::Json p = reply(R"({"op":"param","name":"a","shape":[128,64],"dtype":"float16"})");
  EXPECT_EQ(p["dtype"].string(), "float16");
  util::Json t = reply(
      R"({"op":"call","api":"load","operands":[["src",{"v":0}]],"loc":["k.py",3,7],"stmt":"t = nl.load(a)@3"})");
  EXPECT_EQ(t["buffer"].string(), "sbuf");
  EXPECT_EQ(cg.kernel().instructions().back().loc.line, 3);
  util::Json sum = reply(R"({"op":"call","api":"add","operands":[["x",{"v":1}],["y",{"s":1.5}]]})");
  EXPECT_EQ(sum["dtype"].string(), "float32"); // float scalars are float32
  util::Json isum =
      reply(R"({"op":"call","api":"add","operands":[["x",{"v":1}],["y",{"s":2,"int":true}]]})");
  EXPECT_EQ(isum["dtype"].string(), "float16");
  EXPECT_THROW(reply(R"({"op":"param","name":"b","shape":[1],"dtype":"float64"})"), sema::NkiError);
  // A lazily created view travels inside the operand and is resolved with the op.
  util::Json half = reply(
      R"({"op":"call","api":"load","operands":[["src",{"v":0,"items":[{"k":"slice","stop":{"c":64,"t":[]}}]}]]})");
  EXPECT_EQ(half["shape"][0].integer(), 64);
}

TEST(Json, round_trips_strings_numbers_and_nesting) {
  util::Json j = util::Json::parse(R"({"a":[1,2.5,-3e2],"s":"q\"\u00e9\n","n":null,"t":true})");
  EXPECT_EQ(j["a"][2].number(), -300);
  EXPECT_EQ(j["s"].string(), "q\"\xc3\xa9\n");
  EXPECT_TRUE(j["n"].is_null());
  EXPECT_TRUE(j["t"].boolean());
  EXPECT_TRUE(j["missing"].is_null());
  EXPECT_THROW(util::Json::parse("{\"a\":}"), std::invalid_argument);
  util::JsonWriter w;
  w.begin_object().key("x").value(0.1).key("s").value("a\"b").end_object();
  EXPECT_EQ(w.str(), R"({"x":0.1,"s":"a\"b"})");
}
