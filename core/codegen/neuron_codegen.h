#pragma once
/// NeuronCodegen: the active codegen context of one kernel trace. It owns the IR builder and
/// the scope stack (`cur_scope`), and the region emitters, all built on one push/pop pair.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "codegen/trace_scope.h"
#include "ir/ir.h"
#include "sema/sema.h"

namespace nki::codegen {

class NeuronCodegen;

/// Closes one scope region when it goes out of scope. Move-only; closing anything but the
/// innermost open scope is refused ("unbalanced scope exit").
class ScopeGuard {
public:
  ScopeGuard(NeuronCodegen& cg, ir::RegionId region) : cg_(&cg), region_(region) {}
  ScopeGuard(ScopeGuard&& o) noexcept : cg_(o.cg_), region_(o.region_) { o.cg_ = nullptr; }
  ScopeGuard& operator=(ScopeGuard&&) = delete;
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  /// Pops the region. When the stack is unwinding the pop restores the scope without checking.
  ~ScopeGuard();

  ir::RegionId region() const { return region_; }
  /// Pops now; throws sema::InternalError if the region is not the innermost.
  void close();
  /// Disarms the guard, leaving the region open; the caller pops it later with pop_scope
  /// (used by the embind push/pop pair, where Python owns the scope's lifetime).
  ir::RegionId release() {
    cg_ = nullptr;
    return region_;
  }

private:
  NeuronCodegen* cg_;
  ir::RegionId region_;
};

/// What `affine_range` opened: the LoopScope and its AllocationScope (none for a trip count of
/// one, which takes the fast path) and the induction variable as an affine expression.
struct LoopRange {
  ir::AffineExpr iv;
  ir::LoopAxisId axis = ir::kNone;
  std::optional<ScopeGuard> loop;
  std::optional<ScopeGuard> alloc;
};

struct TraceOptions {
  std::string kernel_name;
  std::vector<int64_t> grid; ///< SPMD launch grid; empty for a plain call
  ir::SourceLoc loc;         ///< the kernel's `def`
  /// The current language (`import nki`): "nki 0.6.0"; empty for Beta 1.
  std::string language;
  int64_t lnc = 1;             ///< current language: the LNC degree of `kernel[lnc]`
  std::string target = "trn3"; ///< current language: NEURON_PLATFORM_TARGET_OVERRIDE
};

/// A loop bound of the current language: an immediate or a register.
struct Bound {
  int64_t imm = 0;
  ir::RegisterId reg = ir::kNone;
};

class NeuronCodegen {
public:
  explicit NeuronCodegen(const TraceOptions& opts);
  NeuronCodegen(const NeuronCodegen&) = delete;
  NeuronCodegen& operator=(const NeuronCodegen&) = delete;

private:
  std::unique_ptr<ir::Kernel> kernel_; // declared before `builder`, which refers to it

public:
  ir::IRBuilder builder;

  const TraceOptions& options() const { return opts_; }
  const ir::Kernel& kernel() const { return *kernel_; }
  /// Hands the finished kernel over; the context is unusable afterwards.
  std::unique_ptr<ir::Kernel> take_kernel() { return std::move(kernel_); }

  /// The innermost open region: where ops emitted now land (kNone before kernel_scope).
  ir::RegionId cur_scope() const { return builder.insertion_region(); }
  /// Number of open regions.
  size_t depth() const { return stack_.size(); }

  // --- the one push/pop pair -----------------------------------------------------------------
  /// Creates a region of `kind` at the current statement and makes it cur_scope.
  ir::RegionId push_scope(ir::RegionKind kind, ir::RegionPayload payload);
  /// Restores the previous cur_scope; `expected` must be the innermost open region. With
  /// drop_if_empty, a region that received nothing is unlinked from the IR.
  void pop_scope(ir::RegionId expected, bool drop_if_empty = false);
  /// push_scope wrapped in a guard that pops it.
  ScopeGuard new_scope(ir::RegionKind kind, ir::RegionPayload payload);

