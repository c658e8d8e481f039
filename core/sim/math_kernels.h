#pragma once
/// The engines' arithmetic on runs of values: ALU operators (Vector/GpSimd/Scalar `op=`) and
/// the Scalar engine's activation functions, in fp32, plus the bit-exact integer forms of the
/// operators that have them. Every kernel is a plain loop over contiguous arrays so that the
/// compiler vectorizes it (SSE natively, SIMD128 in wasm).
#include <cstdint>
#include <optional>
#include <string>

#include "ir/op_names.h"

namespace nki::sim {

// The operators and activation functions by name: ir/op_names.h (the one table).
using Alu = ir::AluOp;
using Act = ir::ActFn;

/// NKI's operator names ("add", "maximum", ..., with NumPy aliases such as "max").
std::optional<Alu> parse_alu(const std::string& name);
using ir::alu_is_bitvec;
using ir::alu_is_unary;
using ir::alu_name;
/// The identity of a reduction operator (0 for add, -inf for maximum, ...).
float alu_identity(Alu op);

/// out[i] = a[i] op b[i] in fp32 (out may alias a or b).
void alu_f32(Alu op, const float* a, const float* b, float* out, int64_t n);
/// out[i] = a[i] op s (or s op a[i] when `reverse`).
void alu_f32_scalar(Alu op, const float* a, float s, bool reverse, float* out, int64_t n);
/// Whether alu_pair_f32 covers the operators a then b (add, subtract, multiply, divide,
/// maximum, minimum).
bool alu_pair_covered(Alu a, Alu b);
/// Two operators in one pass (alu_pairs.cpp): o[i] = B(A(a[i], y[i]), z[i]), with A's operands
/// swapped when `ra` (A(y[i], a[i])) and B's when `rb` (B(z[i], ...)); y[i] is yp[i], or ys when
/// yp is null, z likewise. The bits of alu_f32 / alu_f32_scalar run one after the other. `o`
/// may be `a`, `yp` or `zp`. False (nothing written) when the operators are not covered.
bool alu_pair_f32(Alu A, bool ra, Alu B, bool rb, const float* a, const float* yp, float ys,
                  const float* zp, float zs, float* o, int64_t n);
/// Four operators in one pass (alu_pairs.cpp): o[i] = D(C(B(A(a[i], y), z), u[i]), w[i]), each
/// operator's operands swapped when its flag is set (C(u[i], ...) when `rc`); y and z constants,
/// u and w arrays. The bits of alu_f32_scalar twice, then alu_f32 twice. Covered: A and B
/// add, subtract, multiply or divide, not swapped; C and D add, subtract (either order) or
/// multiply. `o` may be `a`, `u` or `w`. False (nothing written) when not covered.
bool alu_quad_covered(Alu A, bool ra, Alu B, bool rb, Alu C, bool rc, Alu D, bool rd);
bool alu_quad_f32(Alu A, bool ra, Alu B, bool rb, Alu C, bool rc, Alu D, bool rd, const float* a,
                  float y, float z, const float* u, const float* w, float* o, int64_t n);
/// One fp32 operation (reductions and scans).
float alu_one(Alu op, float a, float b);
/// The integer (bit-pattern) form: bitvec operators and GpSimd integer arithmetic.
int64_t alu_i64(Alu op, int64_t a, int64_t b);

/// Activation function names as NKI spells them ("copy", "exp", "gelu_apprx_tanh", ...).
std::optional<Act> parse_act(const std::string& name);
/// out[i] = f(in[i]) in fp32 (out may alias in).
void act_f32(Act f, const float* in, float* out, int64_t n);

/// exp in fp32, vectorizable, within 2 ulp of the correctly rounded result.
void exp_f32(const float* in, float* out, int64_t n);
/// out[i] = exp(in[i] op v) for op add, subtract or multiply, in[i] op v rounded to fp32: the
/// ALU operation then exp_f32, in one pass (out may alias in).
void exp_f32_op(const float* in, Alu op, float v, float* out, int64_t n);

} // namespace nki::sim
