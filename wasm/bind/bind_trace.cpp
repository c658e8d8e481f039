// The trace context: the cell's lifecycle and the three accessors, plus the trace-side scopes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>

#include "guard.h"
#include "lang/requests.h"
#include "printer/printer.h"
#include "trace/trace_context.h"

using emscripten::val;
using nki::bind::guard;
using nki::util::Json;

namespace {

/// A finished trace, handed to JS/Python. Owns the kernel; freed by .delete() (or by embind's
/// finalizer, since it is created through a smart pointer).
class Trace {
 public:
  explicit Trace(std::unique_ptr<nki::ir::Kernel> k) : kernel_(std::move(k)) {}
  std::string name() const { return kernel_->name(); }
  std::string text() const { return nki::printer::to_text(*kernel_); }
  std::string records_json() const {
    nki::printer::RecordSink sink;
    nki::printer::print_kernel(*kernel_, sink);
    return nki::printer::records_to_json(sink.records());
  }
  std::string to_json() const { return nki::printer::to_json(*kernel_); }
  int instruction_count() const { return static_cast<int>(kernel_->instructions().size()); }
  int region_count() const { return static_cast<int>(kernel_->regions().size()); }

 private:
  std::unique_ptr<nki::ir::Kernel> kernel_;
};

nki::trace::TraceScopeKind trace_scope_kind(const std::string& k) {
  if (k == "KernelScope") return nki::trace::TraceScopeKind::KernelScope;
  if (k == "FunctionScope") return nki::trace::TraceScopeKind::FunctionScope;
  if (k == "StmtScope") return nki::trace::TraceScopeKind::StmtScope;
  throw nki::sema::InternalError("unknown trace scope kind '" + k + "'");
}

// opts: {"kernel": name, "grid": [..], "loc": [file, line, col]}
void new_ctx(const std::string& opts_json) {
  guard([&] {
    Json o = Json::parse(opts_json);
    nki::codegen::TraceOptions opts;
    opts.kernel_name = o.get_string("kernel");
    if (o["grid"].is_array()) opts.grid = o["grid"].int_list();
    opts.loc = nki::lang::decode_loc(o["loc"]);
    nki::trace::TraceContext::new_ctx(opts);
  });
}

std::shared_ptr<Trace> finalize_kernel() {
  return guard([] { return std::make_shared<Trace>(nki::trace::TraceContext::finalize_kernel()); });
}

void abandon_trace() { nki::trace::TraceContext::abandon(); }

// The accessors return the active kernel's name (the context itself stays in C++).
std::string nki_ctx() { return guard([] { return nki::trace::nki_ctx().options().kernel_name; }); }

val nki_ctx_or_none() {
  auto* cg = nki::trace::nki_ctx_or_none();
  return cg ? val(cg->options().kernel_name) : val::null();
}

int get_cur_scope() { return guard([] { return nki::trace::get_cur_scope(); }); }

void enter_trace_scope(const std::string& kind, const std::string& name_and_loc,
                       const std::string& stack_frame) {
  guard([&] {
    nki::trace::nki_ctx().enter_trace_scope(trace_scope_kind(kind), name_and_loc, stack_frame);
  });
}

void exit_trace_scope(const std::string& kind) {
  guard([&] { nki::trace::nki_ctx().exit_trace_scope(trace_scope_kind(kind)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(nki_trace) {
  emscripten::class_<Trace>("Trace")
      .smart_ptr<std::shared_ptr<Trace>>("Trace")
      .function("name", &Trace::name)
      .function("text", &Trace::text)
      .function("records_json", &Trace::records_json)
      .function("to_json", &Trace::to_json)
      .function("instruction_count", &Trace::instruction_count)
      .function("region_count", &Trace::region_count);
  emscripten::function("new_ctx", &new_ctx);
  emscripten::function("finalize_kernel", &finalize_kernel);
  emscripten::function("abandon_trace", &abandon_trace);
  emscripten::function("nki_ctx", &nki_ctx);
  emscripten::function("nki_ctx_or_none", &nki_ctx_or_none);
  emscripten::function("get_cur_scope", &get_cur_scope);
  emscripten::function("enter_trace_scope", &enter_trace_scope);
  emscripten::function("exit_trace_scope", &exit_trace_scope);
}
