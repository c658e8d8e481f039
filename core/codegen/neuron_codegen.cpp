#include "codegen/neuron_codegen.h"

#include <algorithm>
#include <exception>

#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::codegen {

using ir::RegionKind;

ScopeGuard::~ScopeGuard() {
  if (!cg_) return;
  if (std::uncaught_exceptions() > 0) {
    // Unwinding: restore the scope stack without checking, never throw from here.
    try {
      cg_->pop_scope(region_);
    } catch (...) {
    }
    return;
  }
  cg_->pop_scope(region_);
}

void ScopeGuard::close() {
  NeuronCodegen* cg = cg_;
  cg_ = nullptr;
  if (cg) cg->pop_scope(region_);
}

NeuronCodegen::NeuronCodegen(const TraceOptions& opts)
    : kernel_(std::make_unique<ir::Kernel>()), builder(*kernel_), opts_(opts) {
  if (!opts.language.empty()) {
    // The current language launches one instance per logical NeuronCore.
    opts_.grid = opts.lnc > 1 ? std::vector<int64_t>{opts.lnc} : std::vector<int64_t>{};
    builder.set_kernel_info(opts.kernel_name, opts_.grid, opts.loc);
    builder.set_language(opts.language, opts.lnc);
    return;
  }
  builder.set_kernel_info(opts.kernel_name, opts.grid, opts.loc);
}

ir::RegionId NeuronCodegen::push_scope(RegionKind kind, ir::RegionPayload payload) {
  ir::RegionId r = builder.create_region(kind, std::move(payload));
  stack_.push_back(r);
  builder.set_insertion_region(r);
  return r;
}

std::string NeuronCodegen::describe_region(ir::RegionId r) const {
  if (r == ir::kNone) return "<none>";
  return std::string(ir::region_kind_name(kernel_->region(r).kind)) + "#" + std::to_string(r);
}

void NeuronCodegen::pop_scope(ir::RegionId expected, bool drop_if_empty) {
  if (stack_.empty()) sema::err_unbalanced_scope_exit(describe_region(expected), "<no open scope>");
  if (stack_.back() != expected)
    sema::err_unbalanced_scope_exit(describe_region(stack_.back()), describe_region(expected));
  stack_.pop_back();
  builder.set_insertion_region(stack_.empty() ? ir::kNone : stack_.back());
  if (drop_if_empty) builder.drop_if_empty(expected);
}

ScopeGuard NeuronCodegen::new_scope(RegionKind kind, ir::RegionPayload payload) {
  return ScopeGuard(*this, push_scope(kind, std::move(payload)));
}

ScopeGuard NeuronCodegen::kernel_scope(const std::string& name) {
  ir::RegionPayload p;
  p.name = name;
  return new_scope(RegionKind::KernelScope, std::move(p));
}

ScopeGuard NeuronCodegen::function_scope(const std::string& name) {
  ir::RegionPayload p;
  p.name = name;
  return new_scope(RegionKind::FunctionScope, std::move(p));
}

ScopeGuard NeuronCodegen::loop_scope(ir::LoopAxisId axis) {
  ir::RegionPayload p;
  p.axis = axis;
  ScopeGuard g = new_scope(RegionKind::LoopScope, std::move(p));
  builder.attach_axis(axis, g.region());
  return g;
}

ScopeGuard NeuronCodegen::if_scope(ir::Predicate predicate, bool is_else) {
  ir::RegionPayload p;
  p.predicate = std::move(predicate);
  p.is_else = is_else;
  return new_scope(RegionKind::IfScope, std::move(p));
}

ScopeGuard NeuronCodegen::while_scope(ir::Predicate continue_condition) {
  ir::RegionPayload p;
  p.predicate = std::move(continue_condition);
  return new_scope(RegionKind::WhileScope, std::move(p));
}

ScopeGuard NeuronCodegen::allocation_scope() {
  return new_scope(RegionKind::AllocationScope, {});
}

ScopeGuard NeuronCodegen::stage_scope(int64_t stage_id, int64_t execution_order) {
  ir::RegionPayload p;
  p.tag = "stage";
  p.stage_id = stage_id;
  p.execution_order = execution_order;
  return new_scope(RegionKind::ScopeRegion, std::move(p));
}

ScopeGuard NeuronCodegen::no_reorder() {
  ir::RegionPayload p;
  p.tag = "no_reorder";
  return new_scope(RegionKind::ScopeRegion, std::move(p));
}

ScopeGuard NeuronCodegen::pipeline_stage(int64_t stage_id, int64_t execution_order) {
  return stage_scope(stage_id, execution_order);
}

