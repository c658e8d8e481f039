// The trace context: the cell's lifecycle and the three accessors, plus the trace-side scopes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>

#include "bind_printer.h"
#include "guard.h"
#include "lang/requests.h"
#include "trace/trace_context.h"

using emscripten::val;
using nki::bind::guard;
using nki::util::Json;

namespace {

nki::trace::TraceScopeKind trace_scope_kind(const std::string& k) {
  if (k == "KernelScope") return nki::trace::TraceScopeKind::KernelScope;
  if (k == "FunctionScope") return nki::trace::TraceScopeKind::FunctionScope;
  if (k == "StmtScope") return nki::trace::TraceScopeKind::StmtScope;
  throw nki::sema::InternalError("unknown trace scope kind '" + k + "'");
}

// opts: {"kernel": name, "grid": [..], "loc": [file, line, col], "params": [...]?}; see
// lang::open_trace for the reply.
std::string new_ctx(const std::string& opts_json) {
  return guard([&] { return nki::lang::open_trace(Json::parse(opts_json)); });
}

// end: {} or {"values": [...], "region": id, "loc": [...], "simulated": bool}
// (lang::finish_trace: the kernel joins the run session).
std::shared_ptr<nki::bind::Trace> finalize_kernel(const std::string& end_json) {
  return guard([&] {
    return std::make_shared<nki::bind::Trace>(
        nki::lang::finish_trace(end_json.empty() ? Json() : Json::parse(end_json)));
  });
}

void abandon_trace() {
  nki::trace::TraceContext::abandon();
}

// The accessors return the active kernel's name (the context itself stays in C++).
std::string nki_ctx() {
  return guard([] { return nki::trace::nki_ctx().options().kernel_name; });
}

val nki_ctx_or_none() {
  auto* cg = nki::trace::nki_ctx_or_none();
  return cg ? val(cg->options().kernel_name) : val::null();
}

int get_cur_scope() {
  return guard([] { return nki::trace::get_cur_scope(); });
}

void enter_trace_scope(const std::string& kind, const std::string& name_and_loc,
                       const std::string& stack_frame) {
  guard([&] {
    nki::trace::nki_ctx().enter_trace_scope(trace_scope_kind(kind), name_and_loc, stack_frame);
  });
}

void exit_trace_scope(const std::string& kind) {
  guard([&] { nki::trace::nki_ctx().exit_trace_scope(trace_scope_kind(kind)); });
}

} // namespace

EMSCRIPTEN_BINDINGS(nki_trace) {
  emscripten::function("new_ctx", &new_ctx);
  emscripten::function("finalize_kernel", &finalize_kernel);
  emscripten::function("abandon_trace", &abandon_trace);
  emscripten::function("nki_ctx", &nki_ctx);
  emscripten::function("nki_ctx_or_none", &nki_ctx_or_none);
  emscripten::function("get_cur_scope", &get_cur_scope);
  emscripten::function("enter_trace_scope", &enter_trace_scope);
  emscripten::function("exit_trace_scope", &exit_trace_scope);
}
