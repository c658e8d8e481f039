#pragma once
/// The request protocol's values, as the ops of both languages decode them: values and views,
/// operands, index expressions, predicates, dtypes, locations; and the scope requests (push /
/// loop / pop) both languages share. The dispatcher, which hands each request to the language
/// that defines it, is core/protocol/requests.h. Format: wasm/PROTOCOL.md.
#include <string>
#include <string_view>

#include "codegen/neuron_codegen.h"
#include "lang/ops.h"
#include "util/json.h"

namespace nki::lang {

/// The reply describing a value: {"v", "shape", "dtype", "buffer", "name", "t", "region"}.
std::string reply_value(const NeuronCodegen& cg, ValueId v);

/// Decodes a view of the current language ({"sv": ...} in a value reference): core/isa
/// registers it (protocol::handle_request does), so that core/lang does not depend on core/isa.
using ViewDecoder = ValueId (*)(NeuronCodegen& cg, const util::Json& j);
void set_view_decoder(ViewDecoder f);

/// Decodes an index expression {"c": int, "t": [["L"|"P"|"A", id, coeff], ...], "shape": [...]}.
IndexExpr decode_expr(const util::Json& j);
/// Encodes an affine expression in the same form (no shape).
void encode_expr(util::JsonWriter& w, const ir::AffineExpr& e);

/// A value reference {"v": id} or a view of one {"v": id, "items": [...]} (resolved now: the
/// surface creates views lazily, so `nl.load(a[i, j])` is one request).
ValueId decode_value(NeuronCodegen& cg, const util::Json& j);
/// A tile-or-scalar operand: a value reference, or {"s": number, "int": bool}.
ValueOrScalar decode_operand(NeuronCodegen& cg, const util::Json& j);

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