LoopRange NeuronCodegen::affine_range(int64_t start, int64_t stop, int64_t step,
                                      ir::AxisType axis_type, const std::string& iv_name) {
  if (step == 0) sema::err_loop_step_zero();
  int64_t trip = 0;
  if (step > 0 && stop > start) trip = (stop - start + step - 1) / step;
  if (step < 0 && stop < start) trip = (start - stop + (-step) - 1) / (-step);
  LoopRange out;
  if (trip == 1) {
    out.iv = ir::AffineExpr(start); // fast path: no loop node
    return out;
  }
  ir::LoopAxis axis;
  axis.tag = ir::LoopAxis::Tag::AffineAxis;
  axis.name = builder.unique_name(iv_name.empty() ? "i" : iv_name);
  axis.lb = start;
  axis.ub = stop;
  axis.stride = step;
  axis.trip_count = trip;
  axis.axis_type = axis_type;
  out.axis = builder.create_loop_axis(std::move(axis));
  out.loop.emplace(loop_scope(out.axis));
  out.alloc.emplace(allocation_scope());
  out.iv = ir::AffineExpr::var({ir::VarKind::LoopIv, out.axis});
  return out;
}

LoopRange NeuronCodegen::dynamic_range(ir::AccessPattern trip_count, const std::string& iv_name) {
  ir::LoopAxis axis;
  axis.tag = ir::LoopAxis::Tag::DynamicAxis;
  axis.name = builder.unique_name(iv_name.empty() ? "i" : iv_name);
  axis.axis_type = ir::AxisType::Sequential;
  axis.dynamic_trip = std::move(trip_count);
  LoopRange out;
  out.axis = builder.create_loop_axis(std::move(axis));
  out.loop.emplace(loop_scope(out.axis));
  out.alloc.emplace(allocation_scope());
  out.iv = ir::AffineExpr::var({ir::VarKind::LoopIv, out.axis});
  return out;
}

LoopRange NeuronCodegen::register_loop(Bound lb, Bound ub, int64_t step, const std::string& iv_name,
                                       bool frozen) {
  ir::LoopAxis axis;
  axis.tag = ir::LoopAxis::Tag::DynamicAxis;
  axis.axis_type = ir::AxisType::Sequential;
  axis.iv_register = builder.create_register(iv_name.empty() ? "i" : iv_name, frozen);
  axis.name = kernel_->register_at(axis.iv_register).name;
  axis.lb = lb.imm;
  axis.lb_register = lb.reg;
  axis.ub = ub.imm;
  axis.ub_register = ub.reg;
  axis.stride = step;
  LoopRange out;
  out.axis = builder.create_loop_axis(std::move(axis));
  out.loop.emplace(loop_scope(out.axis));
  out.alloc.emplace(allocation_scope());
  return out;
}

std::pair<ScopeGuard, ScopeGuard> NeuronCodegen::register_while(ir::RegisterId cond) {
  ir::RegionPayload p;
  p.while_register = cond;
  ScopeGuard w = new_scope(RegionKind::WhileScope, std::move(p));
  return {std::move(w), allocation_scope()};
}

ScopeGuard NeuronCodegen::unrolled_loop(const std::string& iv_name, const std::string& kind,
                                        int64_t lb, int64_t ub, int64_t step) {
  ir::LoopAxis axis;
  axis.tag = ir::LoopAxis::Tag::UnrolledAxis;
  axis.name = iv_name.empty() ? "" : builder.unique_name(iv_name);
  axis.unrolled_range = kind == "range";
  axis.unrolled_while = kind == "while";
  axis.lb = lb;
  axis.ub = ub;
  axis.stride = step;
  return loop_scope(builder.create_loop_axis(std::move(axis)));
}

ScopeGuard NeuronCodegen::iteration(int64_t k) {
  ir::RegionPayload p;
  p.tag = "iteration";
  p.iteration = k;
  return new_scope(RegionKind::ScopeRegion, std::move(p));
}

ScopeGuard NeuronCodegen::core_scope(int64_t core) {
  ir::RegionPayload p;
  p.tag = "core";
  p.core = core;
  return new_scope(RegionKind::ScopeRegion, std::move(p));
}

void NeuronCodegen::enter_trace_scope(trace::TraceScopeKind kind, std::string name_and_loc,
                                      std::string stack_frame) {
  auto s = std::make_shared<trace::TraceScope>();
  s->kind = kind;
  s->parent_scope = trace_scope_;
  s->name_and_loc = std::move(name_and_loc);
  s->stack_frame = std::move(stack_frame);
  s->index = trace_scope_ ? trace_scope_->index + 1 : 0;
  trace_scope_ = std::move(s);
}

