#include "ir/affine_json.h"

#include <stdexcept>
#include <string>

namespace nki::ir {

namespace {

struct KindNames {
  VarKind kind;
  const char* wire;     ///< the protocol's letter
  const char* exchange; ///< the IR JSON form's name
};
constexpr KindNames kKinds[] = {
    {VarKind::LoopIv, "L", "loop"},        {VarKind::LoopIvMod, "M", "loop_mod"},
    {VarKind::LoopIvDiv, "D", "loop_div"}, {VarKind::ProgramId, "P", "program_id"},
    {VarKind::TileAxis, "A", "tile"},      {VarKind::Register, "R", "register"},
};

const char* name_of(VarKind k, ExprForm form) {
  for (const auto& e : kKinds)
    if (e.kind == k) return form == ExprForm::Wire ? e.wire : e.exchange;
  throw std::invalid_argument("affine expression: a variable kind with no JSON name");
}

VarKind kind_of(const std::string& name, ExprForm form) {
  for (const auto& e : kKinds)
    if (name == (form == ExprForm::Wire ? e.wire : e.exchange)) return e.kind;
  throw std::invalid_argument("unknown expression term " + name);
}

bool modular(VarKind k) {
  return k == VarKind::LoopIvMod || k == VarKind::LoopIvDiv;
}

} // namespace

void write_affine(util::JsonWriter& w, const AffineExpr& e, ExprForm form) {
  if (form == ExprForm::Wire) {
    w.begin_object().key("c").value(e.constant()).key("t").begin_array();
    for (const auto& [v, c] : e.terms()) {
      w.begin_array().value(name_of(v.kind, form)).value(v.id).value(c);
      if (modular(v.kind)) w.value(v.mod).value(v.off);
      w.end_array();
    }
    w.end_array().end_object();
    return;
  }
  w.begin_object().key("const").value(e.constant()).key("terms").begin_array();
  for (const auto& [v, c] : e.terms()) {
    w.begin_object().key("var").value(name_of(v.kind, form)).key("id").value(v.id);
    w.key("coeff").value(c);
    if (modular(v.kind)) w.key("mod").value(v.mod).key("off").value(v.off);
    w.end_object();
  }
  w.end_array().end_object();
}

AffineExpr read_affine(const util::Json& j, ExprForm form) {
  if (form == ExprForm::Wire) {
    AffineExpr out(j["c"].is_null() ? 0 : j["c"].integer());
    if (!j["t"].is_array()) return out;
    for (const util::Json& t : j["t"].array()) {
      VarKind k = kind_of(t[0].string(), form);
      int mod = modular(k) ? static_cast<int>(t[3].integer()) : 0;
      int off = modular(k) ? static_cast<int>(t[4].integer()) : 0;
      out = out + AffineExpr::var({k, static_cast<int>(t[1].integer()), mod, off}, t[2].integer());
    }
    return out;
  }
  AffineExpr out(j["const"].integer());
  for (const util::Json& t : j["terms"].array()) {
    VarKind k = kind_of(t["var"].string(), form);
    out = out + AffineExpr::var({k, static_cast<int>(t["id"].integer()),
                                 static_cast<int>(t.get_int("mod", 0)),
                                 static_cast<int>(t.get_int("off", 0))},
                                t["coeff"].integer());
  }
  return out;
}

} // namespace nki::ir
