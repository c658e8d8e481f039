// The Scalar engine's activation functions in fp32, and a vectorizable exp.
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "sim/math_kernels.h"
#include "sim/numerics.h"
#include "sim/simd.h"

namespace nki::sim {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

inline float fbits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint32_t ubits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// In place is its own loop (see math_kernels.cpp's map1).
template <typename F> inline void map1(const float* a, float* o, int64_t n, F f) {
  if (o == a)
    for (int64_t i = 0; i < n; ++i) o[i] = f(o[i]);
  else
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
}

} // namespace

namespace {

// exp(x) = 2^k · exp(r), k = round(x / ln 2), |r| <= ln2 / 2; exp(r) by a degree-7 series
// form fitted on that interval. 2^k is built from bits (no float->int conversion, which
// neither vectorizes on SSE2 nor avoids trap checks in wasm). Every step is one IEEE fp32
// operation in a fixed order (no fused multiply-add: neither SSE2 nor wasm SIMD has one), so
// the four-lane form below gives each lane exactly the bits of this scalar form.
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kShifter = 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f,
                kP3 = 4.1665795894e-2f, kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;
constexpr float kOverflow = 88.72283935546875f, kUnderflow = -103.97208404541015625f;

inline float exp_one(float x) {
  float xc = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  float t = xc * kLog2e + kShifter;
  float k = t - kShifter;
  int32_t ki = static_cast<int32_t>(ubits(t) - ubits(kShifter));
  float r = xc - k * kLn2Hi;
  r = r - k * kLn2Lo;
  float p = kP0;
  p = p * r + kP1;
  p = p * r + kP2;
  p = p * r + kP3;
  p = p * r + kP4;
  p = p * r + kP5;
  p = p * r * r + r + 1.0f;
  int32_t k1 = ki >> 1, k2 = ki - k1;
  float s1 = fbits(static_cast<uint32_t>(k1 + 127) << 23);
  float s2 = fbits(static_cast<uint32_t>(k2 + 127) << 23);
  float y = p * s1 * s2;
  y = x > kOverflow ? kInf : y;
  y = x < kUnderflow ? 0.0f : y;
  return x != x ? x : y;
}

inline F4 pow2_biased(I4 e) { // 2^(e - 127) for e in [1, 254]
  return floats4(reinterpret_cast<I4>(reinterpret_cast<U4>(e) << 23));
}
inline F4 pow2(I4 e) { // 2^e for e + 127 in [1, 254]
  return pow2_biased(e + 127);
}

// The constants as vectors, loaded once per call: written as literals, each use would be a
// v128.const that V8 materialises inside the loop.
enum ExpConst {
  kCLog2e,
  kCShifter,
  kCLn2Hi,
  kCLn2Lo,
  kCP0,
  kCP1,
  kCP2,
  kCP3,
  kCP4,
  kCP5,
  kCOne,
  kCFastLo,
  kCFastHi,
  kCClampLo,
  kCClampHi,
  kCOverflow,
  kCUnderflow,
  kCInf,
  kCZero,
  kCCount
};
const float kExpConstValues[kCCount] = {
    kLog2e, kShifter, kLn2Hi, kLn2Lo,  kP0,   kP1,       kP2,        kP3,  kP4,  kP5,
    1.0f,   -87.0f,   88.0f,  -104.0f, 89.0f, kOverflow, kUnderflow, kInf, 0.0f,
};

const int32_t kNormalExps[2] = {1, 254};

struct ExpConsts {
  F4 c[kCCount];
  I4 exp_bits;     // the shifter's bits less 127: t's bits less these are k + 127
  I4 e_min, e_max; // 1 and 254, the biased exponents of normal numbers
  ExpConsts() {
    // Read through a volatile pointer so that the compiler keeps one splat per constant.
    const volatile float* v = kExpConstValues;
    for (int i = 0; i < kCCount; ++i) c[i] = splat4(v[i]);
    const int32_t eb = static_cast<int32_t>(ubits(v[kCShifter])) - 127;
    exp_bits = I4{eb, eb, eb, eb};
    const volatile int32_t* lim = kNormalExps;
    e_min = I4{lim[0], lim[0], lim[0], lim[0]};
    e_max = I4{lim[1], lim[1], lim[1], lim[1]};
  }
};

// exp(r) for the reduced argument, and k + 127 for k = round(x / ln 2), as exp_one computes
// them.
inline F4 exp_poly(F4 xc, const ExpConsts& e, I4& kb) {
  const F4* c = e.c;
  F4 t = xc * c[kCLog2e] + c[kCShifter];
  F4 k = t - c[kCShifter];
  kb = bits4(t) - e.exp_bits;
  F4 r = xc - k * c[kCLn2Hi];
  r = r - k * c[kCLn2Lo];
  F4 p = c[kCP0];
  p = p * r + c[kCP1];
  p = p * r + c[kCP2];
  p = p * r + c[kCP3];
  p = p * r + c[kCP4];
  p = p * r + c[kCP5];
  return p * r * r + r + c[kCOne];
}

// exp_one on four lanes: the same operations in the same order. When every lane lies in
// [-87, 88] the clamps and the edge selects change nothing and 2^k is a normal number, so
// p · 2^k1 · 2^k2 (p · 2^k1 exact) rounds the same exact value p · 2^k that one multiply does:
// that lane-wise fast path gives the same bits (checked over every fp32 input).
inline F4 exp4(F4 x, const ExpConsts& e) {
  const F4* c = e.c;
  I4 kb;
  if (all4((x >= c[kCFastLo]) & (x <= c[kCFastHi]))) {
    F4 p = exp_poly(x, e, kb);
    return p * pow2_biased(kb);
  }
  F4 xc = select4(x < c[kCClampLo], c[kCClampLo], select4(x > c[kCClampHi], c[kCClampHi], x));
  F4 p = exp_poly(xc, e, kb);
  const I4 ki = kb - 127;
  I4 k1 = ki >> 1, k2 = ki - k1;
  F4 y = p * pow2(k1) * pow2(k2);
  y = select4(x > c[kCOverflow], c[kCInf], y);
  y = select4(x < c[kCUnderflow], c[kCZero], y);
  return select4(x != x, x, y);
}

} // namespace