void NeuronCodegen::exit_trace_scope(trace::TraceScopeKind kind) {
  // A StmtScope left open by the statement that was interpreted last is closed implicitly.
  if (trace_scope_ && trace_scope_->kind == trace::TraceScopeKind::StmtScope &&
      kind != trace::TraceScopeKind::StmtScope)
    trace_scope_ = trace_scope_->parent_scope;
  if (!trace_scope_ || trace_scope_->kind != kind)
    sema::err_unbalanced_scope_exit(trace_scope_ ? trace::trace_scope_kind_name(trace_scope_->kind)
                                                 : "<no trace scope>",
                                    trace::trace_scope_kind_name(kind));
  trace_scope_ = trace_scope_->parent_scope;
}

void NeuronCodegen::enter_stmt(std::string name_and_loc) {
  if (trace_scope_ && trace_scope_->kind == trace::TraceScopeKind::StmtScope)
    trace_scope_ = trace_scope_->parent_scope;
  auto s = std::make_shared<trace::TraceScope>();
  s->kind = trace::TraceScopeKind::StmtScope;
  s->parent_scope = trace_scope_;
  s->name_and_loc = std::move(name_and_loc);
  s->stack_frame = trace_scope_ ? trace_scope_->stack_frame : "";
  s->index = stmt_count_++;
  builder.set_stmt(s->index);
  trace_scope_ = std::move(s);
}

ir::TensorId NeuronCodegen::view_alias(ir::TensorId base, const std::vector<int64_t>& shape,
                                       ir::DType dtype, const std::string& suffix) {
  auto key = std::make_tuple(base, shape, dtype);
  auto it = view_aliases_.find(key);
  if (it != view_aliases_.end()) return it->second;
  const ir::Tensor& b = kernel_->tensor(base);
  if (b.shape == shape && b.dtype == dtype) return base;
  ir::TensorId t = builder.create_alias(base, b.name + suffix, shape, dtype);
  view_aliases_.emplace(key, t);
  return t;
}

int NeuronCodegen::add_value(ir::AccessPattern ap) {
  values_.push_back(std::move(ap));
  return static_cast<int>(values_.size() - 1);
}

const ir::AccessPattern& NeuronCodegen::value(int id) const {
  if (id < 0 || id >= static_cast<int>(values_.size()))
    throw sema::InternalError("unknown value id " + std::to_string(id));
  return values_[id];
}

std::pair<int64_t, int64_t> NeuronCodegen::range_of(const ir::AffineExpr& e,
                                                    const std::vector<int64_t>& tile_shape) const {
  int64_t lo = e.constant(), hi = e.constant();
  for (const auto& [v, c] : e.terms()) {
    int64_t vmin = 0, vmax = 0;
    switch (v.kind) {
    case ir::VarKind::TileAxis:
      vmax = v.id < static_cast<int>(tile_shape.size()) ? tile_shape[v.id] - 1 : 0;
      break;
    case ir::VarKind::ProgramId:
      vmax = v.id < static_cast<int>(opts_.grid.size()) ? opts_.grid[v.id] - 1 : 0;
      break;
    case ir::VarKind::LoopIvDiv: {
      const auto& a = kernel_->loop_axis(v.id);
      int64_t last = a.lb + (a.trip_count - 1) * a.stride;
      const int64_t d = v.mod;
      auto fdiv = [d](int64_t x) { return x >= 0 ? x / d : -((-x + d - 1) / d); };
      vmin = fdiv(std::min(a.lb, last) + v.off);
      vmax = fdiv(std::max(a.lb, last) + v.off);
      break;
    }
    case ir::VarKind::LoopIvMod:
      vmax = v.mod - 1; // the iv is never negative
      break;
    case ir::VarKind::Register:
      break; // a run-time value: the simulator checks the access

    case ir::VarKind::LoopIv: {
      const auto& a = kernel_->loop_axis(v.id);
      if (a.tag == ir::LoopAxis::Tag::DynamicAxis) {
        vmax = 0; // unknown at trace time; checked by the simulator
      } else {
        int64_t last = a.lb + (a.trip_count - 1) * a.stride;
        vmin = std::min(a.lb, last);
        vmax = std::max(a.lb, last);
      }
      break;
    }
    }
    if (c > 0) {
      lo += c * vmin;
      hi += c * vmax;
    } else {
      lo += c * vmax;
      hi += c * vmin;
    }
  }
  return {lo, hi};
}

} // namespace nki::codegen
