#pragma once
/// The NKI language ops as the core implements them: each call checks legality (sema), emits
/// through the builder and returns trace-time values (ids into the codegen's value table).
#include <optional>
#include <string>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"

namespace nki::lang {

using codegen::NeuronCodegen;
using ValueId = int;

/// An index expression from the surface: affine over loop ivs and program ids, plus TileAxis
/// terms that stand for `nl.arange` axes of the expression's own index shape `shape`
/// (e.g. `nl.arange(128)[:, None]` has shape {128, 1} and the term TileAxis(0)).
struct IndexExpr {
  ir::AffineExpr expr;
  std::vector<int64_t> shape;  ///< empty for a scalar (loop iv / program id / int arithmetic)
};

/// One entry of a subscript `t[...]`.
struct IndexItem {
  enum class Kind : uint8_t { Int, Slice, Expr, Ellipsis } kind = Kind::Int;
  int64_t value = 0;                    ///< Int
  std::optional<ir::AffineExpr> start;  ///< Slice (None → default)
  std::optional<ir::AffineExpr> stop;
  int64_t step = 1;
  IndexExpr expr;  ///< Expr
};

/// A binary-op operand: a value or a Python scalar.
struct ValueOrScalar {
  ValueId value = -1;
  double scalar = 0;
  bool scalar_is_float = true;
  bool is_scalar() const { return value < 0; }
};

/// What the surface needs to know about a value.
struct ValueInfo {
  ValueId id;
  std::vector<int64_t> shape;
  ir::DType dtype;
  ir::Buffer buffer;
  std::string name;
};
ValueInfo value_info(const NeuronCodegen& cg, ValueId v);

/// Declares a kernel parameter (an HBM tensor).
ValueId param(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
              ir::DType dtype, bool mutable_param);
/// nl.ndarray / nl.zeros / nl.ones / nl.full: allocates a tensor (an "ndarray" instruction,
/// with the init value as an attribute when given).
ValueId ndarray(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                ir::DType dtype, ir::Buffer buffer, std::optional<double> init,
                const std::string& api = "ndarray");
/// nl.program_id(axis) as an index expression.
ir::AffineExpr program_id(NeuronCodegen& cg, int64_t axis);
/// `v[items]`: a view (access pattern) of the same tensor; no instruction.
ValueId view(NeuronCodegen& cg, ValueId v, const std::vector<IndexItem>& items);
/// nl.load: HBM → a new SBUF tile.
ValueId load(NeuronCodegen& cg, ValueId src, std::optional<ir::DType> dtype,
             const std::string& name);
/// nl.store: a tile → HBM.
void store(NeuronCodegen& cg, ValueId dst, ValueId value);
/// Element-wise binary arithmetic (nl.add, `+`, ...). `op` is the ALU op name ("add").
ValueId binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
               const ValueOrScalar& x, const ValueOrScalar& y, std::optional<ir::DType> dtype,
               const std::string& name);
/// The kernel's return values, in order.
void set_outputs(NeuronCodegen& cg, const std::vector<ValueId>& values);

/// Raises the static out-of-bound error if `ap` can touch outside its tensor.
void check_bounds(const NeuronCodegen& cg, const ir::AccessPattern& ap);

}  // namespace nki::lang
