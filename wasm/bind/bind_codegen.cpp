// NeuronCodegen's scope emitters as push/pop pairs (Python owns the scopes' lifetimes through
// context managers and generators).
#include <emscripten/bind.h>

#include "guard.h"
#include "lang/requests.h"
#include "trace/trace_context.h"

using nki::bind::guard;
using nki::util::Json;

namespace {

// kind: a region kind name; payload: {"name", "predicate", "else", "tag", "stage_id",
// "execution_order", "loc"}. Returns the new region's id.
int push_scope(const std::string& kind, const std::string& payload_json) {
  return guard([&] {
    auto& cg = nki::trace::nki_ctx();
    Json p = Json::parse(payload_json);
    nki::lang::apply_pops(cg, p);
    if (p.has("loc")) cg.builder.set_loc(nki::lang::decode_loc(p["loc"]));
    nki::codegen::ScopeGuard g = [&]() -> nki::codegen::ScopeGuard {
      if (kind == "KernelScope") return cg.kernel_scope(p.get_string("name"));
      if (kind == "FunctionScope") return cg.function_scope(p.get_string("name"));
      if (kind == "IfScope")
        return cg.if_scope(nki::lang::decode_predicate(p["predicate"]),
                           p["else"].is_bool() && p["else"].boolean());
      if (kind == "WhileScope") return cg.while_scope(nki::lang::decode_predicate(p["predicate"]));
      if (kind == "AllocationScope") return cg.allocation_scope();
      if (kind == "ScopeRegion") {
        if (p.get_string("tag") == "no_reorder") return cg.no_reorder();
        return cg.stage_scope(p.get_int("stage_id", -1), p.get_int("execution_order", -1));
      }
      throw nki::sema::InternalError("push_scope: unsupported region kind '" + kind + "'");
    }();
    return g.release();
  });
}

void pop_scope(int region, bool drop_if_empty) {
  guard([&] { nki::trace::nki_ctx().pop_scope(region, drop_if_empty); });
}

// {"start","stop","step","sequential","name","loc"} → {"loop": id|-1, "alloc": id|-1, "iv": expr}
std::string affine_range(const std::string& json) {
  return guard([&] {
    auto& cg = nki::trace::nki_ctx();
    Json r = Json::parse(json);
    nki::lang::apply_pops(cg, r);
    if (r.has("loc")) cg.builder.set_loc(nki::lang::decode_loc(r["loc"]));
    bool seq = r["sequential"].is_bool() && r["sequential"].boolean();
    nki::codegen::LoopRange range = cg.affine_range(
        r["start"].integer(), r["stop"].integer(), r.get_int("step", 1),
        seq ? nki::ir::AxisType::Sequential : nki::ir::AxisType::Affine, r.get_string("name"));
    return nki::lang::loop_reply(range);
  });
}

} // namespace

EMSCRIPTEN_BINDINGS(nki_codegen) {
  emscripten::function("push_scope", &push_scope);
  emscripten::function("pop_scope", &pop_scope);
  emscripten::function("affine_range", &affine_range);
}
