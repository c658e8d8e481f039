#pragma once
/// Helpers shared by the compute executors: applying an operator with a tile, column or
/// immediate operand to a run, and the per-partition reduce registers some instructions feed
/// (activation / select reduce_res, tensor_scalar_reduce).
#include <algorithm>
#include <cmath>
#include <vector>

#include "ir/target.h"
#include "sim/exec.h"
#include "sim/math_kernels.h"

namespace nki::sim {

/// A run's fp32 values: in place when the view allows it, else decoded into `buf`.
inline const float* in_f32(Exec& ex, const View& v, const int64_t* pos, int64_t lo, int64_t n,
                           float* buf) {
  if (const float* p = direct_in(v, pos, lo)) return p;
  read_f32(v, pos, lo, n, buf, ex);
  return buf;
}

/// o[i] = a[i] op s[i] (or s[i] op a[i] when `reverse`), `s` read from its Source for the run;
/// `o` may be `a` (not `tmp`, the scratch a tile operand is read into, nor the operand's memory:
/// out_f32 hands out scratch when an output shares a buffer with an input).
inline void apply_op(Exec& ex, Alu op, const Source& s, bool reverse, const float* a, float* o,
                     const int64_t* pos, int64_t lo, int64_t n, float* tmp) {
  if (alu_is_unary(op)) {
    alu_f32_scalar(op, a, 0.0f, false, o, n);
    return;
  }
  if (s.scalar) {
    alu_f32_scalar(op, a, s.value, reverse, o, n);
    return;
  }
  if (!s.view.ind && s.view.inner_stride() == 0) { // a (P, 1) column: constant along the run
    float v;
    read_f32(s.view, pos, lo, 1, &v, ex);
    alu_f32_scalar(op, a, v, reverse, o, n);
    return;
  }
  const float* b = in_f32(ex, s.view, pos, lo, n, tmp); // in place when contiguous fp32
  if (reverse)
    alu_f32(op, b, a, o, n);
  else
    alu_f32(op, a, b, o, n);
}

/// Whether source `s` is one value along a run: an immediate or a (P, 1) column.
inline bool constant_along(const Source& s) {
  return s.scalar || (!s.view.ind && s.view.inner_stride() == 0);
}

/// Source `s` over the run: a constant (an immediate or a (P, 1) column) into `v` and null, or
/// the run's values (in place when contiguous fp32, else read into `tmp`).
inline const float* source_run(Exec& ex, const Source& s, const int64_t* pos, int64_t lo, int64_t n,
                               float* tmp, float& v) {
  if (s.scalar) {
    v = s.value;
    return nullptr;
  }
  if (!s.view.ind && s.view.inner_stride() == 0) {
    read_f32(s.view, pos, lo, 1, &v, ex);
    return nullptr;
  }
  return in_f32(ex, s.view, pos, lo, n, tmp);
}

/// apply_op(op0, s0, r0) then apply_op(op1, s1, r1) as one pass (alu_pair_f32, the same bits)
/// when both operators are covered; false, with nothing done, otherwise. `o` may be `a`; tmp0 /
/// tmp1 are the operands' scratch (neither `a` nor `o`).
inline bool apply_pair(Exec& ex, Alu op0, const Source& s0, bool r0, Alu op1, const Source& s1,
                       bool r1, const float* a, float* o, const int64_t* pos, int64_t lo, int64_t n,
                       float* tmp0, float* tmp1) {
  if (!alu_pair_covered(op0, op1)) return false;
  float y = 0, z = 0;
  const float* yp = source_run(ex, s0, pos, lo, n, tmp0, y);
  const float* zp = source_run(ex, s1, pos, lo, n, tmp1, z);
  return alu_pair_f32(op0, r0, op1, r1, a, yp, y, zp, z, o, n);
}

/// acc folded with v[0..n) by `op` (tensor_reduce's order: eight interleaved lanes for add,
/// maximum and minimum, then the lanes in order, then the tail; exec_reduce.cpp).
float fold_run(Alu op, float acc, const float* v, int64_t n);

/// A whole tile as (partitions, free elements) row-major values, exact for every integer up
/// to 32 bits and every float (exec_gather.cpp).
struct Tile2D {
  int64_t parts = 1, free = 1;
  ir::DType dtype = ir::DType::Float32;
  std::vector<double> v;
  double at(int64_t p, int64_t f) const { return v[static_cast<size_t>(p * free + f)]; }
  double& at(int64_t p, int64_t f) { return v[static_cast<size_t>(p * free + f)]; }
};
/// Reads operand `o` whole; with `row_step` > 1 only the partitions it divides (the others
/// read as 0, and are not reads of the tile).
Tile2D read_tile(Exec& ex, const ir::Operand& o, int64_t row_step = 1);
/// An empty (zero) tile of `o`'s layout, to fill and write.
inline Tile2D read_shape(const ir::Operand& o) {
  Tile2D t;
  const std::vector<int64_t>& s = o.ap.tile_shape;
  t.parts = s.empty() ? 1 : s[0];
  for (size_t i = 1; i < s.size(); ++i) t.free *= s[i];
  t.v.assign(static_cast<size_t>(t.parts * t.free), 0.0);
  return t;
}
/// Writes `t` through operand `o` (integers exactly); with `keep`, only the elements it marks.
void write_tile(Exec& ex, const ir::Operand& o, const Tile2D& t,
                const std::vector<uint8_t>* keep = nullptr);

/// Writes a matmul's fp32 product R (rows from m0, row width nw, columns from nlo) into the
/// instruction's dst over `dom`, with its accumulate attribute: 0 overwrites, 1 adds, "auto"
/// adds onto what was written (exec_matmul.cpp; nc_matmul and nc_matmul_mx).
void store_matmul_result(Exec& ex, const ir::Instruction& in, const Domain& dom, int64_t m0,
                         int64_t nlo, int64_t nw, const float* R);

/// Per-partition reductions of an instruction's results (docs/ops/math.md): the row fold of
/// this instruction, and the engine registers `reduce_cmd` drives —
///   Scalar (activation): idle keeps R, reset R = 0, reduce R = op(R, row), reset_reduce R = row;
///                        reduce_res (when present) = R;
///   Vector (selects):    the same with reset A = -inf, except that with idle reduce_res is
///                        this instruction's row fold;
///   Row (tensor_scalar_reduce): reduce_res = the row fold, no registers.
class PartitionReduce {
public:
  enum class Mode { Scalar, Vector, Row };

