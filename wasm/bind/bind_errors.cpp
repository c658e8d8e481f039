// Error plumbing: the JS throw helper, the diagnostic encoding, and the decoder for a raw
// escaped C++ exception (used by embind_fixes_post.js), plus heap statistics for leak tests.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cxxabi.h>

#include "guard.h"

EM_JS(void, nki_throw_js_error, (const char* name, const char* message), {
  var err = new Error(UTF8ToString(message));
  err.name = UTF8ToString(name);
  throw err;
});

namespace nki::bind {

void throw_js_error(const char* name, const char* message) { nki_throw_js_error(name, message); }

std::string diagnostic_json(const sema::NkiError& e) {
  util::JsonWriter w;
  w.begin_object().key("kind").value(e.kind()).key("message").value(e.what());
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

/// Bytes of the wasm heap in use by malloc (for leak regression tests).
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace
}  // namespace nki::bind

EMSCRIPTEN_BINDINGS(nki_errors) {
  emscripten::function("getExceptionMessage", &nki::bind::get_exception_message);
  emscripten::function("heap_in_use", &nki::bind::heap_in_use);
}
