// The scope requests: one family (push / loop / pop) for every region the surface opens
// (wasm/PROTOCOL.md). The region-kind switch lives here, not in the binding.
#include "lang/decode.h"
#include "sema/sema.h"

namespace nki::lang {

using util::Json;
using util::JsonWriter;

namespace {

// The current language's registers: an id the core handed out (register_alloc).
ir::RegisterId register_of(const NeuronCodegen& cg, const Json& j) {
  auto r = static_cast<ir::RegisterId>(j.integer());
  if (r < 0 || r >= static_cast<ir::RegisterId>(cg.kernel().registers().size()))
    throw sema::InternalError("unknown register " + std::to_string(r));
  return r;
}

// A register loop's bound: {"imm": n} or {"reg": id} (a bare number is an immediate).
codegen::Bound bound_of(const NeuronCodegen& cg, const Json& j) {
  codegen::Bound b;
  if (j.is_object() && j.has("reg"))
    b.reg = register_of(cg, j["reg"]);
  else
    b.imm = j.is_object() ? j["imm"].integer() : j.integer();
  return b;
}

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
    const std::string& tag = req.get_string("tag");
    if (tag == "no_reorder") return cg.no_reorder();
    if (tag == "iteration") return cg.iteration(req.get_int("index", 0)); // an unrolled loop's
    if (tag == "core") return cg.core_scope(req.get_int("core", 0));      // an LNC2 core's body
    return cg.stage_scope(req.get_int("stage_id", -1), req.get_int("execution_order", -1));
  }
  // A KernelScope is opened with the trace (open_trace), never pushed.
  throw sema::InternalError("push: unsupported region kind '" + kind + "'");
}

} // namespace

std::string push_request(NeuronCodegen& cg, const Json& req) {
  const std::string& kind = req["kind"].string();
  if (kind == "WhileScope" && req.has("cond")) { // the current language's pre-checked loop
    auto [loop, alloc] = cg.register_while(register_of(cg, req["cond"]));
    JsonWriter w;
    w.begin_object().key("while").value(loop.release()).key("alloc").value(alloc.release());
    w.end_object();
    return w.take();
  }
  const Json& tr = req["trace"];
  if (tr.is_array()) cg.enter_trace_scope(trace_kind(kind), tr[0].string(), tr[1].string());
  return std::to_string(open_region(cg, kind, req).release());
}

std::string loop_request(NeuronCodegen& cg, const Json& req) {
  if (req.has("unrolled")) { // a Python loop the current language's tracer runs
    codegen::ScopeGuard g =
        cg.unrolled_loop(req.get_string("name"), req.get_string("unrolled"), req.get_int("lb", 0),
                         req.get_int("ub", 0), req.get_int("step", 1));
    const ir::Region& r = cg.kernel().region(g.region());
    JsonWriter w;
    w.begin_object().key("loop").value(g.release()).key("axis").value(r.payload.axis);
    w.end_object();
    return w.take();
  }
  if (req.has("lb")) { // a loop over registers (nl.fori_loop, nl.dynamic_range)
    codegen::LoopRange range = cg.register_loop(bound_of(cg, req["lb"]), bound_of(cg, req["ub"]),
                                                req.get_int("step", 1), req.get_string("name"),
                                                req["frozen"].is_bool() && req["frozen"].boolean());
    ir::RegisterId iv = cg.kernel().loop_axis(range.axis).iv_register;
    JsonWriter w;
    w.begin_object().key("loop").value(range.loop->release());
    w.key("alloc").value(range.alloc->release());
    w.key("r").value(iv).key("name").value(cg.kernel().register_at(iv).name).end_object();
    return w.take();
  }
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
  if (req.has("region") && req["trip"].is_number()) { // an unrolled loop's trip count
    const ir::Region& r = cg.kernel().region(static_cast<ir::RegionId>(req["region"].integer()));
    if (r.kind == ir::RegionKind::LoopScope)
      cg.builder.set_trip_count(r.payload.axis, req["trip"].integer());
  }
  if (req.has("region"))
    cg.pop_scope(static_cast<ir::RegionId>(req["region"].integer()),
                 req["drop"].is_bool() && req["drop"].boolean());
  if (req["trace"].is_string()) cg.exit_trace_scope(trace_kind(req["trace"].string()));
  return "null";
}

} // namespace nki::lang
