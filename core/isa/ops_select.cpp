// Selections, search and random numbers of the current language (dst first): affine_select
// and iota's [step, num] patterns, range_select, select_reduce, sequence_bounds, max8,
// nc_find_index8, nc_match_replace8, dropout, rand2, set_rng_seed (Beta 1's executors), and the
// XORWOW generators' rng, rand_set_state, rand_get_state.
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

std::string cmp_attr(const OpCall& c, const std::string& key) {
  std::string op = math::op_attr(c, key);
  if (op != "equal" && op != "not_equal" && op != "less" && op != "less_equal" && op != "greater" &&
      op != "greater_equal")
    sema::err_instruction_unsupported_op(op.empty() ? "None" : op, c.api);
  return op;
}

double scalar_arg(const OpCall& c, const std::string& role) {
  const lang::ValueOrScalar& v = c.operand(role);
  if (!v.is_scalar()) sema::err_expected_scalar(role, c.api);
  return v.scalar;
}

void affine_select(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), x = tile(cg, c, "on_true_tile", Mem::Sbuf);
  same_layout(cg, c.api, "dst", dst, "on_true_tile", x);
  std::vector<int64_t> pat = c.attr_ints("pattern");
  int64_t n = 1;
  for (size_t i = 1; i < pat.size(); i += 2) n *= pat[i];
  if (n != lang::free_size(lang::shape_of(cg, dst)))
    sema::err_isa_rule(c.api, "the pattern's " + std::to_string(n) +
                                  " elements must be dst's elements per partition");
  Instruction in = lang::make_inst("affine_select", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "on_true_tile", x);
  lang::add_scalar(in, "on_false_value", scalar_arg(c, "on_false_value"));
  in.attrs.push_back({"pattern", pat});
  in.attrs.push_back({"offset", c.attr_int("offset", 0)});
  in.attrs.push_back({"channel_multiplier", c.attr_int("channel_multiplier", 0)});
  in.attrs.push_back({"cmp_op", cmp_attr(c, "cmp_op")});
  emit(cg, c, std::move(in));
}

void range_select(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 3) sema::err_min_arch_support_for_inst(c.api, "trn2", cg.options().target);
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), x = tile(cg, c, "on_true_tile", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "on_true_tile", x);
  Instruction in = lang::make_inst("range_select", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "on_true_tile", x);
  add_vector_operand(cg, in, c, "bound0", x);
  add_vector_operand(cg, in, c, "bound1", x);
  lang::add_scalar(in, "on_false_value", scalar_arg(c, "on_false_value"));
  add_reduce_res(cg, in, c, x);
  in.attrs.push_back({"comp_op0", cmp_attr(c, "comp_op0")});
  in.attrs.push_back({"comp_op1", cmp_attr(c, "comp_op1")});
  in.attrs.push_back({"range_start", c.attr_int("range_start", 0)});
  in.attrs.push_back({"reduce_op", math::op_attr(c, "reduce_op")});
  in.attrs.push_back({"reduce_cmd", c.attr_string("reduce_cmd", "reset_reduce")});
  emit(cg, c, std::move(in));
}

void select_reduce(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), pred = tile(cg, c, "predicate", Mem::OnChip);
  ValueId t = tile(cg, c, "on_true", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "predicate", pred);
  same_layout(cg, c.api, "dst", dst, "on_true", t);
  Instruction in = lang::make_inst("select_reduce", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "predicate", pred);
  lang::add_operand(cg, in, "on_true", t);
  add_vector_operand(cg, in, c, "on_false", t);
  add_reduce_res(cg, in, c, t);
  in.attrs.push_back({"reduce_op", math::op_attr(c, "reduce_op")});
  in.attrs.push_back({"reduce_cmd", c.attr_string("reduce_cmd", "idle")});
  if (c.attr_bool("reverse_pred")) in.attrs.push_back({"reverse_pred", int64_t{1}});
  emit(cg, c, std::move(in));
}

// An instruction with operands by role, dst first (the search family's shapes are checked by
// the executors' row handling: dst rows of 8).
void simple(NeuronCodegen& cg, const OpCall& c, const std::string& opcode, Engine e,
            std::initializer_list<const char*> roles, int64_t dst_free = -1) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf);
  if (dst_free > 0 && lang::free_size(lang::shape_of(cg, dst)) != dst_free)
    sema::err_isa_rule(c.api, "dst holds " + std::to_string(dst_free) +
                                  " elements per partition, got " +
                                  sema::describe("dst", lang::shape_of(cg, dst)));
  Instruction in = lang::make_inst(opcode, e);
  lang::add_operand(cg, in, "dst", dst);
  for (const char* role : roles) lang::add_operand(cg, in, role, tile(cg, c, role, Mem::OnChip));
  emit(cg, c, std::move(in));
}

void max8(NeuronCodegen& cg, const OpCall& c) {
  simple(cg, c, "max8", Engine::Vector, {"src"}, 8);
}
void nc_find_index8(NeuronCodegen& cg, const OpCall& c) {
  simple(cg, c, "nc_find_index8", Engine::Vector, {"data", "vals"}, 8);
}
void sequence_bounds(NeuronCodegen& cg, const OpCall& c) {
  simple(cg, c, "sequence_bounds", Engine::GpSimd, {"segment_ids"});
}

