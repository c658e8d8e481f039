#pragma once
/// The two JSON spellings of an affine expression, written and read here only, from one table
/// of variable kinds:
///  - Wire (the request protocol with the Python surface, wasm/PROTOCOL.md): compact,
///    {"c": const, "t": [[kind letter, id, coeff] or [letter, id, coeff, mod, off], ...]}
///    (letters L, M, D, P, A, R: loop, loop mod, loop div, program id, tile axis, register);
///  - Exchange (the IR's versioned JSON form, docs/ir-format.md):
///    {"const": c, "terms": [{"var": name, "id", "coeff"} (+ "mod", "off"), ...]}.
#include "ir/affine.h"
#include "util/json.h"

namespace nki::ir {

enum class ExprForm { Wire, Exchange };

void write_affine(util::JsonWriter& w, const AffineExpr& e, ExprForm form);
/// Throws std::invalid_argument on a variable kind the form does not spell.
AffineExpr read_affine(const util::Json& j, ExprForm form);

} // namespace nki::ir
