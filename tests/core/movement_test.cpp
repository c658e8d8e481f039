// The matmul / movement family through the request protocol: IR shapes, folding of PSUM
// accumulation, indirect access patterns, aliases and constants, and NKI's diagnostics.
#include <gtest/gtest.h>

#include "printer/printer.h"
#include "protocol/requests.h"
#include "sema/sema.h"
#include "trace_fixture.h"
#include "util/json.h"

using namespace nki;

namespace {

class Movement : public TraceTest {
protected:
  void SetUp() override {
    TraceTest::SetUp();
    session_ = std::make_unique<trace::TraceSession>(opts());
    cg_ = &session_->codegen();
    region_ = cg_->kernel_scope("k").release();
  }
  void TearDown() override {
    session_.reset();
    TraceTest::TearDown();
  }

  /// Sends one request; returns the reply's value id (or -1).
  int req(const std::string& json) {
    util::Json r = util::Json::parse(protocol::handle_request(*cg_, util::Json::parse(json)));
    return r.is_object() && r.has("v") ? static_cast<int>(r["v"].integer()) : -1;
  }
  int param(const std::string& name, const std::string& shape, const std::string& dtype) {
    return req(R"({"op":"param","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
               dtype + R"("})");
  }
  int tile(const std::string& name, const std::string& shape, const std::string& dtype,
           const std::string& buffer = "sbuf") {
    return req(R"({"op":"ndarray","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
               dtype + R"(","buffer":")" + buffer + R"("})");
  }
  /// {"op":"call","api":api,"operands":[[role, {"v": id}], ...], ...rest}
  int call(const std::string& api, const std::vector<std::pair<std::string, int>>& operands,
           const std::string& rest = "") {
    std::string ops;
    for (const auto& [role, v] : operands)
      ops += (ops.empty() ? "" : ",") + std::string("[\"") + role +
             "\",{\"v\":" + std::to_string(v) + "}]";
    return req(R"({"op":"call","api":")" + api + R"(","operands":[)" + ops + "]" +
               (rest.empty() ? "" : "," + rest) + "}");
  }
  std::string line_of(const ir::Instruction& in) const {
    // The printed line of `in`: the one whose record carries its op id.
    printer::RecordSink sink;
    printer::print_kernel(cg_->kernel(), sink);
    for (const auto& r : sink.records())
      if (r.op_id == in.id) return r.text.substr(r.text.find_first_not_of(' '));
    return "";
  }
  const ir::Tensor& tensor(int v) const { return cg_->kernel().tensor(cg_->value(v).tensor); }

  /// Expects `f` to raise NKI's diagnostic of class `kind` with message `text`.
  template <class F> void expect_error(F f, const std::string& kind, const std::string& text) {
    try {
      f();
      ADD_FAILURE() << "expected " << kind << ": " << text;
    } catch (const sema::NkiError& e) {
      EXPECT_EQ(e.kind(), kind);
      EXPECT_EQ(std::string(e.what()), text);
    }
  }

  std::unique_ptr<trace::TraceSession> session_;
  codegen::NeuronCodegen* cg_ = nullptr;
  ir::RegionId region_ = ir::kNone;
};

std::string text_of(const std::string& line) {
  return line.substr(0, line.find("  @"));
}

} // namespace

TEST_F(Movement, nc_matmul_writes_fp32_psum_and_accumulates_in_place) {
  int a = tile("a", "[128,64]", "bfloat16");
  int b = tile("b", "[128,512]", "bfloat16");
  int acc = tile("acc", "[64,512]", "float32", "psum");
  int r = call("nc_matmul", {{"stationary", a}, {"moving", b}}, R"("name":"r")");
  EXPECT_EQ(tensor(r).buffer, ir::Buffer::Psum);
  EXPECT_EQ(tensor(r).dtype, ir::DType::Float32);
  EXPECT_EQ(cg_->value(r).tile_shape, (std::vector<int64_t>{64, 512}));
  EXPECT_EQ(text_of(line_of(cg_->kernel().instructions().back())),
            "%r = tensor.nc_matmul %a, %b : psum f32[64,512]");
  // `acc += nc_matmul(...)`: the matmul accumulates into acc, no Vector add.
  int r2 = call("nc_matmul", {{"stationary", a}, {"moving", b}});
  req(R"({"op":"assign","dst":{"v":)" + std::to_string(acc) + R"(},"src":{"v":)" +
      std::to_string(r2) + R"(},"acc":"add"})");
  const ir::Instruction& last = cg_->kernel().instructions().back();
  EXPECT_EQ(last.opcode, "nc_matmul");
  EXPECT_EQ(last.result, ir::kNone);
  EXPECT_EQ(text_of(line_of(last)), "tensor.nc_matmul %acc, %a, %b {accumulate = 1}");
}

