// Fused strip groups (plan.h StripGroup::fuse): a row-local run of copies, element-wise
// operations and last-axis reductions executes one partition at a time, and within a
// partition a chunk of kChunk elements of each instruction after the other, so that a chain
// such as softmax's subtract -> exp -> sum reads its input once, passes each chunk on while it
// is in the core's first-level cache and keeps each reduction in a register until the row
// ends. The group's own tiles live in one-row buffers (their partition stride is 0).
//
// Each instruction computes every element with the operations, in the order, of its own
// executor (exec_elementwise.cpp, exec_reduce.cpp, exec_movement.cpp), reductions fold the
// same chunks, so the bytes are those of the whole-tile run (tests/core/sim_fused_test.cpp).
// An instruction that reads what an earlier one of its phase writes, through another view, or
// what a reduction of its phase produces, starts a new phase: phases run one after the other
// on a partition, so each reads only what is complete.
#include <algorithm>
#include <array>

#include "sim/exec_util.h"
#include "sim/fused.h"
#include "sim/interpreter.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

using Kind = FusedStep::Kind;
using Step = FusedStep;

// Thrown while preparing the steps when the group cannot run fused after all (nothing has been
// computed yet; run_strips takes over).
struct Decline {};

struct Access {
  const Buffer* buf;
  int64_t origin, s0, s1;
  bool write, late; // late: a reduction's result, written when its phase ends
};

bool same_view(const View& x, const View& y) {
  return x.buf == y.buf && x.origin == y.origin && x.stride[0] == y.stride[0] &&
         x.stride[1] == y.stride[1] && x.esize == y.esize;
}

Alu alu_of(Exec& ex, const Instruction& in, const char* key) {
  auto op = parse_alu(ex.attr_str(in, key));
  if (!op) throw Decline{};
  return *op;
}

// The views step s reads.
std::array<const View*, 4> reads_of(const Step& s) {
  return {&s.a, s.kind == Kind::Binary ? &s.b : nullptr, s.s0.scalar ? nullptr : &s.s0.view,
          s.s1.scalar ? nullptr : &s.s1.view};
}

// Whether no step but steps[first..last] reads or writes buffer t (a row buffer).
bool alone(const std::vector<Step>& steps, const Buffer* t, size_t first, size_t last) {
  for (size_t j = 0; j < steps.size(); ++j) {
    if (j >= first && j <= last) continue;
    if (steps[j].out.buf == t) return false;
    for (const View* v : reads_of(steps[j]))
      if (v && v->buf == t) return false;
  }
  return true;
}

// Chains of two tensor_tensor steps, the first's result a row buffer (one of `rowbufs`) of
// fp32 that the next step, of the same phase and width, reads through the same view and no
// other step accesses: the next step computes both operators in one pass (alu_pair_f32) and
// the first runs as part of it, its row buffer left unwritten. Nothing else changes in the
// steps, so the loop checks (fuse_batch) still see every access.
void merge_chains(std::vector<Step>& steps, const std::vector<const Buffer*>& rowbufs) {
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    Step &x = steps[i], &y = steps[i + 1];
    const Buffer* t = x.out.buf;
    if (x.kind != Kind::Binary || y.kind != Kind::Binary || x.chain != 0 || x.phase != y.phase ||
        x.width != y.width || !alu_pair_covered(x.op0, y.op0) ||
        std::find(rowbufs.begin(), rowbufs.end(), t) == rowbufs.end() ||
        t->dtype != DType::Float32 || x.out.dtype != DType::Float32 || x.out.esize != 4)
      continue;
    const int chain = same_view(y.a, x.out) ? 1 : same_view(y.b, x.out) ? 2 : 0;
    if (chain == 0 || (chain == 1 ? y.b : y.a).buf == t || x.a.buf == t || x.b.buf == t ||
        y.out.buf == t)
      continue;
    if (!alone(steps, t, i, i + 1)) continue;
    x.merged = true;
    y.chain = chain;
    y.ca = x.a;
    y.cb = x.b;
    y.cop = x.op0;
    y.cin = x.in;
  }
}

