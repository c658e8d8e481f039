#pragma once
/// The current language's requests (wasm/PROTOCOL.md, "current language"): registers and the
/// `nki.isa` instructions (its regions — loops over registers, pre-checked while loops, the
/// tracer's unrolled loops and their iterations — open through the one push / loop / pop
/// family, core/lang/scopes.cpp). protocol::handle_request passes it every op that the shared
/// requests and Beta 1's do not name.
#include <optional>
#include <string>

#include "codegen/neuron_codegen.h"
#include "util/json.h"

namespace nki::isa {

/// The reply to `req` when its "op" is one of the current language's, else nullopt.
std::optional<std::string> dispatch(codegen::NeuronCodegen& cg, const util::Json& req);

} // namespace nki::isa
