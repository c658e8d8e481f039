#include "printer/printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ir/affine_json.h"
#include "util/json.h"

namespace nki::printer {

using namespace nki::ir;

namespace {

constexpr size_t kLocColumn = 72; // locations start here (or two spaces after a long line)

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string tile_axis_name(int axis, size_t rank) {
  if (axis == 0) return "p";
  if (rank <= 2) return "f";
  return "f" + std::to_string(axis - 1);
}

std::string var_name(const Kernel& k, const Var& v, size_t tile_rank) {
  switch (v.kind) {
  case VarKind::LoopIv:
    return "%" + k.loop_axis(v.id).name;
  case VarKind::LoopIvDiv:
    return "(%" + k.loop_axis(v.id).name + (v.off ? " + " + std::to_string(v.off) : "") + " div " +
           std::to_string(v.mod) + ")";
  case VarKind::LoopIvMod:
    return "(%" + k.loop_axis(v.id).name + (v.off ? " + " + std::to_string(v.off) : "") + " mod " +
           std::to_string(v.mod) + ")";
  case VarKind::ProgramId:
    return "%pid" + std::to_string(v.id);
  case VarKind::TileAxis:
    return tile_axis_name(v.id, tile_rank);
  case VarKind::Register:
    return "%" + k.register_at(v.id).name;
  }
  return "?";
}

std::string format_number(double d) {
  if (std::floor(d) == d && std::fabs(d) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;
  }
  char buf[32];
  for (int prec = 6; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

std::string format_attr(const AttrValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) return format_number(*d);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  const auto& l = std::get<std::vector<int64_t>>(v);
  return shape_str(l);
}

class Printer {
public:
  Printer(const Kernel& k, Sink& sink) : k_(k), sink_(sink) {}

  void run() {
    std::string head = "kernel @" + k_.name() + "(";
    for (size_t i = 0; i < k_.params().size(); ++i) {
      const Tensor& t = k_.tensor(k_.params()[i]);
      if (i) head += ", ";
      head += "%" + t.name + ": " + format_type(t);
      if (t.mutable_param) head += " mutable";
    }
    head += ")";
    if (!k_.outputs().empty()) {
      head += " -> (";
      for (size_t i = 0; i < k_.outputs().size(); ++i) {
        if (i) head += ", ";
        head += "%" + k_.tensor(k_.outputs()[i]).name;
      }
      head += ")";
    }
    if (!k_.language().empty()) {
      // The current language launches on logical NeuronCores, not an SPMD grid.
      head += " " + k_.language();
      if (k_.lnc() > 1) head += " lnc " + std::to_string(k_.lnc());
    } else if (!k_.grid().empty()) {
      head += " grid [";
      for (size_t i = 0; i < k_.grid().size(); ++i) {
        if (i) head += ", ";
        head += std::to_string(k_.grid()[i]);
      }
      head += "]";
    }
    emit(0, head + " {", -1, k_.root(), k_.loc());
    if (k_.root() != kNone) region(k_.root(), 1, -1);
    emit(0, "}", -1, k_.root(), {});
    for (RegionRecord& r : regions_) sink_.region(std::move(r));
  }

private:
  void emit(int depth, std::string body, int op, int region, const SourceLoc& loc) {
    ++lines_;
    LineRecord r;
    r.text = std::string(depth * 2, ' ') + body;
    if (loc.known()) {
      size_t pad = r.text.size() + 2 < kLocColumn ? kLocColumn - r.text.size() : 2;
      r.text += std::string(pad, ' ') + "@ " + loc.short_str();
    }
    r.depth = depth;
    r.op_id = op;
    r.region_id = region;
    r.loc = loc;
    sink_.line(std::move(r));
  }

  std::string region_header(const Region& r) {
    std::string h = region_kind_name(r.kind);
    const RegionPayload& p = r.payload;
    switch (r.kind) {
    case RegionKind::KernelScope:
    case RegionKind::FunctionScope:
      if (!p.name.empty()) h += " @" + p.name;
      break;
    case RegionKind::LoopScope: {
      const LoopAxis& a = k_.loop_axis(p.axis);
      if (a.tag == LoopAxis::Tag::DynamicAxis && a.iv_register != kNone) {
        h += " dynamic %" + k_.register_at(a.iv_register).name + " in [" +
             bound(a.lb_register, a.lb) + ", " + bound(a.ub_register, a.ub) + ")";
        if (a.stride != 1) h += " step " + std::to_string(a.stride);
      } else if (a.tag == LoopAxis::Tag::DynamicAxis) {
        h += " dynamic %" + a.name + " trip " + format_access(k_, a.dynamic_trip);
      } else if (a.tag == LoopAxis::Tag::UnrolledAxis) {
        h += " unrolled";
        if (a.unrolled_while) h += " while";
        if (!a.name.empty()) h += " %" + a.name;
        if (a.unrolled_range) {
          h += " in [" + std::to_string(a.lb) + ", " + std::to_string(a.ub) + ")";
          if (a.stride != 1) h += " step " + std::to_string(a.stride);
        }
        h += " trip " + std::to_string(a.trip_count);
      } else {
        h += a.axis_type == AxisType::Affine ? " affine" : " sequential";
        h += " %" + a.name + " in [" + std::to_string(a.lb) + ", " + std::to_string(a.ub) + ")";
        if (a.stride != 1) h += " step " + std::to_string(a.stride);
        h += " trip " + std::to_string(a.trip_count);
      }
      break;
    }
    case RegionKind::IfScope:
      h += p.is_else ? " else" : " " + format_predicate(k_, p.predicate, 0);
      break;
    case RegionKind::WhileScope:
      if (p.while_register != kNone) {
        h += " while %" + k_.register_at(p.while_register).name + " != 0";
      } else if (p.condition.scalar.tensor != kNone) {
        h += " continue_if " + format_access(k_, p.condition.scalar) + " " +
             cmp_name(p.condition.op) + " " + format_number(p.condition.rhs);
      } else if (!p.predicate.empty()) {
        h += " continue_if " + format_predicate(k_, p.predicate, 0);
      }
      break;
    case RegionKind::AllocationScope:
      break;
    case RegionKind::ScopeRegion:
      if (!p.tag.empty()) h += " " + p.tag;
      if (p.iteration >= 0) h += " " + iteration_label(r);
      if (p.core >= 0) h += " " + std::to_string(p.core);
      if (p.stage_id >= 0) h += " stage_id=" + std::to_string(p.stage_id);
      if (p.execution_order >= 0) h += " execution_order=" + std::to_string(p.execution_order);
      break;
    }
    return h + " {";
  }

  std::string bound(RegisterId reg, int64_t imm) const {
    return reg != kNone ? "%" + k_.register_at(reg).name : std::to_string(imm);
  }

  // "%i = 128" for an iteration of a loop over a range, "#2" otherwise.
  std::string iteration_label(const Region& r) const {
    if (r.parent != kNone) {
      const Region& loop = k_.region(r.parent);
      if (loop.kind == RegionKind::LoopScope && loop.payload.axis != kNone) {
        const LoopAxis& a = k_.loop_axis(loop.payload.axis);
        if (a.unrolled_range && !a.name.empty())
          return "%" + a.name + " = " + std::to_string(a.lb + r.payload.iteration * a.stride);
      }
    }
    return "#" + std::to_string(r.payload.iteration);
  }

  // The kernel's argument types and grid: "(f32[128,64], f32[128,64] mutable) grid [2]".
  std::string signature() const {
    std::string s = "(";
    for (size_t i = 0; i < k_.params().size(); ++i) {
      const Tensor& t = k_.tensor(k_.params()[i]);
      if (i) s += ", ";
      s += std::string(dtype_short(t.dtype)) + shape_str(t.shape);
      if (t.mutable_param) s += " mutable";
    }
    s += ")";
    if (!k_.grid().empty()) {
      s += " grid [";
      for (size_t i = 0; i < k_.grid().size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(k_.grid()[i]);
      }
      s += "]";
    }
    return s;
  }

  // `depth` is the printed indentation; the record's depth counts regions from the kernel's.
  void region(RegionId id, int depth, int parent) {
    const Region& r = k_.region(id);
    std::string header = region_header(r);
    size_t at = regions_.size();
    {
      RegionRecord rec;
      rec.region = id;
      rec.parent = parent;
      rec.depth = depth - 1;
      rec.kind = region_kind_name(r.kind);
      std::string label = header.substr(0, header.size() - 2); // without " {"
      rec.detail = label.size() > rec.kind.size() ? label.substr(rec.kind.size() + 1) : "";
      rec.label = parent < 0 ? "kernel @" + k_.name() : label;
      if (parent < 0) rec.signature = signature();
      if (r.kind == RegionKind::LoopScope) rec.axis = static_cast<int>(r.payload.axis);
      rec.line = parent < 0 ? 0 : lines_;
      rec.loc = r.loc;
      rec.has_span = !r.loc.file.empty();
      rec.span_start = rec.span_end = r.loc.line;
      regions_.push_back(std::move(rec));
    }
    emit(depth, header, -1, id, r.loc);
    int count = 0;
    std::vector<std::string> engines;
    int end = r.loc.line;
    auto grow = [&](const SourceLoc& loc, int line) {
      if (loc.file == r.loc.file && line > end) end = line;
    };
    for (const Item& it : r.body) {
      if (it.kind == Item::Kind::Region) {
        size_t sub = regions_.size();
        region(it.id, depth + 1, id);
        const RegionRecord& s = regions_[sub];
        count += s.instructions;
        engines.insert(engines.end(), s.engines.begin(), s.engines.end());
        if (s.has_span) grow(s.loc, s.span_end);
      } else {
        const Instruction& in = k_.inst(it.id);
        inst(in, depth + 1);
        ++count;
        if (in.engine != Engine::None) engines.push_back(engine_name(in.engine));
        if (!in.loc.file.empty()) grow(in.loc, in.loc.line);
      }
    }
    emit(depth, "}", -1, id, {});
    std::sort(engines.begin(), engines.end());
    engines.erase(std::unique(engines.begin(), engines.end()), engines.end());
    RegionRecord& rec = regions_[at];
    rec.instructions = count;
    rec.engines = std::move(engines);
    if (rec.has_span) rec.span_end = end;
  }

  std::string operand(const Operand& o, bool integers = false) {
    if (o.reg != kNone) return "%" + k_.register_at(o.reg).name;
    // A register holds an integer: its immediates print as integers.
    if (o.is_scalar && integers && std::floor(o.scalar) == o.scalar)
      return std::to_string(static_cast<int64_t>(o.scalar));
    if (o.is_scalar) return format_number(o.scalar);
    return format_access(k_, o.ap);
  }

  void inst(const Instruction& in, int depth) {
    std::string s;
    if (in.result != kNone) s += "%" + k_.tensor(in.result).name + " = ";
    if (in.engine != Engine::None) s += std::string(engine_name(in.engine)) + ".";
    s += in.opcode;
    // Destination first (store-like ops), then inputs.
    bool first = true, registers = false;
    for (const Operand& o : in.operands) registers = registers || o.reg != kNone;
    for (const Operand& o : in.operands) {
      if (o.role != "dst") continue;
      s += first ? " " : ", ";
      s += operand(o, registers);
      first = false;
    }
    for (const Operand& o : in.operands) {
      if (o.role == "dst") continue;
      s += first ? " " : ", ";
      s += operand(o, registers);
      first = false;
    }
    if (!in.attrs.empty() || !in.mask.empty()) {
      s += " {";
      bool f = true;
      for (const auto& [key, val] : in.attrs) {
        if (!f) s += ", ";
        s += key + " = " + format_attr(val);
        f = false;
      }
      if (!in.mask.empty()) {
        if (!f) s += ", ";
        size_t rank = 0;
        for (const Operand& o : in.operands) rank = std::max(rank, o.ap.tile_shape.size());
        s += "mask = " + format_predicate(k_, in.mask, rank);
      }
      s += "}";
    }
    if (in.result != kNone) s += " : " + format_type(k_.tensor(in.result));
    emit(depth, s, in.id, in.region, in.loc);
  }

  const Kernel& k_;
  Sink& sink_;
  int lines_ = 0;
  std::vector<RegionRecord> regions_;
};

void write_loc(util::JsonWriter& w, const SourceLoc& loc) {
  if (!loc.known() && loc.file.empty()) {
    w.null();
    return;
  }
  w.begin_object().key("file").value(loc.file).key("line").value(loc.line).key("col").value(
      loc.col);
  w.end_object();
}

void write_expr(util::JsonWriter& w, const AffineExpr& e) {
  write_affine(w, e, ExprForm::Exchange);
}

void write_access(util::JsonWriter& w, const AccessPattern& ap) {
  w.begin_object().key("tensor").value(ap.tensor).key("index").begin_array();
  for (const auto& e : ap.index) write_expr(w, e);
  w.end_array().key("tile_shape").int_list(ap.tile_shape);
  if (ap.indirect) {
    w.key("indirect").begin_object().key("dim").value(ap.indirect_dim).key("index");
    write_access(w, *ap.indirect);
    if (ap.indirect_scale != 1) w.key("scale").value(ap.indirect_scale);
    w.end_object();
  }
  w.end_object();
}

void write_predicate(util::JsonWriter& w, const Predicate& p) {
  w.begin_array();
  for (const auto& c : p.terms) {
    w.begin_object().key("lhs");
    write_expr(w, c.lhs);
    w.key("op").value(cmp_name(c.op)).key("rhs");
    write_expr(w, c.rhs);
    w.end_object();
  }
  w.end_array();
}

void write_region(util::JsonWriter& w, const Kernel& k, RegionId id) {
  const Region& r = k.region(id);
  w.begin_object().key("region").value(id).key("kind").value(region_kind_name(r.kind));
  w.key("loc");
  write_loc(w, r.loc);
  const RegionPayload& p = r.payload;
  if (!p.name.empty()) w.key("name").value(p.name);
  if (p.axis != kNone) w.key("axis").value(p.axis);
  if (!p.predicate.empty()) {
    w.key("predicate");
    write_predicate(w, p.predicate);
  }
  if (p.is_else) w.key("else").value(true);
  if (p.condition.scalar.tensor != kNone) {
    w.key("condition").begin_object().key("scalar");
    write_access(w, p.condition.scalar);
    w.key("op").value(cmp_name(p.condition.op)).key("rhs").value(p.condition.rhs).end_object();
  } else if (p.condition.always) {
    w.key("always").value(true);
  }
  if (!p.tag.empty()) w.key("tag").value(p.tag);
  if (p.stage_id >= 0) w.key("stage_id").value(p.stage_id);
  if (p.execution_order >= 0) w.key("execution_order").value(p.execution_order);
  if (p.iteration >= 0) w.key("iteration").value(p.iteration);
  if (p.core >= 0) w.key("core").value(p.core);
  if (p.while_register != kNone) w.key("while_register").value(p.while_register);
  w.key("body").begin_array();
  for (const Item& it : r.body) {
    if (it.kind == Item::Kind::Region) {
      write_region(w, k, it.id);
      continue;
    }
    const Instruction& in = k.inst(it.id);
    w.begin_object().key("op").value(in.id).key("opcode").value(in.opcode);
    w.key("engine").value(engine_name(in.engine));
    if (in.result != kNone) w.key("result").value(in.result);
    w.key("operands").begin_array();
    for (const Operand& o : in.operands) {
      w.begin_object().key("role").value(o.role);
      if (o.reg != kNone) {
        w.key("register").value(o.reg);
      } else if (o.is_scalar) {
        w.key("scalar").value(o.scalar);
      } else {
        w.key("access");
        write_access(w, o.ap);
      }
      w.end_object();
    }
    w.end_array().key("attrs").begin_object();
    for (const auto& [key, val] : in.attrs) {
      w.key(key);
      if (auto* i = std::get_if<int64_t>(&val))
        w.value(*i);
      else if (auto* d = std::get_if<double>(&val))
        w.value(*d);
      else if (auto* s = std::get_if<std::string>(&val))
        w.value(*s);
      else
        w.int_list(std::get<std::vector<int64_t>>(val));
    }
    w.end_object();
    if (!in.mask.empty()) {
      w.key("mask");
      write_predicate(w, in.mask);
    }
    w.key("stmt").value(in.stmt).key("loc");
    write_loc(w, in.loc);
    w.end_object();
  }
  w.end_array().end_object();
}

} // namespace

void TextSink::line(LineRecord rec) {
  text_ += rec.text;
  text_ += '\n';
}

std::string format_expr(const Kernel& k, const AffineExpr& e, size_t tile_rank) {
  std::string s;
  // Symbols first (loop ivs, program ids), tile axes after, constant last: "128*%i + p + 3".
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [v, c] : e.terms()) {
      bool tile = v.kind == VarKind::TileAxis;
      if ((pass == 0) == tile) continue;
      int64_t mag = c < 0 ? -c : c;
      if (s.empty())
        s += c < 0 ? "-" : "";
      else
        s += c < 0 ? " - " : " + ";
      if (mag != 1) s += std::to_string(mag) + "*";
      s += var_name(k, v, tile_rank);
    }
  }
  if (e.constant() != 0 || s.empty()) {
    if (s.empty())
      s = std::to_string(e.constant());
    else
      s += (e.constant() < 0 ? " - " : " + ") + std::to_string(std::llabs(e.constant()));
  }
  return s;
}

