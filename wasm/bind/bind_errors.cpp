// Error plumbing: the pending-error slot that guard() fills and embind_fixes_post.js drains,
// the diagnostic encoding, the decoder for a raw escaped C++ exception, and heap statistics.
#include <emscripten.h>
#include <emscripten/bind.h>
#include <malloc.h>

#include <cxxabi.h>

#include "guard.h"
#include "util/json.h"

namespace {
int g_pending_kind = 0;
std::string g_pending_message;
} // namespace

// Read by embind_fixes_post.js after every bound call (plain exports: no embind wrapping).
extern "C" {
EMSCRIPTEN_KEEPALIVE int nki_pending_kind() {
  return g_pending_kind;
}
EMSCRIPTEN_KEEPALIVE const char* nki_pending_message() {
  return g_pending_message.c_str();
}
EMSCRIPTEN_KEEPALIVE void nki_clear_pending() {
  g_pending_kind = 0;
  g_pending_message.clear();
  g_pending_message.shrink_to_fit();
}
}

namespace nki::bind {

void set_pending(Pending kind, std::string message) {
  g_pending_kind = static_cast<int>(kind);
  g_pending_message = std::move(message);
}

std::string diagnostic_json(const sema::NkiError& e) {
  util::JsonWriter w;
  w.begin_object().key("kind").value(e.kind()).key("message").value(e.what());
  w.key("code").value(e.code());
  w.key("file").value(e.loc().file).key("line").value(e.loc().line);
  w.key("col").value(e.loc().col).end_object();
  return w.take();
}

namespace {

// Recovers what() of an exception that escaped without a guard and frees it (escaped
// exceptions sit at refcount 0). Valid for types derived from std::exception only.
std::string get_exception_message(intptr_t ptr) {
  void* p = reinterpret_cast<void*>(ptr);
  std::string msg = reinterpret_cast<std::exception*>(p)->what();
  __cxxabiv1::__cxa_increment_exception_refcount(p);
  __cxxabiv1::__cxa_decrement_exception_refcount(p);
  return msg;
}

/// Raises sema's diagnostic `name` with string arguments (a JSON array): the surface's door to
/// message texts for errors it detects itself. Works with or without an active trace.
void raise_diagnostic(const std::string& name, const std::string& args_json) {
  guard([&] {
    std::vector<std::string> args;
    util::Json a = util::Json::parse(args_json);
    if (a.is_array())
      for (const util::Json& x : a.array()) args.push_back(x.is_string() ? x.string() : "");
    sema::raise_by_name(name, args);
  });
}

/// Bytes of the wasm heap in use by malloc (for leak regression tests).
double heap_in_use() {
  return static_cast<double>(mallinfo().uordblks);
}

} // namespace
} // namespace nki::bind

EMSCRIPTEN_BINDINGS(nki_errors) {
  emscripten::function("getExceptionMessage", &nki::bind::get_exception_message);
  emscripten::function("heap_in_use", &nki::bind::heap_in_use);
  emscripten::function("raise_diagnostic", &nki::bind::raise_diagnostic);
}
