#include "protocol/requests.h"

#include <cstdlib>
#include <stdexcept>

#include "isa/requests.h"
#include "isa/view.h"
#include "lang/call.h"
#include "lang/decode.h"
#include "lang/ops.h"
#include "run/run_session.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "trace/trace_context.h"

namespace nki::protocol {

using namespace nki::lang;
using util::Json;
using util::JsonWriter;

namespace {

// Appends pending warnings to a reply object ({"warn": [[kind, message, code], ...]}).
std::string with_warnings(NeuronCodegen& cg, std::string reply) {
  auto warnings = cg.take_warnings();
  if (warnings.empty()) return reply;
  JsonWriter w;
  w.begin_array();
  for (const auto& p : warnings)
    w.begin_array().value(p.kind).value(p.message).value(p.code).end_array();
  w.end_array();
  if (reply == "null") return "{\"warn\":" + w.str() + "}";
  reply.pop_back(); // the object's closing brace
  return reply + ",\"warn\":" + w.str() + "}";
}

ir::CmpOp decode_cmp(const std::string& op) {
  return op == "<"    ? ir::CmpOp::Lt
         : op == "<=" ? ir::CmpOp::Le
         : op == ">"  ? ir::CmpOp::Gt
         : op == ">=" ? ir::CmpOp::Ge
         : op == "==" ? ir::CmpOp::Eq
                      : ir::CmpOp::Ne;
}

std::string dispatch(NeuronCodegen& cg, const Json& req);

// What get_cur_scope()'s region object shows: {"id", "kind", "parent", "loc", and per kind
// "name" / "axis": {"name", "lb", "ub", "stride", "type"} / "else" / "tag"}.
std::string describe_region(const NeuronCodegen& cg, ir::RegionId id) {
  const ir::Kernel& k = cg.kernel();
  if (id < 0 || id >= static_cast<ir::RegionId>(k.regions().size()))
    throw sema::InternalError("no region " + std::to_string(id));
  const ir::Region& r = k.region(id);
  JsonWriter w;
  w.begin_object();
  w.key("id").value(static_cast<int64_t>(r.id));
  w.key("kind").value(ir::region_kind_name(r.kind));
  w.key("parent").value(static_cast<int64_t>(r.parent));
  w.key("loc").begin_array().value(r.loc.file).value(r.loc.line).value(r.loc.col).end_array();
  const ir::RegionPayload& p = r.payload;
  switch (r.kind) {
  case ir::RegionKind::KernelScope:
  case ir::RegionKind::FunctionScope:
    w.key("name").value(p.name);
    break;
  case ir::RegionKind::LoopScope: {
    const ir::LoopAxis& a = k.loop_axis(p.axis);
    bool dynamic = a.tag == ir::LoopAxis::Tag::DynamicAxis;
    w.key("axis").begin_object().key("name").value(a.name);
    w.key("lb").value(a.lb).key("ub").value(a.ub).key("stride").value(a.stride);
    w.key("type").value(dynamic                               ? "dynamic"
                        : a.axis_type == ir::AxisType::Affine ? "affine"
                                                              : "sequential");
    w.end_object();
    break;
  }
  case ir::RegionKind::IfScope:
    w.key("else").value(p.is_else);
    break;
  case ir::RegionKind::ScopeRegion:
    w.key("tag").value(p.tag);
    break;
  default:
    break;
  }
  w.end_object();
  return w.take();
}

} // namespace

std::string open_trace(const Json& opts) {
  lang::set_view_decoder(&isa::view_value); // (core/lang decodes values, core/isa its views)
  codegen::TraceOptions o;
  o.kernel_name = opts.get_string("kernel");
  if (opts["grid"].is_array()) o.grid = opts["grid"].int_list();
  o.language = opts.get_string("language");
  o.lnc = opts.get_int("lnc", 1);
  o.target = opts.get_string("target", "trn3");
  o.loc = decode_loc(opts["loc"]);
  NeuronCodegen& cg = trace::TraceContext::new_ctx(o);
  if (!opts.has("params")) return "null";
  try {
    cg.builder.set_loc(o.loc);
    JsonWriter w;
    w.begin_object().key("params").begin_array();
    for (const Json& p : opts["params"].array()) {
      ValueId v = param(cg, p.get_string("name"), p["shape"].int_list(), decode_dtype(p["dtype"]),
                        p["mutable"].is_bool() && p["mutable"].boolean());
      w.key_less_raw(reply_value(cg, v));
    }
    w.end_array();
    cg.enter_trace_scope(trace::TraceScopeKind::KernelScope,
                         o.kernel_name + "@" + o.loc.short_str(), o.kernel_name);
    w.key("region").value(cg.kernel_scope(o.kernel_name).release());
    w.key("grid_rank").value(static_cast<int64_t>(o.grid.size())).end_object();
    return w.take();
  } catch (sema::NkiError& e) {
    e.set_loc_if_unknown(o.loc);
    trace::TraceContext::abandon();
    throw;
  } catch (...) {
    trace::TraceContext::abandon();
    throw;
  }
}

std::unique_ptr<ir::Kernel> close_trace(const Json& end) {
  if (end.has("values")) {
    NeuronCodegen& cg = trace::nki_ctx();
    try {
      apply_pops(cg, end);
      if (end.has("loc")) cg.builder.set_loc(decode_loc(end["loc"]));
      std::vector<ValueId> vs;
      for (const Json& j : end["values"].array()) vs.push_back(decode_value(cg, j));
      set_outputs(cg, vs, end["by_reference"].is_bool() && end["by_reference"].boolean(),
                  end["simulated"].is_bool() && end["simulated"].boolean());
      cg.pop_scope(static_cast<ir::RegionId>(end["region"].integer()));
      cg.exit_trace_scope(trace::TraceScopeKind::KernelScope);
    } catch (sema::NkiError& e) {
      e.set_loc_if_unknown(cg.builder.loc());
      trace::TraceContext::abandon();
      throw;
    } catch (...) {
      trace::TraceContext::abandon();
      throw;
    }
  }
  return trace::TraceContext::finalize_kernel();
}

std::shared_ptr<run::PrintedKernel> finish_trace(const Json& end) {
  bool simulated = end["simulated"].is_bool() && end["simulated"].boolean();
  return run::session().add_kernel(close_trace(end), simulated);
}

void apply_pops(NeuronCodegen& cg, const Json& req) {
  const Json& pops = req["pop"];
  if (!pops.is_array()) return;
  for (const Json& id : pops.array()) cg.pop_scope(static_cast<ir::RegionId>(id.integer()));
}

namespace {
bool allocated_in_enclosing_block(const NeuronCodegen& cg, const ir::Tensor& t) {
  if (t.role != ir::TensorRole::Local || t.region == ir::kNone) return false;
  const ir::Kernel& k = cg.kernel();
  ir::RegionId home = t.region;
  while (home != ir::kNone && k.region(home).kind == ir::RegionKind::FunctionScope)
    home = k.region(home).parent;
  if (home == cg.cur_scope()) return false;
  for (ir::RegionId r = cg.cur_scope(); r != ir::kNone; r = k.region(r).parent)
    if (r == home) return true;
  return false;
}
} // namespace

std::string handle_request(NeuronCodegen& cg, const Json& req) {
  lang::set_view_decoder(&isa::view_value);
  apply_pops(cg, req);
  if (req.has("loc")) cg.builder.set_loc(decode_loc(req["loc"]));
  if (req.has("stmt")) cg.enter_stmt(req["stmt"].string());
  return with_warnings(cg, dispatch(cg, req));
}

namespace {

std::string dispatch(NeuronCodegen& cg, const Json& req) {
  const std::string& op = req["op"].string();
  const std::string name = req.get_string("name");

  if (op == "param") {
    return reply_value(cg, param(cg, name, req["shape"].int_list(), decode_dtype(req["dtype"]),
                                 req["mutable"].is_bool() && req["mutable"].boolean()));
  }
  if (op == "ndarray") {
    auto buffer = ir::parse_buffer(req.get_string("buffer", "sbuf"));
    if (!buffer) sema::err_unknown_buffer(req.get_string("buffer"));
    std::optional<double> init;
    if (req.has("init") && !req["init"].is_null()) init = req["init"].number();
    return reply_value(cg, ndarray(cg, name, req["shape"].int_list(), decode_dtype(req["dtype"]),
                                   *buffer, init, req.get_string("api", "ndarray"),
                                   static_cast<int>(req.get_int("par_dim", 0))));
  }
  if (op == "view") return reply_value(cg, decode_value(cg, req));
  if (op == "call") {
    ValueId v = call_op(cg, decode_call(cg, req));
    return v < 0 ? "null" : reply_value(cg, v);
  }
  if (op == "assign") {
    ValueId dst = decode_value(cg, req["dst"]);
    // "temp": false when the script still refers to src (`t = nl.copy(x); a[...] = t`).
    bool temporary = !req["temp"].is_bool() || req["temp"].boolean();
    assign(cg, dst, decode_operand(cg, req["src"]), req.get_string("acc"), req.get_string("expr"),
           temporary);
    return "null";
  }
  if (op == "program_id") {
    // `axis` as the script gave it: an integer, or its text (a float, a bool, ...). The check
    // of both front ends: Beta 1's axis of the launch grid; the current language's logical core
    // (axis 0 only, the front end returns the core's index).
    const Json& a = req["axis"];
    if (!cg.options().language.empty()) {
      if (a.is_string()) sema::err_program_axis(a.string());
      if (a.integer() != 0) sema::err_program_axis(std::to_string(a.integer()));
      return "null";
    }
    int64_t axis = a.is_string() ? std::atoll(a.string().c_str()) : a.integer();
    if (a.is_string()) sema::err_program_id_axis(axis, cg.options().grid.size());
    JsonWriter w;
    encode_expr(w, program_id(cg, axis));
    return w.take();
  }
  if (op == "push") return push_request(cg, req);
  if (op == "loop") return loop_request(cg, req);
  if (op == "pop") return pop_request(cg, req);
  if (op == "while_cond") {
    ir::ScalarCondition c;
    c.scalar = cg.value(decode_value(cg, req["scalar"]));
    c.op = decode_cmp(req.get_string("cmp", "!="));
    c.rhs = req["rhs"].is_null() ? 0 : req["rhs"].number();
    cg.builder.set_while_condition(static_cast<int>(req["region"].integer()), std::move(c));
    return "null";
  }
  if (op == "warn_shadow") {
    const ir::Tensor& t = cg.kernel().tensor(cg.value(decode_value(cg, req["t"])).tensor);
    // Shadowing is rebinding, inside a nested block, a name whose tensor belongs to an
    // enclosing block (the user likely meant `t[...] =`); a sibling branch's tensor is not.
    if (!allocated_in_enclosing_block(cg, t)) return "null";
    std::string shape;
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(t.shape[i]);
    cg.warn("UserWarning",
            sema::warn_shadowing_local_tensor(std::string(ir::dtype_name(t.dtype)) + " " +
                                                  req.get_string("name") + "[" + shape + "]",
                                              req.get_string("name")));
    return "null";
  }
  if (op == "region")
    return describe_region(cg, static_cast<ir::RegionId>(req["region"].integer()));
  if (op == "return") {
    std::vector<ValueId> vs;
    for (const Json& j : req["values"].array()) vs.push_back(decode_value(cg, j));
    set_outputs(cg, vs);
    return "null";
  }
  if (auto reply = isa::dispatch(cg, req)) return *reply;
  throw sema::InternalError("unknown op request '" + op + "'");
}

} // namespace
} // namespace nki::protocol
