#include "sim/interpreter.h"

#include <algorithm>

#include "sema/sema.h"
#include "sim/diagnostics.h"

namespace nki::sim {

using namespace nki::ir;

Interpreter::Interpreter(const Kernel& k, Storage& storage, RunLog& log, const SimOptions& opts)
    : k_(k), opts_(opts), ex_(k, storage, log, opts.plan) {
  const ExecTable& table = exec_table();
  fns_.resize(k.instructions().size(), nullptr);
  for (const Instruction& in : k.instructions()) {
    ExecFn f = table.find(in.opcode);
    if (!f) err_not_supported_in_simulator(in.opcode, in.loc);
    fns_[static_cast<size_t>(in.id)] = f;
  }
  ex_.env.iv.assign(k.loop_axes().size(), 0);
  ex_.env.keep_masks = opts.keep_masks;
  for (TensorId p : k.params())
    if (ex_.plan.read_only[static_cast<size_t>(p)]) storage.buffer(p).read_only = true;
  ex_.env.reg.assign(k.registers().size(), 0);
  ex_.opts = &opts_;
}

void Interpreter::run_instance(const std::vector<int64_t>& pid) {
  ex_.env.pid = pid;
  std::fill(ex_.env.reg.begin(), ex_.env.reg.end(), 0);
  ex_.start_instance();
  ex_.scan_pre = nullptr;
  ex_.post_mul = ex_.post_add = -1;
  ex_.post_early = false;
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

void Interpreter::execute(const Instruction& in) {
  ex_.cur = &in;
  ++ex_.seq;
  ex_.pool.clear();
  ex_.temps.clear();
  fns_[static_cast<size_t>(in.id)](ex_, in);
  ++ex_.log.instructions;
}

bool Interpreter::defer_to_scan(const Instruction& m) {
  try {
    Domain dom(main_shape(k_, m), {}, ex_.env);
    for (const char* role : {"x", "y"}) {
      View v = resolve(ex_.storage, k_, ex_.need(m, role).ap, dom, ex_.env, m.loc, ex_.pool);
      if (v.linear || v.ind || v.dtype != DType::Float32 || !v.buf->written.all()) return false;
    }
  } catch (const sema::NkiError&) {
    return false; // it runs, and reports the error as usual
  }
  ex_.cur = &m;
  ++ex_.seq;
  ++ex_.log.instructions;
  ex_.scan_pre = &m;
  return true;
}

bool Interpreter::scan_can_wait(const Instruction& s) {
  try {
    Domain dom(main_shape(k_, s), {}, ex_.env);
    auto written = [&](const Instruction& in, const char* role) {
      const Operand* o = ex_.find(in, role);
      if (!o || o->is_scalar) return true;
      View v = resolve(ex_.storage, k_, o->ap, dom, ex_.env, in.loc, ex_.pool);
      return !v.linear && !v.ind && v.buf->written.all();
    };
    const Instruction* pre = ex_.scan_pre;
    return written(s, "data0") && written(s, "initial") &&
           (pre ? written(*pre, "x") && written(*pre, "y") : written(s, "data1"));
  } catch (const sema::NkiError&) {
    return false; // it runs first, and reports the error as usual
  }
}

size_t Interpreter::instruction(const Region& r, size_t i) {
  const InstId inst = r.body[i].id;
  const size_t id = static_cast<size_t>(inst);
  if (ex_.plan.deferred[id] && defer_to_scan(k_.inst(inst))) return 1; // the next item
  if (ex_.plan.folded[id] && (inst == ex_.post_mul || inst == ex_.post_add)) {
    (inst == ex_.post_mul ? ex_.post_mul : ex_.post_add) = -1; // the scan computed it
    ex_.cur = &k_.inst(inst);
    ++ex_.seq;
    ++ex_.log.instructions;
    return 1;
  }
  size_t n = 1;
  const KernelPlan::Post& post = ex_.plan.scan_post[id];
  const int32_t g = ex_.plan.group_of[id];
  if (post.early != 0 && scan_can_wait(k_.inst(inst))) {
    // The instructions making the tile the scan's accumulation multiplies by run first, the
    // others after it (KernelPlan::scan_post: no tensor one of them writes is accessed by an
    // instruction they change places with, and the scan, its operands all written, reports
    // nothing). Each alone: a group of them could span both sides.
    const ir::Instruction* pre = ex_.scan_pre;
    ex_.scan_pre = nullptr;
    for (int b = 0; b < post.between; ++b)
      if (post.early >> b & 1) execute(k_.inst(r.body[i + 1 + static_cast<size_t>(b)].id));
    ex_.scan_pre = pre;
    ex_.post_early = true;
    execute(k_.inst(inst));
    ex_.post_early = false;
    ex_.scan_pre = nullptr;
    for (int b = 0; b < post.between; ++b)
      if (!(post.early >> b & 1)) execute(k_.inst(r.body[i + 1 + static_cast<size_t>(b)].id));
    n += static_cast<size_t>(post.between);
  } else if (g >= 0 && run_strips(ex_.plan.groups[static_cast<size_t>(g)])) {
    n = ex_.plan.groups[static_cast<size_t>(g)].insts.size();
  } else {
    execute(k_.inst(inst));
  }
  ex_.scan_pre = nullptr;
  return n;
}

void Interpreter::body(const Region& r) {
  bool after_if = false, if_taken = false;
  for (size_t i = 0; i < r.body.size(); ++i) {
    const Item& it = r.body[i];
    if (it.kind == Item::Kind::Inst) {
      after_if = false;
      i += instruction(r, i) - 1;
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
    // The current language traces a kernel once per logical core: each instance runs its own.
    if (child.payload.core >= 0 && (ex_.env.pid.empty() ? 0 : ex_.env.pid[0]) != child.payload.core)
      continue;
    region(child);
  }
}

Buffer* Interpreter::strip_buffer(size_t i, const Tensor& t, int64_t elems) {
  std::unique_ptr<Buffer>& b = strip_bufs_[i];
  const DType held = ex_.storage.held_dtype(t); // fp32 for bfloat16 when precise_fp is off
  if (!b || b->dtype != held || b->elems < elems) {
    if (b) ex_.storage.account(-b->nbytes());
    b = std::make_unique<Buffer>();
    b->dtype = held;
    b->elems = elems;
    b->words.reset(new uint64_t[static_cast<size_t>((b->nbytes() + 7) / 8 + 1)]);
    ex_.storage.account(b->nbytes());
  }
  b->written.set_all();
  return b.get();
}

namespace {

// Bytes of partitions a strip should cover: the group's tiles stay in the core's caches.
constexpr int64_t kStripBytes = 512 * 1024;

} // namespace

bool Interpreter::strips_ready(const StripGroup& g, std::vector<Redirect>& strips,
                               std::vector<TensorId>& aliased) {
  // The group's own tiles hold one strip of rows each (partition p at row p - lo): first as
  // placeholders, so that the checks below resolve them without allocating them whole.
  strips.assign(g.local.size(), Redirect{});
  if (!placeholder_) {
    placeholder_ = std::make_unique<Buffer>();
    placeholder_->written.set_all();
  }
  for (size_t i = 0; i < g.local.size(); ++i) {
    const Tensor& t = k_.tensor(g.local[i]);
    Redirect& r = strips[i];
    r.buf = placeholder_.get();
    r.stride.assign(t.shape.size(), 1);
    for (size_t d = t.shape.size(); d-- > 1;) r.stride[d - 1] = r.stride[d] * t.shape[d];
    ex_.storage.set_strip(t.id, r);
  }
  // Run-time conditions, checked over each instruction's whole tile in program order (a
  // failing check leaves everything to the ordinary path, which then reports it as usual):
  // unmasked, operands in bounds and strided, what the group reads and has not defined fully
  // written. Own tiles whose copy will alias read-only memory need no strip buffer.
  std::vector<TensorId> defined;
  aliased.clear();
  try {
    // Tiles living in their store's destination: element (p, f...) where the store puts it.
    for (const auto& [t, store] : g.forward) {
      const Instruction& in = k_.inst(store);
      Domain dom(main_shape(k_, in), {}, ex_.env);
      View d = resolve(ex_.storage, k_, ex_.need(in, "dst").ap, dom, ex_.env, in.loc, ex_.pool);
      if (d.linear || d.ind) continue; // then the tile uses its own buffer, as outside strips
      Redirect r;
      r.buf = d.buf;
      r.origin = d.origin;
      r.stride.assign(d.stride, d.stride + dom.rank());
      ex_.storage.set_strip(t, r);
    }
    for (InstId id : g.insts) {
      const Instruction& in = k_.inst(id);
      Domain dom(main_shape(k_, in), in.mask, ex_.env);
      if (dom.masked()) return false;
      for (const Operand& o : in.operands) {
        if (o.is_scalar || o.ap.tensor == kNone) continue;
        // (A scan computing its data1 never reads that tile: Exec::scan_pre.)
        if (ex_.scan_pre && o.role == "data1" &&
            ex_.plan.scan_pre[static_cast<size_t>(id)] == ex_.scan_pre->id)
          continue;
        View v = resolve(ex_.storage, k_, o.ap, dom, ex_.env, in.loc, ex_.pool);
        if (v.linear) return false;
        const bool ours = std::find(defined.begin(), defined.end(), v.tensor->id) != defined.end();
        if (ir::role_reads_only(o.role) && !ours && !v.buf->written.all()) return false;
        if (o.role == "src" && ex_.plan.alias[static_cast<size_t>(id)] && v.buf->read_only &&
            v.dtype == v.buf->dtype)
          aliased.push_back(copy_target(k_, in));
      }
      if (in.result != kNone) defined.push_back(in.result);
    }
  } catch (const sema::NkiError&) {
    return false;
  }
  return true;
}

bool Interpreter::run_strips(const StripGroup& g) {
  int64_t strip =
      std::max<int64_t>(1, std::min(g.rows, kStripBytes / std::max<int64_t>(1, g.row_bytes)));
  if (strip >= g.rows) return false;
  // A multiple of sixteen or eight partitions where the budget allows: the executors that take
  // rows in groups (bn_stats sixteen at a time, the scan eight) then run no partial group.
  strip = strip >= 16 ? strip / 16 * 16 : strip >= 8 ? strip / 8 * 8 : strip;
  StripScope scope{ex_, g};
  std::vector<Redirect> strips;
  std::vector<TensorId> aliased;
  if (!strips_ready(g, strips, aliased)) return false;
  ex_.pool.clear();
  if (g.fuse && run_fused(g, aliased)) return true;
  if (strip_bufs_.size() < g.local.size()) strip_bufs_.resize(g.local.size());
  for (size_t i = 0; i < g.local.size(); ++i) {
    const Tensor& t = k_.tensor(g.local[i]);
    if (std::find(aliased.begin(), aliased.end(), t.id) != aliased.end()) {
      strips[i].buf = nullptr; // should the copy not alias after all, it uses t's own buffer
      ex_.storage.clear_strip(t.id);
      continue;
    }
    // Every row of a strip is written before it is read (the group's instructions run in
    // order on it, each over its whole tile); stale rows of the previous strip are never read.
    strips[i].buf = strip_buffer(i, t, strip * strips[i].stride[0]);
  }
  const int64_t seq0 = ex_.seq;
  ex_.env.win_rows = g.rows;
  for (int64_t lo = 0; lo < g.rows; lo += strip) {
    ex_.env.win_lo = lo;
    ex_.env.win_hi = std::min(g.rows, lo + strip);
    for (size_t i = 0; i < g.local.size(); ++i) {
      if (!strips[i].buf) continue;
      strips[i].origin = -lo * strips[i].stride[0];
      ex_.storage.set_strip(g.local[i], strips[i]);
    }
    ex_.seq = seq0;
    for (InstId id : g.insts) {
      const Instruction& in = k_.inst(id);
      ex_.cur = &in;
      ++ex_.seq;
      if (in.opcode == "ndarray") continue; // its tile is a strip buffer (plan.cpp: local)
      ex_.pool.clear();
      ex_.temps.clear();
      fns_[static_cast<size_t>(id)](ex_, in);
    }
  }
  ex_.log.instructions += static_cast<int64_t>(g.insts.size());
  return true;
}

int64_t Interpreter::read_scalar(const AccessPattern& ap, double* as_float) {
  Domain dom(ap.tile_shape, {}, ex_.env);
  View v = resolve(ex_.storage, k_, ap, dom, ex_.env, ex_.cur ? ex_.cur->loc : no_loc(), ex_.pool);
  int64_t pos[kMaxRank] = {0};
  float f;
  read_f32(v, pos, 0, 1, &f, ex_);
  if (as_float) *as_float = f;
  int64_t i;
  read_i64(v, pos, 0, 1, &i, ex_);
  return i;
}

void Interpreter::register_loop(const Region& r, const LoopAxis& a) {
  // `for iv in [lb, ub) step s` on the hardware: the bounds are read when the loop starts and
  // the upper bound again before every iteration (a compare-and-branch on the register, as
  // KLR lowers it); the iteration value is the loop's own, written into iv_register at the
  // start of each iteration (writing the register inside the body does not change the count).
  auto value = [&](RegisterId reg, int64_t imm) {
    return reg != kNone ? ex_.env.reg.at(static_cast<size_t>(reg)) : imm;
  };
  int64_t& iv = ex_.env.reg.at(static_cast<size_t>(a.iv_register));
  const int64_t step = a.stride > 0 ? a.stride : 1;
  int64_t n = 0;
  for (int64_t i = value(a.lb_register, a.lb); i < value(a.ub_register, a.ub); i += step) {
    if (++n > opts_.while_limit) err_while_limit(n - 1, r.loc);
    iv = i;
    body(r);
  }
}

void Interpreter::register_while(const Region& r) {
  const int64_t& c = ex_.env.reg.at(static_cast<size_t>(r.payload.while_register));
  for (int64_t n = 0; c != 0; ++n) {
    if (n >= opts_.while_limit) err_while_limit(n, r.loc);
    body(r);
  }
}

void Interpreter::loop(const Region& r) {
  const LoopAxis& a = k_.loop_axis(r.payload.axis);
  if (a.tag == LoopAxis::Tag::UnrolledAxis) { // the iterations are the region's children
    run_unrolled(r);
    return;
  }
  if (a.tag == LoopAxis::Tag::DynamicAxis && a.iv_register != kNone) {
    register_loop(r, a);
    return;
  }
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
  for (int64_t i = run_loop_fused(r, a, iv); i < a.trip_count; ++i) {
    iv = a.lb + i * a.stride;
    body(r);
  }
}

void Interpreter::while_loop(const Region& r) {
  if (r.payload.while_register != kNone) {
    register_while(r);
    return;
  }
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
