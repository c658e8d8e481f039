#pragma once
/// The executor interface: one function per opcode, grouped by family in exec_*.cpp. An
/// executor gets the Exec context (memory, loop variables, the run's log) and the instruction;
/// it resolves its operands into views over a Domain and processes runs.
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/ir.h"
#include "ir/target.h"
#include "sema/sema.h"
#include "sim/access.h"
#include "sim/plan.h"
#include "sim/storage.h"

namespace nki::sim {

struct SimOptions;

/// One nl.device_print, in program order.
struct PrintRecord {
  std::string prefix;
  std::vector<int64_t> shape;
  ir::DType dtype = ir::DType::Float32;
  std::vector<double> values; ///< row-major
  ir::SourceLoc loc;
  std::vector<int64_t> instance; ///< program ids of the SPMD instance that printed
};

/// One simulator warning, as data: its code (the docs/errors.md section), message and source
/// location, and the text printed for it.
struct RunWarning {
  std::string code;    ///< "unwritten-read", from the warn_* builder (sema::Code)
  std::string message; ///< the message alone
  ir::SourceLoc loc;   ///< the instruction's location (unknown: not known)
  std::string text;    ///< "file:line:col: warning: ..." exactly as printed
};

/// What a run reports besides its outputs. A kernel that prints or warns inside a loop of a
/// million iterations must not hold a million records (the page froze on them): past the
/// limits below the records are only counted.
struct RunLog {
  static constexpr size_t kMaxPrints = 1000;         ///< device_print records kept
  static constexpr size_t kMaxPrintValues = 1 << 20; ///< values over all kept prints
  static constexpr size_t kMaxWarnings = 100;        ///< warnings kept

  std::vector<RunWarning> warnings;
  std::vector<PrintRecord> prints;
  size_t print_values = 0;      ///< values held by `prints`
  int64_t prints_dropped = 0;   ///< device_print executions past the limits (not kept)
  int64_t warnings_dropped = 0; ///< warnings past kMaxWarnings (not kept)
  int64_t unwritten_reads = 0;  ///< reads of never-written memory (the first is in warnings)
  int64_t instructions = 0;     ///< instructions executed
  /// Bytes the executed instructions read and wrote in tensor memory: each tile operand and
  /// result over the positions it covers (a broadcast axis counted once), at its dtype's size.
  int64_t bytes_moved = 0;
  int64_t matmul_macs = 0; ///< multiply-adds of the executed nc_matmul instructions
  /// Recurrence steps of the executed tensor_tensor_scan instructions (one per element): work
  /// that is sequential along each partition's row (the benchmark's floors).
  int64_t scan_steps = 0;
  /// Loop iterations run partition by partition across iterations (interpreter_loop_fused.cpp).
  int64_t interleaved_iterations = 0;
};

/// A tile operand or an immediate.
struct Source {
  bool scalar = false;
  float value = 0;
  View view;
};

class Exec : public Reporter {
public:
  /// `planned` false: the plain plan (plain_plan, SimOptions::plan off).
  Exec(const ir::Kernel& k, Storage& storage, RunLog& log, bool planned = true)
      : k(k), storage(storage), log(log), plan(planned ? plan_kernel(k) : plain_plan(k)) {}

  const ir::Kernel& k;
  Storage& storage;
  RunLog& log;
  const KernelPlan plan;
  Env env;
  const SimOptions* opts = nullptr; ///< the run's options (set by the interpreter)
  const ir::Instruction* cur = nullptr;
  int64_t seq = 0; ///< instruction executions so far
  /// The multiply the next instruction, a tensor_tensor_scan, computes as its data1
  /// (KernelPlan::scan_pre; set by Interpreter::defer_to_scan for that one instruction).
  const ir::Instruction* scan_pre = nullptr;
  /// The multiply and add (KernelPlan::scan_post) the last scan computed into their tile as it
  /// ran: they count as executed when reached (Interpreter::body); -1 once reached, or none.
  int32_t post_mul = -1, post_add = -1;
  /// Set while a scan runs after the instructions making its accumulation's tile (those the
  /// plan lets run first): only then may it compute an accumulation they precede. (When the
  /// scan cannot wait its operands are not all written, which also keeps it off the path that
  /// computes the accumulation; the flag does not rest on that.)
  bool post_early = false;
  std::deque<View> pool;         ///< views of indirect indices (stable addresses)
  std::deque<Buffer> temps;      ///< materialized operands of the current instruction
  std::vector<float> scratch[3]; ///< an executor's fp32 work arrays, reused across executions
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  float accumulator[2][ir::kPmax] = {}; ///< Scalar [0] and Vector [1] engines' reduce registers
  /// The XORWOW generators of GpSimd [0] and Vector [1], per lane: GpSimd one generator (five
  /// words and a counter), Vector four (24 words). exec_misc.cpp.
  uint32_t xorwow[2][ir::kPmax][24] = {};
  /// A kernel instance starts with fresh registers and random stream.
  void start_instance();

