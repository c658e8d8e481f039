#pragma once
/// The request protocol between the Python surface and the core: one JSON request per op,
/// one JSON reply. This decodes requests into lang:: calls (no semantics of its own) so that
/// the embind layer stays a thin string-in/string-out door. Format: wasm/PROTOCOL.md.
#include <memory>
#include <string>
#include <string_view>

#include "codegen/neuron_codegen.h"
#include "lang/ops.h"
#include "util/json.h"

namespace nki::run {
class PrintedKernel;
}

namespace nki::lang {

/// Handles one op request against the active codegen context and returns the JSON reply.
/// Sets the builder's source location (and StmtScope) from the request first. Throws
/// sema::NkiError (user errors, located) or sema::InternalError.
std::string handle_request(codegen::NeuronCodegen& cg, const util::Json& req);

/// Decodes an index expression {"c": int, "t": [["L"|"P"|"A", id, coeff], ...], "shape": [...]}.
IndexExpr decode_expr(const util::Json& j);
/// Encodes an affine expression in the same form (no shape).
void encode_expr(util::JsonWriter& w, const ir::AffineExpr& e);

/// A value reference {"v": id} or a view of one {"v": id, "items": [...]} (resolved now: the
/// surface creates views lazily, so `nl.load(a[i, j])` is one request).
ValueId decode_value(NeuronCodegen& cg, const util::Json& j);
/// A tile-or-scalar operand: a value reference, or {"s": number, "int": bool}.
ValueOrScalar decode_operand(NeuronCodegen& cg, const util::Json& j);

/// Closes the scopes listed in `req["pop"]` (innermost first). The surface defers closing a
/// loop's scopes to its next request, so a traced loop costs one boundary call, not two.
void apply_pops(NeuronCodegen& cg, const util::Json& req);

// --- the scope requests: push / loop / pop (core/lang/scopes.cpp) ----------------------------
/// push: opens a region of `req["kind"]` (FunctionScope "name", IfScope "predicate" "else",
/// WhileScope "predicate", AllocationScope, ScopeRegion "tag" stage|no_reorder with "stage_id"
/// "execution_order", or the current language's iteration "index" | core "core"); "trace":
/// [name_and_loc, stack_frame] also enters the trace-side scope of that kind. Replies the
/// region's id; a WhileScope on a register ("cond") replies {"while", "alloc"}.
std::string push_request(NeuronCodegen& cg, const util::Json& req);
/// loop: {"start","stop","step","sequential","name"} (an affine range, or a sequential one) or
/// {"trip": value, "name"} (a DynamicAxis read at run time) → loop_reply; the current
/// language's {"lb","ub","step","name","frozen"} (a loop over registers → {"loop", "alloc",
/// "r", "name"}) or {"unrolled": kind, "name", "lb", "ub", "step"} (a Python loop the tracer
/// runs → {"loop", "axis"}).
std::string loop_request(NeuronCodegen& cg, const util::Json& req);
/// pop: closes `req["region"]` (the innermost; "drop": unlinked when it received nothing;
/// "trip": an unrolled loop's trip count), then exits the trace-side scope of kind
/// `req["trace"]` when given.
std::string pop_request(NeuronCodegen& cg, const util::Json& req);

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

/// Decodes an if/while predicate [{"lhs","op","rhs"}...]; conditions on aranges are refused
/// with NKI's control-flow error.
ir::Predicate decode_predicate(const util::Json& j);

/// {"loop": id|-1, "alloc": id|-1, "iv": expr}: releases the range's guards (the surface pops
/// the scopes itself).
std::string loop_reply(codegen::LoopRange& range);

/// Parses "float32"-style dtype names, raising NKI's unsupported-dtype error otherwise.
ir::DType decode_dtype(const util::Json& j);
ir::SourceLoc decode_loc(const util::Json& j);

} // namespace nki::lang