TEST_F(Movement, matmul_without_transpose_x_inserts_a_tensor_engine_transpose) {
  int x = tile("x", "[64,128]", "float32");
  int y = tile("y", "[128,256]", "float32");
  size_t before = cg_->kernel().instructions().size();
  int r = call("matmul", {{"x", x}, {"y", y}});
  const auto& insts = cg_->kernel().instructions();
  ASSERT_EQ(insts.size(), before + 3);
  EXPECT_EQ(text_of(line_of(insts[before])),
            "%x_T_psum = tensor.nc_transpose %x : psum f32[128,64]");
  EXPECT_EQ(text_of(line_of(insts[before + 1])),
            "%x_T = vector.tensor_copy %x_T_psum : sbuf f32[128,64]");
  EXPECT_EQ(cg_->value(r).tile_shape, (std::vector<int64_t>{64, 256}));
}

TEST_F(Movement, matmul_limits_use_nkis_messages) {
  int x = tile("x", "[128,128]", "bfloat16");
  int wide = tile("wide", "[128,1024]", "bfloat16");
  int y = tile("y", "[64,512]", "bfloat16");
  expect_error(
      [&] {
        call("matmul", {{"x", x}, {"y", wide}}, R"("attrs":{"transpose_x":true})");
      },
      "ValueError",
      "size of dimension 1 in 'wide[128, 1024]' of 'matmul' exceed architecture "
      "limitation of 512.");
  expect_error(
      [&] {
        call("nc_matmul", {{"stationary", x}, {"moving", y}});
      },
      "ValueError",
      "number of partitions (dimension 0 size of a tile) mismatch in parameters "
      "(x[128, 128], y[64, 512]) of 'nc_matmul'");
  int i = tile("i", "[128,128]", "int32");
  expect_error(
      [&] {
        call("nc_matmul", {{"stationary", i}, {"moving", x}});
      },
      "TypeError",
      "'stationary' of 'nc_matmul' has dtype 'int32', expected one of the following "
      "dtypes: float8_e4m3, float8_e5m2, bfloat16, float16, tfloat32, float32");
}

TEST_F(Movement, transpose_rank_and_size_limits) {
  int t3 = tile("x", "[64,32,2]", "float32");
  expect_error(
      [&] {
        call("transpose", {{"x", t3}});
      },
      "ValueError",
      "parameter 'x[64, 32, 2]' of 'transpose' exceed max supported number of "
      "dimensions of 2.");
  int wide = tile("w", "[128,512]", "float32");
  expect_error(
      [&] {
        call("transpose", {{"x", wide}});
      },
      "ValueError",
      "size of dimension 1 in 'w[128, 512]' of 'transpose' exceed architecture "
      "limitation of 128.");
  int small = tile("s", "[32,2]", "float32");
  int t = call("nc_transpose", {{"data", small}});
  EXPECT_EQ(cg_->kernel().instructions().back().engine, ir::Engine::Vector);
  EXPECT_EQ(cg_->value(t).tile_shape, (std::vector<int64_t>{2, 32}));
}

TEST_F(Movement, indirect_load_reads_the_index_tile_per_partition) {
  int a = param("a", "[128,512]", "float32");
  int idx = tile("idx", "[64,1]", "int32");
  std::string view = R"({"v":)" + std::to_string(a) + R"(,"items":[{"k":"tile","t":{"v":)" +
                     std::to_string(idx) +
                     R"(}},{"k":"expr","e":{"c":0,"t":[["A",1,1]],"shape":[1,512]}}]})";
  int t = req(R"({"op":"call","api":"load","operands":[["src",)" + view + "]]}");
  EXPECT_EQ(cg_->value(t).tile_shape, (std::vector<int64_t>{64, 512}));
  const auto& ap = cg_->kernel().instructions().back().operands[0].ap;
  ASSERT_TRUE(ap.indirect);
  EXPECT_EQ(ap.indirect_dim, 0);
  EXPECT_EQ(printer::format_access(cg_->kernel(), ap), "%a[%idx[p, 0], f]");
}

TEST_F(Movement, indirect_index_rules) {
  int a = param("a", "[128,512]", "float32");
  int idx = tile("idx", "[128,1]", "int32");
  int ps = tile("ps", "[64,1]", "int32", "psum");
  auto view = [&](int index, bool on_free) {
    std::string tile_item = R"({"k":"tile","t":{"v":)" + std::to_string(index) + "}}";
    std::string p = R"({"k":"expr","e":{"c":0,"t":[["A",0,1]],"shape":[128,1]}})";
    std::string items =
        on_free ? p + "," + tile_item
                : tile_item + R"(,{"k":"expr","e":{"c":0,"t":[["A",1,1]],"shape":[1,512]}})";
    return req(R"({"op":"view","v":)" + std::to_string(a) + R"(,"items":[)" + items + "]}");
  };
  expect_error([&] { view(idx, true); }, "NKISyntaxError",
               "Indirect indexing on free dimension not supported, must be partition dimension "
               "or block dimension.");
  expect_error([&] { view(ps, false); }, "NKISyntaxError",
               "Indirect indices tile must be on SBUF.");
  int v = view(idx, false);
  expect_error(
      [&] {
        call("load_transpose2d", {{"src", v}});
      },
      "NKISyntaxError",
      "cannot use indirect indexing access with the current NKI API for a[128, 512]");
}

