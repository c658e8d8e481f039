#pragma once
/// The trace context: the process-global cell holding the active NeuronCodegen, and the three
/// accessors that are its only readers (shared/seed/nki_ctx-scopes-and-sema.txt).
#include <memory>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"

namespace nki::trace {

class TraceContext {
public:
  /// The cell: null between traces, the active codegen context during one. Written only by
  /// new_ctx, finalize_kernel and abandon.
  static std::unique_ptr<codegen::NeuronCodegen> global_ctx;

  /// Constructs the codegen context for a new trace and installs it. Refuses (RuntimeError)
  /// while another trace is active: one active trace per interpreter.
  static codegen::NeuronCodegen& new_ctx(const codegen::TraceOptions& opts);
  /// Ends the active trace: checks every scope was closed, clears the cell and hands over the
  /// kernel. On failure the cell is cleared too.
  static std::unique_ptr<ir::Kernel> finalize_kernel();
  /// The failure path: clears the cell, dropping the partial kernel. Never throws.
  static void abandon() noexcept;
};

/// Returns the active codegen context, or raises via
/// sema::err_nki_api_outside_of_nki_kernel() when no kernel is being traced.
codegen::NeuronCodegen& nki_ctx();
/// The raw cell: the active codegen context or nullptr. Never raises.
codegen::NeuronCodegen* nki_ctx_or_none();
/// nki_ctx().cur_scope(): the region ops emitted now land in. Raises outside a kernel.
ir::RegionId get_cur_scope();

/// Opens a trace in its constructor and abandons it in its destructor unless finalize() was
/// called, so every exit path leaves the cell clear.
class TraceSession {
public:
  explicit TraceSession(const codegen::TraceOptions& opts) : cg_(&TraceContext::new_ctx(opts)) {}
  ~TraceSession() {
    if (cg_) TraceContext::abandon();
  }
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;
  codegen::NeuronCodegen& codegen() { return *cg_; }
  std::unique_ptr<ir::Kernel> finalize() {
    cg_ = nullptr;
    return TraceContext::finalize_kernel();
  }

private:
  codegen::NeuronCodegen* cg_;
};

} // namespace nki::trace
