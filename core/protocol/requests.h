#pragma once
/// The request protocol between the Python surface and the core: one JSON request per op, one
/// JSON reply (format: wasm/PROTOCOL.md). It opens and closes traces and hands each request to
/// the language that defines it — the shared requests and Beta 1's ops to core/lang, the
/// current language's `isa_*` requests to core/isa (isa::dispatch) — with no semantics of its
/// own, so that the embind layer stays a thin string-in/string-out door and the two languages
/// are peers below it.
#include <memory>
#include <string>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"
#include "util/json.h"

namespace nki::run {
class PrintedKernel;
}

namespace nki::protocol {

/// Handles one op request against the active codegen context and returns the JSON reply.
/// Sets the builder's source location (and StmtScope) from the request first. Throws
/// sema::NkiError (user errors, located) or sema::InternalError.
std::string handle_request(codegen::NeuronCodegen& cg, const util::Json& req);

/// Closes the scopes listed in `req["pop"]` (innermost first). The surface defers closing a
/// loop's scopes to its next request, so a traced loop costs one boundary call, not two.
void apply_pops(codegen::NeuronCodegen& cg, const util::Json& req);

/// Opens a trace (TraceContext::new_ctx). When `opts` carries "params", also declares them,
/// enters the trace-side KernelScope and opens the IR KernelScope, replying
/// {"params": [values...], "region": id, "grid_rank": n} — one boundary call per kernel start.
std::string open_trace(const util::Json& opts);
/// Ends a trace. When `end` carries "values" (and "region" from open_trace), records the outputs
/// and closes the kernel's scopes first. Every failure clears the trace.
std::unique_ptr<ir::Kernel> close_trace(const util::Json& end);
/// close_trace, then records the kernel in the run session (run/run_session.h): the run's output
/// the caller reads. `end["simulated"]` marks a trace made to simulate a call.
std::shared_ptr<run::PrintedKernel> finish_trace(const util::Json& end);

} // namespace nki::protocol
