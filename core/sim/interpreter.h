#pragma once
/// Walks a kernel's regions as the printer does and executes its instructions: loops (affine,
/// sequential, dynamic trip counts read at run time, the current language's loops over
/// registers), IfScope predicates with their else branches, do-while WhileScopes and the
/// current language's pre-checked `while reg != 0`, one SPMD instance at a time. An unrolled
/// loop's regions are its iterations, run in order.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/target.h"
#include "sim/exec.h"
#include "sim/storage.h"

namespace nki::sim {

struct SimOptions {
  int64_t sbuf_bytes = ir::kSbufPartitionBytes; ///< usable SBUF per partition (ir/target.h)
  int64_t while_limit = 1000000; ///< iterations after which a do-while loop is an error
  /// The current language's simulator contract (NKI 0.6.0): integers never written read as 4
  /// (Beta 1: 0); NKI_PRECISE_FP; checks NKI's own simulator does not make (never-written
  /// reads, capacity) are labelled as nki-playground's.
  int64_t unwritten_int = 0;
  bool precise_fp = true;
  bool float16_in_fp32 = true; ///< MemoryOptions::float16_in_fp32 (false for Beta 1)
  bool label_own_checks = false;
  std::string target = "trn1"; ///< "trn1", "trn2" or "trn3"
};

class Interpreter {
public:
  /// Raises "not supported in the simulator yet: <opcode>" for the first instruction whose
  /// opcode has no executor.
  Interpreter(const ir::Kernel& k, Storage& storage, RunLog& log, const SimOptions& opts);
  /// Runs the kernel body for the instance with program ids `pid`.
  void run_instance(const std::vector<int64_t>& pid);
  /// Whether the kernel has instructions that make its logical cores meet (core_barrier,
  /// sendrecv); such a kernel runs with run_cores_together instead of one instance per core.
  bool cores_meet() const;
  /// Runs an LNC2 kernel's two core bodies side by side: each up to its next core_barrier or
  /// sendrecv, which both cores then pass together (interpreter_cores.cpp).
  void run_cores_together();

private:
  void region(const ir::Region& r);
  void body(const ir::Region& r);
  void execute(const ir::Instruction& in);
  /// Runs group `g` a strip of partitions at a time when that pays and its run-time
  /// conditions hold (every instruction unmasked, every operand in bounds and strided, what it
  /// reads and does not define fully written); false (nothing done) otherwise.
  bool run_strips(const StripGroup& g);
  /// Runs a StripGroup::fuse group partition by partition, its instructions interleaved by
  /// chunks (interpreter_fused.cpp), once run_strips' checks passed; false (nothing computed)
  /// when an operand turns out not to suit. `aliased`: own tiles whose copy aliases memory.
  bool run_fused(const StripGroup& g, const std::vector<ir::TensorId>& aliased);
  void loop(const ir::Region& r);
  void register_loop(const ir::Region& r, const ir::LoopAxis& a);
  void while_loop(const ir::Region& r);
  void register_while(const ir::Region& r);
  int64_t read_scalar(const ir::AccessPattern& ap, double* as_float = nullptr);

  struct Frame { // a region being walked step by step (run_cores_together)
    const ir::Region* r;
    size_t i = 0;
    bool after_if = false, if_taken = false; // as body() tracks IfScope / else pairs
  };
  struct CoreState { // what each core's engines keep between its steps
    float accumulator[2][128];
    uint32_t xorwow[2][128][24];
    uint64_t rng;
  };
  /// Runs core `core`'s frames up to its next meeting instruction (returned) or its end (null).
  const ir::Instruction* step_core(std::vector<Frame>& frames, int core);
  void meet(const ir::Instruction* a, const ir::Instruction* b);
  void save_core(CoreState& s) const;
  void load_core(const CoreState& s);
  std::vector<char> meets_in_region_; ///< by region id: holds a meeting instruction

  const ir::Kernel& k_;
  SimOptions opts_;
  Exec ex_;
  std::vector<ExecFn> fns_;                         ///< by instruction id
  std::vector<std::unique_ptr<Buffer>> strip_bufs_; ///< by position in a group's `local`
  /// strip_bufs_[i], made to hold `elems` elements of tile `t` in the dtype Storage holds it
  /// in, marked written.
  Buffer* strip_buffer(size_t i, const ir::Tensor& t, int64_t elems);
  std::unique_ptr<Buffer> placeholder_; ///< stands for them while checking
};

} // namespace nki::sim
