#pragma once
/// Walks a kernel's regions as the printer does and executes its instructions: loops (affine,
/// sequential, dynamic trip counts read at run time, the current language's loops over
/// registers), IfScope predicates with their else branches, do-while WhileScopes and the
/// current language's pre-checked `while reg != 0`, one SPMD instance at a time. An unrolled
/// loop's regions are its iterations, run in order.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/target.h"
#include "sim/exec.h"
#include "sim/fused.h"
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
  /// A mask term that holds at every position an instruction visits masks nothing and is
  /// dropped, so that the instruction takes its unmasked paths (Domain); true keeps every
  /// term as written (tests: an always-true mask then keeps a kernel on its ordinary path).
  bool keep_masks = false;
  /// The per-kernel plan's shortcuts (plan.h: read-only parameters, aliased copies, strips and
  /// fused strips, forwarded stores, interleaved tile loops, scans computing their neighbours);
  /// false runs every instruction alone through its executor (NKI_PLAYGROUND_SIM_PLAN=off).
  bool plan = true;
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
  /// For a multiply the next scan may compute (KernelPlan::scan_pre): whether its operands are
  /// fp32 tiles read in place and fully written, so that reading them later reports nothing
  /// (then it counts as executed and Exec::scan_pre names it); false leaves it to run.
  bool defer_to_scan(const ir::Instruction& m);
  /// Runs the instruction item r.body[i] — or the group starting there, or a scan with the
  /// instructions it lets run first (KernelPlan::scan_post) — and returns how many items it
  /// took.
  size_t instruction(const ir::Region& r, size_t i);
  /// Whether scan `s` may run after the instructions that follow it: its operands (and those
  /// of the multiply it computes its data1 with) resolve and are all written.
  bool scan_can_wait(const ir::Instruction& s);
  /// Runs group `g` a strip of partitions at a time when that pays and its run-time
  /// conditions hold (every instruction unmasked, every operand in bounds and strided, what it
  /// reads and does not define fully written); false (nothing done) otherwise.
  bool run_strips(const StripGroup& g);
  /// Runs a StripGroup::fuse group partition by partition, its instructions interleaved by
  /// chunks (interpreter_fused.cpp), once run_strips' checks passed; false (nothing computed)
  /// when an operand turns out not to suit. `aliased`: own tiles whose copy aliases memory.
  bool run_fused(const StripGroup& g, const std::vector<ir::TensorId>& aliased);
  /// run_strips' run-time checks for one execution of `g`: sets the forwarded tiles' redirects
  /// and the own tiles' placeholders (`strips`), lists the own tiles whose copy will alias
  /// read-only memory; false when a check fails (a run-time error counts as one).
  bool strips_ready(const StripGroup& g, std::vector<Redirect>& strips,
                    std::vector<ir::TensorId>& aliased);
  /// run_fused's first half: the group's steps for this execution (nothing computed; the own
  /// tiles' row buffers in fused_rowbufs_); false when an operand does not suit.
  bool prepare_fused(const StripGroup& g, const std::vector<ir::TensorId>& aliased,
                     std::vector<FusedStep>& steps);
  /// run_fused's second half for partition `p`: every phase, chunk by chunk, step by step.
  void fused_row(std::vector<FusedStep>& steps, int64_t p, int64_t seq0);
  /// A loop whose body is one fused group, run partition by partition across its iterations
  /// when their accesses allow it (interpreter_loop_fused.cpp): the iterations done so (from
  /// the first), 0 when none.
  int64_t run_loop_fused(const ir::Region& r, const ir::LoopAxis& a, int64_t& iv);
  /// An unrolled loop (its iterations are its child regions), likewise where they allow it.
  void run_unrolled(const ir::Region& r);
  /// The fused group that is all of region r's body (through single nested regions), if any.
  const StripGroup* loop_group(const ir::Region& r) const;
  /// Runs one execution of each of `gs` (enter(k) sets up the k-th), interleaved partition by
  /// partition, when each passes its checks and no one writes memory another accesses (bar
  /// disjoint writes); false (nothing computed) otherwise.
  bool fuse_batch(const std::vector<const StripGroup*>& gs,
                  const std::function<void(int64_t)>& enter);
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
  std::unique_ptr<Buffer> placeholder_;            ///< stands for them while checking
  std::vector<const Buffer*> fused_rowbufs_;       ///< prepare_fused's own row buffers
  std::vector<std::vector<FusedStep>> loop_steps_; ///< fuse_batch's, by iteration
};

} // namespace nki::sim
