#pragma once
/// The NKI language ops as the core implements them: each call checks legality (sema), emits
/// through the builder and returns trace-time values (ids into the codegen's value table).
/// These are the structural ops (parameters, allocation, views, data movement, assignment);
/// the rest of the API goes through the generic OpCall registry (call.h).
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
  std::vector<int64_t> shape; ///< empty for a scalar (loop iv / program id / int arithmetic)
};

/// One entry of a subscript `t[...]`.
struct IndexItem {
  enum class Kind : uint8_t { Int, Slice, Expr, Ellipsis, Tile } kind = Kind::Int;
  int64_t value = 0;                   ///< Int; Tile: the index tile's value id
  std::optional<ir::AffineExpr> start; ///< Slice (None → default)
  std::optional<ir::AffineExpr> stop;
  int64_t step = 1;
  IndexExpr expr; ///< Expr
};

/// A binary-op operand: a value or a Python scalar.
struct ValueOrScalar {
  ValueId value = -1;
  double scalar = 0;
  bool scalar_is_float = true;
  /// A NumPy-typed scalar (np.float16(1.2)) keeps its type in promotion; a Python scalar is weak.
  std::optional<ir::DType> scalar_type;
  bool is_scalar() const { return value < 0; }
};

struct MaskTerm;
using MaskSpec = std::vector<MaskTerm>;

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
/// with the init value as an attribute when given). `partition_dim` > 0 marks leading block
/// dimensions (`(n, nl.par_dim(128), 512)`), accepted with NKI's deprecation warning.
ValueId ndarray(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                ir::DType dtype, ir::Buffer buffer, std::optional<double> init,
                const std::string& api = "ndarray", int partition_dim = 0);
/// nl.program_id(axis) as an index expression.
ir::AffineExpr program_id(NeuronCodegen& cg, int64_t axis);
/// `v[items]`: a view (access pattern) of the same tensor; no instruction.
ValueId view(NeuronCodegen& cg, ValueId v, const std::vector<IndexItem>& items);
/// nl.load: HBM → a new SBUF tile.
ValueId load(NeuronCodegen& cg, ValueId src, std::optional<ir::DType> dtype,
             const std::string& name);
ValueId load(NeuronCodegen& cg, ValueId src, std::optional<ir::DType> dtype,
             const std::string& name, const MaskSpec& mask);
/// nl.store: a tile → HBM.
void store(NeuronCodegen& cg, ValueId dst, ValueId value);
void store(NeuronCodegen& cg, ValueId dst, ValueId value, const MaskSpec& mask);
/// `dst[...] = src` (accumulate empty) or `dst[...] op= src` (accumulate = "add", ...).
/// `src_is_temporary`: nothing else refers to `src` (the Python value was a temporary), so
/// the instruction that just made it may write `dst` itself instead of a copy; a named `src`
/// keeps its own tensor, which later reads still see.
void assign(NeuronCodegen& cg, ValueId dst, const ValueOrScalar& src, const std::string& accumulate,
            const std::string& expr_text, bool src_is_temporary = true);
/// Element-wise binary arithmetic (nl.add, `+`, ...). `op` is the ALU op name ("add").
ValueId binary(NeuronCodegen& cg, const std::string& api, const std::string& op,
               const ValueOrScalar& x, const ValueOrScalar& y, std::optional<ir::DType> dtype,
               const std::string& name);
/// The kernel's return values, in order; checks mutable parameters are among them. A kernel
/// that writes its results through parameters (`by_reference`: `@nki.trace`, the pre-2.20
/// convention) has the parameters it writes as its outputs. A `simulated` kernel may also
/// return on-chip tensors, as NKI's simulator allows.
void set_outputs(NeuronCodegen& cg, const std::vector<ValueId>& values, bool by_reference = false,
                 bool simulated = false);

/// Raises failed-to-infer-tile when `v` still spans block dimensions of its tensor.
void check_is_tile(const NeuronCodegen& cg, ValueId v);

} // namespace nki::lang
