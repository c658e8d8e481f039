// The registry of the current language's ISA instructions and what their handlers share.
#include <algorithm>

#include "ir/target.h"
#include "isa/isa.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"

namespace nki::isa {

using namespace nki::ir;

namespace {

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    register_move_ops(reg);
    register_math_ops(reg);
    register_matmul_ops(reg);
    register_select_ops(reg);
    register_gather_ops(reg);
    register_lnc_ops(reg);
    return reg;
  }();
  return r;
}

int64_t per_partition(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (size_t i = 1; i < s.size(); ++i) n *= s[i];
  return n;
}

} // namespace

std::string call(NeuronCodegen& cg, const util::Json& req) {
  OpCall c = lang::decode_call(cg, req);
  Handler h = registry().find(c.api);
  if (!h) sema::err_not_supported_yet("nki.isa." + c.api);
  h(cg, c);
  return "null";
}

void Registry::add(const std::string& api, Handler h) {
  auto it = std::lower_bound(table_.begin(), table_.end(), api,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  if (it != table_.end() && it->first == api)
    throw sema::InternalError("isa op '" + api + "' registered twice");
  table_.insert(it, {api, h});
}

Handler Registry::find(const std::string& api) const {
  auto it = std::lower_bound(table_.begin(), table_.end(), api,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  return it != table_.end() && it->first == api ? it->second : nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& e : table_) out.push_back(e.first);
  return out;
}

std::vector<std::string> api_names() {
  return registry().names();
}

int nc_version(const NeuronCodegen& cg) {
  const ir::Target* t = ir::find_target(cg.options().target);
  return t ? t->nc_version : ir::targets().back().nc_version;
}

ValueId tile(NeuronCodegen& cg, const OpCall& c, const std::string& role, Mem allowed) {
  ValueId v = c.tile(role);
  lang::require_memory(cg, v, role, c.api, allowed);
  return v;
}

ValueId optional_tile(NeuronCodegen& cg, const OpCall& c, const std::string& role, Mem allowed) {
  return c.has(role) ? tile(cg, c, role, allowed) : -1;
}

void same_layout(const NeuronCodegen& cg, const std::string& api, const std::string& a_role,
                 ValueId a, const std::string& b_role, ValueId b) {
  const std::vector<int64_t>& sa = lang::shape_of(cg, a);
  const std::vector<int64_t>& sb = lang::shape_of(cg, b);
  if (sa.empty() || sb.empty() || sa[0] != sb[0] || per_partition(sa) != per_partition(sb))
    sema::err_isa_layout_mismatch(api, sema::describe(a_role, sa), sema::describe(b_role, sb));
}

Engine engine_of(const OpCall& c, Engine fallback, const std::vector<Engine>& allowed) {
  Engine e = lang::engine_attr(c);
  if (e == Engine::None) return fallback;
  if (std::find(allowed.begin(), allowed.end(), e) == allowed.end()) {
    std::string names;
    for (size_t i = 0; i < allowed.size(); ++i)
      names += (i ? (i + 1 == allowed.size() ? " or " : ", ") : "") +
               std::string(engine_name(allowed[i]));
    sema::err_engine_cannot_run(c.api, names, engine_name(e));
  }
  return e;
}

void emit(NeuronCodegen& cg, const OpCall& c, Instruction in) {
  std::string name = c.attr_string("name");
  if (!name.empty()) in.attrs.push_back({"name", name});
  lang::emit_effect(cg, std::move(in));
}

void add_scalar_or_tile(NeuronCodegen& cg, Instruction& in, const OpCall& c,
                        const std::string& role, Mem allowed) {
  if (!c.has(role)) return;
  const lang::ValueOrScalar& v = c.operand(role);
  if (v.is_scalar()) {
    lang::add_scalar(in, role, v.scalar);
    return;
  }
  lang::require_memory(cg, v.value, role, c.api, allowed);
  lang::add_operand(cg, in, role, v.value);
}

namespace {

// A (P, 1) tile of `data`'s partitions, or err_operand_not_vector.
void require_vector(const NeuronCodegen& cg, const OpCall& c, const std::string& role, ValueId v,
                    ValueId data) {
  const auto& s = lang::shape_of(cg, v);
  if (s.empty() || s[0] != lang::shape_of(cg, data)[0] || lang::free_size(s) != 1)
    sema::err_operand_not_vector(role, c.api, s);
}

} // namespace

void add_vector_operand(NeuronCodegen& cg, Instruction& in, const OpCall& c,
                        const std::string& role, ValueId data) {
  const lang::ValueOrScalar& v = c.operand(role);
  if (v.is_scalar()) {
    lang::add_scalar(in, role, v.scalar);
    return;
  }
  lang::require_memory(cg, v.value, role, c.api, Mem::OnChip);
  require_vector(cg, c, role, v.value, data);
  lang::add_operand(cg, in, role, v.value);
}

void add_reduce_res(NeuronCodegen& cg, Instruction& in, const OpCall& c, ValueId data) {
  ValueId r = optional_tile(cg, c, "reduce_res", Mem::OnChip);
  if (r < 0) return;
  require_vector(cg, c, "reduce_res", r, data);
  lang::add_operand(cg, in, "reduce_res", r);
}

} // namespace nki::isa
