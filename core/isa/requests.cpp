#include "isa/requests.h"

#include "isa/isa.h"
#include "lang/common.h"
#include "lang/decode.h"
#include "sema/sema.h"
#include "sema/sema_current.h"

namespace nki::isa {

using namespace nki::ir;
using codegen::NeuronCodegen;
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

} // namespace

std::optional<std::string> dispatch(NeuronCodegen& cg, const Json& req) {
  const std::string& op = req["op"].string();
  if (op.rfind("isa_", 0) != 0) return std::nullopt;
  if (op == "isa_call") return call(cg, req);
  if (op == "isa_register_alloc") return register_alloc(cg, req);
  if (op == "isa_register_move") return register_move(cg, req);
  if (op == "isa_register_load") return register_load(cg, req);
  if (op == "isa_register_store") return register_store(cg, req);
  throw sema::InternalError("unknown op request '" + op + "'");
}

} // namespace nki::isa
