#include "lang/requests.h"

#include "lang/call.h"
#include "lang/ops.h"
#include "sema/sema.h"

namespace nki::lang {

using util::Json;
using util::JsonWriter;

namespace {

std::string reply_value(const NeuronCodegen& cg, ValueId v) {
  ValueInfo info = value_info(cg, v);
  JsonWriter w;
  w.begin_object().key("v").value(info.id).key("shape").int_list(info.shape);
  w.key("dtype").value(ir::dtype_name(info.dtype)).key("buffer").value(ir::buffer_name(info.buffer));
  w.key("name").value(info.name);
  const ir::Tensor& t = cg.kernel().tensor(cg.value(v).tensor);
  w.key("t").value(t.id).key("region").value(t.region).end_object();
  return w.take();
}

std::optional<ir::DType> optional_dtype(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return decode_dtype(j);
}

std::optional<ir::AffineExpr> optional_expr(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return decode_expr(j).expr;
}

IndexItem decode_item(const Json& j) {
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
    it.value = j["v"].integer();
  } else {
    throw sema::InternalError("unknown index item kind '" + k + "'");
  }
  return it;
}

}  // namespace

IndexExpr decode_expr(const Json& j) {
  IndexExpr out;
  out.expr = ir::AffineExpr(j["c"].is_null() ? 0 : j["c"].integer());
  for (const Json& t : j["t"].is_array() ? j["t"].array() : std::vector<Json>{}) {
    const std::string& kind = t[0].string();
    int id = static_cast<int>(t[1].integer());
    int64_t coeff = t[2].integer();
    ir::VarKind vk = kind == "L"   ? ir::VarKind::LoopIv
                     : kind == "P" ? ir::VarKind::ProgramId
                     : kind == "A" ? ir::VarKind::TileAxis
                                   : throw sema::InternalError("unknown expression term " + kind);
    out.expr = out.expr + ir::AffineExpr::var({vk, id}, coeff);
  }
  if (j["shape"].is_array()) out.shape = j["shape"].int_list();
  return out;
}

void encode_expr(JsonWriter& w, const ir::AffineExpr& e) {
  w.begin_object().key("c").value(e.constant()).key("t").begin_array();
  for (const auto& [v, c] : e.terms()) {
    const char* k = v.kind == ir::VarKind::LoopIv ? "L" : v.kind == ir::VarKind::ProgramId ? "P" : "A";
    w.begin_array().value(k).value(v.id).value(c).end_array();
  }
  w.end_array().end_object();
}

ir::Predicate decode_predicate(const Json& j) {
  ir::Predicate p;
  for (const MaskTerm& t : decode_mask(j)) {
    if (!t.lhs.shape.empty() || !t.rhs.shape.empty() || t.lhs.expr.mentions(ir::VarKind::TileAxis) ||
        t.rhs.expr.mentions(ir::VarKind::TileAxis))
      sema::err_control_flow_condition_depending_on_arange();
    p.terms.push_back({t.lhs.expr, t.op, t.rhs.expr});
  }
  return p;
}

namespace {

// Appends pending warnings to a reply object ({"warn": [[kind, message], ...]}).
std::string with_warnings(NeuronCodegen& cg, std::string reply) {
  auto warnings = cg.take_warnings();
  if (warnings.empty()) return reply;
  JsonWriter w;
  w.begin_array();
  for (const auto& [kind, message] : warnings) w.begin_array().value(kind).value(message).end_array();
  w.end_array();
  if (reply == "null") return "{\"warn\":" + w.str() + "}";
  reply.pop_back();  // the object's closing brace
  return reply + ",\"warn\":" + w.str() + "}";
}

ir::CmpOp decode_cmp(const std::string& op) {
  return op == "<"    ? ir::CmpOp::Lt
         : op == "<=" ? ir::CmpOp::Le
         : op == ">"  ? ir::CmpOp::Gt
         : op == ">=" ? ir::CmpOp::Ge
         : op == "==" ? ir::CmpOp::Eq
                      : ir::CmpOp::Ne;
}

std::string dispatch(NeuronCodegen& cg, const Json& req);

}  // namespace

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