  // --- region emitters -----------------------------------------------------------------------
  ScopeGuard kernel_scope(const std::string& name);
  ScopeGuard function_scope(const std::string& name);
  ScopeGuard loop_scope(ir::LoopAxisId axis);
  ScopeGuard if_scope(ir::Predicate predicate, bool is_else = false);
  ScopeGuard while_scope(ir::Predicate continue_condition = {});
  ScopeGuard allocation_scope();
  ScopeGuard stage_scope(int64_t stage_id = -1, int64_t execution_order = -1);
  ScopeGuard no_reorder();
  /// A pipeline-stage container (ScopeRegion tagged "stage") marking what it encloses.
  ScopeGuard pipeline_stage(int64_t stage_id, int64_t execution_order = -1);
  /// The loop constructor: normalizes (start, stop, step), creates the loop axis, opens a
  /// LoopScope holding an AllocationScope. A trip count of one emits no loop (iv = start).
  LoopRange affine_range(int64_t start, int64_t stop, int64_t step,
                         ir::AxisType axis_type = ir::AxisType::Affine,
                         const std::string& iv_name = "");
  /// A loop whose trip count is read at run time from a (1,1) tile (DynamicAxis).
  LoopRange dynamic_range(ir::AccessPattern trip_count, const std::string& iv_name = "");

  // --- the current language's control flow ---------------------------------------------------
  /// `nl.fori_loop` / `nl.dynamic_range`: a hardware loop over [lb, ub) step `step` (a
  /// DynamicAxis over registers) with a fresh induction register (`frozen`: dynamic_range's,
  /// which must not be written). Opens the LoopScope and its AllocationScope; `iv` is unset,
  /// the induction register is the axis' iv_register.
  LoopRange register_loop(Bound lb, Bound ub, int64_t step, const std::string& iv_name,
                          bool frozen);
  /// `nl.while_loop` / `while reg:`: a pre-checked WhileScope on `cond` and its
  /// AllocationScope (first: the WhileScope, second: the AllocationScope).
  std::pair<ScopeGuard, ScopeGuard> register_while(ir::RegisterId cond);
  /// A Python loop the tracer runs: a LoopScope over an UnrolledAxis (`kind`: "range",
  /// "values" or "while"); its iterations are opened with iteration().
  ScopeGuard unrolled_loop(const std::string& iv_name, const std::string& kind, int64_t lb,
                           int64_t ub, int64_t step);
  /// One iteration (index `k`) of the innermost unrolled loop: a ScopeRegion "iteration".
  ScopeGuard iteration(int64_t k);
  /// The body logical core `core` runs (ScopeRegion "core"): an LNC2 kernel is traced once per
  /// core, `nl.program_id(0)` a Python int in each.
  ScopeGuard core_scope(int64_t core);

  // --- trace side (abstract interpretation) --------------------------------------------------
  void enter_trace_scope(trace::TraceScopeKind kind, std::string name_and_loc,
                         std::string stack_frame);
  void exit_trace_scope(trace::TraceScopeKind kind);
  /// Replaces the current StmtScope (one per interpreted statement).
  void enter_stmt(std::string name_and_loc);
  const trace::TraceScope* trace_scope() const { return trace_scope_.get(); }
  int stmt_count() const { return stmt_count_; }

  /// An alias of `base`'s storage in another shape or dtype (the current language's views
  /// that the IR addresses through a flattened or reinterpreted frame), made once per
  /// (base, shape, dtype) and named `<base><suffix>`.
  ir::TensorId view_alias(ir::TensorId base, const std::vector<int64_t>& shape, ir::DType dtype,
                          const std::string& suffix);

  // --- trace-time values held by the surface (ids into this table) --------------------------
  int add_value(ir::AccessPattern ap);
  const ir::AccessPattern& value(int id) const;

  /// Records a non-fatal diagnostic (kind: a Python warning class name) at the current
  /// location; the surface issues them after the op that caused them.
  struct PendingWarning {
    std::string kind, message, code;
  };
  void warn(std::string kind, sema::Warning w) {
    warnings_.push_back({std::move(kind), std::move(w.message), w.code.str()});
  }
  std::vector<PendingWarning> take_warnings() { return std::move(warnings_); }

  /// Smallest and largest value of `e` given the open loops, the grid and the tile extents.
  std::pair<int64_t, int64_t> range_of(const ir::AffineExpr& e,
                                       const std::vector<int64_t>& tile_shape) const;
  /// "LoopScope#3" — for messages.
  std::string describe_region(ir::RegionId r) const;

private:
  TraceOptions opts_;
  std::vector<ir::RegionId> stack_;
  std::shared_ptr<const trace::TraceScope> trace_scope_;
  int stmt_count_ = 0;
  std::vector<ir::AccessPattern> values_;
  std::vector<PendingWarning> warnings_;
  std::map<std::tuple<ir::TensorId, std::vector<int64_t>, ir::DType>, ir::TensorId> view_aliases_;
};

} // namespace nki::codegen
