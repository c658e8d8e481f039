#include "isa/requests.h"

#include "isa/isa.h"
#include "lang/common.h"
#include "lang/requests.h"
#include "sema/sema.h"
#include "sema/sema_current.h"

namespace nki::isa {

using namespace nki::ir;
using codegen::Bound;
using codegen::NeuronCodegen;
using codegen::ScopeGuard;
using util::Json;
using util::JsonWriter;

namespace {

RegisterId reg_of(const NeuronCodegen& cg, const Json& j) {
  auto r = static_cast<RegisterId>(j.integer());
  if (r < 0 || r >= static_cast<RegisterId>(cg.kernel().registers().size()))
    throw sema::InternalError("unknown register " + std::to_string(r));
  return r;
}

Operand reg_operand(const std::string& role, RegisterId r) {
  Operand o;
  o.role = role;
  o.reg = r;
  return o;
}

// A register the instruction writes: the frozen induction register of dynamic_range refuses.
Operand written_reg(const NeuronCodegen& cg, const Json& j) {
  RegisterId r = reg_of(cg, j);
  const Register& reg = cg.kernel().register_at(r);
  if (reg.frozen) sema::err_register_frozen(reg.name);
  return reg_operand("dst", r);
}

Bound bound_of(const NeuronCodegen& cg, const Json& j) {
  Bound b;
  if (j.is_object() && j.has("reg"))
    b.reg = reg_of(cg, j["reg"]);
  else
    b.imm = j.is_object() ? j["imm"].integer() : j.integer();
  return b;
}

void emit(NeuronCodegen& cg, Instruction in) {
  cg.builder.create_inst(std::move(in));
}

std::string register_alloc(NeuronCodegen& cg, const Json& req) {
  RegisterId r = cg.builder.create_register(req.get_string("name", "r"));
  Instruction in = lang::make_inst("register_alloc", Engine::None);
  in.operands.push_back(reg_operand("dst", r));
  if (req.has("src") && !req["src"].is_null())
    lang::add_operand(cg, in, "src", lang::decode_value(cg, req["src"]));
  else if (req.has("init") && !req["init"].is_null())
    lang::add_scalar(in, "src", static_cast<double>(req["init"].integer()));
  emit(cg, std::move(in));
  JsonWriter w;
  w.begin_object().key("r").value(r).key("name").value(cg.kernel().register_at(r).name);
  w.end_object();
  return w.take();
}

std::string register_move(NeuronCodegen& cg, const Json& req) {
  Instruction in = lang::make_inst("register_move", Engine::None);
  in.operands.push_back(written_reg(cg, req["dst"]));
  if (req.has("src_reg"))
    in.operands.push_back(reg_operand("src", reg_of(cg, req["src_reg"])));
  else
    lang::add_scalar(in, "src", static_cast<double>(req["imm"].integer()));
  emit(cg, std::move(in));
  return "null";
}

std::string register_load(NeuronCodegen& cg, const Json& req) {
  Instruction in = lang::make_inst("register_load", Engine::None);
  in.operands.push_back(written_reg(cg, req["dst"]));
  lang::add_operand(cg, in, "src", lang::decode_value(cg, req["src"]));
  emit(cg, std::move(in));
  return "null";
}

std::string register_store(NeuronCodegen& cg, const Json& req) {
  Instruction in = lang::make_inst("register_store", Engine::None);
  lang::add_operand(cg, in, "dst", lang::decode_value(cg, req["dst"]));
  in.operands.push_back(reg_operand("src", reg_of(cg, req["src"])));
  emit(cg, std::move(in));
  return "null";
}

std::string loop(NeuronCodegen& cg, const Json& req) {
  int64_t step = req.get_int("step", 1);
  codegen::LoopRange range =
      cg.register_loop(bound_of(cg, req["lb"]), bound_of(cg, req["ub"]), step,
                       req.get_string("name"), req["frozen"].is_bool() && req["frozen"].boolean());
  RegisterId iv = cg.kernel().loop_axis(range.axis).iv_register;
  JsonWriter w;
  w.begin_object().key("loop").value(range.loop->release());
  w.key("alloc").value(range.alloc->release());
  w.key("r").value(iv).key("name").value(cg.kernel().register_at(iv).name).end_object();
  return w.take();
}

std::string while_loop(NeuronCodegen& cg, const Json& req) {
  auto [loop, alloc] = cg.register_while(reg_of(cg, req["cond"]));
  JsonWriter w;
  w.begin_object().key("while").value(loop.release()).key("alloc").value(alloc.release());
  w.end_object();
  return w.take();
}

std::string unrolled(NeuronCodegen& cg, const Json& req) {
  ScopeGuard g =
      cg.unrolled_loop(req.get_string("name"), req.get_string("kind", "values"),
                       req.get_int("lb", 0), req.get_int("ub", 0), req.get_int("step", 1));
  const Region& r = cg.kernel().region(g.region());
  JsonWriter w;
  w.begin_object().key("loop").value(g.release()).key("axis").value(r.payload.axis);
  w.end_object();
  return w.take();
}

std::string function(NeuronCodegen& cg, const Json& req) {
  return std::to_string(cg.function_scope(req.get_string("name")).release());
}

std::string no_reorder(NeuronCodegen& cg, const Json&) {
  return std::to_string(cg.no_reorder().release());
}

std::string core(NeuronCodegen& cg, const Json& req) {
  return std::to_string(cg.core_scope(req.get_int("core", 0)).release());
}

std::string iteration(NeuronCodegen& cg, const Json& req) {
  return std::to_string(cg.iteration(req.get_int("index", 0)).release());
}

// Closes one region the surface opened; an unrolled loop gets its trip count, and a region
// that received nothing (a loop that emitted no instruction) is dropped.
std::string end(NeuronCodegen& cg, const Json& req) {
  auto region = static_cast<RegionId>(req["region"].integer());
  if (req.has("trip")) {
    const Region& r = cg.kernel().region(region);
    if (r.kind == RegionKind::LoopScope)
      cg.builder.set_trip_count(r.payload.axis, req["trip"].integer());
  }
  cg.pop_scope(region, req["drop"].is_bool() && req["drop"].boolean());
  return "null";
}

} // namespace

std::optional<std::string> dispatch(NeuronCodegen& cg, const Json& req) {
  const std::string& op = req["op"].string();
  if (op.rfind("isa_", 0) != 0) return std::nullopt;
  if (op == "isa_call") return call(cg, req);
  if (op == "isa_register_alloc") return register_alloc(cg, req);
  if (op == "isa_register_move") return register_move(cg, req);
  if (op == "isa_register_load") return register_load(cg, req);
  if (op == "isa_register_store") return register_store(cg, req);
  if (op == "isa_loop") return loop(cg, req);
  if (op == "isa_while") return while_loop(cg, req);
  if (op == "isa_unrolled") return unrolled(cg, req);
  if (op == "isa_iteration") return iteration(cg, req);
  if (op == "isa_core") return core(cg, req);
  if (op == "isa_function") return function(cg, req);
  if (op == "isa_no_reorder") return no_reorder(cg, req);
  if (op == "isa_end") return end(cg, req);
  throw sema::InternalError("unknown op request '" + op + "'");
}

} // namespace nki::isa
