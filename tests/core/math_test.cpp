// The math family through the generic op request (core/lang/ops_elementwise, ops_vector_isa,
// ops_reduce, ops_composite, ops_select, ops_search): opcodes, engines, operand roles, attributes,
// result shapes and dtypes, and NKI's diagnostics with their exception classes.
#include <gtest/gtest.h>

#include <optional>

#include "lang/math_common.h"
#include "lang/ops.h"
#include "printer/printer.h"
#include "protocol/requests.h"
#include "sema/sema.h"
#include "trace_fixture.h"
#include "util/json.h"

using namespace nki;

namespace {

/// One open trace with a kernel scope; tiles are created directly, ops go through requests.
class MathTest : public TraceTest {
protected:
  void SetUp() override {
    TraceTest::SetUp();
    s_.emplace(opts("k", {}));
    k_.emplace(cg().kernel_scope("k"));
  }
  void TearDown() override {
    k_.reset();
    s_.reset();
    TraceTest::TearDown();
  }
  codegen::NeuronCodegen& cg() { return s_->codegen(); }
  int tile(const std::string& name, std::vector<int64_t> shape,
           ir::DType dtype = ir::DType::Float32, ir::Buffer buffer = ir::Buffer::Sbuf) {
    return lang::ndarray(cg(), name, std::move(shape), dtype, buffer, {});
  }
  util::Json call(const std::string& json) {
    return util::Json::parse(protocol::handle_request(cg(), util::Json::parse(json)));
  }
  const ir::Instruction& last() { return cg().kernel().instructions().back(); }
  std::string role(const ir::Instruction& in, size_t i) { return in.operands.at(i).role; }
  std::string attr(const ir::Instruction& in, const std::string& key) {
    for (const auto& [k, v] : in.attrs) {
      if (k != key) continue;
      if (auto* s = std::get_if<std::string>(&v)) return *s;
      if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
      if (auto* l = std::get_if<std::vector<int64_t>>(&v)) {
        std::string out;
        for (int64_t x : *l) out += (out.empty() ? "" : ",") + std::to_string(x);
        return out;
      }
      return std::to_string(std::get<double>(v));
    }
    return "<absent>";
  }
  /// Runs `json` and returns "kind: message" of the NKI error it must raise.
  std::string error_of(const std::string& json) {
    try {
      call(json);
    } catch (const sema::NkiError& e) {
      return e.kind() + ": " + e.what();
    }
    return "<no error>";
  }
  std::string call_json(const std::string& api, const std::string& operands,
                        const std::string& rest = "") {
    return R"({"op":"call","api":")" + api + R"(","operands":[)" + operands + "]" + rest + "}";
  }

private:
  std::optional<trace::TraceSession> s_;
  std::optional<codegen::ScopeGuard> k_;
};

TEST(MathVocabulary, numpy_and_nki_spellings_name_one_operator) {
  EXPECT_EQ(lang::math::canonical_op("max"), "maximum");  // np.max in NumPy 2
  EXPECT_EQ(lang::math::canonical_op("amax"), "maximum"); // np.max in NumPy 1.x
  EXPECT_EQ(lang::math::canonical_op("true_divide"), "divide");
  EXPECT_EQ(lang::math::canonical_op("bitwise_not"), "invert");
  EXPECT_EQ(lang::math::canonical_op("exp"), "exp");
  EXPECT_TRUE(lang::math::is_bitvec("left_shift"));
  EXPECT_FALSE(lang::math::is_bitvec("logical_and"));
  EXPECT_TRUE(lang::math::is_reduce_op("bitwise_xor"));
  EXPECT_FALSE(lang::math::is_reduce_op("power"));
  EXPECT_TRUE(lang::math::is_activation_fn("gelu_apprx_sigmoid"));
  EXPECT_FALSE(lang::math::is_activation_fn("add"));
}

TEST_F(MathTest, tile_op_tile_is_tensor_tensor_and_a_column_is_a_tensor_scalar_operand) {
  int x = tile("x", {128, 64}), col = tile("col", {128, 1});
  util::Json r = call(call_json("add", R"(["x",{"v":)" + std::to_string(x) + R"(}],["y",{"v":)" +
                                           std::to_string(x) + "}]"));
  EXPECT_EQ(last().opcode, "tensor_tensor");
  EXPECT_EQ(last().engine, ir::Engine::Vector);
  EXPECT_EQ(role(last(), 0), "x");
  EXPECT_EQ(role(last(), 1), "y");
  EXPECT_EQ(attr(last(), "op"), "add");
  EXPECT_EQ(r["dtype"].string(), "float32");
  call(call_json("subtract", R"(["x",{"v":)" + std::to_string(col) + R"(}],["y",{"v":)" +
                                 std::to_string(x) + "}]"));
  EXPECT_EQ(last().opcode, "tensor_scalar");
  EXPECT_EQ(role(last(), 0), "data");
  EXPECT_EQ(role(last(), 1), "operand0");
  EXPECT_FALSE(last().operands[1].is_scalar);
  EXPECT_EQ(attr(last(), "reverse0"), "1"); // the column is the left operand
}

TEST_F(MathTest, free_dimension_broadcast_repeats_index_zero) {
  int x = tile("x", {128, 4, 16}), y = tile("y", {128, 1, 16});
  util::Json r = call(call_json("multiply", R"(["x",{"v":)" + std::to_string(x) +
                                                R"(}],["y",{"v":)" + std::to_string(y) + "}]"));
  EXPECT_EQ(r["shape"].int_list(), (std::vector<int64_t>{128, 4, 16}));
  const ir::AccessPattern& ay = last().operands[1].ap;
  EXPECT_EQ(ay.tile_shape, (std::vector<int64_t>{128, 4, 16}));
  EXPECT_TRUE(ay.index[1].is_constant()); // y's unit axis reads element 0 for every row
  EXPECT_EQ(printer::format_access(cg().kernel(), ay), "%y[p, 0, f1]");
  int z = tile("z", {128, 3, 16});
  EXPECT_EQ(error_of(call_json("multiply", R"(["x",{"v":)" + std::to_string(x) +
                                               R"(}],["y",{"v":)" + std::to_string(z) + "}]")),
            "ValueError: Parameter shapes (x[128, 4, 16], y[128, 3, 16]) of 'multiply' could not "
            "be broadcast together with shapes");
}

TEST_F(MathTest, partition_mismatch_names_the_parameters) {
  int x = tile("x", {128, 64}), y = tile("y", {64, 64});
  EXPECT_EQ(error_of(call_json("tensor_tensor",
                               R"(["data1",{"v":)" + std::to_string(x) + R"(}],["data2",{"v":)" +
                                   std::to_string(y) + "}]",
                               R"(,"attrs":{"op":"add"})")),
            "ValueError: number of partitions (dimension 0 size of a tile) mismatch in parameters "
            "(data1[128, 64], data2[64, 64]) of 'tensor_tensor'");
}

TEST_F(MathTest, scalars_promote_weakly_unless_typed) {
  int h = tile("h", {128, 64}, ir::DType::Float16);
  std::string x = R"(["x",{"v":)" + std::to_string(h) + "}]";
  EXPECT_EQ(call(call_json("add", x + R"(,["y",{"s":1.5}])"))["dtype"].string(), "float32");
  EXPECT_EQ(call(call_json("add", x + R"(,["y",{"s":1.5,"dtype":"float16"}])"))["dtype"].string(),
            "float16");
  EXPECT_EQ(
      call(call_json("less", x + R"(,["y",{"s":0}])", R"(,"dtype":"bool_")"))["dtype"].string(),
      "bool_");
}

TEST_F(MathTest, transcendental_functions_are_scalar_activations_and_floor_uses_mod) {
  int x = tile("x", {128, 64});
  std::string xo = R"(["x",{"v":)" + std::to_string(x) + "}]";
  call(call_json("exp", xo));
  EXPECT_EQ(last().opcode, "activation");
  EXPECT_EQ(last().engine, ir::Engine::Scalar);
  EXPECT_EQ(attr(last(), "op"), "exp");
  size_t before = cg().kernel().instructions().size();
  call(call_json("floor", xo));
  ASSERT_EQ(cg().kernel().instructions().size(), before + 2);
  EXPECT_EQ(attr(cg().kernel().instructions()[before], "op0"), "mod");
  EXPECT_EQ(attr(last(), "op"), "subtract");
}

TEST_F(MathTest, mask_goes_on_the_instruction) {
  int x = tile("x", {128, 64});
  call(call_json("exp", R"(["x",{"v":)" + std::to_string(x) + "}]",
                 R"(,"mask":[{"lhs":{"c":0,"t":[["A",0,1]],"shape":[128,1]},"op":"<",)"
                 R"("rhs":{"c":64,"t":[]}}])"));
  ASSERT_EQ(last().mask.terms.size(), 1u);
  EXPECT_EQ(printer::format_predicate(cg().kernel(), last().mask, 2), "p < 64");
}

TEST_F(MathTest, reductions_give_a_column_for_2d_and_keep_other_axes) {
  int x = tile("x", {128, 64}), y = tile("y", {128, 4, 16});
  std::string xo = R"(["x",{"v":)" + std::to_string(x) + "}]";
  std::string yo = R"(["x",{"v":)" + std::to_string(y) + "}]";
  EXPECT_EQ(call(call_json("sum", xo, R"(,"attrs":{"axis":1})"))["shape"].int_list(),
            (std::vector<int64_t>{128, 1}));
  EXPECT_EQ(last().opcode, "tensor_reduce");
  EXPECT_EQ(attr(last(), "axis"), "1");
  EXPECT_EQ(call(call_json("max", yo, R"(,"attrs":{"axis":[-1]})"))["shape"].int_list(),
            (std::vector<int64_t>{128, 4}));
  EXPECT_EQ(
      call(call_json("min", yo, R"(,"attrs":{"axis":[1,2],"keepdims":true})"))["shape"].int_list(),
      (std::vector<int64_t>{128, 1, 1}));
  EXPECT_EQ(attr(last(), "keepdims"), "1");
  EXPECT_EQ(error_of(call_json("sum", xo, R"(,"attrs":{"axis":0})")),
            "ValueError: Reduction on partition axes is not supported");
  EXPECT_EQ(error_of(call_json("sum", xo, R"(,"attrs":{"axis":[]})")),
            "ValueError: Empty axis not supported");
}

TEST_F(MathTest, tensor_reduce_checks_negate_and_ops) {
  int x = tile("x", {128, 64}), xi = tile("xi", {128, 64}, ir::DType::Int32);
  auto tr = [&](int v, const std::string& attrs) {
    return call_json("tensor_reduce", R"(["data",{"v":)" + std::to_string(v) + "}]",
                     R"(,"attrs":)" + attrs);
  };
  call(tr(x, R"({"op":"max","axis":[1],"negate":true})"));
  EXPECT_EQ(attr(last(), "op"), "maximum");
  EXPECT_EQ(attr(last(), "negate"), "1");
  EXPECT_EQ(error_of(tr(xi, R"({"op":"bitwise_or","axis":1,"negate":true})")),
            "NKISyntaxError: negate option can only be used with arithmetic ops, unsupported "
            "op=bitwise_or");
  EXPECT_EQ(error_of(tr(x, R"({"op":"power","axis":1})")),
            "NKISyntaxError: power is not supported in 'tensor_reduce'");
}

TEST_F(MathTest, activation_operands_have_roles_and_checked_dtypes) {
  int x = tile("x", {128, 64}), b = tile("b", {128, 1}), acc = tile("acc", {128, 1});
  int b8 = tile("b8", {128, 1}, ir::DType::Int8);
  std::string d = R"(["data",{"v":)" + std::to_string(x) + "}]";
  call(call_json("activation",
                 d + R"(,["bias",{"v":)" + std::to_string(b) + R"(}],["scale",{"s":1.0}],)" +
                     R"(["reduce_res",{"v":)" + std::to_string(acc) + "}]",
                 R"(,"attrs":{"op":"exp","reduce_cmd":3})"));
  ASSERT_EQ(last().operands.size(), 3u); // scale 1.0 is the default: no operand
  EXPECT_EQ(role(last(), 1), "bias");
  EXPECT_EQ(role(last(), 2), "reduce_res");
  EXPECT_EQ(attr(last(), "reduce_cmd"), "reset_reduce");
  EXPECT_EQ(attr(last(), "reduce_op"), "add");
  EXPECT_EQ(error_of(call_json("activation", d + R"(,["bias",{"v":)" + std::to_string(b8) + "}]",
                               R"(,"attrs":{"op":"exp"})")),
            "TypeError: 'bias' param of 'activation' must be a vector of type float32, float16, or "
            "bfloat16, got 'int8'");
}

TEST_F(MathTest, tensor_scalar_op1_and_operand1_come_together) {
  int x = tile("x", {128, 64});
  std::string d = R"(["data",{"v":)" + std::to_string(x) + R"(}],["operand0",{"s":1}])";
  EXPECT_EQ(error_of(call_json("tensor_scalar", d, R"(,"attrs":{"op0":"add","op1":"multiply"})")),
            "ValueError: operand1 and op1 input arguments must be both provided or both None.");
  EXPECT_EQ(error_of(call_json("tensor_scalar", d, R"(,"attrs":{"op0":"add","engine":1})")),
            "ValueError: Engine for tensor_scalar can only be Scalar or Vector or GpSIMD or "
            "Unknown.");
}

TEST_F(MathTest, affine_select_takes_one_predicate_as_an_affine_list) {
  int x = tile("x", {128, 128});
  std::string ops =
      R"(["on_true_tile",{"v":)" + std::to_string(x) + R"(}],["on_false_value",{"s":-1.0}])";
  const std::string p = R"({"lhs":{"c":0,"t":[["A",0,1]],"shape":[128,1]},"op":">=",)"
                        R"("rhs":{"c":0,"t":[["A",1,1]],"shape":[1,128]}})";
  call(call_json("affine_select", ops, R"(,"attrs":{"pred":[)" + p + "]}"));
  EXPECT_EQ(last().engine, ir::Engine::GpSimd);
  EXPECT_EQ(attr(last(), "cmp"), ">=");
  EXPECT_EQ(attr(last(), "affine"), "0,2,0,1,2,1,-1"); // p - f
  EXPECT_EQ(error_of(call_json("affine_select", ops, R"(,"attrs":{"pred":[)" + p + "," + p + "]}")),
            "NKISyntaxError: 'affine_select' only supports single predicate, was provided 2");
}

TEST_F(MathTest, statistics_shapes_and_limits) {
  int x = tile("x", {128, 512}), w = tile("w", {128, 1024});
  EXPECT_EQ(call(call_json("bn_stats", R"(["data",{"v":)" + std::to_string(x) + "}]"))["shape"]
                .int_list(),
            (std::vector<int64_t>{128, 6}));
  EXPECT_EQ(error_of(call_json("bn_stats", R"(["data",{"v":)" + std::to_string(w) + "}]")),
            "ValueError: 'data' of 'bn_stats' has 1024 elements per partition, but must be between "
            "1 and 512");
}

TEST_F(MathTest, select_reduce_writes_its_dst_and_defines_nothing) {
  int d = tile("d", {128, 64}), t = tile("t", {128, 64});
  int p = tile("p", {128, 64}, ir::DType::UInt8);
  util::Json r = call(call_json("select_reduce",
                                R"(["dst",{"v":)" + std::to_string(d) + R"(}],["predicate",{"v":)" +
                                    std::to_string(p) + R"(}],["on_true",{"v":)" +
                                    std::to_string(t) + R"(}],["on_false",{"s":0.5}])"));
  EXPECT_TRUE(r.is_null());
  EXPECT_EQ(last().opcode, "select_reduce");
  EXPECT_EQ(last().result, ir::kNone);
  EXPECT_EQ(role(last(), 0), "dst");
}

TEST_F(MathTest, unregistered_collectives_are_refused_clearly) {
  int x = tile("x", {128, 64});
  EXPECT_EQ(error_of(call_json("all_reduce", R"(["x",{"v":)" + std::to_string(x) + "}]")),
            "NotImplementedError: not supported in nki-playground yet: all_reduce");
}

} // namespace
