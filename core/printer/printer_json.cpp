// The printer's JSON forms: a kernel's IR (docs/ir-format.md), its line records and its
// regions' summaries (printer.h).
#include <string>
#include <vector>

#include "ir/affine_json.h"
#include "printer/printer.h"
#include "util/json.h"

namespace nki::printer {

using namespace nki::ir;

namespace {

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