// A tensor_scalar step of two operators and constant operands, whose result, a row buffer of
// fp32, only the chain of the two steps after it (merge_chains) reads, of the same phase and
// width, through the same view: the chain computes all four operators in one pass
// (alu_quad_f32) — layernorm's (x - mean) * inv_std * gamma + beta — and the tensor_scalar
// runs as part of it, its row buffer left unwritten.
void merge_quads(std::vector<Step>& steps, const std::vector<const Buffer*>& rowbufs) {
  for (size_t i = 0; i + 2 < steps.size(); ++i) {
    Step &x = steps[i], &y = steps[i + 1], &z = steps[i + 2];
    const Buffer* t = x.out.buf;
    if (x.kind != Kind::TwoOps || x.merged || x.op1 == Alu::Bypass || !y.merged || z.chain == 0 ||
        z.quad != 0 || x.phase != z.phase || y.phase != z.phase || x.width != z.width ||
        !constant_along(x.s0) || !constant_along(x.s1) ||
        std::find(rowbufs.begin(), rowbufs.end(), t) == rowbufs.end() ||
        t->dtype != DType::Float32 || x.out.dtype != DType::Float32 || x.out.esize != 4)
      continue;
    const int side = same_view(z.ca, x.out) ? 1 : same_view(z.cb, x.out) ? 2 : 0;
    const View& last = z.chain == 1 ? z.b : z.a; // the chain's own operand
    if (side == 0 || (side == 1 ? z.cb : z.ca).buf == t || last.buf == t || x.a.buf == t ||
        z.out.buf == t || (!x.s0.scalar && x.s0.view.buf == t) ||
        (!x.s1.scalar && x.s1.view.buf == t) ||
        !alu_quad_covered(x.op0, x.r0, x.op1, x.r1, z.cop, side == 2, z.op0, z.chain == 2))
      continue;
    if (!alone(steps, t, i, i + 2)) continue;
    x.merged = true;
    z.quad = side;
    z.qa = x.a;
    z.qs0 = x.s0;
    z.qs1 = x.s1;
    z.qop0 = x.op0;
    z.qop1 = x.op1;
    z.qin = x.in;
  }
}

// An add, subtract or multiply by one value along the row (a tensor_tensor with a (P, 1)
// column, or a tensor_scalar of one operator and a constant operand), whose result, a row
// buffer of fp32, only the exp activation after it reads (unscaled, unbiased; of the same
// phase and width, through the same view): the exp computes exp(x op v) in one pass
// (exp_f32_op: the same rounded values, then exp) — softmax's exp(x - max) — and the first
// step runs as part of it, its row buffer left unwritten. (Should the exp write the memory the
// first step reads, the phases make it the same view: the pass reads and writes each element
// at one index, which exp_f32_op allows.)
void merge_exps(std::vector<Step>& steps, const std::vector<const Buffer*>& rowbufs) {
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    Step &x = steps[i], &y = steps[i + 1];
    const Buffer* t = x.out.buf;
    if (y.kind != Kind::Activation || y.fn != Act::Exp || y.scaled || y.biased ||
        y.pre != Alu::Bypass || x.merged || x.chain != 0 || x.quad != 0 || x.phase != y.phase ||
        x.width != y.width ||
        (x.op0 != Alu::Add && x.op0 != Alu::Subtract && x.op0 != Alu::Multiply) ||
        std::find(rowbufs.begin(), rowbufs.end(), t) == rowbufs.end() ||
        t->dtype != DType::Float32 || x.out.dtype != DType::Float32 || x.out.esize != 4 ||
        !same_view(y.a, x.out) || x.a.buf == t)
      continue;
    Source v;
    if (x.kind == Kind::Binary) {
      v.view = x.b;
      if (!constant_along(v) || x.b.buf == t) continue;
    } else if (x.kind == Kind::TwoOps) {
      v = x.s0;
      if (x.op1 != Alu::Bypass || x.r0 || !constant_along(v) || (!v.scalar && v.view.buf == t))
        continue;
    } else {
      continue;
    }
    if (!alone(steps, t, i, i + 1)) continue;
    x.merged = true;
    y.pre = x.op0;
    y.pa = x.a;
    y.ps = v;
    y.pin = x.in;
  }
}

// Copies onto themselves whose source an earlier step of their phase computes, through the
// same view and as wide: that step writes (and marks written) each chunk before the copy runs
// on it, so the copy need not test the written map (`fed`).
void mark_fed(std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    Step& s = steps[i];
    if (s.kind != Kind::Copy || !s.skip) continue;
    for (size_t j = i; j-- > 0 && steps[j].phase == s.phase;) {
      const Step& w = steps[j];
      if (w.out.buf != s.a.buf) continue;
      s.fed = same_view(w.out, s.a) && w.width == s.width && !w.merged &&
              (w.kind == Kind::Binary || w.kind == Kind::TwoOps || w.kind == Kind::Activation);
      break;
    }
  }
}