namespace {

// exp of in[i] (Pre None), or of in[i] · v, in[i] - v, in[i] + v (Pre Mul, Sub, Add), that
// value rounded to fp32 first, as the ALU operation and then an exp would give it. Overlap:
// out and in share memory (the same element or any other), so a block's inputs are kept
// before its results are written.
enum class Pre { None, Mul, Sub, Add };
template <Pre P, bool Overlap> void exp_loop(const float* in, float v, float* out, int64_t n) {
  const ExpConsts c;
  const F4 vv = splat4(v);
  auto pre = [&](F4 x) {
    if constexpr (P == Pre::Mul)
      return x * vv;
    else if constexpr (P == Pre::Sub)
      return x - vv;
    else if constexpr (P == Pre::Add)
      return x + vv;
    else
      return x;
  };
  auto one = [&](int64_t k) {
    if constexpr (P == Pre::Mul)
      return in[k] * v;
    else if constexpr (P == Pre::Sub)
      return in[k] - v;
    else if constexpr (P == Pre::Add)
      return in[k] + v;
    else
      return in[k];
  };
  int64_t i = 0;
  // Blocks of 32 are computed on exp4's fast path and stored, then kept when every lane's
  // biased exponent e = k + 127 lies in [1, 254]; otherwise the block runs again through
  // exp4. That test is exactly the fast path's condition. t = x · log2 e + 1.5 · 2^23 is NaN
  // or infinite for a NaN or infinite x, and for a finite x outside [2^23, 2^24) its bits
  // differ from the shifter's by 2^22 or more; so e in [1, 254] means x is a number with
  // k = t - 1.5 · 2^23 exactly, x in [-87.7, 88.4] (inside the clamps, below overflow, above
  // underflow) and 2^k a normal number: the edge selects change nothing and p · 2^k is the one
  // rounding that p · 2^k1 · 2^k2 gives. Every x in [-87, 88] passes. The test is two integer
  // instructions a vector (min, max); testing the inputs before the block cost three and
  // loaded (and, for exp(x op v), computed) every input twice: softmax 0.82 -> 0.77 ms.
  // The eight vectors are computed side by side and stored after them all, before the test:
  // each is one long chain of dependent operations that V8 issues in the order written, and
  // the processor only overlaps chains that close together (one at a time, a store after
  // each: 1.4x slower); with the stores after the test the compiler moved the work behind it
  // and kept every intermediate of the eight in memory (1.17x slower).
  constexpr int64_t kBlock = 32;
  float kept[Overlap ? kBlock : 1];
  for (; i + kBlock <= n; i += kBlock) {
    const float* src = in + i;
    if constexpr (Overlap) {
      std::memcpy(kept, src, sizeof kept);
      src = kept;
    }
    F4 y[kBlock / 4];
    I4 lo = c.e_max, hi = c.e_min;
    for (int j = 0; j < kBlock / 4; ++j) {
      I4 e;
      const F4 p = exp_poly(pre(load4(src + 4 * j)), c, e);
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
      y[j] = p * pow2_biased(e);
    }
    for (int j = 0; j < kBlock / 4; ++j) store4(out + i + 4 * j, y[j]);
    if (all4((lo >= c.e_min) & (hi <= c.e_max))) continue;
    for (int j = 0; j < kBlock / 4; ++j) store4(out + i + 4 * j, exp4(pre(load4(src + 4 * j)), c));
  }
  for (; i + 8 <= n; i += 8) {
    F4 y0 = exp4(pre(load4(in + i)), c), y1 = exp4(pre(load4(in + i + 4)), c);
    store4(out + i, y0);
    store4(out + i + 4, y1);
  }
  for (; i + 4 <= n; i += 4) store4(out + i, exp4(pre(load4(in + i)), c));
  for (; i < n; ++i) out[i] = exp_one(one(i));
}

template <Pre P> void exp_run(const float* in, float v, float* out, int64_t n) {
  const auto a = reinterpret_cast<uintptr_t>(in), b = reinterpret_cast<uintptr_t>(out);
  const auto bytes = static_cast<uintptr_t>(n) * 4;
  if (a < b + bytes && b < a + bytes)
    exp_loop<P, true>(in, v, out, n);
  else
    exp_loop<P, false>(in, v, out, n);
}

} // namespace

