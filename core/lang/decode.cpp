#include "lang/decode.h"

#include <cstdlib>
#include <stdexcept>

#include "ir/affine_json.h"
#include "lang/call.h"
#include "lang/ops.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "trace/trace_context.h"

namespace nki::lang {

using util::Json;
using util::JsonWriter;

namespace {

ViewDecoder view_decoder = nullptr; // set_view_decoder

} // namespace

void set_view_decoder(ViewDecoder f) {
  view_decoder = f;
}

std::string reply_value(const NeuronCodegen& cg, ValueId v) {
  ValueInfo info = value_info(cg, v);
  JsonWriter w;
  w.begin_object().key("v").value(info.id).key("shape").int_list(info.shape);
  w.key("dtype")
      .value(ir::dtype_name(info.dtype))
      .key("buffer")
      .value(ir::buffer_name(info.buffer));
  w.key("name").value(info.name);
  const ir::Tensor& t = cg.kernel().tensor(cg.value(v).tensor);
  w.key("t").value(t.id).key("region").value(t.region).end_object();
  return w.take();
}

namespace {

std::optional<ir::AffineExpr> optional_expr(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return decode_expr(j).expr;
}

IndexItem decode_item(NeuronCodegen& cg, const Json& j) {
  IndexItem it;
  const std::string& k = j["k"].string();
  if (k == "int") {
    it.kind = IndexItem::Kind::Int;
    it.value = j["v"].integer();
  } else if (k == "slice") {
    it.kind = IndexItem::Kind::Slice;
    it.start = optional_expr(j["start"]);
    it.stop = optional_expr(j["stop"]);
    it.step = j["step"].is_null() ? 1 : j["step"].integer();
  } else if (k == "expr") {
    it.kind = IndexItem::Kind::Expr;
    it.expr = decode_expr(j["e"]);
  } else if (k == "ellipsis") {
    it.kind = IndexItem::Kind::Ellipsis;
  } else if (k == "tile") {
    it.kind = IndexItem::Kind::Tile;
    it.value = decode_value(cg, j["t"]);
    if (j.has("e")) it.expr = decode_expr(j["e"]); // static part added to the tile's values
  } else {
    throw sema::InternalError("unknown index item kind '" + k + "'");
  }
  return it;
}

} // namespace

ValueId decode_value(NeuronCodegen& cg, const Json& j) {
  if (j.has("sv")) { // the current language's views, decoded by that language
    if (!view_decoder) throw sema::InternalError("a view request without the current language");
    return view_decoder(cg, j["sv"]);
  }
  if (!j.has("v")) throw sema::InternalError("expected a value reference");
  auto v = static_cast<ValueId>(j["v"].integer());
  if (!j.has("items")) return v;
  // A lazy view's own diagnostics point at its subscript, not at the op that consumed it.
  try {
    std::vector<IndexItem> items;
    for (const Json& it : j["items"].array()) items.push_back(decode_item(cg, it));
    return view(cg, v, items);
  } catch (sema::NkiError& e) {
    if (j.has("loc")) e.set_loc_if_unknown(decode_loc(j["loc"]));
    throw;
  }
}

ValueOrScalar decode_operand(NeuronCodegen& cg, const Json& j) {
  ValueOrScalar o;
  if (j.has("v") || j.has("sv")) {
    o.value = decode_value(cg, j);
  } else {
    o.scalar = j["s"].number();
    o.scalar_is_float = !(j["int"].is_bool() && j["int"].boolean());
    if (j["dtype"].is_string()) o.scalar_type = ir::parse_dtype(j["dtype"].string());
  }
  return o;
}

IndexExpr decode_expr(const Json& j) {
  IndexExpr out;
  try {
    out.expr = ir::read_affine(j, ir::ExprForm::Wire);
  } catch (const std::invalid_argument& e) {
    throw sema::InternalError(e.what());
  }
  if (j["shape"].is_array()) out.shape = j["shape"].int_list();
  return out;
}

void encode_expr(JsonWriter& w, const ir::AffineExpr& e) {
  ir::write_affine(w, e, ir::ExprForm::Wire);
}

ir::Predicate decode_predicate(const Json& j) {
  ir::Predicate p;
  for (const MaskTerm& t : decode_mask(j)) {
    if (!t.lhs.shape.empty() || !t.rhs.shape.empty() ||
        t.lhs.expr.mentions(ir::VarKind::TileAxis) || t.rhs.expr.mentions(ir::VarKind::TileAxis))
      sema::err_control_flow_condition_depending_on_arange();
    p.terms.push_back({t.lhs.expr, t.op, t.rhs.expr});
  }
  return p;
}

std::string loop_reply(codegen::LoopRange& range) {
  JsonWriter w;
  w.begin_object();
  w.key("loop").value(range.loop ? range.loop->release() : -1);
  w.key("alloc").value(range.alloc ? range.alloc->release() : -1);
  w.key("iv");
  encode_expr(w, range.iv);
  w.end_object();
  return w.take();
}

ir::DType decode_dtype(const Json& j) {
  const std::string& name = j.string();
  auto t = ir::parse_dtype(name);
  if (!t) sema::err_unsupported_dtype(name);
  return *t;
}

ir::SourceLoc decode_loc(const Json& j) {
  ir::SourceLoc loc;
  if (!j.is_array() || j.size() < 3) return loc;
  loc.file = j[0].string();
  loc.line = static_cast<int>(j[1].integer());
  loc.col = static_cast<int>(j[2].integer());
  return loc;
}

} // namespace nki::lang
