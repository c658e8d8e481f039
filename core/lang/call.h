#pragma once
/// Generic op calls: every NKI API the surface forwards as {"op": "call", "api": ...} is an
/// OpCall dispatched through a registry of handlers, one family of APIs per ops_*.cpp file.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "lang/common.h"
#include "lang/ops.h"
#include "util/json.h"

namespace nki::lang {

/// One API call as the surface sends it.
struct OpCall {
  std::string api; ///< NKI's name, e.g. "exp", "nc_matmul", "tensor_scalar"
  std::vector<std::pair<std::string, ValueOrScalar>> operands; ///< by role, in call order
  util::Json attrs;                                            ///< other keyword arguments
  std::optional<ir::DType> dtype;                              ///< dtype=
  MaskSpec mask;                                               ///< mask=
  std::string name;                                            ///< the variable it is bound to

  bool has(const std::string& role) const;
  const ValueOrScalar& operand(const std::string& role) const;
  /// The tile operand `role`; raises TypeError when missing or a scalar.
  ValueId tile(const std::string& role) const;
  std::string attr_string(const std::string& key, const std::string& fallback = "") const;
  int64_t attr_int(const std::string& key, int64_t fallback) const;
  double attr_number(const std::string& key, double fallback) const;
  bool attr_bool(const std::string& key, bool fallback = false) const;
  std::vector<int64_t> attr_ints(const std::string& key) const;
  /// `j` (a value of attribute `key`) as an integer; a TypeError at the user's line when it is
  /// anything else (an expression of loop variables, a float, a string).
  int64_t integer_of(const util::Json& j, const std::string& key) const;
};

/// The engine an `engine=` attribute names: a nisa.engine value (1 tensor, 2 scalar, 3 gpsimd,
/// 4 dma, 5 vector, 6 sync) or a name ("vector", "vector_engine", "dve", "pe", "act", "pool"...);
/// Engine::None when absent or unknown.
ir::Engine engine_attr(const OpCall& c);

/// A handler returns the value it defines, or -1 for ops with no result.
using OpHandler = ValueId (*)(NeuronCodegen&, const OpCall&);

class OpRegistry {
public:
  void add(const std::string& api, OpHandler h);
  OpHandler find(const std::string& api) const;
  std::vector<std::string> names() const;

private:
  std::vector<std::pair<std::string, OpHandler>> table_; // sorted by name
};

/// Every registered API (built once, on first use).
const OpRegistry& registry();
/// Runs the handler for call.api; unknown APIs raise "not supported in nki-playground yet".
ValueId call_op(NeuronCodegen& cg, const OpCall& call);

/// Per-family registration, called by registry(). Add one line in call.cpp for a new family.
void register_memory_ops(OpRegistry& r);      // ops_memory.cpp
void register_elementwise_ops(OpRegistry& r); // ops_elementwise.cpp: nl math, comparisons
void register_reduce_ops(OpRegistry& r);      // ops_reduce.cpp: reductions, scans, stats
void register_vector_isa_ops(OpRegistry& r);  // ops_vector_isa.cpp: nisa vector/scalar/gpsimd
void register_matmul_ops(OpRegistry& r);      // ops_matmul.cpp: matmul, transposes
void register_movement_ops(OpRegistry& r);    // ops_movement.cpp: copies, DMA, views, constants
void register_debug_ops(OpRegistry& r);       // ops_debug.cpp: device_print

/// Decodes a request's "operands", "attrs", "dtype", "mask" and "name" into an OpCall.
OpCall decode_call(NeuronCodegen& cg, const util::Json& req);
MaskSpec decode_mask(const util::Json& j);

} // namespace nki::lang
