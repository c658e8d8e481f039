#include "sim/interpreter.h"

#include "sim/diagnostics.h"

namespace nki::sim {

using namespace nki::ir;

Interpreter::Interpreter(const Kernel& k, Storage& storage, RunLog& log, const SimOptions& opts)
    : k_(k), opts_(opts), ex_(k, storage, log) {
  const ExecTable& table = exec_table();
  fns_.resize(k.instructions().size(), nullptr);
  for (const Instruction& in : k.instructions()) {
    ExecFn f = table.find(in.opcode);
    if (!f) err_not_supported_in_simulator(in.opcode, in.loc);
    fns_[static_cast<size_t>(in.id)] = f;
  }
  ex_.env.iv.assign(k.loop_axes().size(), 0);
  for (TensorId p : k.params())
    if (ex_.plan.read_only[static_cast<size_t>(p)]) storage.buffer(p).read_only = true;
}

void Interpreter::run_instance(const std::vector<int64_t>& pid) {
  ex_.env.pid = pid;
  ex_.start_instance();
  if (k_.root() != kNone) region(k_.region(k_.root()));
}

void Interpreter::region(const Region& r) {
  switch (r.kind) {
  case RegionKind::LoopScope:
    loop(r);
    return;
  case RegionKind::WhileScope:
    while_loop(r);
    return;
  default:
    body(r);
    return;
  }
}

void Interpreter::body(const Region& r) {
  bool after_if = false, if_taken = false;
  for (const Item& it : r.body) {
    if (it.kind == Item::Kind::Inst) {
      const Instruction& in = k_.inst(it.id);
      ex_.cur = &in;
      ++ex_.seq;
      ex_.pool.clear();
      ex_.temps.clear();
      fns_[static_cast<size_t>(in.id)](ex_, in);
      ++ex_.log.instructions;
      after_if = false;
      continue;
    }
    const Region& child = k_.region(it.id);
    if (child.kind == RegionKind::IfScope) {
      bool take;
      if (child.payload.is_else) {
        take = after_if && !if_taken;
        after_if = false;
      } else {
        take = ex_.env.holds(child.payload.predicate);
        after_if = true;
        if_taken = take;
      }
      if (take) body(child);
      continue;
    }
    after_if = false;
    region(child);
  }
}

int64_t Interpreter::read_scalar(const AccessPattern& ap, double* as_float) {
  Domain dom(ap.tile_shape, {}, ex_.env);
  View v =
      resolve(ex_.storage, k_, ap, dom, ex_.env, ex_.cur ? ex_.cur->loc : SourceLoc{}, ex_.pool);
  int64_t pos[kMaxRank] = {0};
  float f;
  read_f32(v, pos, 0, 1, &f, ex_);
  if (as_float) *as_float = f;
  int64_t i;
  read_i64(v, pos, 0, 1, &i, ex_);
  return i;
}

void Interpreter::loop(const Region& r) {
  const LoopAxis& a = k_.loop_axis(r.payload.axis);
  int64_t& iv = ex_.env.iv.at(static_cast<size_t>(r.payload.axis));
  if (a.tag == LoopAxis::Tag::DynamicAxis) {
    int64_t trip = read_scalar(a.dynamic_trip);
    if (trip < 1) {
      ex_.warn(warn_dynamic_trip(trip), &r.loc);
      trip = 1;
    }
    int64_t step = a.stride ? a.stride : 1;
    for (int64_t i = 0; i < trip; ++i) {
      iv = a.lb + i * step;
      body(r);
    }
    return;
  }
  for (int64_t i = 0; i < a.trip_count; ++i) {
    iv = a.lb + i * a.stride;
    body(r);
  }
}

void Interpreter::while_loop(const Region& r) {
  const ScalarCondition& c = r.payload.condition;
  for (int64_t n = 1;; ++n) {
    body(r);
    bool go;
    if (c.scalar.tensor != kNone) {
      double v;
      read_scalar(c.scalar, &v);
      switch (c.op) {
      case CmpOp::Lt:
        go = v < c.rhs;
        break;
      case CmpOp::Le:
        go = v <= c.rhs;
        break;
      case CmpOp::Gt:
        go = v > c.rhs;
        break;
      case CmpOp::Ge:
        go = v >= c.rhs;
        break;
      case CmpOp::Eq:
        go = v == c.rhs;
        break;
      default:
        go = v != c.rhs;
        break;
      }
    } else if (!r.payload.predicate.empty()) {
      go = ex_.env.holds(r.payload.predicate);
    } else {
      go = c.always;
    }
    if (!go) return;
    if (n >= opts_.while_limit) err_while_limit(n, r.loc);
  }
}

} // namespace nki::sim
