#include "trace/trace_context.h"

#include "sema/sema.h"

namespace nki::trace {

std::unique_ptr<codegen::NeuronCodegen> TraceContext::global_ctx;

codegen::NeuronCodegen& TraceContext::new_ctx(const codegen::TraceOptions& opts) {
  if (global_ctx) sema::err_trace_already_active(global_ctx->options().kernel_name);
  global_ctx = std::make_unique<codegen::NeuronCodegen>(opts);
  return *global_ctx;
}

std::unique_ptr<ir::Kernel> TraceContext::finalize_kernel() {
  std::unique_ptr<codegen::NeuronCodegen> cg = std::move(global_ctx); // cleared on every path
  if (!cg) sema::err_nki_api_outside_of_nki_kernel();
  if (cg->depth() != 0)
    throw sema::InternalError("finalize_kernel with " + std::to_string(cg->depth()) +
                              " scope(s) still open, innermost " +
                              cg->describe_region(cg->cur_scope()));
  if (cg->kernel().root() == ir::kNone)
    throw sema::InternalError("finalize_kernel: the kernel has no KernelScope");
  return cg->take_kernel();
}

void TraceContext::abandon() noexcept {
  global_ctx.reset();
}

codegen::NeuronCodegen& nki_ctx() {
  codegen::NeuronCodegen* ctx = TraceContext::global_ctx.get();
  if (ctx == nullptr) sema::err_nki_api_outside_of_nki_kernel();
  return *ctx;
}

codegen::NeuronCodegen* nki_ctx_or_none() {
  return TraceContext::global_ctx.get();
}

ir::RegionId get_cur_scope() {
  return nki_ctx().cur_scope();
}

} // namespace nki::trace
