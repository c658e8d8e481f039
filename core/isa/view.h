#pragma once
/// The current language's tensors are storage + a strided view (NKI 0.5/0.6 `NkiTensor`): an
/// element offset and `[stride, count]` pairs over the storage's row-major elements, plus
/// run-time offsets (registers, an index tensor). The Python package computes views (slices,
/// permutes, `.ap(...)`, ...); the core turns one into the IR's access pattern — an affine
/// index per tensor dimension over the tile axes — when an instruction uses it. Views cost
/// nothing: no instruction, only the access pattern of the instruction that reads them.
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"
#include "lang/ops.h"
#include "util/json.h"

namespace nki::isa {

using codegen::NeuronCodegen;

/// One view of a storage tensor.
struct StridedView {
  ir::TensorId storage = ir::kNone; ///< the allocation (never an alias)
  std::optional<ir::DType> dtype;   ///< a reinterpretation (`view(dtype)`, `.ap(dtype=)`)
  int64_t offset = 0;               ///< in elements of the view's dtype
  std::vector<std::array<int64_t, 2>> pattern; ///< [stride, count], outermost first
  /// Run-time offsets `reg * scale` (elements), from `.ap(scalar_offset=reg)`, `nl.ds(reg, n)`.
  std::vector<std::pair<ir::RegisterId, int64_t>> dyn;
  /// A run-time offset read from a tensor: a (1, 1) tile (scalar: `.ap(scalar_offset=t)`,
  /// `select(dim, t)`) or a (P, 1) index tile (vector: `.ap(vector_offset=t)`,
  /// `vector_select`), times `index_scale` elements.
  lang::ValueId index = -1;
  int64_t index_scale = 1;
  bool vector_index = false;
};

/// {"t": storage tensor id, "dtype"?: name, "off": n, "pat": [[stride, count], ...],
///  "dyn"?: [[register, scale], ...], "ind"?: {"v": value, "scale": n, "vector": bool}}
StridedView decode_view(NeuronCodegen& cg, const util::Json& j);

/// The access pattern of `v`: over the storage itself when every view axis moves along one
/// storage dimension (slices, selects, permutes, broadcasts, splits), else over an alias of
/// the storage flattened to (partitions, free elements) on chip or to one dimension in HBM
/// (merged dimensions, arbitrary `.ap` patterns). A reinterpreting view addresses an alias of
/// the storage in its dtype. Raises the current language's errors for patterns the hardware
/// cannot address (an on-chip pattern that leaves its partition, elements outside storage).
ir::AccessPattern access_of(NeuronCodegen& cg, const StridedView& v);

/// decode_view + access_of, as a value of the codegen's value table.
lang::ValueId view_value(NeuronCodegen& cg, const util::Json& j);

} // namespace nki::isa