std::string handle_request(NeuronCodegen& cg, const Json& req) {
  if (req.has("loc")) cg.builder.set_loc(decode_loc(req["loc"]));
  if (req.has("stmt")) cg.enter_stmt(req["stmt"].string());
  return with_warnings(cg, dispatch(cg, req));
}

namespace {

std::string dispatch(NeuronCodegen& cg, const Json& req) {
  const std::string& op = req["op"].string();
  const std::string name = req.get_string("name");

  if (op == "param") {
    return reply_value(cg, param(cg, name, req["shape"].int_list(), decode_dtype(req["dtype"]),
                                 req["mutable"].is_bool() && req["mutable"].boolean()));
  }
  if (op == "ndarray") {
    auto buffer = ir::parse_buffer(req.get_string("buffer", "sbuf"));
    if (!buffer) throw sema::NkiError("ValueError", "unknown buffer '" + req.get_string("buffer") + "'");
    std::optional<double> init;
    if (req.has("init") && !req["init"].is_null()) init = req["init"].number();
    return reply_value(cg, ndarray(cg, name, req["shape"].int_list(), decode_dtype(req["dtype"]),
                                   *buffer, init, req.get_string("api", "ndarray"),
                                   static_cast<int>(req.get_int("par_dim", 0))));
  }
  if (op == "program_id") {
    JsonWriter w;
    encode_expr(w, program_id(cg, req["axis"].integer()));
    return w.take();
  }
  if (op == "view") {
    std::vector<IndexItem> items;
    for (const Json& j : req["items"].array()) items.push_back(decode_item(j));
    return reply_value(cg, view(cg, static_cast<int>(req["v"].integer()), items));
  }
  if (op == "load") {
    return reply_value(cg, load(cg, static_cast<int>(req["src"].integer()),
                                optional_dtype(req["dtype"]), name));
  }
  if (op == "store") {
    store(cg, static_cast<int>(req["dst"].integer()), static_cast<int>(req["value"].integer()));
    return "null";
  }
  if (op == "call") {
    ValueId v = call_op(cg, decode_call(req));
    return v < 0 ? "null" : reply_value(cg, v);
  }
  if (op == "assign") {
    const Json& src = req["src"];
    ValueOrScalar s;
    if (src.has("v")) {
      s.value = static_cast<int>(src["v"].integer());
    } else {
      s.scalar = src["s"].number();
    }
    assign(cg, static_cast<int>(req["dst"].integer()), s, req.get_string("acc"),
           req.get_string("expr"));
    return "null";
  }
  if (op == "dynamic_range") {
    codegen::LoopRange range =
        cg.dynamic_range(cg.value(static_cast<int>(req["trip"].integer())), req.get_string("name"));
    return loop_reply(range);
  }
  if (op == "while_cond") {
    ir::ScalarCondition c;
    c.scalar = cg.value(static_cast<int>(req["scalar"].integer()));
    c.op = decode_cmp(req.get_string("cmp", "!="));
    c.rhs = req["rhs"].is_null() ? 0 : req["rhs"].number();
    cg.builder.set_while_condition(static_cast<int>(req["region"].integer()), std::move(c));
    return "null";
  }
  if (op == "warn_shadow") {
    const ir::Tensor& t = cg.kernel().tensor(cg.value(static_cast<int>(req["v"].integer())).tensor);
    std::string shape;
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(t.shape[i]);
    cg.warn("UserWarning",
            sema::warn_shadowing_local_tensor(std::string(ir::dtype_name(t.dtype)) + " " +
                                                  req.get_string("name") + "[" + shape + "]",
                                              req.get_string("name")));
    return "null";
  }
  if (op == "return") {
    std::vector<ValueId> vs;
    for (const Json& j : req["values"].array()) vs.push_back(static_cast<int>(j.integer()));
    set_outputs(cg, vs);
    return "null";
  }
  throw sema::InternalError("unknown op request '" + op + "'");
}

}  // namespace
}  // namespace nki::lang
