#pragma once
/// The current language's `nki.isa` instructions (NKI 0.6.0): `dst` first, no result, the
/// output dtype is dst's. Each API is a handler in a registry, one family per ops_*.cpp file,
/// emitting the same opcodes (and executors) as Beta 1 where the instruction is the same,
/// with dst as an operand. The Python package sends {"op": "isa_call", "api", "operands":
/// [[role, operand], ...], "attrs": {...}} (lang::decode_call's form).
#include <string>
#include <utility>
#include <vector>

#include "codegen/neuron_codegen.h"
#include "lang/call.h"
#include "lang/common.h"
#include "util/json.h"

namespace nki::isa {

using codegen::NeuronCodegen;
using lang::Mem;
using lang::OpCall;
using lang::ValueId;

/// Runs one isa_call request; replies "null".
std::string call(NeuronCodegen& cg, const util::Json& req);
/// The registered API names (tests).
std::vector<std::string> api_names();

// --- what the handlers share (isa_common.cpp) ----------------------------------------------------

/// NeuronCore generation of the trace's target: 2 (trn1), 3 (trn2), 4 (trn3).
int nc_version(const NeuronCodegen& cg);
/// The tile operand `role`, which must live in `allowed` memory.
ValueId tile(NeuronCodegen& cg, const OpCall& c, const std::string& role, Mem allowed);
/// The tile operand `role` when the call has it (not None), else -1.
ValueId optional_tile(NeuronCodegen& cg, const OpCall& c, const std::string& role, Mem allowed);
/// Same partition count and as many elements per partition as `dst` (each pair named).
void same_layout(const NeuronCodegen& cg, const std::string& api, const std::string& a_role,
                 ValueId a, const std::string& b_role, ValueId b);
/// The engine= of the call among `allowed`; `fallback` for engine.unknown.
ir::Engine engine_of(const OpCall& c, ir::Engine fallback, const std::vector<ir::Engine>& allowed);
/// Adds `name=` (the instruction's scheduling name) and emits.
void emit(NeuronCodegen& cg, const OpCall& c, ir::Instruction in);
/// The operand of a "float | tensor" parameter: an immediate or a tile.
void add_scalar_or_tile(NeuronCodegen& cg, ir::Instruction& in, const OpCall& c,
                        const std::string& role, Mem allowed);
/// The operand `role` of a per-partition parameter: an immediate, or an on-chip (P, 1) tile
/// with `data`'s partitions (tensor_scalar's operand0, activation's bias, range_select's
/// bounds, ...).
void add_vector_operand(NeuronCodegen& cg, ir::Instruction& in, const OpCall& c,
                        const std::string& role, ValueId data);
/// The (P, 1) tile `reduce_res` of `data`'s partitions the instruction writes, when the call
/// has it.
void add_reduce_res(NeuronCodegen& cg, ir::Instruction& in, const OpCall& c, ValueId data);

/// One API's handler: checks the call and emits its instruction(s).
using Handler = void (*)(NeuronCodegen&, const OpCall&);
/// API name → handler.
class Registry {
public:
  void add(const std::string& api, Handler h);
  Handler find(const std::string& api) const;
  std::vector<std::string> names() const;

private:
  std::vector<std::pair<std::string, Handler>> table_; // sorted by name
};

void register_move_ops(Registry& r);   // ops_move.cpp: DMA, copies, memset, iota, ...
void register_math_ops(Registry& r);   // ops_math.cpp: tensor_tensor & co., activation
void register_matmul_ops(Registry& r); // ops_matmul.cpp: nc_matmul
void register_select_ops(Registry& r); // ops_select.cpp: selections, search, random numbers
void register_gather_ops(Registry& r); // ops_gather.cpp: shuffles, gathers, nonzero, topk
void register_lnc_ops(Registry& r);    // ops_lnc.cpp: core_barrier, sendrecv (LNC2)

} // namespace nki::isa