  PartitionReduce(Exec& ex, const ir::Instruction& in, Mode mode, const char* default_op)
      : ex_(ex), mode_(mode) {
    std::string name = ex.attr_str(in, "reduce_op", default_op);
    auto op = parse_alu(name);
    if (!op) ex.unsupported("reduce_op=" + name);
    op_ = *op;
    cmd_ = mode == Mode::Row ? "row" : ex.attr_str(in, "reduce_cmd", "idle");
    res_ = ex.find(in, "reduce_res");
    regs_ = ex.accumulator[mode == Mode::Scalar ? 0 : 1];
    std::fill(row_, row_ + ir::kPmax, alu_identity(op_));
  }
  /// Whether the instruction needs its row folds at all.
  bool active() const { return res_ || cmd_ == "reduce" || cmd_ == "reset_reduce"; }
  /// Folds the run's values into partition `p`'s row, in order.
  void add(int64_t p, const float* v, int64_t n) {
    if (!active() || p < 0 || p >= ir::kPmax) return;
    float a = row_[p];
    if (op_ == Alu::Add) // (alu_one's addition, without a call per element)
      for (int64_t i = 0; i < n; ++i) a = a + v[i];
    else
      for (int64_t i = 0; i < n; ++i) a = alu_one(op_, a, v[i]);
    row_[p] = a;
    touched_[p] = true;
  }
  /// Updates the registers and writes reduce_res.
  void finish() {
    bool all = false; // write every partition of reduce_res (registers) or the touched rows
    const float* src = regs_;
    if (cmd_ == "row" || (cmd_ == "idle" && mode_ == Mode::Vector)) {
      src = row_;
    } else if (cmd_ == "reset") {
      std::fill(regs_, regs_ + ir::kPmax, mode_ == Mode::Vector ? -INFINITY : 0.0f);
      all = true;
    } else if (cmd_ == "reduce" || cmd_ == "reset_reduce") {
      for (int p = 0; p < ir::kPmax; ++p)
        if (touched_[p]) regs_[p] = cmd_ == "reduce" ? alu_one(op_, regs_[p], row_[p]) : row_[p];
    } else {
      all = true; // idle on the Scalar engine: the registers as they are
    }
    if (!res_) return;
    Domain dom(res_->ap.tile_shape, {}, ex_.env);
    View v = ex_.view(*res_, dom);
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      int64_t p = dom.rank() > 1 ? pos[0] : lo;
      if (p < 0 || p >= ir::kPmax || (!all && !touched_[p])) return;
      for (int64_t i = 0; i < n; ++i) write_f32(v, pos, lo + i, 1, &src[p]);
    });
  }

private:
  Exec& ex_;
  Mode mode_;
  Alu op_ = Alu::Add;
  std::string cmd_;
  const ir::Operand* res_ = nullptr;
  float* regs_ = nullptr;
  float row_[ir::kPmax];
  bool touched_[ir::kPmax] = {};
};

/// Where an instruction computes a run's results: straight into the destination when it is
/// contiguous float32 and shares no buffer with the inputs, else into `buf`; out_done() then
/// records (or writes) them.
inline float* out_f32(const View& out, std::initializer_list<const View*> inputs,
                      const int64_t* pos, int64_t lo, float* buf) {
  for (const View* v : inputs)
    if (v && v->buf == out.buf) return buf;
  float* p = direct_out(out, pos, lo);
  return p ? p : buf;
}
inline void out_done(const View& out, const int64_t* pos, int64_t lo, int64_t n, const float* p,
                     const float* buf) {
  if (p == buf)
    write_f32(out, pos, lo, n, buf);
  else
    wrote_direct(out, pos, lo, n);
}

/// Whether all of `views` hold integer dtypes.
inline bool all_int(std::initializer_list<const View*> views) {
  for (const View* v : views)
    if (v && ir::dtype_is_float(v->dtype)) return false;
  return true;
}

} // namespace nki::sim