// One chunk [c, c + m) of partition pos[0] of step s (the executors' loop bodies).
void run_chunk(Exec& ex, Step& s, const int64_t* pos, int64_t c, int64_t m) {
  float t0[kChunk], t1[kChunk], t2[kChunk];
  switch (s.kind) {
  case Kind::Copy:
    if (s.skip && (s.fed || s.a.buf->written.test_range(s.a.offset(pos, c), m))) {
      ex.log.bytes_moved -= 2 * m * s.a.esize; // counted when the views were made; none move
      return;
    }
    if (s.bits) {
      copy_bits(s.out, s.a, pos, c, m, ex);
    } else {
      read_f32(s.a, pos, c, m, t0, ex);
      write_f32(s.out, pos, c, m, t0);
    }
    return;
  case Kind::Binary: {
    if (s.merged) return; // the next step computes it
    if (s.quad != 0) {
      // The tensor_scalar's data and operands, then the first tensor_tensor's other operand,
      // each read as its own instruction (its line, its sequence number).
      const Instruction* cur = ex.cur;
      const int64_t seq = ex.seq;
      ex.cur = s.qin;
      ex.seq = seq - 2;
      const float* px = in_f32(ex, s.qa, pos, c, m, t0);
      if (c == 0) { // the operands are one value along the row: read with its first chunk
        source_run(ex, s.qs0, pos, c, m, t1, s.qy);
        source_run(ex, s.qs1, pos, c, m, t1, s.qz);
      }
      ex.cur = s.cin;
      ex.seq = seq - 1;
      const View& u = s.quad == 1 ? s.cb : s.ca;
      const float* pu = in_f32(ex, u, pos, c, m, t1);
      ex.cur = cur;
      ex.seq = seq;
      const View& w = s.chain == 1 ? s.b : s.a;
      const float* pw = in_f32(ex, w, pos, c, m, t2);
      float t3[kChunk];
      float* po = out_f32(s.out, {&s.qa, &u, &w}, pos, c, t3);
      alu_quad_f32(s.qop0, false, s.qop1, false, s.cop, s.quad == 2, s.op0, s.chain == 2, px, s.qy,
                   s.qz, pu, pw, po, m);
      out_done(s.out, pos, c, m, po, t3);
      return;
    }
    if (s.chain != 0) {
      // The merged step's operands, read as that step (its line, its sequence number).
      const Instruction* cur = ex.cur;
      const int64_t seq = ex.seq;
      ex.cur = s.cin;
      ex.seq = seq - 1;
      const float* px = in_f32(ex, s.ca, pos, c, m, t0);
      const float* py = in_f32(ex, s.cb, pos, c, m, t1);
      ex.cur = cur;
      ex.seq = seq;
      const View& z = s.chain == 1 ? s.b : s.a;
      const float* pz = in_f32(ex, z, pos, c, m, t2);
      float t3[kChunk];
      float* po = out_f32(s.out, {&s.ca, &s.cb, &z}, pos, c, t3);
      alu_pair_f32(s.cop, false, s.op0, s.chain == 2, px, py, 0, pz, 0, po, m);
      out_done(s.out, pos, c, m, po, t3);
      return;
    }
    const float* pa = in_f32(ex, s.a, pos, c, m, t0);
    const float* pb = in_f32(ex, s.b, pos, c, m, t1);
    float* po = out_f32(s.out, {&s.a, &s.b}, pos, c, t2);
    alu_f32(s.op0, pa, pb, po, m);
    out_done(s.out, pos, c, m, po, t2);
    return;
  }
  case Kind::TwoOps: {
    if (s.merged) return; // a chain after it computes it (merge_quads)
    float* po = out_f32(
        s.out, {&s.a, s.s0.scalar ? nullptr : &s.s0.view, s.s1.scalar ? nullptr : &s.s1.view}, pos,
        c, t0);
    const float* x = in_f32(ex, s.a, pos, c, m, po);
    if (!apply_pair(ex, s.op0, s.s0, s.r0, s.op1, s.s1, s.r1, x, po, pos, c, m, t1, t2)) {
      apply_op(ex, s.op0, s.s0, s.r0, x, po, pos, c, m, t1);
      if (s.op1 != Alu::Bypass) apply_op(ex, s.op1, s.s1, s.r1, po, po, pos, c, m, t1);
    }
    out_done(s.out, pos, c, m, po, t0);
    return;
  }
  case Kind::Activation: {
    float* po = out_f32(
        s.out, {&s.a, s.s0.scalar ? nullptr : &s.s0.view, s.s1.scalar ? nullptr : &s.s1.view}, pos,
        c, t0);
    if (s.pre != Alu::Bypass) { // exp(x op v), the merged step's operands read as that step
      const Instruction* cur = ex.cur;
      const int64_t seq = ex.seq;
      ex.cur = s.pin;
      ex.seq = seq - 1;
      const float* px = in_f32(ex, s.pa, pos, c, m, t1);
      float v = 0;
      source_run(ex, s.ps, pos, c, m, t2, v);
      ex.cur = cur;
      ex.seq = seq;
      exp_f32_op(px, s.pre, v, po, m);
      out_done(s.out, pos, c, m, po, t0);
      return;
    }
    const float* x = in_f32(ex, s.a, pos, c, m, t1);
    if (s.fn == Act::Exp && s.scaled && !s.biased && constant_along(s.s0)) {
      float v = 0;
      source_run(ex, s.s0, pos, c, m, t2, v);
      exp_f32_op(x, Alu::Multiply, v, po, m); // exp(x * scale) in one pass
      out_done(s.out, pos, c, m, po, t0);
      return;
    }
    if (s.scaled) {
      apply_op(ex, Alu::Multiply, s.s0, false, x, po, pos, c, m, t2);
      x = po;
    }
    if (s.biased) {
      apply_op(ex, Alu::Add, s.s1, false, x, po, pos, c, m, t2);
      x = po;
    }
    act_f32(s.fn, x, po, m);
    out_done(s.out, pos, c, m, po, t0);
    return;
  }
  case Kind::Reduce:
    s.acc = fold_run(s.op0, s.acc, in_f32(ex, s.a, pos, c, m, t0), m);
    return;
  }
}