std::string format_access(const Kernel& k, const AccessPattern& ap) {
  const Tensor& t = k.tensor(ap.tensor);
  std::string s = "%" + t.name;
  if (ap.is_identity(t)) return s;
  s += "[";
  for (size_t d = 0; d < ap.index.size(); ++d) {
    if (d) s += ", ";
    if (ap.indirect && static_cast<int>(d) == ap.indirect_dim) {
      if (ap.indirect_scale != 1) s += std::to_string(ap.indirect_scale) + "*";
      s += format_access(k, *ap.indirect);
      if (!(ap.index[d].is_constant() && ap.index[d].constant() == 0))
        s += " + " + format_expr(k, ap.index[d], ap.tile_shape.size());
      continue;
    }
    s += format_expr(k, ap.index[d], ap.tile_shape.size());
  }
  return s + "]";
}

std::string format_type(const Tensor& t) {
  return std::string(buffer_name(t.buffer)) + " " + dtype_short(t.dtype) + shape_str(t.shape);
}

std::string format_predicate(const Kernel& k, const Predicate& p, size_t tile_rank) {
  std::string s;
  for (size_t i = 0; i < p.terms.size(); ++i) {
    const Comparison& c = p.terms[i];
    if (i) s += " & ";
    std::string one = format_expr(k, c.lhs, tile_rank) + " " + cmp_name(c.op) + " " +
                      format_expr(k, c.rhs, tile_rank);
    s += p.terms.size() > 1 ? "(" + one + ")" : one;
  }
  return s;
}

