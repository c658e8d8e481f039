// An LNC2 kernel whose cores meet (nisa.core_barrier, nisa.sendrecv): NKI 0.6.0's simulator
// runs the two cores as threads that wait for each other there; this one walks both cores'
// bodies in turn, each up to its next meeting instruction, then passes it for both (a barrier
// orders their HBM accesses; sendrecv hands each core's src to the other's dst). A meeting
// inside a runtime loop (fori_loop, while_loop, dynamic_range) is not simulated; cores that
// do not meet alike (one finished, different instructions, mismatched ranks) are an error at
// the instruction.
#include <utility>

#include "sema/sema.h"
#include "sim/diagnostics.h"
#include "sim/exec_util.h"
#include "sim/interpreter.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

bool is_meeting(const Instruction& in) {
  return in.opcode == "core_barrier" || in.opcode == "sendrecv";
}

std::string api(const Instruction& in) {
  return "nisa." + in.opcode;
}

} // namespace

bool Interpreter::cores_meet() const {
  if (k_.lnc() != 2) return false;
  for (const Instruction& in : k_.instructions())
    if (is_meeting(in)) return true;
  return false;
}

void Interpreter::save_core(CoreState& s) const {
  std::copy(&ex_.accumulator[0][0], &ex_.accumulator[0][0] + 256, &s.accumulator[0][0]);
  std::copy(&ex_.xorwow[0][0][0], &ex_.xorwow[0][0][0] + 2 * 128 * 24, &s.xorwow[0][0][0]);
  s.rng = ex_.rng;
}

void Interpreter::load_core(const CoreState& s) {
  std::copy(&s.accumulator[0][0], &s.accumulator[0][0] + 256, &ex_.accumulator[0][0]);
  std::copy(&s.xorwow[0][0][0], &s.xorwow[0][0][0] + 2 * 128 * 24, &ex_.xorwow[0][0][0]);
  ex_.rng = s.rng;
}

const Instruction* Interpreter::step_core(std::vector<Frame>& frames, int core) {
  while (!frames.empty()) {
    Frame& f = frames.back();
    if (f.i >= f.r->body.size()) {
      frames.pop_back();
      continue;
    }
    const Item& it = f.r->body[f.i++];
    if (it.kind == Item::Kind::Inst) {
      f.after_if = false;
      const Instruction& in = k_.inst(it.id);
      if (is_meeting(in)) return &in;
      execute(in);
      continue;
    }
    const Region& child = k_.region(it.id);
    const bool meets = meets_in_region_[static_cast<size_t>(child.id)] != 0;
    if (child.kind == RegionKind::IfScope) {
      bool take;
      if (child.payload.is_else) {
        take = f.after_if && !f.if_taken;
        f.after_if = false;
      } else {
        take = ex_.env.holds(child.payload.predicate);
        f.after_if = true;
        f.if_taken = take;
      }
      if (take && meets)
        err_not_supported_in_simulator("core_barrier / sendrecv inside a runtime branch",
                                       child.loc);
      if (take) body(child);
      continue;
    }
    f.after_if = false;
    if (child.payload.core >= 0 && child.payload.core != core) continue;
    if (!meets) {
      region(child);
      continue;
    }
    const bool unrolled = child.kind == RegionKind::LoopScope &&
                          k_.loop_axis(child.payload.axis).tag == LoopAxis::Tag::UnrolledAxis;
    if (child.kind == RegionKind::LoopScope && !unrolled) {
      err_not_supported_in_simulator("core_barrier / sendrecv inside a runtime loop (fori_loop, "
                                     "while_loop, dynamic_range): the cores meet only in "
                                     "straight-line code and Python loops",
                                     child.loc);
    }
    if (child.kind == RegionKind::WhileScope)
      err_not_supported_in_simulator("core_barrier / sendrecv inside a runtime loop (fori_loop, "
                                     "while_loop, dynamic_range)",
                                     child.loc);
    frames.push_back({&child, 0});
  }
  return nullptr;
}

void Interpreter::meet(const Instruction* a, const Instruction* b) {
  const Instruction* at = a ? a : b;
  if (!a || !b)
    err_cores_out_of_step("core " + std::to_string(a ? 0 : 1) + " waits at " + api(*at) +
                              " but core " + std::to_string(a ? 1 : 0) +
                              " finished without reaching one",
                          at->loc);
  if (a->opcode != b->opcode)
    err_cores_out_of_step("core 0 is at " + api(*a) + " (" + a->loc.str() +
                              ") while core 1 is at " + api(*b),
                          b->loc);
  if (a->opcode == "core_barrier") return;
  // sendrecv: each core receives what the core it receives from sends to it.
  const Instruction* at_core[2] = {a, b};
  Tile2D sent[2];
  for (int c = 0; c < 2; ++c) {
    const Instruction& in = *at_core[c];
    ex_.cur = &in;
    const int to = static_cast<int>(ex_.attr_num(in, "send_to_rank", 0));
    const int from = static_cast<int>(ex_.attr_num(in, "recv_from_rank", 0));
    const Instruction& peer = *at_core[from];
    if (static_cast<int>(ex_.attr_num(peer, "send_to_rank", 0)) != c ||
        ex_.attr_num(peer, "pipe_id", 0) != ex_.attr_num(in, "pipe_id", 0))
      err_cores_out_of_step(
          "core " + std::to_string(c) + " receives from core " + std::to_string(from) +
              " (pipe_id " + std::to_string(static_cast<int64_t>(ex_.attr_num(in, "pipe_id", 0))) +
              "), which sends to core " +
              std::to_string(static_cast<int64_t>(ex_.attr_num(peer, "send_to_rank", 0))) +
              " (pipe_id " +
              std::to_string(static_cast<int64_t>(ex_.attr_num(peer, "pipe_id", 0))) + ")",
          in.loc);
    (void)to;
    sent[c] = read_tile(ex_, ex_.need(in, "src"));
  }
  for (int c = 0; c < 2; ++c) {
    const Instruction& in = *at_core[c];
    ex_.cur = &in;
    const int from = static_cast<int>(ex_.attr_num(in, "recv_from_rank", 0));
    write_tile(ex_, ex_.need(in, "dst"), sent[from]);
    ++ex_.log.instructions;
  }
}

void Interpreter::run_cores_together() {
  // Which regions hold a meeting instruction (a child's id is above its parent's).
  meets_in_region_.assign(k_.regions().size(), 0);
  for (const Instruction& in : k_.instructions())
    if (is_meeting(in))
      for (RegionId r = in.region; r != kNone; r = k_.region(r).parent)
        meets_in_region_[static_cast<size_t>(r)] = 1;
  ex_.env.pid = {0};
  std::fill(ex_.env.reg.begin(), ex_.env.reg.end(), 0);
  ex_.start_instance();
  CoreState state[2];
  save_core(state[0]);
  save_core(state[1]);
  std::vector<Frame> frames[2];
  for (int c = 0; c < 2; ++c)
    if (k_.root() != kNone) frames[c].push_back({&k_.region(k_.root()), 0});
  // Items outside the core regions run for each core, as one instance per core runs them.
  const Instruction* at[2] = {nullptr, nullptr};
  for (;;) {
    for (int c = 0; c < 2; ++c) {
      ex_.env.pid = {c};
      load_core(state[c]);
      at[c] = step_core(frames[c], c);
      save_core(state[c]);
    }
    if (!at[0] && !at[1]) return;
    meet(at[0], at[1]);
  }
}

} // namespace nki::sim