void exp_f32(const float* in, float* out, int64_t n) {
  exp_run<Pre::None>(in, 0.0f, out, n);
}

void exp_f32_op(const float* in, Alu op, float v, float* out, int64_t n) {
  if (op == Alu::Multiply)
    exp_run<Pre::Mul>(in, v, out, n);
  else if (op == Alu::Subtract)
    exp_run<Pre::Sub>(in, v, out, n);
  else if (op == Alu::Add)
    exp_run<Pre::Add>(in, v, out, n);
  else
    throw std::logic_error("exp_f32_op: add, subtract or multiply");
}

std::optional<Act> parse_act(const std::string& name) {
  return ir::find_activation(ir::canonical_op(name));
}

void act_f32(Act f, const float* in, float* o, int64_t n) {
  constexpr float kSqrt1_2 = 0.70710678118654752f;
  constexpr float kInvSqrt2Pi = 0.39894228040143268f;
  constexpr float kSqrt2OverPi = 0.79788456080286536f;
  constexpr float k2OverSqrtPi = 1.12837916709551257f;
  switch (f) {
  case Act::Copy:
    if (o != in)
      copy_bytes(reinterpret_cast<uint8_t*>(o), reinterpret_cast<const uint8_t*>(in),
                 static_cast<size_t>(n) * 4);
    return;
  case Act::Square:
    map1(in, o, n, [](float x) { return x * x; });
    return;
  case Act::Relu:
    map1(in, o, n, [](float x) { return x > 0.0f ? x : 0.0f; });
    return;
  case Act::Exp:
    exp_f32(in, o, n);
    return;
  case Act::Sigmoid:
    for (int64_t i = 0; i < n; ++i) o[i] = -in[i];
    exp_f32(o, o, n);
    map1(o, o, n, [](float e) { return 1.0f / (1.0f + e); });
    return;
  case Act::Abs:
    map1(in, o, n, [](float x) { return std::fabs(x); });
    return;
  case Act::Sign:
    map1(in, o, n, [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); });
    return;
  case Act::Reciprocal:
    map1(in, o, n, [](float x) { return 1.0f / x; });
    return;
  case Act::Sqrt:
    map1(in, o, n, [](float x) { return std::sqrt(x); });
    return;
  case Act::Rsqrt:
    map1(in, o, n, [](float x) { return 1.0f / std::sqrt(x); });
    return;
  default:
    break;
  }
  for (int64_t i = 0; i < n; ++i) {
    float x = in[i];
    float y;
    switch (f) {
    case Act::Gelu:
      y = 0.5f * x * (1.0f + std::erf(x * kSqrt1_2));
      break;
    case Act::GeluDx:
      y = 0.5f * (1.0f + std::erf(x * kSqrt1_2)) + x * kInvSqrt2Pi * std::exp(-0.5f * x * x);
      break;
    case Act::GeluApprxTanh:
      y = 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
      break;
    case Act::GeluApprxSigmoid:
      y = x / (1.0f + std::exp(-1.702f * x));
      break;
    case Act::Silu:
      y = x / (1.0f + std::exp(-x));
      break;
    case Act::SiluDx: {
      float s = 1.0f / (1.0f + std::exp(-x));
      y = s * (1.0f + x * (1.0f - s));
      break;
    }
    case Act::Tanh:
      y = std::tanh(x);
      break;
    case Act::Softplus:
      y = x > 20.0f ? x : std::log1p(std::exp(x));
      break;
    case Act::Mish: {
      float sp = x > 20.0f ? x : std::log1p(std::exp(x));
      y = x * std::tanh(sp);
      break;
    }
    case Act::Erf:
      y = std::erf(x);
      break;
    case Act::ErfDx:
      y = k2OverSqrtPi * std::exp(-x * x);
      break;
    case Act::Log:
      y = std::log(x);
      break;
    case Act::Sin:
      y = std::sin(x);
      break;
    case Act::Cos:
      y = std::cos(x);
      break;
    case Act::Tan:
      y = std::tan(x);
      break;
    case Act::Arctan:
      y = std::atan(x);
      break;
    default:
      y = kNaN;
      break;
    }
    o[i] = y;
  }
}

} // namespace nki::sim
