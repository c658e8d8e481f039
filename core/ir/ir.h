#pragma once
/// The IR of one traced kernel: tensors, instructions with source locations, and the tree of
/// scope regions they live in. A Kernel is read through const accessors (printer, simulator);
/// it is mutated only through ir::IRBuilder, the one mutation door.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "ir/affine.h"
#include "ir/types.h"

namespace nki::ir {

using TensorId = int;
using InstId = int;
using RegionId = int;
using LoopAxisId = int;
using RegisterId = int;
constexpr int kNone = -1;

enum class TensorRole : uint8_t { Param, Local };

struct Tensor {
  TensorId id = kNone;
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
  Buffer buffer = Buffer::Sbuf;
  TensorRole role = TensorRole::Local;
  bool mutable_param = false;   ///< a parameter annotated nt.mutable_tensor
  SourceLoc loc;                ///< allocation site (unknown for parameters)
  RegionId region = kNone;      ///< region it was allocated in
  TensorId alias_of = kNone;    ///< a reshape/bitcast view of another tensor's storage
  int partition_dim = 0;        ///< > 0 when leading block dimensions precede the partitions
  std::vector<double> constant; ///< contents of a constant tensor (nl.shared_constant), row-major
  Memory memory() const { return memory_of(buffer); }
};

/// Which elements of `tensor` an operand touches: for each tensor dimension an affine index
/// over loop ivs, program ids and tile axes; tile_shape gives the extent of each tile axis
/// (the shape of the tile the access produces or consumes).
///
/// Indirect (runtime) indexing: when `indirect` is set, the index of dimension `indirect_dim`
/// is the value `indirect` reads at the same tile position (times `indirect_scale`), plus
/// index[indirect_dim].
struct AccessPattern {
  TensorId tensor = kNone;
  std::vector<AffineExpr> index;
  std::vector<int64_t> tile_shape;
  std::shared_ptr<const AccessPattern> indirect;
  int indirect_dim = -1;
  int64_t indirect_scale = 1;
  /// True when the pattern reads/writes the whole tensor in order (printed as `%name`).
  bool is_identity(const Tensor& t) const;
};

/// A compile-time attribute: integer, float, string or integer list.
using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>>;

struct Operand {
  std::string role; ///< "src", "dst", "x", "y", ...
  AccessPattern ap;
  bool is_scalar = false; ///< an immediate; value in `scalar`
  double scalar = 0;
  RegisterId reg = kNone; ///< a register operand (the current language's register ops)
};

/// Whether an operand of `role` only reads its tensor ("src", "value", "data", "x", "y", ...,
/// the roles the ops of core/lang and core/isa give what they read); any other role ("dst",
/// "reduce_res", "dst_idx", an unknown one) counts as written. The simulator's plan relies on it.
bool role_reads_only(std::string_view role);

/// A 32-bit engine register of the current language (`nisa.register_alloc`, the induction
/// variable of `nl.fori_loop` / `nl.dynamic_range`). Its value exists only at run time.
struct Register {
  RegisterId id = kNone;
  std::string name;
  bool frozen = false; ///< an induction register that must not be written (dynamic_range)
  SourceLoc loc;
};

struct Instruction {
  InstId id = kNone;
  std::string opcode; ///< "ndarray", "load", "store", "tensor_tensor", ...
  Engine engine = Engine::None;
  TensorId result = kNone;       ///< tensor defined by this instruction, if any
  std::vector<Operand> operands; ///< inputs, then destination (role "dst") if any
  std::vector<std::pair<std::string, AttrValue>> attrs;
  Predicate mask;
  SourceLoc loc;
  RegionId region = kNone;
  int stmt = kNone; ///< trace-side statement index (StmtScope) it was emitted under
};

enum class RegionKind : uint8_t {
  KernelScope,
  FunctionScope,
  LoopScope,
  IfScope,
  WhileScope,
  AllocationScope,
  ScopeRegion,
};
const char* region_kind_name(RegionKind k);

enum class AxisType : uint8_t { Affine, Sequential };

/// The loop node a LoopScope is opened around, tagged AffineAxis, DynamicAxis or
/// UnrolledAxis.
///  - AffineAxis: a loop over a symbolic induction variable (Beta 1's affine/sequential ranges).
///  - DynamicAxis: a loop run by the hardware. Beta 1: the trip count is read from a (1,1)
///    tile (`dynamic_trip`) and the iv is LoopIv. Current language (`iv_register` set):
///    `for iv in [lb, ub) step stride`, each bound an immediate or a register, the iteration
///    value written into the register `iv_register` at the start of every iteration.
///  - UnrolledAxis: a Python loop the current language's tracer ran: one child region
///    (ScopeRegion "iteration") per iteration it executed. Over a range (`unrolled_range`),
///    lb/ub/stride describe it; otherwise (a list, a `while`) only trip_count does.
struct LoopAxis {
  enum class Tag : uint8_t { AffineAxis, DynamicAxis, UnrolledAxis };
  Tag tag = Tag::AffineAxis;
  std::string name; ///< induction variable's name in the IR (empty: an unrolled `while`)
  int64_t lb = 0, ub = 0, stride = 1;
  int64_t trip_count = 0; ///< static trip count (AffineAxis, UnrolledAxis)
  AxisType axis_type = AxisType::Affine;
  AccessPattern dynamic_trip;     ///< DynamicAxis (Beta 1): the (1,1) tile holding the trip count
  RegisterId iv_register = kNone; ///< DynamicAxis (current language): the induction register
  RegisterId lb_register = kNone; ///< a bound read from a register instead of lb / ub
  RegisterId ub_register = kNone;
  bool unrolled_range = false; ///< UnrolledAxis: a loop over range(lb, ub, stride)
  bool unrolled_while = false; ///< UnrolledAxis: a Python `while`
  RegionId region = kNone;
};

/// A condition read at run time from a (1,1) tile: `tile[0,0] <op> rhs` (do-while loops).
struct ScalarCondition {
  AccessPattern scalar;
  CmpOp op = CmpOp::Ne;
  double rhs = 0;
  bool always = false; ///< the "always true" guard a WhileScope starts with
};

/// What a region is opened with. Only the members meaningful for its kind are set.
struct RegionPayload {
  std::string name;          ///< KernelScope/FunctionScope: kernel or function name
  LoopAxisId axis = kNone;   ///< LoopScope
  Predicate predicate;       ///< IfScope condition / WhileScope continue condition
  bool is_else = false;      ///< IfScope: the else branch of the preceding IfScope
  ScalarCondition condition; ///< WhileScope: the continue condition (set while tracing)
  std::string tag;           ///< ScopeRegion: "stage", "no_reorder", "iteration", ...
  int64_t stage_id = -1, execution_order = -1;
  int64_t iteration = -1;            ///< ScopeRegion "iteration": its index in the loop
  int64_t core = -1;                 ///< ScopeRegion "core": the body one logical core runs
                                     ///< (the current language specialises a kernel per core)
  RegisterId while_register = kNone; ///< WhileScope (current language): a pre-checked
                                     ///< `while reg != 0` instead of Beta 1's do-while
};

/// A child of a region, in program order.
struct Item {
  enum class Kind : uint8_t { Inst, Region } kind;
  int id;
};

struct Region {
  RegionId id = kNone;
  RegionKind kind = RegionKind::ScopeRegion;
  RegionId parent = kNone;
  RegionPayload payload;
  std::vector<Item> body;
  SourceLoc loc;
};

class IRBuilder;

/// One traced kernel. Read-only to everything but the builder.
class Kernel {
public:
  const std::string& name() const { return name_; }
  const std::vector<int64_t>& grid() const { return grid_; }
  const std::vector<TensorId>& params() const { return params_; }
  const std::vector<TensorId>& outputs() const { return outputs_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Instruction>& instructions() const { return insts_; }
  const std::vector<Region>& regions() const { return regions_; }
  const std::vector<LoopAxis>& loop_axes() const { return axes_; }
  const std::vector<Register>& registers() const { return registers_; }
  const Register& register_at(RegisterId id) const { return registers_.at(id); }
  /// "" for Beta 1 (neuronxcc.nki); "nki 0.6.0" for the current language.
  const std::string& language() const { return language_; }
  /// The current language's launch: the logical NeuronCore degree (`kernel[2]`); grid() is
  /// {lnc} then, one instance per core.
  int64_t lnc() const { return lnc_; }
  const Tensor& tensor(TensorId id) const { return tensors_.at(id); }
  const Instruction& inst(InstId id) const { return insts_.at(id); }
  const Region& region(RegionId id) const { return regions_.at(id); }
  const LoopAxis& loop_axis(LoopAxisId id) const { return axes_.at(id); }
  RegionId root() const { return root_; }
  const SourceLoc& loc() const { return loc_; }

private:
  friend class IRBuilder;
  std::string name_;
  std::vector<int64_t> grid_;
  std::vector<TensorId> params_, outputs_;
  std::vector<Tensor> tensors_;
  std::vector<Instruction> insts_;
  std::vector<Region> regions_;
  std::vector<LoopAxis> axes_;
  std::vector<Register> registers_;
  std::string language_;
  int64_t lnc_ = 1;
  RegionId root_ = kNone;
  SourceLoc loc_;
};

/// The one mutation door. Every node is created here: it is stamped with the builder's current
/// source location and appended to the current insertion region.
class IRBuilder {
public:
  explicit IRBuilder(Kernel& k) : k_(k) {}

