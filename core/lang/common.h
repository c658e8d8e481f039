#pragma once
/// Building blocks every op implementation uses: operand checks (memory spaces, partitions,
/// visibility of tensors across scopes), tile creation, masks, bounds, and emission.
#include <initializer_list>
#include <string>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "ir/ir.h"
#include "ir/target.h"
#include "lang/ops.h"

namespace nki::lang {

// The hardware limits (ir/target.h, the one copy) under the names the ops use.
using ir::kBnStatsFmax;
using ir::kGemmMovingFmax;
using ir::kGemmStationaryFmax;
using ir::kPmax;
using ir::kPsumBanks;
using ir::kPsumFmax;
using ir::kPsumPartitionBytes;
using ir::kSbufPartitionBytes;

/// Which memories an operand may live in.
enum class Mem : uint8_t { Hbm = 1, Sbuf = 2, Psum = 4, OnChip = 6, Any = 7 };
/// "hbm", "sbuf", "psum|sbuf", ... — as NKI spells it in its messages.
std::string mem_names(Mem m);

ir::AccessPattern identity_pattern(const ir::Tensor& t);
const ir::Tensor& tensor_of(const NeuronCodegen& cg, ValueId v);
const std::vector<int64_t>& shape_of(const NeuronCodegen& cg, ValueId v);
ir::DType dtype_of(const NeuronCodegen& cg, ValueId v);
/// "a[128, 512]" for messages.
std::string described(const NeuronCodegen& cg, ValueId v);
int64_t elements(const std::vector<int64_t>& shape);
/// Free size (elements per partition) of a tile shape.
int64_t free_size(const std::vector<int64_t>& shape);

/// SBUF/PSUM tiles: rank ≥ 2 and at most 128 partitions.
void check_tile(const std::string& name, const std::vector<int64_t>& shape);
/// Raises NKI's address-space error unless `v` lives in `allowed`.
void require_memory(const NeuronCodegen& cg, ValueId v, const std::string& operand,
                    const std::string& api, Mem allowed);
/// Raises NKI's partition-mismatch error unless all values have the same partition count.
void require_same_partitions(const NeuronCodegen& cg, const std::string& api,
                             const std::vector<ValueId>& values);
/// Raises "Local variable ... referenced outside of its parent scope" when `v`'s tensor was
/// allocated in a region that is not open any more.
void require_visible(const NeuronCodegen& cg, ValueId v);

/// A new tensor in `buffer` with a full-view value.
ValueId new_tile(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                 ir::DType dtype, ir::Buffer buffer);

/// A mask as the surface sends it: comparisons of index expressions whose arange axes are
/// relative to their own index shapes.
struct MaskTerm {
  IndexExpr lhs;
  ir::CmpOp op;
  IndexExpr rhs;
};
using MaskSpec = std::vector<MaskTerm>;
/// Aligns a mask's arange axes with the axes of a tile of rank `tile_rank` (right-aligned, as
/// NumPy broadcasting aligns them) and checks it is a legal NKI mask.
ir::Predicate align_mask(const MaskSpec& mask, size_t tile_rank);

/// Static bounds check of an access, honouring a mask that guards it (`i*128 + p < n`).
void check_bounds(const NeuronCodegen& cg, const ir::AccessPattern& ap, const ir::Predicate& mask);

/// Starts an instruction; add operands with add_operand, then emit.
ir::Instruction make_inst(const std::string& opcode, ir::Engine engine);
/// Appends a value operand (checks visibility and static bounds under the instruction's mask).
void add_operand(const NeuronCodegen& cg, ir::Instruction& in, const std::string& role, ValueId v);
void add_scalar(ir::Instruction& in, const std::string& role, double value);
/// Emits `in` defining a new tile; returns its value.
ValueId emit_result(NeuronCodegen& cg, ir::Instruction in, const std::string& name,
                    std::vector<int64_t> shape, ir::DType dtype,
                    ir::Buffer buffer = ir::Buffer::Sbuf);
/// Emits `in` writing into existing memory (its "dst" operand).
void emit_effect(NeuronCodegen& cg, ir::Instruction in);

} // namespace nki::lang
