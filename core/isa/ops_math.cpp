// Element-wise math of the current language: nisa.tensor_tensor and nisa.tensor_scalar (dst
// first). Same opcodes and numerics as Beta 1 (docs/ops/math.md).
#include <algorithm>

#include "ir/target.h"
#include "isa/isa.h"
#include "lang/math_common.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"
#include "sema/sema_movement.h"

namespace nki::isa {

using namespace nki::ir;
namespace math = lang::math;

namespace {

bool int32_like(DType t) {
  return t == DType::Int32 || t == DType::UInt32;
}

// An `op=`-style operator that must be one of `ok`'s.
std::string alu_op(const OpCall& c, const std::string& key, bool (*ok)(const std::string&)) {
  std::string op = math::op_attr(c, key);
  if (op.empty()) sema::err_argument_cannot_be_none({key});
  if (!ok(op)) sema::err_instruction_unsupported_op(op, c.api);
  return op;
}

bool binary_or_power(const std::string& op) {
  return math::is_binary_alu(op) || op == "power";
}

bool any_alu(const std::string& op) {
  return math::is_binary_alu(op) || math::is_unary_alu(op) || op == "power";
}

void tensor_tensor(NeuronCodegen& cg, const OpCall& c) {
  std::string op = alu_op(c, "op", binary_or_power);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip);
  ValueId x = tile(cg, c, "data1", Mem::OnChip), y = tile(cg, c, "data2", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data1", x);
  same_layout(cg, c.api, "dst", dst, "data2", y);
  if (math::in_psum(cg, x) && math::in_psum(cg, y))
    sema::err_isa_both_psum(c.api, "data1", "data2");
  bool any_psum = math::in_psum(cg, dst) || math::in_psum(cg, x) || math::in_psum(cg, y);
  // power runs on GpSimd; so do int32/uint32 tiles (exact integer arithmetic) unless a tile is
  // in PSUM, which GpSimd cannot reach.
  bool ints = int32_like(lang::dtype_of(cg, dst)) && int32_like(lang::dtype_of(cg, x)) &&
              int32_like(lang::dtype_of(cg, y));
  Engine fallback = op == "power" || (ints && !any_psum) ? Engine::GpSimd : Engine::Vector;
  Engine e = engine_of(c, fallback, {Engine::Vector, Engine::GpSimd});
  if (e == Engine::GpSimd && any_psum)
    sema::err_unsupported_memory(math::in_psum(cg, dst) ? "dst" : "data1", c.api, "sbuf", "psum");
  if (math::is_bitvec(op)) {
    for (auto [role, v] : {std::pair<const char*, ValueId>{"data1", x}, {"data2", y}, {"dst", dst}})
      if (dtype_is_float(lang::dtype_of(cg, v)))
        sema::err_bitvec_operand_must_be_integer(op, role, dtype_name(lang::dtype_of(cg, v)));
  }
  Instruction in = lang::make_inst("tensor_tensor", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "x", x);
  lang::add_operand(cg, in, "y", y);
  in.attrs.push_back({"op", op});
  emit(cg, c, std::move(in));
}

void tensor_scalar(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", any_alu);
  std::string op1 = math::op_attr(c, "op1");
  if (!op1.empty() && !any_alu(op1)) sema::err_instruction_unsupported_op(op1, c.api);
  if (op1.empty() != !c.has("operand1")) sema::err_op1_operand1_both_or_none();
  if (!op1.empty() && math::is_bitvec(op0) != math::is_bitvec(op1))
    sema::err_ops_both_arith_or_bitvec(c.api);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Engine e = engine_of(c, Engine::Vector, {Engine::Vector, Engine::Scalar, Engine::GpSimd});
  if (math::is_bitvec(op0) && e != Engine::Vector)
    sema::err_engine_cannot_run(c.api + " with bitvec operators", "vector", engine_name(e));
  Instruction in = lang::make_inst("tensor_scalar", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  if (math::is_unary_alu(op0)) {
    if (c.has("operand0") &&
        (!c.operand("operand0").is_scalar() || c.operand("operand0").scalar != 0))
      sema::err_isa_unary_operand(c.api, op0);
  } else {
    add_vector_operand(cg, in, c, "operand0", data);
  }
  if (!op1.empty()) add_vector_operand(cg, in, c, "operand1", data);
  in.attrs.push_back({"op0", op0});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (!op1.empty()) {
    in.attrs.push_back({"op1", op1});
    if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  }
  emit(cg, c, std::move(in));
}

void scalar_tensor_tensor(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", binary_or_power), op1 = alu_op(c, "op1", binary_or_power);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  ValueId other = tile(cg, c, "operand1", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  same_layout(cg, c.api, "dst", dst, "operand1", other);
  Instruction in = lang::make_inst("scalar_tensor_tensor", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  add_vector_operand(cg, in, c, "operand0", data);
  lang::add_operand(cg, in, "operand1", other);
  in.attrs.push_back({"op0", op0});
  in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  emit(cg, c, std::move(in));
}

bool reduce_alu(const std::string& op) {
  return math::is_reduce_op(op);
}

void tensor_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op = alu_op(c, "op", reduce_alu);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  const auto& ds = lang::shape_of(cg, data);
  std::vector<int64_t> axes = c.attr_ints("axis");
  const int64_t n = static_cast<int64_t>(ds.size());
  for (int64_t& a : axes)
    if (a < 0) a += n;
  std::sort(axes.begin(), axes.end());
  if (axes.empty()) sema::err_empty_axis();
  // NKI 0.3.0: the trailing contiguous free axes, ending at the last dimension.
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] != n - static_cast<int64_t>(axes.size()) + static_cast<int64_t>(i) || axes[i] < 1)
      sema::err_isa_rule(c.api, "axis must be the trailing free dimensions ending at the last "
                                "one ([" +
                                    std::to_string(n - 1) + "], [" + std::to_string(n - 2) + ", " +
                                    std::to_string(n - 1) + "], ...)");
  if (c.attr_bool("negate") && math::is_bitvec(op)) sema::err_reduce_unsupported_negate(op);
  int64_t kept = 1;
  for (int64_t i = 1; i < axes.front(); ++i) kept *= ds[static_cast<size_t>(i)];
  const auto& os = lang::shape_of(cg, dst);
  if (os.empty() || os[0] != ds[0] || lang::free_size(os) != kept)
    sema::err_isa_rule(c.api, "dst holds the reduced tile: " + sema::describe("dst", os) + " for " +
                                  sema::describe("data", ds) + " over the last " +
                                  std::to_string(axes.size()) + " axes");
  Instruction in = lang::make_inst("tensor_reduce", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  in.attrs.push_back({"op", op});
  in.attrs.push_back({"axis", axes});
  if (c.attr_bool("negate")) in.attrs.push_back({"negate", int64_t{1}});
  if (c.attr_bool("keepdims")) in.attrs.push_back({"keepdims", int64_t{1}});
  emit(cg, c, std::move(in));
}

void tensor_partition_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op = alu_op(c, "op", reduce_alu);
  if (op != "add" && op != "maximum" && op != "bitwise_or" && op != "bitwise_and")
    sema::err_par_reduce_unsupported_op(op);
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), data = tile(cg, c, "data", Mem::Sbuf);
  const auto& os = lang::shape_of(cg, dst);
  const auto& ds = lang::shape_of(cg, data);
  if (os.empty() || os[0] != 1 || lang::free_size(os) != lang::free_size(ds))
    sema::err_isa_rule(c.api, "dst is one partition of data's free size: " +
                                  sema::describe("dst", os) + " for " + sema::describe("data", ds));
  Instruction in = lang::make_inst("tensor_partition_reduce", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  in.attrs.push_back({"op", op});
  emit(cg, c, std::move(in));
}

std::string reduce_cmd(const OpCall& c, const std::string& fallback) {
  return c.attr_string("reduce_cmd", fallback);
}

void tensor_scalar_reduce(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", binary_or_power);
  std::string rop = alu_op(c, "reduce_op", reduce_alu);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  if (c.attr_bool("reverse0")) sema::err_not_supported_yet("tensor_scalar_reduce(reverse0=True)");
  if (c.has("reduce_init") || c.attr_bool("reduce_res_negate") ||
      reduce_cmd(c, "reset_reduce") != "reset_reduce")
    sema::err_not_supported_yet("tensor_scalar_reduce(reduce_init / reduce_res_negate / "
                                "reduce_cmd other than reset_reduce)");
  Instruction in = lang::make_inst("tensor_scalar_reduce", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  add_vector_operand(cg, in, c, "operand0", data);
  add_reduce_res(cg, in, c, data);
  in.attrs.push_back({"op0", op0});
  in.attrs.push_back({"reduce_op", rop});
  emit(cg, c, std::move(in));
}

void tensor_tensor_scan(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", binary_or_power), op1 = alu_op(c, "op1", binary_or_power);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), d0 = tile(cg, c, "data0", Mem::OnChip);
  ValueId d1 = tile(cg, c, "data1", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data0", d0);
  same_layout(cg, c.api, "dst", dst, "data1", d1);
  Instruction in = lang::make_inst("tensor_tensor_scan", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data0", d0);
  lang::add_operand(cg, in, "data1", d1);
  add_vector_operand(cg, in, c, "initial", d0);
  in.attrs.push_back({"op0", op0});
  in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  emit(cg, c, std::move(in));
}

void activation_common(NeuronCodegen& cg, const OpCall& c, const std::string& cmd) {
  std::string fn = math::op_attr(c, "op");
  if (fn.empty()) sema::err_argument_cannot_be_none({"op"});
  if (!math::is_activation_fn(fn)) sema::err_instruction_unsupported_op(fn, c.api);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Instruction in = lang::make_inst("activation", Engine::Scalar);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  if (c.has("bias")) add_vector_operand(cg, in, c, "bias", data);
  if (c.has("scale") && !(c.operand("scale").is_scalar() && c.operand("scale").scalar == 1.0))
    add_vector_operand(cg, in, c, "scale", data);
  add_reduce_res(cg, in, c, data);
  in.attrs.push_back({"op", fn});
  std::string rop = math::op_attr(c, "reduce_op");
  if (!rop.empty()) in.attrs.push_back({"reduce_op", rop});
  if (cmd != "idle") in.attrs.push_back({"reduce_cmd", cmd});
  emit(cg, c, std::move(in));
}

void activation(NeuronCodegen& cg, const OpCall& c) {
  activation_common(cg, c, reduce_cmd(c, "idle"));
}

void activation_reduce(NeuronCodegen& cg, const OpCall& c) {
  if (!c.has("reduce_res")) sema::err_argument_cannot_be_none({"reduce_res"});
  activation_common(cg, c, "reset_reduce");
}

void reciprocal(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Instruction in = lang::make_inst("reciprocal", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  emit(cg, c, std::move(in));
}

void bn(NeuronCodegen& cg, const OpCall& c, int64_t out_free) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), data = tile(cg, c, "data", Mem::OnChip);
  const auto& os = lang::shape_of(cg, dst);
  const auto& ds = lang::shape_of(cg, data);
  int64_t n = lang::free_size(ds);
  if (c.api == "bn_stats" && n > ir::kBnStatsFmax)
    sema::err_elements_per_partition("data", c.api, n, 1, ir::kBnStatsFmax);
  if (c.api == "bn_aggr" && n % 3) sema::err_elements_per_partition_multiple("data", c.api, n, 3);
  if (os.empty() || os[0] != ds[0] || lang::free_size(os) != out_free)
    sema::err_isa_rule(c.api, "dst is (partitions, " + std::to_string(out_free) + "), got " +
                                  sema::describe("dst", os));
  Instruction in = lang::make_inst(c.api, Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  emit(cg, c, std::move(in));
}

void bn_stats(NeuronCodegen& cg, const OpCall& c) {
  bn(cg, c, 6);
}
void bn_aggr(NeuronCodegen& cg, const OpCall& c) {
  bn(cg, c, 2);
}

// exponential (trn3): dst = exp(src - max_value), as the Scalar engine's exp with a bias.
void exponential(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 4) sema::err_min_arch_support_for_inst(c.api, "trn3", cg.options().target);
  if (c.has("reduce_res") || reduce_cmd(c, "idle") != "idle")
    sema::err_not_supported_yet("nki.isa.exponential(reduce_res / reduce_cmd)");
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), src = tile(cg, c, "src", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "src", src);
  Instruction in = lang::make_inst("activation", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", src);
  const lang::ValueOrScalar& m =
      c.has("max_value") ? c.operand("max_value") : lang::ValueOrScalar{};
  if (c.has("max_value") && !m.is_scalar())
    sema::err_not_supported_yet("nki.isa.exponential(max_value=<tile>)");
  if (c.has("max_value") && m.scalar != 0) lang::add_scalar(in, "bias", -m.scalar);
  in.attrs.push_back({"op", std::string("exp")});
  emit(cg, c, std::move(in));
}

// reg = op1(op0(src[i], imm0), reg); dst[i] = reg, per partition along its free elements, on
// the Vector engine's accumulator (reset_reduce: op1's identity, reduce: as left, load_reduce:
// imm1).
void tensor_scalar_cumulative(NeuronCodegen& cg, const OpCall& c) {
  std::string op0 = alu_op(c, "op0", binary_or_power);
  if (math::is_bitvec(op0)) sema::err_instruction_unsupported_op(op0, c.api);
  std::string op1 = math::op_attr(c, "op1");
  if (op1 != "add" && op1 != "subtract" && op1 != "multiply" && op1 != "maximum" &&
      op1 != "minimum")
    sema::err_instruction_unsupported_op(op1.empty() ? "None" : op1, c.api);
  const std::string cmd = reduce_cmd(c, "reset_reduce");
  if (cmd != "reset_reduce" && cmd != "reduce" && cmd != "load_reduce")
    sema::err_isa_rule(c.api, "reduce_cmd must be reset_reduce, reduce or load_reduce, got " + cmd);
  if (cmd == "load_reduce" && !c.has("imm1"))
    sema::err_isa_rule(c.api, "reduce_cmd=load_reduce loads the accumulator from imm1, which is "
                              "None");
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), src = tile(cg, c, "src", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "src", src);
  for (auto [role, v] : {std::pair<const char*, ValueId>{"src", src}, {"dst", dst}})
    if (int32_like(lang::dtype_of(cg, v)))
      sema::err_supported_operand_dtype(role, c.api, dtype_name(lang::dtype_of(cg, v)),
                                        "bfloat16, float16, float32, float8, uint8, uint16, "
                                        "int8, int16");
  Instruction in = lang::make_inst("tensor_scalar_cumulative", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  add_vector_operand(cg, in, c, "imm0", src);
  if (c.has("imm1")) add_vector_operand(cg, in, c, "imm1", src);
  in.attrs.push_back({"op0", op0});
  in.attrs.push_back({"op1", op1});
  in.attrs.push_back({"reduce_cmd", cmd});
  emit(cg, c, std::move(in));
}

// activate2 (trn3): op((data op0 imm0) op1 imm1) on the Scalar engine, the six documented
// (op0, op1) pairs, prelu's relu_param, and activation's reduction.
void activate2(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 4) sema::err_min_arch_support_for_inst(c.api, "trn3", cg.options().target);
  std::string fn = math::op_attr(c, "op");
  if (fn.empty()) sema::err_argument_cannot_be_none({"op"});
  if (fn == "bypass") fn = "copy";
  if (fn != "prelu" && !math::is_activation_fn(fn)) sema::err_instruction_unsupported_op(fn, c.api);
  std::string op0 = math::op_attr(c, "op0"), op1 = math::op_attr(c, "op1");
  if (op0.empty()) sema::err_argument_cannot_be_none({"op0"});
  if (op1.empty()) sema::err_argument_cannot_be_none({"op1"});
  const std::string pair = op0 + ", " + op1;
  if (pair != "multiply, add" && pair != "multiply, subtract" && pair != "multiply, bypass" &&
      pair != "add, bypass" && pair != "subtract, bypass" && pair != "bypass, bypass")
    sema::err_isa_rule(c.api, "(op0, op1) must be one of (multiply, add), (multiply, subtract), "
                              "(multiply, bypass), (add, bypass), (subtract, bypass), (bypass, "
                              "bypass); got (" +
                                  pair + ")");
  if (c.attr_bool("reverse0") && op0 == "bypass")
    sema::err_isa_rule(c.api, "reverse0 requires op0 to be set");
  if (c.attr_bool("reverse1") && op1 == "bypass")
    sema::err_isa_rule(c.api, "reverse1 requires op1 to be set");
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  if (lang::shape_of(cg, data)[0] > 128)
    sema::err_isa_rule(c.api, "the partition size must not exceed 128, " +
                                  sema::describe("data", lang::shape_of(cg, data)));
  Instruction in = lang::make_inst("activate2", Engine::Scalar);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  if (op0 != "bypass") add_vector_operand(cg, in, c, "imm0", data);
  if (op1 != "bypass") add_vector_operand(cg, in, c, "imm1", data);
  if (fn == "prelu" && c.has("relu_param")) add_vector_operand(cg, in, c, "relu_param", data);
  add_reduce_res(cg, in, c, data);
  in.attrs.push_back({"op", fn});
  if (op0 != "bypass") in.attrs.push_back({"op0", op0});
  if (op1 != "bypass") in.attrs.push_back({"op1", op1});
  if (c.attr_bool("reverse0")) in.attrs.push_back({"reverse0", int64_t{1}});
  if (c.attr_bool("reverse1")) in.attrs.push_back({"reverse1", int64_t{1}});
  std::string rop = math::op_attr(c, "reduce_op");
  if (!rop.empty()) {
    if (rop == "abs_max" || rop == "abs_min")
      sema::err_not_supported_yet("nki.isa.activate2(reduce_op=nl." + rop + ")");
    if (rop != "add" && rop != "maximum" && rop != "minimum")
      sema::err_instruction_unsupported_op(rop, c.api);
    in.attrs.push_back({"reduce_op", rop});
  }
  const std::string cmd = reduce_cmd(c, "idle");
  if (cmd != "idle") in.attrs.push_back({"reduce_cmd", cmd});
  emit(cg, c, std::move(in));
}

} // namespace

void register_math_ops(Registry& r) {
  r.add("tensor_tensor", tensor_tensor);
  r.add("tensor_scalar", tensor_scalar);
  r.add("scalar_tensor_tensor", scalar_tensor_tensor);
  r.add("tensor_reduce", tensor_reduce);
  r.add("tensor_partition_reduce", tensor_partition_reduce);
  r.add("tensor_scalar_reduce", tensor_scalar_reduce);
  r.add("tensor_tensor_scan", tensor_tensor_scan);
  r.add("activation", activation);
  r.add("activation_reduce", activation_reduce);
  r.add("reciprocal", reciprocal);
  r.add("bn_stats", bn_stats);
  r.add("bn_aggr", bn_aggr);
  r.add("exponential", exponential);
  r.add("tensor_scalar_cumulative", tensor_scalar_cumulative);
  r.add("activate2", activate2);
}

} // namespace nki::isa
