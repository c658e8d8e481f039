// The trace context: the cell's lifecycle and the three accessors. Scopes are op requests
// (push / loop / pop, core/lang/scopes.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>

#include "bind_printer.h"
#include "guard.h"
#include "protocol/requests.h"
#include "trace/trace_context.h"

using emscripten::val;
using nki::bind::guard;
using nki::util::Json;

namespace {

// opts: {"kernel": name, "grid": [..], "loc": [file, line, col], "params": [...]?}; see
// protocol::open_trace for the reply.
std::string new_ctx(const std::string& opts_json) {
  return guard([&] { return nki::protocol::open_trace(Json::parse(opts_json)); });
}

// end: {} or {"values": [...], "region": id, "loc": [...], "simulated": bool}
// (protocol::finish_trace: the kernel joins the run session).
std::shared_ptr<nki::bind::Trace> finalize_kernel(const std::string& end_json) {
  return guard([&] {
    return std::make_shared<nki::bind::Trace>(
        nki::protocol::finish_trace(end_json.empty() ? Json() : Json::parse(end_json)));
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

} // namespace

EMSCRIPTEN_BINDINGS(nki_trace) {
  emscripten::function("new_ctx", &new_ctx);
  emscripten::function("finalize_kernel", &finalize_kernel);
  emscripten::function("abandon_trace", &abandon_trace);
  emscripten::function("nki_ctx", &nki_ctx);
  emscripten::function("nki_ctx_or_none", &nki_ctx_or_none);
  emscripten::function("get_cur_scope", &get_cur_scope);
}
