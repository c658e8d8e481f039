#pragma once
/// The matmul / movement family's entry points used outside its own files: indirect index
/// tiles in subscripts (ops_view.cpp), folding an op into the tensor it is assigned to
/// (assignment), and direct-allocation records on allocating instructions (requests).
/// Opcodes and their semantics: docs/ops/movement.md.
#include <string>
#include <utility>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"
#include "lang/call.h"
#include "lang/ops.h"
#include "util/json.h"

namespace nki::lang {

/// What a tile used as an index (`data[idx_tile, i_f]`) contributes to a view.
struct IndirectIndex {
  ir::AccessPattern index; ///< the index tile's access pattern (its own tile axes)
  size_t item = 0;         ///< position of the subscript item it replaces
};

/// Checks an index tile (SBUF, one per subscript) and returns it; `shape` receives the index
/// shape it takes part in broadcasting with (empty for a single-element index).
IndirectIndex indirect_index_item(const NeuronCodegen& cg, ValueId tile, size_t item,
                                  std::vector<int64_t>& shape);

/// Completes the view `out` (already indexed without the indirect item) with the indirect
/// index: remaps the index tile's axes onto the view's tile axes (`axis_of_item` gives, for
/// each axis of the index tile, the view tile axis it lines up with) and applies NKI's rules
/// for indirect DMA on HBM tensors.
void attach_indirect(const NeuronCodegen& cg, const ir::AccessPattern& base, ir::AccessPattern& out,
                     const IndirectIndex& ind, const std::vector<int>& axis_of_item);

/// Carries an indirect index of `base` through a view of it (`subst` maps base tile axes).
void carry_indirect(const ir::AccessPattern& base, ir::AccessPattern& out,
                    const std::vector<ir::AffineExpr>& subst);

/// `dst[...] = src` / `dst[...] += src` where `src` is the fresh result of the instruction just
/// emitted in the current region by this family (nc_matmul, nc_transpose, tensor_copy, ...):
/// that instruction is amended to write `dst` itself (`accumulate = 1` for `+=` of a matmul,
/// NKI's PSUM accumulation group). Returns false when the assignment is not of that form.
bool fold_into_destination(NeuronCodegen& cg, ValueId dst, ValueId src,
                           const std::string& accumulate);

/// Records a direct allocation (`buffer=ncc.sbuf.mod_alloc(...)` & co.) as attributes of the
/// instruction that just allocated `v`.
void record_allocation(NeuronCodegen& cg, ValueId v, const util::Json& alloc);

/// PSUM tiles fit one bank: at most 2 KiB per partition (512 float32). Called where PSUM
/// tensors are created.
void check_psum_tensor(const std::string& name, const std::vector<int64_t>& shape,
                       int partition_dim, ir::DType dtype);

/// Operand masks of matmul APIs (`nl.matmul(x[i_f < 64], y, ...)`) arrive as attributes.
MaskSpec operand_mask(const OpCall& c, const std::string& role);

/// Registration of the family's files other than ops_matmul.cpp / ops_movement.cpp.
void register_view_ops(OpRegistry& r);     // ops_tensor_views.cpp: reshape, view, broadcast...
void register_constant_ops(OpRegistry& r); // ops_constants.cpp: shared constants, *_like, ncc
/// ops_partition_moves.cpp: nc_stream_shuffle, local_gather.
void register_partition_move_ops(OpRegistry& r);
/// nc_stream_shuffle's checks, shared with the current language's nisa.nc_stream_shuffle:
/// on-chip tiles of one dtype and free size, a 32-entry mask every quadrant can follow.
/// Returns the mask.
std::vector<int64_t> check_stream_shuffle(const NeuronCodegen& cg, const OpCall& c, ValueId dst,
                                          ValueId src);
/// local_gather's checks, shared likewise: returns {num_elem_per_idx, num_valid_indices}.
std::pair<int64_t, int64_t> check_local_gather(const NeuronCodegen& cg, const OpCall& c,
                                               ValueId src, ValueId index);

} // namespace nki::lang
