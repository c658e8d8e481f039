#pragma once
/// The trace side's scope vocabulary (abstract interpretation): which kernel, which traced
/// function, which statement is being interpreted. These never become IR regions. It lives
/// with NeuronCodegen, which keeps the current one (core/trace includes codegen, not the
/// other way round).
#include <cstdint>
#include <memory>
#include <string>

namespace nki::trace {

enum class TraceScopeKind : uint8_t { KernelScope, FunctionScope, StmtScope };
inline const char* trace_scope_kind_name(TraceScopeKind k) {
  switch (k) {
  case TraceScopeKind::KernelScope:
    return "KernelScope";
  case TraceScopeKind::FunctionScope:
    return "FunctionScope";
  case TraceScopeKind::StmtScope:
    return "StmtScope";
  }
  return "?";
}

struct TraceScope {
  TraceScopeKind kind;
  std::shared_ptr<const TraceScope> parent_scope;
  std::string name_and_loc; ///< "tensor_add@add.py:5", "c = a + b@add.py:9"
  std::string stack_frame;  ///< the interpreter frame it belongs to (function name)
  int index = 0;            ///< KernelScope/FunctionScope: depth; StmtScope: statement serial
};

} // namespace nki::trace