  const Kernel& kernel() const { return k_; }
  void set_kernel_info(std::string name, std::vector<int64_t> grid, SourceLoc loc);
  /// The current language's kernels: the language ("nki 0.6.0") and the LNC degree.
  void set_language(std::string language, int64_t lnc);

  /// Source location stamped on nodes created from now on.
  void set_loc(SourceLoc loc) { loc_ = std::move(loc); }
  const SourceLoc& loc() const { return loc_; }
  void set_stmt(int stmt) { stmt_ = stmt; }

  RegionId insertion_region() const { return insert_; }
  void set_insertion_region(RegionId r) { insert_ = r; }

  /// Creates a region as the next child of the insertion region (the root when there is none).
  RegionId create_region(RegionKind kind, RegionPayload payload);
  LoopAxisId create_loop_axis(LoopAxis axis);
  void attach_axis(LoopAxisId axis, RegionId region);
  /// A unique tensor name derived from `hint` ("t" when empty).
  std::string unique_name(const std::string& hint);
  /// Creates a tensor in the insertion region. In the current language a tensor belongs to
  /// the nearest region that bounds its lifetime (the kernel, a dynamic loop's or while loop's
  /// body), not to the unrolled iteration, helper call or no_reorder block it was made in:
  /// the tracer runs Python, whose values outlive those.
  TensorId create_tensor(Tensor t);
  /// That region for tensors created in `r`.
  RegionId allocation_home(RegionId r) const;
  /// A tensor sharing `base`'s storage (a view the IR addresses differently: another shape or
  /// dtype), with base's role, buffer, allocation region and location. No instruction.
  TensorId create_alias(TensorId base, std::string name, std::vector<int64_t> shape, DType dtype);
  RegisterId create_register(std::string name, bool frozen = false);
  /// An unrolled loop's trip count is known once its last iteration ran.
  void set_trip_count(LoopAxisId axis, int64_t trip);
  void add_param(TensorId t);
  void set_outputs(std::vector<TensorId> outs);
  void rename_tensor(TensorId t, std::string name);
  InstId create_inst(Instruction inst);
  /// Unlinks region `r` from its parent when it is empty and the parent's last child (a
  /// FunctionScope of a helper that emitted nothing). Returns whether it did.
  bool drop_if_empty(RegionId r);
  /// Installs the continue condition of a WhileScope (known only once its body is traced).
  void set_while_condition(RegionId r, ScalarCondition c);
  /// The most recent item of the insertion region when it is an instruction, for amending in
  /// place (NKI folds an op into what consumes it: `psum += nc_matmul(...)` accumulates into
  /// `psum`; a direct allocation annotates the allocating instruction). Only the last
  /// instruction may be amended, so program order stays what was traced. Null otherwise.
  Instruction* last_inst();

private:
  Kernel& k_;
  SourceLoc loc_;
  RegionId insert_ = kNone;
  int stmt_ = kNone;
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, int> next_suffix_;
};

} // namespace nki::ir
