// Element-wise compute: tensor_tensor, tensor_scalar, scalar_tensor_tensor (Vector / GpSimd /
// Scalar ALU), activation (Scalar engine, with optional reduce registers) and the Vector
// reciprocal. Arithmetic is fp32 with a cast on write; bitvec operators and GpSimd integer
// add/subtract/multiply act on integer values bit-exactly.
#include <algorithm>
#include <optional>

#include "sim/exec.h"
#include "sim/exec_util.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

Alu alu_attr(Exec& ex, const Instruction& in, const char* key) {
  std::string name = ex.attr_str(in, key);
  auto op = parse_alu(name);
  if (!op) ex.unsupported(in.opcode + "(" + key + "=" + (name.empty() ? "None" : name) + ")");
  return *op;
}

bool integer_alu(const Instruction& in, Alu op, std::initializer_list<const View*> inputs) {
  if (alu_is_bitvec(op)) return true;
  return in.engine == Engine::GpSimd &&
         (op == Alu::Add || op == Alu::Subtract || op == Alu::Multiply) && all_int(inputs);
}

void exec_tensor_tensor(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View x = ex.view(ex.need(in, "x"), dom);
  View y = ex.view(ex.need(in, "y"), dom);
  View out = ex.output(in, dom);
  Alu op = alu_attr(ex, in, "op");
  if (integer_alu(in, op, {&x, &y})) {
    int64_t a[kChunk], b[kChunk];
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      for (int64_t c = 0; c < n; c += kChunk) {
        int64_t m = std::min(kChunk, n - c);
        read_i64(x, pos, lo + c, m, a, ex);
        read_i64(y, pos, lo + c, m, b, ex);
        for (int64_t i = 0; i < m; ++i) a[i] = alu_i64(op, a[i], b[i]);
        write_i64(out, pos, lo + c, m, a);
      }
    });
    return;
  }
  float a[kChunk], b[kChunk], o[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      const float* pa = in_f32(ex, x, pos, lo + c, m, a);
      const float* pb = in_f32(ex, y, pos, lo + c, m, b);
      float* po = out_f32(out, {&x, &y}, pos, lo + c, o);
      alu_f32(op, pa, pb, po, m);
      out_done(out, pos, lo + c, m, po, o);
    }
  });
}

// (data op0 operand0) op1 operand1, operands immediates or (P, 1) columns (tensor_scalar) or
// a full tile (scalar_tensor_tensor's operand1).
void two_ops(Exec& ex, const Instruction& in, bool reduce) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View data = ex.view(ex.need(in, "data"), dom);
  Source s0 = ex.source(in, "operand0", dom), s1 = ex.source(in, "operand1", dom);
  View out = ex.output(in, dom);
  Alu op0 = alu_attr(ex, in, "op0");
  Alu op1 = ex.has_attr(in, "op1") ? alu_attr(ex, in, "op1") : Alu::Bypass;
  bool r0 = ex.attr_num(in, "reverse0", 0) != 0, r1 = ex.attr_num(in, "reverse1", 0) != 0;
  if (alu_is_bitvec(op0) || alu_is_bitvec(op1)) {
    int64_t a[kChunk], b[kChunk];
    auto apply = [&](Alu op, const Source& s, bool rev, const int64_t* pos, int64_t lo, int64_t m) {
      if (op == Alu::Bypass) return;
      if (s.scalar)
        std::fill(b, b + m, static_cast<int64_t>(s.value));
      else
        read_i64(s.view, pos, lo, m, b, ex);
      for (int64_t i = 0; i < m; ++i)
        a[i] = rev ? alu_i64(op, b[i], a[i]) : alu_i64(op, a[i], b[i]);
    };
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      for (int64_t c = 0; c < n; c += kChunk) {
        int64_t m = std::min(kChunk, n - c);
        read_i64(data, pos, lo + c, m, a, ex);
        apply(op0, s0, r0, pos, lo + c, m);
        apply(op1, s1, r1, pos, lo + c, m);
        write_i64(out, pos, lo + c, m, a);
      }
    });
    return;
  }
  PartitionReduce red(ex, in, PartitionReduce::Mode::Row, "add");
  bool reducing = reduce && red.active();
  float a[kChunk], tmp[kChunk], tmp1[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      float* po =
          out_f32(out, {&data, s0.scalar ? nullptr : &s0.view, s1.scalar ? nullptr : &s1.view}, pos,
                  lo + c, a);
      const float* in = in_f32(ex, data, pos, lo + c, m, po);
      if (!apply_pair(ex, op0, s0, r0, op1, s1, r1, in, po, pos, lo + c, m, tmp, tmp1)) {
        apply_op(ex, op0, s0, r0, in, po, pos, lo + c, m, tmp);
        if (op1 != Alu::Bypass) apply_op(ex, op1, s1, r1, po, po, pos, lo + c, m, tmp);
      }
      out_done(out, pos, lo + c, m, po, a);
      if (reducing) red.add(dom.rank() > 1 ? pos[0] : 0, po, m);
    }
  });
  if (reducing) red.finish();
}

