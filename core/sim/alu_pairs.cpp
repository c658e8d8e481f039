// Two ALU operators in one pass: o[i] = B(A(a[i], y), z) (math_kernels.h alu_pair_f32), for
// tensor_scalar's op0 / op1 and for a chain of two tensor_tensor instructions whose middle tile
// nothing else reads. Each operation is the fp32 operation of alu_f32 / alu_f32_scalar (the
// same NaN rule for maximum / minimum, the operands in the same order when reversed), rounded
// to fp32 before the next one; the core compiles with -ffp-contract=off, so no multiply-add is
// fused and the bits are those of the two passes.
#include <array>
#include <utility>

#include "sim/math_kernels.h"

// Each iteration reads its own elements before it writes its own: the output may be an input.
#if defined(__clang__)
#define NKP_NO_ALIAS_DEPS _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define NKP_NO_ALIAS_DEPS _Pragma("GCC ivdep")
#else
#define NKP_NO_ALIAS_DEPS
#endif

namespace nki::sim {

namespace {

// The operators with their operand order: x the running value, y the operand; R*: y op x.
// Addition and multiplication give the same value in either order (which NaN of two NaNs
// comes out is the compiler's choice, here as in alu_f32_scalar).
enum Op : int { Add, Sub, RSub, Mul, Div, RDiv, Max, RMax, Min, RMin, kOps };

template <int K> inline float ap(float x, float y) {
  if constexpr (K == Add) return x + y;
  if constexpr (K == Sub) return x - y;
  if constexpr (K == RSub) return y - x;
  if constexpr (K == Mul) return x * y;
  if constexpr (K == Div) return x / y;
  if constexpr (K == RDiv) return y / x;
  if constexpr (K == Max) return ((x >= y) | (x != x)) ? x : y;
  if constexpr (K == RMax) return ((y >= x) | (y != y)) ? y : x;
  if constexpr (K == Min) return ((x <= y) | (x != x)) ? x : y;
  if constexpr (K == RMin) return ((y <= x) | (y != y)) ? y : x;
}

int op_of(Alu op, bool reverse) {
  switch (op) {
  case Alu::Add:
    return Add;
  case Alu::Multiply:
    return Mul;
  case Alu::Subtract:
    return reverse ? RSub : Sub;
  case Alu::Divide:
    return reverse ? RDiv : Div;
  case Alu::Maximum:
    return reverse ? RMax : Max;
  case Alu::Minimum:
    return reverse ? RMin : Min;
  default:
    return -1;
  }
}

using Loop = void (*)(const float*, const float*, float, const float*, float, float*, int64_t);

template <int A, int B, bool YArr, bool ZArr>
void pair_loop(const float* a, const float* yp, float ys, const float* zp, float zs, float* o,
               int64_t n) {
  NKP_NO_ALIAS_DEPS
  for (int64_t i = 0; i < n; ++i) {
    float y, z;
    if constexpr (YArr)
      y = yp[i];
    else
      y = ys;
    if constexpr (ZArr)
      z = zp[i];
    else
      z = zs;
    o[i] = ap<B>(ap<A>(a[i], y), z);
  }
}

// Index: (A * kOps + B) * 4 + (y is an array) + 2 * (z is an array).
template <size_t I> constexpr Loop loop_at() {
  return &pair_loop<static_cast<int>(I / 4 / kOps), static_cast<int>(I / 4 % kOps), (I & 1) != 0,
                    (I & 2) != 0>;
}
template <size_t... I> constexpr std::array<Loop, sizeof...(I)> loops(std::index_sequence<I...>) {
  return {loop_at<I>()...};
}
constexpr std::array<Loop, kOps* kOps* 4> kLoops =
    loops(std::make_index_sequence<kOps * kOps * 4>{});

// Four operators (alu_quad_f32): the first two with constants along the run (tensor_scalar's
// operands), the last two with arrays (a chain of two tensor_tensor instructions). The
// operator sets are those of normalisations with an affine step, kept small: each combination
// is its own loop.
constexpr int kQuadFirst[] = {Add, Sub, Mul, Div};
constexpr int kQuadLast[] = {Add, Sub, RSub, Mul};
constexpr int kQ = 4;

int quad_index(const int* set, Alu op, bool reverse) {
  const int k = op_of(op, reverse);
  for (int i = 0; i < kQ; ++i)
    if (k >= 0 && set[i] == k) return i;
  return -1;
}

using QuadLoop = void (*)(const float*, float, float, const float*, const float*, float*, int64_t);

template <int A, int B, int C, int D>
void quad_loop(const float* a, float y, float z, const float* u, const float* w, float* o,
               int64_t n) {
  NKP_NO_ALIAS_DEPS
  for (int64_t i = 0; i < n; ++i) o[i] = ap<D>(ap<C>(ap<B>(ap<A>(a[i], y), z), u[i]), w[i]);
}

// Index: ((A * kQ + B) * kQ + C) * kQ + D, each an index into its set.
template <size_t I> constexpr QuadLoop quad_at() {
  return &quad_loop<kQuadFirst[I / (kQ * kQ * kQ)], kQuadFirst[I / (kQ * kQ) % kQ],
                    kQuadLast[I / kQ % kQ], kQuadLast[I % kQ]>;
}
template <size_t... I>
constexpr std::array<QuadLoop, sizeof...(I)> quads(std::index_sequence<I...>) {
  return {quad_at<I>()...};
}
constexpr std::array<QuadLoop, kQ* kQ* kQ* kQ> kQuads =
    quads(std::make_index_sequence<kQ * kQ * kQ * kQ>{});

} // namespace

bool alu_quad_covered(Alu A, bool ra, Alu B, bool rb, Alu C, bool rc, Alu D, bool rd) {
  return quad_index(kQuadFirst, A, ra) >= 0 && quad_index(kQuadFirst, B, rb) >= 0 &&
         quad_index(kQuadLast, C, rc) >= 0 && quad_index(kQuadLast, D, rd) >= 0;
}

bool alu_quad_f32(Alu A, bool ra, Alu B, bool rb, Alu C, bool rc, Alu D, bool rd, const float* a,
                  float y, float z, const float* u, const float* w, float* o, int64_t n) {
  const int i = quad_index(kQuadFirst, A, ra), j = quad_index(kQuadFirst, B, rb),
            k = quad_index(kQuadLast, C, rc), l = quad_index(kQuadLast, D, rd);
  if (i < 0 || j < 0 || k < 0 || l < 0) return false;
  kQuads[static_cast<size_t>(((i * kQ + j) * kQ + k) * kQ + l)](a, y, z, u, w, o, n);
  return true;
}

bool alu_pair_covered(Alu a, Alu b) {
  return op_of(a, false) >= 0 && op_of(b, false) >= 0;
}

bool alu_pair_f32(Alu A, bool ra, Alu B, bool rb, const float* a, const float* yp, float ys,
                  const float* zp, float zs, float* o, int64_t n) {
  const int x = op_of(A, ra), y = op_of(B, rb);
  if (x < 0 || y < 0) return false;
  kLoops[static_cast<size_t>((x * kOps + y) * 4 + (yp ? 1 : 0) + (zp ? 2 : 0))](a, yp, ys, zp, zs,
                                                                                o, n);
  return true;
}

} // namespace nki::sim
