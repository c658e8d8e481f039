#include "lang/call.h"

#include <algorithm>

#include "lang/decode.h"
#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::lang {

bool OpCall::has(const std::string& role) const {
  for (const auto& [r, _] : operands)
    if (r == role) return true;
  return false;
}

const ValueOrScalar& OpCall::operand(const std::string& role) const {
  for (const auto& [r, v] : operands)
    if (r == role) return v;
  sema::err_argument_cannot_be_none({role});
}

ValueId OpCall::tile(const std::string& role) const {
  const ValueOrScalar& v = operand(role);
  if (v.is_scalar()) sema::err_operand_must_be_tile(role, api);
  return v.value;
}

namespace {

// What an attribute of the wrong kind is, for the user's message: an index expression (an
// object) mentions loop variables or program ids.
std::string kind_of(const util::Json& j) {
  switch (j.type()) {
  case util::Json::Type::Object:
    return "an expression of loop variables or program ids";
  case util::Json::Type::String:
    return "'" + j.string() + "'";
  case util::Json::Type::Array:
    return "a list";
  case util::Json::Type::Bool:
    return j.boolean() ? "True" : "False";
  case util::Json::Type::Number:
    return "a number that is not an integer";
  default:
    return "None";
  }
}

int64_t integer_attr(const util::Json& j, const std::string& key, const std::string& api) {
  if (!j.is_number() || j.number() != static_cast<double>(static_cast<int64_t>(j.number())))
    sema::err_attribute_not_constant(key, api, "integer", kind_of(j));
  return static_cast<int64_t>(j.number());
}

} // namespace

int64_t OpCall::integer_of(const util::Json& j, const std::string& key) const {
  return integer_attr(j, key, api);
}

std::string OpCall::attr_string(const std::string& key, const std::string& fallback) const {
  const util::Json& j = attrs[key];
  return j.is_string() ? j.string() : fallback;
}

int64_t OpCall::attr_int(const std::string& key, int64_t fallback) const {
  const util::Json& j = attrs[key];
  return j.is_null() ? fallback : integer_attr(j, key, api);
}

double OpCall::attr_number(const std::string& key, double fallback) const {
  const util::Json& j = attrs[key];
  if (j.is_null()) return fallback;
  if (!j.is_number()) sema::err_attribute_not_constant(key, api, "number", kind_of(j));
  return j.number();
}

bool OpCall::attr_bool(const std::string& key, bool fallback) const {
  const util::Json& j = attrs[key];
  if (j.is_null()) return fallback;
  if (j.is_bool()) return j.boolean();
  if (j.is_number()) return j.number() != 0;
  sema::err_attribute_not_constant(key, api, "bool", kind_of(j));
}

std::vector<int64_t> OpCall::attr_ints(const std::string& key) const {
  const util::Json& j = attrs[key];
  if (j.is_null()) return {};
  if (!j.is_array()) return {integer_attr(j, key, api)};
  std::vector<int64_t> out;
  for (const util::Json& x : j.array()) out.push_back(integer_attr(x, key, api));
  return out;
}

ir::Engine engine_attr(const OpCall& c) {
  using ir::Engine;
  const util::Json& j = c.attrs["engine"];
  if (j.is_number()) {
    switch (j.integer()) {
    case 1:
      return Engine::Tensor;
    case 2:
      return Engine::Scalar;
    case 3:
      return Engine::GpSimd;
    case 4:
      return Engine::Dma;
    case 5:
      return Engine::Vector;
    case 6:
      return Engine::Sync;
    default:
      return Engine::None;
    }
  }
  if (!j.is_string()) return Engine::None;
  std::string s = j.string();
  if (s.size() > 7 && s.compare(s.size() - 7, 7, "_engine") == 0) s.resize(s.size() - 7);
  if (s == "tensor" || s == "pe") return Engine::Tensor;
  if (s == "vector" || s == "dve") return Engine::Vector;
  if (s == "scalar" || s == "act" || s == "activation") return Engine::Scalar;
  if (s == "gpsimd" || s == "pool") return Engine::GpSimd;
  if (s == "dma") return Engine::Dma;
  if (s == "sync") return Engine::Sync;
  return Engine::None;
}

void OpRegistry::add(const std::string& api, OpHandler h) {
  auto it = std::lower_bound(table_.begin(), table_.end(), api,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  if (it != table_.end() && it->first == api)
    throw sema::InternalError("op '" + api + "' registered twice");
  table_.insert(it, {api, h});
}

OpHandler OpRegistry::find(const std::string& api) const {
  auto it = std::lower_bound(table_.begin(), table_.end(), api,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  return it != table_.end() && it->first == api ? it->second : nullptr;
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : table_) out.push_back(e.first);
  return out;
}

const OpRegistry& registry() {
  static const OpRegistry r = [] {
    OpRegistry reg;
    register_memory_ops(reg);
    register_elementwise_ops(reg);
    register_reduce_ops(reg);
    register_vector_isa_ops(reg);
    register_matmul_ops(reg);
    register_movement_ops(reg);
    register_debug_ops(reg);
    return reg;
  }();
  return r;
}

ValueId call_op(NeuronCodegen& cg, const OpCall& call) {
  OpHandler h = registry().find(call.api);
  if (!h) sema::err_not_supported_yet(call.api);
  return h(cg, call);
}

MaskSpec decode_mask(const util::Json& j) {
  MaskSpec m;
  if (!j.is_array()) return m;
  for (const util::Json& c : j.array()) {
    const std::string& op = c["op"].string();
    ir::CmpOp cmp = op == "<"    ? ir::CmpOp::Lt
                    : op == "<=" ? ir::CmpOp::Le
                    : op == ">"  ? ir::CmpOp::Gt
                    : op == ">=" ? ir::CmpOp::Ge
                    : op == "==" ? ir::CmpOp::Eq
                                 : ir::CmpOp::Ne;
    m.push_back({decode_expr(c["lhs"]), cmp, decode_expr(c["rhs"])});
  }
  return m;
}

OpCall decode_call(NeuronCodegen& cg, const util::Json& req) {
  OpCall c;
  c.api = req["api"].string();
  if (req["operands"].is_array()) {
    for (const util::Json& o : req["operands"].array())
      c.operands.push_back({o[0].string(), decode_operand(cg, o[1])});
  }
  c.attrs = req["attrs"];
  if (!req["dtype"].is_null()) c.dtype = decode_dtype(req["dtype"]);
  c.mask = decode_mask(req["mask"]);
  c.name = req.get_string("name");
  return c;
}

} // namespace nki::lang
