#include "printer/printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

} // namespace nki::printer