void exec_tensor_scalar(Exec& ex, const Instruction& in) {
  two_ops(ex, in, false);
}
void exec_tensor_scalar_reduce(Exec& ex, const Instruction& in) {
  two_ops(ex, in, true);
}

// out = op(data * scale + bias), fp32; optional free-axis reduction into reduce_res.
void exec_activation(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View data = ex.view(ex.need(in, "data"), dom);
  const bool scaled = ex.find(in, "scale") != nullptr, biased = ex.find(in, "bias") != nullptr;
  Source scale = ex.source(in, "scale", dom, 1.0f), bias = ex.source(in, "bias", dom, 0.0f);
  // activate2: (data op0 imm0) op1 imm1 before the function (absent operators bypass), and
  // prelu's slope relu_param.
  const bool two = in.opcode == "activate2";
  Source imm0 = ex.source(in, "imm0", dom), imm1 = ex.source(in, "imm1", dom);
  Source slope = ex.source(in, "relu_param", dom, 0.0f);
  std::optional<Alu> op0, op1;
  if (two && ex.has_attr(in, "op0")) op0 = parse_alu(ex.attr_str(in, "op0"));
  if (two && ex.has_attr(in, "op1")) op1 = parse_alu(ex.attr_str(in, "op1"));
  const bool rev0 = ex.attr_num(in, "reverse0", 0) != 0, rev1 = ex.attr_num(in, "reverse1", 0) != 0;
  View out = ex.output(in, dom);
  std::string name = ex.attr_str(in, "op");
  const bool prelu = two && name == "prelu";
  auto fn = prelu ? std::optional<Act>(Act::Copy) : parse_act(name);
  if (!fn) ex.unsupported("activation(op=" + name + ")");
  PartitionReduce red(ex, in, PartitionReduce::Mode::Scalar, "add");
  float a[kChunk], tmp[kChunk], tmp2[kChunk]; // tmp: the data read; tmp2: a tile operand
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      float* po = out_f32(
          out, {&data, scale.scalar ? nullptr : &scale.view, bias.scalar ? nullptr : &bias.view},
          pos, lo + c, a);
      const float* in = in_f32(ex, data, pos, lo + c, m, tmp);
      if (*fn == Act::Exp && scaled && !biased && !op0 && !op1 && !prelu && constant_along(scale)) {
        float v = 0;
        source_run(ex, scale, pos, lo + c, m, tmp2, v);
        exp_f32_op(in, Alu::Multiply, v, po, m); // exp(x * scale) in one pass
        out_done(out, pos, lo + c, m, po, a);
        if (red.active()) red.add(dom.rank() > 1 ? pos[0] : 0, po, m);
        continue;
      }
      if (scaled) {
        apply_op(ex, Alu::Multiply, scale, false, in, po, pos, lo + c, m, tmp2);
        in = po;
      }
      if (biased) {
        apply_op(ex, Alu::Add, bias, false, in, po, pos, lo + c, m, tmp2);
        in = po;
      }
      if (op0) {
        apply_op(ex, *op0, imm0, rev0, in, po, pos, lo + c, m, tmp2);
        in = po;
      }
      if (op1) {
        apply_op(ex, *op1, imm1, rev1, in, po, pos, lo + c, m, tmp2);
        in = po;
      }
      if (prelu) {
        float s[kChunk];
        ex.read(slope, pos, lo + c, m, s);
        for (int64_t i = 0; i < m; ++i) po[i] = in[i] >= 0 ? in[i] : s[i] * in[i];
        in = po;
      }
      act_f32(*fn, in, po, m);
      out_done(out, pos, lo + c, m, po, a);
      if (red.active()) red.add(dom.rank() > 1 ? pos[0] : 0, po, m);
    }
  });
  red.finish();
}

