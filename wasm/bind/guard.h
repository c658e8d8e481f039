#pragma once
// The exception door between C++ and JS. Every bound function runs its body through guard():
// C++ exceptions are caught here, their message is copied to a static buffer, and a JS Error is
// thrown only after the C++ exception is destroyed. Why: with Emscripten 3.1.6 an escaping C++
// exception reaches JS as a bare number, and unwinding through wasm frames leaks stack (see
// shared/docs/toolchain.md §1.4; embind_fixes_post.js restores the stack pointer).
//
// User diagnostics (sema::NkiError) cross as an Error named "NkiError" whose message is JSON
// {kind, message, file, line, col}; everything else is an "InternalError".
#include <emscripten.h>

#include <exception>
#include <string>

#include "sema/sema.h"
#include "util/json.h"

namespace nki::bind {

void throw_js_error(const char* name, const char* message);
std::string diagnostic_json(const sema::NkiError& e);

template <typename F>
auto guard(F&& f) -> decltype(f()) {
  static std::string msg;
  const char* name = "InternalError";
  try {
    return f();
  } catch (const sema::NkiError& e) {
    msg = diagnostic_json(e);
    name = "NkiError";
  } catch (const std::exception& e) {
    msg = e.what();
  } catch (...) {
    msg = "unknown C++ exception";
  }
  throw_js_error(name, msg.c_str());  // the C++ exception is already freed here
  __builtin_unreachable();
}

}  // namespace nki::bind