void print_kernel(const Kernel& k, Sink& sink) {
  Printer(k, sink).run();
}

std::string to_text(const Kernel& k) {
  TextSink s;
  print_kernel(k, s);
  return s.text();
}

std::string records_to_text(const std::vector<LineRecord>& records) {
  TextSink s;
  for (const auto& r : records) s.line(r);
  return s.text();
}

std::string records_to_json(const std::vector<LineRecord>& records) {
  util::JsonWriter w;
  w.begin_array();
  for (const auto& r : records) {
    w.begin_object().key("text").value(r.text).key("depth").value(r.depth);
    w.key("op_id").value(r.op_id).key("region_id").value(r.region_id).key("loc");
    write_loc(w, r.loc);
    w.end_object();
  }
  w.end_array();
  return w.take();
}

std::string regions_to_json(const std::vector<RegionRecord>& regions) {
  util::JsonWriter w;
  w.begin_array();
  for (const auto& r : regions) {
    w.begin_object().key("region").value(r.region).key("parent");
    if (r.parent < 0)
      w.null();
    else
      w.value(r.parent);
    w.key("depth").value(r.depth).key("kind").value(r.kind).key("label").value(r.label);
    w.key("detail").value(r.detail);
    if (r.parent < 0) w.key("signature").value(r.signature);
    if (r.axis >= 0) w.key("axis").value(r.axis);
    w.key("line").value(r.line).key("instructions").value(r.instructions);
    w.key("engines").begin_array();
    for (const auto& e : r.engines) w.value(e);
    w.end_array().key("loc");
    write_loc(w, r.loc);
    w.key("span");
    if (r.has_span) {
      w.begin_object().key("file").value(r.loc.file).key("start_line").value(r.span_start);
      w.key("end_line").value(r.span_end).end_object();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  return w.take();
}

std::string to_json(const Kernel& k) {
  util::JsonWriter w;
  w.begin_object().key("version").value(kIrJsonVersion).key("kernel").value(k.name());
  w.key("grid").int_list(k.grid()).key("loc");
  write_loc(w, k.loc());
  if (!k.language().empty()) w.key("language").value(k.language()).key("lnc").value(k.lnc());
  w.key("params").begin_array();
  for (TensorId t : k.params()) w.value(t);
  w.end_array().key("outputs").begin_array();
  for (TensorId t : k.outputs()) w.value(t);
  w.end_array().key("tensors").begin_array();
  for (const Tensor& t : k.tensors()) {
    w.begin_object().key("id").value(t.id).key("name").value(t.name);
    w.key("shape").int_list(t.shape).key("dtype").value(dtype_name(t.dtype));
    w.key("buffer").value(buffer_name(t.buffer)).key("memory").value(memory_name(t.memory()));
    w.key("role").value(t.role == TensorRole::Param ? "param" : "local");
    if (t.mutable_param) w.key("mutable").value(true);
    w.key("loc");
    write_loc(w, t.loc);
    // What a reader needs to rebuild the kernel (the simulator's native tests read this form).
    w.key("region").value(t.region);
    if (t.alias_of != kNone) w.key("alias_of").value(t.alias_of);
    if (t.partition_dim > 0) w.key("partition_dim").value(t.partition_dim);
    if (!t.constant.empty()) {
      w.key("constant").begin_array();
      for (double v : t.constant) w.value(v);
      w.end_array();
    }
    w.end_object();
  }
  w.end_array().key("loop_axes").begin_array();
  for (size_t i = 0; i < k.loop_axes().size(); ++i) {
    const LoopAxis& a = k.loop_axes()[i];
    w.begin_object().key("id").value(static_cast<int64_t>(i)).key("name").value(a.name);
    w.key("tag").value(a.tag == LoopAxis::Tag::AffineAxis    ? "AffineAxis"
                       : a.tag == LoopAxis::Tag::DynamicAxis ? "DynamicAxis"
                                                             : "UnrolledAxis");
    w.key("axis_type").value(a.axis_type == AxisType::Affine ? "affine" : "sequential");
    if (a.tag == LoopAxis::Tag::AffineAxis) {
      w.key("lb").value(a.lb).key("ub").value(a.ub).key("stride").value(a.stride);
      w.key("trip_count").value(a.trip_count);
    } else if (a.tag == LoopAxis::Tag::UnrolledAxis) {
      w.key("iterates").value(a.unrolled_while ? "while" : a.unrolled_range ? "range" : "values");
      if (a.unrolled_range)
        w.key("lb").value(a.lb).key("ub").value(a.ub).key("stride").value(a.stride);
      w.key("trip_count").value(a.trip_count);
    } else if (a.iv_register != kNone) {
      w.key("iv_register").value(a.iv_register).key("stride").value(a.stride);
      if (a.lb_register != kNone)
        w.key("lb_register").value(a.lb_register);
      else
        w.key("lb").value(a.lb);
      if (a.ub_register != kNone)
        w.key("ub_register").value(a.ub_register);
      else
        w.key("ub").value(a.ub);
    } else {
      w.key("trip_count_from");
      write_access(w, a.dynamic_trip);
    }
    w.key("region").value(a.region).end_object();
  }
  w.end_array();
  if (!k.registers().empty()) {
    w.key("registers").begin_array();
    for (const Register& r : k.registers()) {
      w.begin_object().key("id").value(r.id).key("name").value(r.name);
      if (r.frozen) w.key("frozen").value(true);
      w.key("loc");
      write_loc(w, r.loc);
      w.end_object();
    }
    w.end_array();
  }
  w.key("body");
  if (k.root() == kNone)
    w.null();
  else
    write_region(w, k, k.root());
  w.end_object();
  return w.take();
}

} // namespace nki::printer
