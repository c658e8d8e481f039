// The scope requests: one family (push / loop / pop) for every region the surface opens
// (wasm/PROTOCOL.md). The region-kind switch lives here, not in the binding.
#include "lang/requests.h"
#include "sema/sema.h"

namespace nki::lang {

using util::Json;

namespace {

trace::TraceScopeKind trace_kind(const std::string& k) {
  if (k == "KernelScope") return trace::TraceScopeKind::KernelScope;
  if (k == "FunctionScope") return trace::TraceScopeKind::FunctionScope;
  throw sema::InternalError("no trace-side scope of kind '" + k + "'");
}

codegen::ScopeGuard open_region(NeuronCodegen& cg, const std::string& kind, const Json& req) {
  if (kind == "FunctionScope") return cg.function_scope(req.get_string("name"));
  if (kind == "IfScope")
    return cg.if_scope(decode_predicate(req["predicate"]),
                       req["else"].is_bool() && req["else"].boolean());
  if (kind == "WhileScope") return cg.while_scope(decode_predicate(req["predicate"]));
  if (kind == "AllocationScope") return cg.allocation_scope();
  if (kind == "ScopeRegion") {
    if (req.get_string("tag") == "no_reorder") return cg.no_reorder();
    return cg.stage_scope(req.get_int("stage_id", -1), req.get_int("execution_order", -1));
  }
  // A KernelScope is opened with the trace (open_trace), never pushed.
  throw sema::InternalError("push: unsupported region kind '" + kind + "'");
}

} // namespace

std::string push_request(NeuronCodegen& cg, const Json& req) {
  const std::string& kind = req["kind"].string();
  const Json& tr = req["trace"];
  if (tr.is_array()) cg.enter_trace_scope(trace_kind(kind), tr[0].string(), tr[1].string());
  return std::to_string(open_region(cg, kind, req).release());
}

std::string loop_request(NeuronCodegen& cg, const Json& req) {
  if (req.has("trip")) {
    codegen::LoopRange range =
        cg.dynamic_range(cg.value(decode_value(cg, req["trip"])), req.get_string("name"));
    return loop_reply(range);
  }
  bool seq = req["sequential"].is_bool() && req["sequential"].boolean();
  codegen::LoopRange range = cg.affine_range(
      req["start"].integer(), req["stop"].integer(), req.get_int("step", 1),
      seq ? ir::AxisType::Sequential : ir::AxisType::Affine, req.get_string("name"));
  return loop_reply(range);
}

std::string pop_request(NeuronCodegen& cg, const Json& req) {
  if (req.has("region"))
    cg.pop_scope(static_cast<ir::RegionId>(req["region"].integer()),
                 req["drop"].is_bool() && req["drop"].boolean());
  if (req["trace"].is_string()) cg.exit_trace_scope(trace_kind(req["trace"].string()));
  return "null";
}

} // namespace nki::lang
