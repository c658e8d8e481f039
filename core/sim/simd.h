#pragma once
/// Four fp32 / int32 lanes with GCC / Clang vector extensions: SSE2 natively, SIMD128 in wasm
/// (-msimd128), so both builds run the same vector code. Each lane does exactly the IEEE
/// operation its scalar form does (neither target has a fused multiply-add), which is what lets
/// a vectorised loop keep the scalar loop's bits.
#include <cstdint>
#include <cstring>

namespace nki::sim {

typedef float F4 __attribute__((vector_size(16)));
typedef int32_t I4 __attribute__((vector_size(16)));
typedef uint32_t U4 __attribute__((vector_size(16)));

inline F4 splat4(float v) {
  return F4{v, v, v, v};
}
inline F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, 16);
  return v;
}
inline void store4(float* p, F4 v) {
  std::memcpy(p, &v, 16);
}
inline I4 bits4(F4 v) {
  I4 r;
  std::memcpy(&r, &v, 16);
  return r;
}
inline F4 floats4(I4 v) {
  F4 r;
  std::memcpy(&r, &v, 16);
  return r;
}
/// mask ? a : b, lane by lane (mask lanes all ones or all zeros).
inline F4 select4(I4 mask, F4 a, F4 b) {
  return floats4((bits4(a) & mask) | (bits4(b) & ~mask));
}
/// a < b ? b : a, lane by lane (a where they tie or either is NaN): one instruction, wasm's
/// f32x4.pmax or SSE's maxps with the operands swapped.
inline F4 pmax4(F4 a, F4 b) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmax_f32x4(a, b);
#elif defined(__SSE2__)
  return __builtin_ia32_maxps(b, a);
#else
  return select4(a < b, b, a);
#endif
}
/// b < a ? b : a, lane by lane (f32x4.pmin; minps with the operands swapped).
inline F4 pmin4(F4 a, F4 b) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmin_f32x4(a, b);
#elif defined(__SSE2__)
  return __builtin_ia32_minps(b, a);
#else
  return select4(b < a, b, a);
#endif
}
/// Two floats of each of two rows, at one column: {a[0], a[1], b[0], b[1]} (two 64-bit loads,
/// the bits as they are).
inline F4 load2x2(const float* a, const float* b) {
  typedef uint64_t U2 __attribute__((vector_size(16)));
  uint64_t x, y;
  std::memcpy(&x, a, 8);
  std::memcpy(&y, b, 8);
  const U2 d = {x, y};
  F4 r;
  std::memcpy(&r, &d, 16);
  return r;
}
/// {a[0], a[1], b[0], b[1]} and {a[2], a[3], b[2], b[3]} of two vectors.
inline F4 low_halves(F4 a, F4 b) {
  return __builtin_shufflevector(a, b, 0, 1, 4, 5);
}
inline F4 high_halves(F4 a, F4 b) {
  return __builtin_shufflevector(a, b, 2, 3, 6, 7);
}
/// Columns of the 4 x 4 block whose rows are r0..r3: c[j] = {r0[j], r1[j], r2[j], r3[j]}.
inline void transpose4(F4 r0, F4 r1, F4 r2, F4 r3, F4 c[4]) {
  const F4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
  const F4 t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const F4 t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
  const F4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  c[0] = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
  c[1] = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
  c[2] = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
  c[3] = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}
/// Whether every lane of `mask` is set: one instruction (SSE movemask, wasm all_true) where
/// ANDing the four extracted lanes took seven.
inline bool all4(I4 mask) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_all_true_i32x4(mask) != 0;
#elif defined(__SSE2__)
  return __builtin_ia32_movmskps(reinterpret_cast<F4>(mask)) == 15;
#else
  return (mask[0] & mask[1] & mask[2] & mask[3]) != 0;
#endif
}

} // namespace nki::sim