  // --- operands --------------------------------------------------------------------------------
  const ir::Operand* find(const ir::Instruction& in, const char* role) const;
  const ir::Operand& need(const ir::Instruction& in, const char* role) const;
  /// Shape the instruction writes: its result tensor's, or its "dst" operand's tile.
  const std::vector<int64_t>& out_shape(const ir::Instruction& in) const;
  /// The destination view: the result tensor (allocated now: fully written when `dom` covers
  /// it, "never written" elsewhere) or the "dst" operand.
  /// With `covers` false the result is allocated as never written even when `dom` spans it
  /// (the executor writes only part of it).
  View output(const ir::Instruction& in, const Domain& dom, bool covers = true);
  /// The whole of tensor `t` as a view on `dom`, without (re)allocating it.
  View tensor_view(ir::TensorId t, const Domain& dom);
  View view(const ir::Operand& o, const Domain& dom);
  Source source(const ir::Instruction& in, const char* role, const Domain& dom,
                float fallback = 0.0f);
  /// Adds the bytes `v` covers on `dom` to the run's bytes_moved.
  void count_bytes(const View& v, const Domain& dom);
  /// Reads a run of a Source as fp32.
  void read(const Source& s, const int64_t* pos, int64_t lo, int64_t n, float* out);

  // --- attributes --------------------------------------------------------------------------------
  bool has_attr(const ir::Instruction& in, const std::string& key) const;
  std::string attr_str(const ir::Instruction& in, const std::string& key,
                       const std::string& fallback = "") const;
  double attr_num(const ir::Instruction& in, const std::string& key, double fallback) const;
  std::vector<int64_t> attr_ints(const ir::Instruction& in, const std::string& key) const;

  // --- reporting ---------------------------------------------------------------------------------
  void unwritten_read(const View& v, int64_t element) override;
  /// A warning at `loc`, or at the current instruction's location.
  void warn(const sema::Warning& w, const ir::SourceLoc* loc = nullptr);
  [[noreturn]] void unsupported(const std::string& what) const;

private:
  int64_t reported_seq_ = -1; // the execution whose never-written read was counted last
};

using ExecFn = void (*)(Exec&, const ir::Instruction&);

/// What the per-kernel plan (plan.cpp) may assume of an opcode, declared with its executor
/// (the register_*_execs functions): the one place that says which opcodes are element-wise,
/// copies, stores or views. An opcode without facts gets none of the plan's shortcuts.
struct OpFacts {
  using Test = bool (*)(const ir::Kernel&, const ir::Instruction&);
  /// Partition p of its result depends on partition p of its operands alone, with no state
  /// beyond the instruction (element-wise, or reducing along free axes only): a strip of
  /// partitions may run it apart from the others (StripGroup). `row_local_if`: a condition on
  /// the instruction's attributes and tiles besides (e.g. tensor_reduce's axes).
  bool row_local = false;
  Test row_local_if = nullptr;
  /// Interpreter::run_fused runs it row by row, a chunk at a time (rank-2 tiles, ALU operators
  /// that are not bitwise: checked by the plan); `fusable_if` as `row_local_if`.
  bool fusable = false;
  Test fusable_if = nullptr;
  /// Copies its "src" whole and unchanged into the tile it fills: its result, or (`into_dst`,
  /// the current language's dma_copy) its "dst" when that is a whole tile. Such a tile may read
  /// a read-only source in place (KernelPlan::alias).
  bool copy = false;
  bool into_dst = false;
  /// Writes its "value" (or "src") operand into "dst" unchanged: a tile only it reads may live
  /// in that destination (StripGroup::forward).
  bool store = false;
  /// Defines a view of its source's memory and writes nothing.
  bool view = false;
};

/// opcode → executor and facts.
class ExecTable {
public:
  void add(const std::string& opcode, ExecFn f, OpFacts facts = {}) { table_[opcode] = {f, facts}; }
  ExecFn find(const std::string& opcode) const;
  /// The opcode's facts (none for an opcode without an executor).
  const OpFacts& facts(const std::string& opcode) const;
  std::vector<std::string> opcodes() const;

private:
  std::unordered_map<std::string, std::pair<ExecFn, OpFacts>> table_;
};

/// Every executor (built once).
const ExecTable& exec_table();

void register_movement_execs(ExecTable& t);    // exec_movement.cpp
void register_creation_execs(ExecTable& t);    // exec_creation.cpp
void register_elementwise_execs(ExecTable& t); // exec_elementwise.cpp
void register_select_execs(ExecTable& t);      // exec_select.cpp
void register_reduce_execs(ExecTable& t);      // exec_reduce.cpp
void register_scan_execs(ExecTable& t);        // exec_scan.cpp: tensor_tensor_scan
void register_matmul_execs(ExecTable& t);      // exec_matmul.cpp
void register_misc_execs(ExecTable& t);        // exec_misc.cpp: random, device_print, ...
/// The XORWOW generators' fixed state before any rand_set_state (exec_misc.cpp).
void seed_xorwow(Exec& ex);
void register_register_execs(ExecTable& t); // exec_register.cpp: registers (current language)
/// The current language's pattern forms of iota / affine_select (exec_pattern.cpp), run when
/// the instruction carries a "pattern" attribute.
void exec_iota_pattern(Exec& ex, const ir::Instruction& in);
void exec_affine_select_pattern(Exec& ex, const ir::Instruction& in);
void register_partition_move_execs(ExecTable& t); // exec_partition_moves.cpp
void register_gather_execs(ExecTable& t);         // exec_gather.cpp: nc_n_gather, nonzero, topk
void register_mx_execs(ExecTable& t);             // exec_mx.cpp: quantize_mx, nc_matmul_mx

} // namespace nki::sim