// Whether step s runs over its whole row at once as well as chunk by chunk: its operands and
// result are memory it reads and writes in place (contiguous fp32, written, the result apart
// from the operands), so run_chunk needs no scratch for any length; a bit-for-bit copy copies
// any length. Other kinds (conversions, activations, reductions, whose folds follow the
// chunks) are not.
bool runs_wide(const Step& s, const int64_t* pos) {
  auto in = [&](const View& v) { return direct_in(v, pos, 0) != nullptr; };
  auto out = [&](std::initializer_list<const View*> inputs) {
    for (const View* v : inputs)
      if (v->buf == s.out.buf) return false;
    return direct_out(s.out, pos, 0) != nullptr;
  };
  switch (s.kind) {
  case Kind::Copy:
    return s.bits;
  case Kind::Binary:
    if (s.merged) return true; // (computed by the next step)
    if (s.quad != 0) {
      const View &u = s.quad == 1 ? s.cb : s.ca, &w = s.chain == 1 ? s.b : s.a;
      return in(s.qa) && in(u) && in(w) && out({&s.qa, &u, &w});
    }
    if (s.chain != 0) {
      const View& z = s.chain == 1 ? s.b : s.a;
      return in(s.ca) && in(s.cb) && in(z) && out({&s.ca, &s.cb, &z});
    }
    return in(s.a) && in(s.b) && out({&s.a, &s.b});
  case Kind::TwoOps:
    return s.merged;
  default:
    return false;
  }
}

} // namespace

bool Interpreter::run_fused(const StripGroup& g, const std::vector<TensorId>& aliased) {
  std::vector<Step> steps;
  if (!prepare_fused(g, aliased, steps)) return false;
  const int64_t seq0 = ex_.seq;
  for (int64_t p = 0; p < g.rows; ++p) fused_row(steps, p, seq0);
  ex_.seq = seq0 + static_cast<int64_t>(g.insts.size());
  ex_.log.instructions += static_cast<int64_t>(g.insts.size());
  return true;
}

