// The builder door for the Python surface: one call per op, a JSON request in, a JSON reply
// out (core/protocol/requests.h). User errors are located at the request's source location. And
// the facts the surface reads once (limits, operator names).
#include <emscripten/bind.h>

#include "guard.h"
#include "lang/facts.h"
#include "protocol/requests.h"
#include "trace/trace_context.h"

namespace {

std::string op(const std::string& request) {
  return nki::bind::guard([&] {
    auto& cg = nki::trace::nki_ctx();
    try {
      return nki::protocol::handle_request(cg, nki::util::Json::parse(request));
    } catch (nki::sema::NkiError& e) {
      e.set_loc_if_unknown(cg.builder.loc());
      throw;
    }
  });
}

// The limits and name tables the surface reads once (lang/facts.h).
std::string facts() {
  return nki::bind::guard([] { return nki::lang::facts_json(); });
}

} // namespace

EMSCRIPTEN_BINDINGS(nki_builder) {
  emscripten::function("op", &op);
  emscripten::function("facts", &facts);
}