void nc_match_replace8(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Instruction in = lang::make_inst("nc_match_replace8", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  lang::add_operand(cg, in, "vals", tile(cg, c, "vals", Mem::OnChip));
  lang::add_scalar(in, "imm", scalar_arg(c, "imm"));
  ValueId idx = optional_tile(cg, c, "dst_idx", Mem::OnChip);
  if (idx >= 0) lang::add_operand(cg, in, "dst_idx", idx);
  emit(cg, c, std::move(in));
}

void dropout(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), data = tile(cg, c, "data", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "data", data);
  Instruction in = lang::make_inst("dropout", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  add_vector_operand(cg, in, c, "prob", data);
  emit(cg, c, std::move(in));
}

// rand2: uniform in [min, max): a uniform [0, 1) draw scaled by one tensor_scalar.
void rand2(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::OnChip);
  double lo = scalar_arg(c, "min"), hi = scalar_arg(c, "max");
  Instruction in = lang::make_inst("rand", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  emit(cg, c, std::move(in));
  if (lo == 0 && hi == 1) return;
  Instruction scale = lang::make_inst("tensor_scalar", Engine::Vector);
  lang::add_operand(cg, scale, "dst", dst);
  lang::add_operand(cg, scale, "data", dst);
  lang::add_scalar(scale, "operand0", hi - lo);
  lang::add_scalar(scale, "operand1", lo);
  scale.attrs.push_back({"op0", std::string("multiply")});
  scale.attrs.push_back({"op1", std::string("add")});
  lang::emit_effect(cg, std::move(scale));
}

void set_rng_seed(NeuronCodegen& cg, const OpCall& c) {
  Instruction in = lang::make_inst("random_seed", Engine::Vector);
  lang::add_operand(cg, in, "seed", tile(cg, c, "src_seeds", Mem::OnChip));
  emit(cg, c, std::move(in));
}

// The engines' XORWOW generators (NKI 0.6.0): rng writes 32 random bits per element (their
// low bits for narrower integers); rand_set_state / rand_get_state load and store the state,
// 6 uint32 words per lane on GpSimd, 24 on Vector.
bool int_dtype(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::UInt8 ||
         t == DType::UInt16 || t == DType::UInt32;
}

Engine rng_engine(NeuronCodegen& cg, const OpCall& c, Engine fallback, int vector_from,
                  int gpsimd_from) {
  Engine e = engine_of(c, fallback, {Engine::Vector, Engine::GpSimd});
  const int need = e == Engine::Vector ? vector_from : gpsimd_from;
  if (nc_version(cg) < need)
    sema::err_min_arch_support_for_inst(c.api + "(engine=" + engine_name(e) + ")",
                                        need == 3 ? "trn2" : "trn3", cg.options().target);
  return e;
}

void rng(NeuronCodegen& cg, const OpCall& c) {
  Engine e = rng_engine(cg, c, Engine::Vector, 2, 3);
  ValueId dst = tile(cg, c, "dst", e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip);
  DType t = lang::dtype_of(cg, dst);
  if (!int_dtype(t))
    sema::err_supported_operand_dtype("dst", c.api, dtype_name(t),
                                      "int8, int16, int32, uint8, uint16, uint32");
  Instruction in = lang::make_inst("rng", e);
  lang::add_operand(cg, in, "dst", dst);
  emit(cg, c, std::move(in));
}

ValueId rng_state(NeuronCodegen& cg, const OpCall& c, const std::string& role, Engine e) {
  Mem m =
      e == Engine::GpSimd || nc_version(cg) < 4 || role == "src_seeds" ? Mem::Sbuf : Mem::OnChip;
  ValueId v = tile(cg, c, role, m);
  if (lang::dtype_of(cg, v) != DType::UInt32)
    sema::err_supported_operand_dtype(role, c.api, dtype_name(lang::dtype_of(cg, v)), "uint32");
  const auto& s = lang::shape_of(cg, v);
  const int64_t words = e == Engine::GpSimd ? 6 : 24;
  if (s.empty() || s[0] > 128 || lang::free_size(s) != words)
    sema::err_isa_rule(c.api, "the XORWOW state is " + std::to_string(words) +
                                  " uint32 words per partition on the " + engine_name(e) +
                                  " engine (at most 128 partitions), " + sema::describe(role, s));
  return v;
}

void rand_set_state(NeuronCodegen& cg, const OpCall& c) {
  Engine e = rng_engine(cg, c, Engine::GpSimd, 4, 3);
  Instruction in = lang::make_inst("rand_set_state", e);
  lang::add_operand(cg, in, "src_seeds", rng_state(cg, c, "src_seeds", e));
  emit(cg, c, std::move(in));
}

void rand_get_state(NeuronCodegen& cg, const OpCall& c) {
  Engine e = rng_engine(cg, c, Engine::GpSimd, 4, 3);
  Instruction in = lang::make_inst("rand_get_state", e);
  lang::add_operand(cg, in, "dst", rng_state(cg, c, "dst", e));
  emit(cg, c, std::move(in));
}

} // namespace

void register_select_ops(Registry& r) {
  r.add("affine_select", affine_select);
  r.add("range_select", range_select);
  r.add("select_reduce", select_reduce);
  r.add("max8", max8);
  r.add("nc_find_index8", nc_find_index8);
  r.add("nc_match_replace8", nc_match_replace8);
  r.add("sequence_bounds", sequence_bounds);
  r.add("dropout", dropout);
  r.add("rand2", rand2);
  r.add("set_rng_seed", set_rng_seed);
  r.add("rng", rng);
  r.add("rand_set_state", rand_set_state);
  r.add("rand_get_state", rand_get_state);
}

} // namespace nki::isa