// tensor_scalar_cumulative: per partition, along its free elements in order,
// reg = op1(op0(src, imm0), reg) and dst = reg, on the Vector engine's accumulator
// (reset_reduce starts from op1's identity, reduce from the register, load_reduce from imm1).
void exec_tensor_scalar_cumulative(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View src = ex.view(ex.need(in, "src"), dom);
  Source imm0 = ex.source(in, "imm0", dom), imm1 = ex.source(in, "imm1", dom);
  View out = ex.output(in, dom);
  auto op0 = parse_alu(ex.attr_str(in, "op0")), op1 = parse_alu(ex.attr_str(in, "op1"));
  if (!op0 || !op1) ex.unsupported("tensor_scalar_cumulative(op0/op1)");
  const std::string cmd = ex.attr_str(in, "reduce_cmd", "reset_reduce");
  float* reg = ex.accumulator[1];
  const float start = *op1 == Alu::Subtract ? 0.0f : alu_identity(*op1);
  bool started[128] = {};
  float a[kChunk], tmp[kChunk], init[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    const int64_t p = dom.rank() > 1 ? pos[0] : 0;
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      if (p >= 0 && p < 128 && !started[p]) {
        started[p] = true;
        if (cmd == "reset_reduce") {
          reg[p] = start;
        } else if (cmd == "load_reduce") {
          ex.read(imm1, pos, lo + c, 1, init);
          reg[p] = init[0];
        }
      }
      read_f32(src, pos, lo + c, m, a, ex);
      apply_op(ex, *op0, imm0, false, a, a, pos, lo + c, m, tmp);
      float r = p >= 0 && p < 128 ? reg[p] : start;
      for (int64_t i = 0; i < m; ++i) a[i] = r = alu_one(*op1, a[i], r);
      if (p >= 0 && p < 128) reg[p] = r;
      write_f32(out, pos, lo + c, m, a);
    }
  });
}

void exec_reciprocal(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View data = ex.view(ex.need(in, "data"), dom);
  View out = ex.output(in, dom);
  float a[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(data, pos, lo + c, m, a, ex);
      act_f32(Act::Reciprocal, a, a, m);
      write_f32(out, pos, lo + c, m, a);
    }
  });
}

// An activation that also reduces into the engine's register (reduce_res, a reduce_cmd other
// than idle) carries state from partition to partition.
bool no_reduction(const Kernel&, const Instruction& in) {
  const AttrValue* cmd = find_attr(in, "reduce_cmd");
  const std::string* c = cmd ? std::get_if<std::string>(cmd) : nullptr;
  return !find_operand(in, "reduce_res") && (!cmd || (c && *c == "idle"));
}

} // namespace

void register_elementwise_execs(ExecTable& t) {
  OpFacts elementwise, activation, rowwise;
  elementwise.row_local = elementwise.fusable = true;
  activation = elementwise;
  activation.row_local_if = no_reduction;
  rowwise.row_local = true; // (run_fused has no reciprocal)
  t.add("tensor_tensor", exec_tensor_tensor, elementwise);
  t.add("tensor_scalar", exec_tensor_scalar, elementwise);
  t.add("scalar_tensor_tensor", exec_tensor_scalar, elementwise);
  t.add("tensor_scalar_reduce", exec_tensor_scalar_reduce);
  t.add("activation", exec_activation, activation);
  t.add("activate2", exec_activation);
  t.add("tensor_scalar_cumulative", exec_tensor_scalar_cumulative);
  t.add("reciprocal", exec_reciprocal, rowwise);
}

} // namespace nki::sim