bool Interpreter::prepare_fused(const StripGroup& g, const std::vector<TensorId>& aliased,
                                std::vector<FusedStep>& steps) {
  // The group's own tiles: one row each (partition stride 0), unless their copy aliases.
  std::vector<const Buffer*>& rowbufs = fused_rowbufs_;
  rowbufs.clear();
  if (strip_bufs_.size() < g.local.size()) strip_bufs_.resize(g.local.size());
  for (size_t i = 0; i < g.local.size(); ++i) {
    const Tensor& t = k_.tensor(g.local[i]);
    if (std::find(aliased.begin(), aliased.end(), t.id) != aliased.end()) {
      ex_.storage.clear_strip(t.id);
      continue;
    }
    Redirect r;
    r.stride.assign(t.shape.size(), 1);
    for (size_t d = t.shape.size(); d-- > 1;) r.stride[d - 1] = r.stride[d] * t.shape[d];
    const int64_t elems = r.stride[0];
    r.stride[0] = 0;
    r.buf = strip_buffer(i, t, elems); // each row is written before it is read (as in run_strips)
    ex_.storage.set_strip(t.id, r);
    rowbufs.push_back(r.buf);
  }
  auto own = [&](const View& v) {
    return std::find(rowbufs.begin(), rowbufs.end(), v.buf) != rowbufs.end();
  };
  // Copies that alias read-only memory only set their tile's redirect: done first (their
  // source never changes), so that the steps below resolve the tile there.
  steps.clear();
  steps.reserve(g.insts.size());
  std::vector<std::vector<Access>> accesses;
  const int64_t log_bytes = ex_.log.bytes_moved;
  try {
    for (InstId id : g.insts) {
      const Instruction& in = k_.inst(id);
      ex_.cur = &in;
      const TensorId tile = ex_.plan.alias[static_cast<size_t>(id)] ? copy_target(k_, in) : kNone;
      if (tile != kNone && std::find(aliased.begin(), aliased.end(), tile) != aliased.end()) {
        fns_[static_cast<size_t>(id)](ex_, in);
        if (!ex_.storage.redirect(tile) || !ex_.storage.redirect(tile)->buf->read_only)
          throw Decline{};
        continue;
      }
      if (in.opcode == "ndarray") continue; // its tile is a row buffer (plan.cpp: local)
      const int phase = steps.empty() ? 0 : steps.back().phase;
      // (Built in place: a step holds fifteen views, and moving one in was a call out of wasm
      // to copy them, again as the vector grew.)
      Step& s = steps.emplace_back();
      s.in = &in;
      Domain dom(main_shape(k_, in), {}, ex_.env);
      s.width = dom.extent(1);
      auto view = [&](const Operand& o) {
        View v = resolve(ex_.storage, k_, o.ap, dom, ex_.env, in.loc, ex_.pool);
        if (v.linear || v.ind || v.rank != 2) throw Decline{};
        if (!own(v)) ex_.count_bytes(v, dom);
        return v;
      };
      auto source = [&](const char* role, float fallback) {
        Source src;
        const Operand* o = ex_.find(in, role);
        if (!o || o->is_scalar) {
          src.scalar = true;
          src.value = o ? static_cast<float>(o->scalar) : fallback;
        } else {
          src.view = view(*o);
        }
        return src;
      };
      const std::string& op = in.opcode;
      if (op == "load" || op == "store" || op == "tensor_copy" || op == "dma_copy" ||
          op == "broadcast_to") {
        s.kind = Kind::Copy;
        s.a = view(ex_.need(in, op == "store" && ex_.find(in, "value") ? "value" : "src"));
      } else if (op == "tensor_tensor") {
        s.kind = Kind::Binary;
        s.a = view(ex_.need(in, "x"));
        s.b = view(ex_.need(in, "y"));
        s.op0 = alu_of(ex_, in, "op");
        if (in.engine == Engine::GpSimd &&
            (s.op0 == Alu::Add || s.op0 == Alu::Subtract || s.op0 == Alu::Multiply) &&
            all_int({&s.a, &s.b}))
          throw Decline{};
      } else if (op == "tensor_scalar" || op == "scalar_tensor_tensor") {
        s.kind = Kind::TwoOps;
        s.a = view(ex_.need(in, "data"));
        s.s0 = source("operand0", 0.0f);
        s.s1 = source("operand1", 0.0f);
        s.op0 = alu_of(ex_, in, "op0");
        s.op1 = ex_.has_attr(in, "op1") ? alu_of(ex_, in, "op1") : Alu::Bypass;
        s.r0 = ex_.attr_num(in, "reverse0", 0) != 0;
        s.r1 = ex_.attr_num(in, "reverse1", 0) != 0;
      } else if (op == "activation") {
        s.kind = Kind::Activation;
        s.a = view(ex_.need(in, "data"));
        s.scaled = ex_.find(in, "scale") != nullptr;
        s.biased = ex_.find(in, "bias") != nullptr;
        s.s0 = source("scale", 1.0f);
        s.s1 = source("bias", 0.0f);
        auto fn = parse_act(ex_.attr_str(in, "op"));
        if (!fn) throw Decline{};
        s.fn = *fn;
      } else { // tensor_reduce along axis 1
        s.kind = Kind::Reduce;
        s.a = view(ex_.need(in, "data"));
        s.op0 = alu_of(ex_, in, "op");
        s.negate = ex_.attr_num(in, "negate", 0) != 0;
      }
      // The result (or destination), resolved as its executor does.
      Domain odom(ex_.out_shape(in), {}, ex_.env);
      if (in.result == kNone) {
        s.out = view(ex_.need(in, "dst"));
      } else {
        s.out = ex_.tensor_view(in.result, odom);
        if (s.out.linear || s.out.ind || s.out.rank != 2) throw Decline{};
        if (!own(s.out)) s.out = ex_.output(in, odom);
      }
      if (s.kind == Kind::Copy) {
        const bool scalar_engine = op == "tensor_copy" && in.engine == Engine::Scalar;
        s.bits = !scalar_engine && s.out.dtype == s.a.dtype;
        s.skip = s.bits && same_view(s.out, s.a) && s.a.inner_stride() == 1 &&
                 s.a.esize == elem_size(s.a.buf->dtype);
      }
      // Its phase: after the phase of a reduction it reads, or of a write it shares memory
      // with through another view.
      std::vector<Access> mine;
      auto note = [&](const View& v, bool write, bool late) {
        mine.push_back({v.buf, v.origin, v.stride[0], v.stride[1], write, late});
      };
      note(s.out, true, s.kind == Kind::Reduce);
      for (const View* v : {&s.a, s.kind == Kind::Binary ? &s.b : nullptr,
                            s.s0.scalar ? nullptr : &s.s0.view, s.s1.scalar ? nullptr : &s.s1.view})
        if (v && v->buf) note(*v, false, false);
      auto conflicts = [&](const std::vector<Access>& theirs) {
        for (const Access& x : mine)
          for (const Access& y : theirs)
            if (x.buf == y.buf && (x.write || y.write) &&
                (y.late || x.origin != y.origin || x.s0 != y.s0 || x.s1 != y.s1))
              return true;
        return false;
      };
      s.phase = phase;
      for (size_t j = steps.size() - 1; j-- > 0 && steps[j].phase == phase;)
        if (conflicts(accesses[j])) {
          s.phase = phase + 1;
          break;
        }
      accesses.push_back(std::move(mine));
    }
  } catch (const Decline&) {
    ex_.log.bytes_moved = log_bytes;
    for (TensorId t : g.local) ex_.storage.clear_strip(t);
    return false;
  }
  merge_chains(steps, rowbufs);
  merge_quads(steps, rowbufs);
  merge_exps(steps, rowbufs);
  mark_fed(steps);
  return true;
}

