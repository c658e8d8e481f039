#pragma once
// The exception door between C++ and JS. Every bound function runs its body through guard().
// A C++ exception is caught here and recorded as the *pending error*; the function then returns
// normally (a default value) and embind_fixes_post.js, after the call has returned and its
// argument destructors have run, turns the pending error into a thrown JS Error.
//
// Why not throw from C++: with Emscripten 3.1.6 a JS throw unwinds the wasm frames without
// running C++ destructors, so every by-value argument embind's invoker holds (the request
// std::string, say) leaked on each error — measured at 56 bytes per failing op. Returning
// normally keeps every C++ frame's destructors in play (shared/docs/toolchain.md §1.4).
//
// User diagnostics (sema::NkiError) become an Error named "NkiError" whose message is JSON
// {kind, message, code, file, line, col}; everything else is an "InternalError".
#include <exception>
#include <string>
#include <type_traits>

#include "sema/sema.h"

namespace nki::bind {

enum class Pending : int { None = 0, NkiError = 1, InternalError = 2 };
void set_pending(Pending kind, std::string message);
std::string diagnostic_json(const sema::NkiError& e);

template <typename F> auto guard(F&& f) -> decltype(f()) {
  using R = decltype(f());
  try {
    return f();
  } catch (const sema::NkiError& e) {
    set_pending(Pending::NkiError, diagnostic_json(e));
  } catch (const std::exception& e) {
    set_pending(Pending::InternalError, e.what());
  } catch (...) {
    set_pending(Pending::InternalError, "unknown C++ exception");
  }
  if constexpr (!std::is_void_v<R>) return R{};
}

} // namespace nki::bind