TEST_F(Movement, atomic_rmw_needs_add_and_an_index_tile) {
  int out = tile("out", "[128,512]", "float32", "shared_hbm");
  int val = tile("val", "[128,512]", "float32");
  expect_error(
      [&] {
        call("atomic_rmw", {{"dst", out}, {"value", val}}, R"("attrs":{"op":"multiply"})");
      },
      "NKISyntaxError",
      "atomic_rmw `op` param only supports 'add' operation currently. An unsupported "
      "op=multiply");
  expect_error(
      [&] {
        call("atomic_rmw", {{"dst", out}, {"value", val}}, R"("attrs":{"op":"add"})");
      },
      "NKISyntaxError",
      "atomic_rmw `dst` only supports indirect dynamic indexing currently. Use a tile to "
      "index.");
}

TEST_F(Movement, reshape_is_an_alias_of_the_same_storage) {
  int g = param("g", "[512]", "float32");
  int r = call("reshape", {{"x", g}}, R"("attrs":{"shape":[1,-1]})");
  EXPECT_EQ(cg_->value(r).tile_shape, (std::vector<int64_t>{1, 512}));
  EXPECT_EQ(tensor(r).alias_of, cg_->value(g).tensor);
  EXPECT_EQ(tensor(r).role, ir::TensorRole::Param); // writing it is writing the input
  expect_error(
      [&] {
        call("reshape", {{"x", g}}, R"("attrs":{"shape":[3,100]})");
      },
      "ValueError", "cannot reshape 'g[512]' into shape [3, 100]: it has 512 elements");
}

TEST_F(Movement, constants_keep_their_contents_and_identities_are_shared) {
  int c = req(
      R"({"op":"call","api":"shared_constant","operands":[],"dtype":"bfloat16","attrs":{"shape":[2,2],"values":[1,2,3,4]}})");
  EXPECT_EQ(tensor(c).constant, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(tensor(c).buffer, ir::Buffer::SharedHbm);
  int i1 = req(R"({"op":"call","api":"shared_identity_matrix","operands":[],"attrs":{"n":4}})");
  int i2 = req(R"({"op":"call","api":"shared_identity_matrix","operands":[],"attrs":{"n":4}})");
  EXPECT_EQ(cg_->value(i1).tensor, cg_->value(i2).tensor);
  EXPECT_EQ(tensor(i1).dtype, ir::DType::UInt8);
  EXPECT_EQ(tensor(i1).constant[5], 1.0);
  EXPECT_EQ(tensor(i1).constant[6], 0.0);
}

TEST_F(Movement, psum_tiles_fit_one_bank_and_accept_only_4_byte_matmul_writes) {
  expect_error([&] { tile("big", "[128,1024]", "float32", "psum"); }, "ValueError",
               "PSUM tile 'big[128, 1024]' needs 4096 bytes per partition, more than one PSUM "
               "bank (2048 bytes, i.e. 512 float32 elements; nl.tile_size.psum_fmax)");
  int a = tile("a", "[128,128]", "bfloat16");
  int half = tile("half", "[128,128]", "bfloat16", "psum");
  int r = call("nc_matmul", {{"stationary", a}, {"moving", a}});
  expect_error(
      [&] {
        req(R"({"op":"assign","dst":{"v":)" + std::to_string(half) + R"(},"src":{"v":)" +
            std::to_string(r) + "}}");
      },
      "TypeError", "PSUM tensor for non-transpose writes must be a 4-byte dtype (FP32/int32)");
}

TEST_F(Movement, broadcast_to_reads_row_zero_for_every_partition) {
  int g = tile("g", "[1,512]", "float32");
  int b = call("broadcast_to", {{"src", g}}, R"("attrs":{"shape":[128,512]})");
  EXPECT_EQ(cg_->value(b).tile_shape, (std::vector<int64_t>{128, 512}));
  EXPECT_EQ(
      printer::format_access(cg_->kernel(), cg_->kernel().instructions().back().operands[0].ap),
      "%g[0, f]");
  EXPECT_EQ(call("broadcast_to", {{"src", b}}, R"("attrs":{"shape":[128,512]})"), b);
}

TEST_F(Movement, direct_allocation_is_recorded_on_the_allocating_instruction) {
  int t = tile("t", "[128,512]", "bfloat16");
  call("allocation", {{"tensor", t}},
       R"("attrs":{"alloc_kind":"mod_alloc","base_addr":0,"num_free_tiles":[2]})");
  const ir::Instruction& in = cg_->kernel().instructions().back();
  EXPECT_EQ(text_of(line_of(in)),
            "%t = ndarray {alloc = sbuf.mod_alloc, base_addr = 0, num_free_tiles = [2]} : sbuf "
            "bf16[128,512]");
  int z = req(R"({"op":"ndarray","name":"z","shape":[128,8],"dtype":"float32","init":0})");
  expect_error(
      [&] {
        call("allocation", {{"tensor", z}}, R"("attrs":{"alloc_kind":"alloc","tiles":[0,0]})");
      },
      "NKISyntaxError",
      "Creating SBUF/PSUM tensor with init value is not supported in allocated NKI "
      "kernels.");
}