void Interpreter::fused_row(std::vector<FusedStep>& steps, int64_t p, int64_t seq0) {
  // Phase by phase, chunk by chunk, step by step.
  int64_t pos[kMaxRank] = {0};
  pos[0] = p;
  for (size_t first = 0; first < steps.size();) {
    size_t last = first;
    int64_t width = 0;
    while (last < steps.size() && steps[last].phase == steps[first].phase) {
      Step& s = steps[last++];
      width = std::max(width, s.width);
      if (s.kind == Kind::Reduce) s.acc = alu_identity(s.op0);
    }
    // Chunks keep row buffers in cache; a phase whose steps all run in place runs each step
    // over its whole row (the same values: a step reads what an earlier one of its phase
    // writes only at the same positions).
    bool wide = width > kChunk;
    for (size_t i = first; wide && i < last; ++i) wide = runs_wide(steps[i], pos);
    for (int64_t c = 0; c < width; c += wide ? width : kChunk)
      for (size_t i = first; i < last; ++i) {
        Step& s = steps[i];
        if (c >= s.width) continue;
        ex_.cur = s.in;
        ex_.seq = seq0 + static_cast<int64_t>(i) + 1;
        run_chunk(ex_, s, pos, c, wide ? s.width : std::min(kChunk, s.width - c));
      }
    for (size_t i = first; i < last; ++i) {
      Step& s = steps[i];
      if (s.kind != Kind::Reduce) continue;
      const float v = s.negate ? -s.acc : s.acc;
      write_f32(s.out, pos, 0, 1, &v);
    }
    first = last;
  }
}

} // namespace nki::sim
