#include "sim/numerics.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace nki::sim {

void copy_bytes(uint8_t* dst, const uint8_t* src, size_t n) {
  // With -mbulk-memory (wasm build) this builtin is one memory.copy instruction.
  __builtin_memmove(dst, src, n);
}

namespace {

inline uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
inline float float_of(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

// A 1-sign, `e`-exponent, `m`-mantissa IEEE-like format (with inf and NaN): fp16, fp8.
uint32_t encode_small(float x, int e, int m) {
  uint32_t b = bits_of(x);
  uint32_t sign = (b >> 31) << (e + m);
  uint32_t a = b & 0x7fffffffu;
  uint32_t inf_field = (1u << e) - 1;
  if (a > 0x7f800000u) return sign | (inf_field << m) | (1u << (m - 1)); // quiet NaN
  if (a == 0x7f800000u) return sign | (inf_field << m);
  int bias = (1 << (e - 1)) - 1;
  int ex = static_cast<int>(a >> 23) - 127;
  uint32_t mant = a & 0x7fffffu;
  if (a >> 23)
    mant |= 0x800000u;
  else
    ex = -126;                             // fp32 subnormal
  int e_t = ex > 1 - bias ? ex : 1 - bias; // exponent of the target's quantum
  int shift = 23 - m + (e_t - ex);
  uint32_t q;
  if (shift >= 32) {
    q = 0;
  } else {
    q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
  }
  uint32_t field = (static_cast<uint32_t>(e_t + bias - 1) << m) + q;
  if (field >= (inf_field << m)) field = inf_field << m; // overflow: inf
  return sign | field;
}

float decode_small(uint32_t v, int e, int m) {
  uint32_t sign = (v >> (e + m)) & 1u;
  uint32_t ef = (v >> m) & ((1u << e) - 1);
  uint32_t mf = v & ((1u << m) - 1);
  int bias = (1 << (e - 1)) - 1;
  float mag;
  if (ef == (1u << e) - 1) {
    mag = mf ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (ef == 0) {
    mag = std::ldexp(static_cast<float>(mf), 1 - bias - m);
  } else {
    mag = std::ldexp(static_cast<float>((1u << m) + mf), static_cast<int>(ef) - bias - m);
  }
  return sign ? -mag : mag;
}

// The current language's OCP float8_e4m3fn (bias 7, no inf, S.1111.111 is NaN, max 448) and
// float8_e8m0fnu (2^(e - 127), 0xff is NaN).
float decode_e4m3fn(uint32_t b) {
  if ((b & 0x7fu) == 0x7fu) return std::numeric_limits<float>::quiet_NaN();
  float sign = (b & 0x80u) ? -1.0f : 1.0f;
  uint32_t e = (b >> 3) & 0xfu, m = b & 7u;
  if (e == 0) return sign * std::ldexp(static_cast<float>(m), -9);
  return sign * std::ldexp(static_cast<float>(8 + m), static_cast<int>(e) - 10);
}
float decode_e8m0(uint32_t b) {
  return b == 0xffu ? std::numeric_limits<float>::quiet_NaN()
                    : std::ldexp(1.0f, static_cast<int>(b) - 127);
}

struct Luts {
  float fp8e4[256], fp8e5[256], fp8e4fn[256], fp8e8m0[256];
  std::vector<float> f16;
  Luts() : f16(65536) {
    for (uint32_t i = 0; i < 256; ++i) {
      fp8e4[i] = decode_small(i, 4, 3);
      fp8e5[i] = decode_small(i, 5, 2);
      fp8e4fn[i] = decode_e4m3fn(i);
      fp8e8m0[i] = decode_e8m0(i);
    }
    for (uint32_t i = 0; i < 65536; ++i) f16[i] = decode_small(i, 5, 10);
  }
};
const Luts& luts() {
  static const Luts l;
  return l;
}

// Nearest code of a table of `n` ascending non-negative values (codes 0..n-1), ties to the
// even code; beyond the last value's half step: `overflow`.
uint8_t nearest_code(const float* table, int n, float a, uint8_t overflow) {
  if (a > table[n - 1] + (table[n - 1] - table[n - 2]) / 2) return overflow;
  int lo = 0, hi = n - 1;
  while (lo < hi) { // first code >= a
    int mid = (lo + hi) / 2;
    if (table[mid] < a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return 0;
  float below = table[lo - 1], above = table[lo];
  if (a - below < above - a) return static_cast<uint8_t>(lo - 1);
  if (a - below > above - a) return static_cast<uint8_t>(lo);
  return static_cast<uint8_t>(((lo - 1) & 1) ? lo : lo - 1);
}

uint8_t f32_to_e4m3fn(float x) {
  if (std::isnan(x)) return 0x7f;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  uint8_t code = nearest_code(luts().fp8e4fn, 127, std::fabs(x), 0x7f); // 0..126 finite
  return code == 0x7f ? static_cast<uint8_t>(0x7f | sign) : static_cast<uint8_t>(code | sign);
}

uint8_t f32_to_e8m0(float x) {
  if (std::isnan(x) || x < 0) return 0xff;
  return nearest_code(luts().fp8e8m0, 255, x, 0xff);
}

inline uint32_t f32_to_tf32_bits(float x) {
  uint32_t b = bits_of(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) return b | 0x400000u;
  uint32_t r = b + 0xfffu + ((b >> 13) & 1u);
  return r & ~0x1fffu;
}

// Integer range of an integer dtype.
void int_range(DType t, int64_t& lo, int64_t& hi) {
  switch (t) {
  case DType::Bool:
    lo = 0;
    hi = 1;
    break;
  case DType::UInt8:
    lo = 0;
    hi = 255;
    break;
  case DType::Int8:
    lo = -128;
    hi = 127;
    break;
  case DType::UInt16:
    lo = 0;
    hi = 65535;
    break;
  case DType::Int16:
    lo = -32768;
    hi = 32767;
    break;
  case DType::UInt32:
    lo = 0;
    hi = 4294967295LL;
    break;
  default:
    lo = -2147483648LL;
    hi = 2147483647LL;
    break;
  }
}

inline int64_t float_to_int(DType t, float x) {
  if (t == DType::Bool) return x != 0.0f ? 1 : 0;
  if (std::isnan(x)) return 0;
  int64_t lo, hi;
  int_range(t, lo, hi);
  double d = std::nearbyint(static_cast<double>(x));
  if (d <= static_cast<double>(lo)) return lo;
  if (d >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(d);
}

template <typename T> inline void store_raw(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <typename T> inline T load_raw(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store_int(DType t, uint8_t* p, int64_t v) {
  switch (t) {
  case DType::Bool:
    *p = v != 0;
    break;
  case DType::UInt8:
  case DType::Int8:
    *p = static_cast<uint8_t>(v);
    break;
  case DType::UInt16:
  case DType::Int16:
  case DType::Float4E2M1FNX4: // packed types: their bits
    store_raw<uint16_t>(p, static_cast<uint16_t>(v));
    break;
  default:
    store_raw<uint32_t>(p, static_cast<uint32_t>(v));
    break;
  }
}

int64_t load_int(DType t, const uint8_t* p) {
  switch (t) {
  case DType::Bool:
  case DType::UInt8:
    return *p;
  case DType::Int8:
    return static_cast<int8_t>(*p);
  case DType::UInt16:
  case DType::Float4E2M1FNX4: // packed types: their bits
    return load_raw<uint16_t>(p);
  case DType::Int16:
    return load_raw<int16_t>(p);
  case DType::UInt32:
  case DType::Float8E5M2X4:
  case DType::Float8E4M3FNX4:
    return load_raw<uint32_t>(p);
  default:
    return load_raw<int32_t>(p);
  }
}

} // namespace

uint16_t f32_to_bf16_bits(float x) {
  uint32_t b = bits_of(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((b >> 16) | 0x40u);
  return static_cast<uint16_t>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
uint16_t f32_to_f16_bits(float x) {
  return static_cast<uint16_t>(encode_small(x, 5, 10));
}
uint8_t f32_to_fp8_bits(float x, int exp_bits, int man_bits) {
  return static_cast<uint8_t>(encode_small(x, exp_bits, man_bits));
}
float small_float_to_f32(uint32_t bits, int exp_bits, int man_bits) {
  return decode_small(bits, exp_bits, man_bits);
}

float round_to(DType t, float x) {
  switch (t) {
  case DType::BFloat16:
    return float_of(static_cast<uint32_t>(f32_to_bf16_bits(x)) << 16);
  case DType::TFloat32:
    return float_of(f32_to_tf32_bits(x));
  case DType::Float16:
    return luts().f16[f32_to_f16_bits(x)];
  case DType::Float8E4M3:
    return luts().fp8e4[encode_small(x, 4, 3)];
  case DType::Float8E5M2:
    return luts().fp8e5[encode_small(x, 5, 2)];
  case DType::Float8E4M3FN:
    return luts().fp8e4fn[f32_to_e4m3fn(x)];
  case DType::Float8E8M0FNU:
    return luts().fp8e8m0[f32_to_e8m0(x)];
  default:
    return x;
  }
}

float load_f32(DType t, const uint8_t* p) {
  switch (t) {
  case DType::Float32:
    return load_raw<float>(p);
  case DType::TFloat32:
    return load_raw<float>(p);
  case DType::BFloat16:
    return float_of(static_cast<uint32_t>(load_raw<uint16_t>(p)) << 16);
  case DType::Float16:
    return luts().f16[load_raw<uint16_t>(p)];
  case DType::Float8E4M3:
    return luts().fp8e4[*p];
  case DType::Float8E5M2:
    return luts().fp8e5[*p];
  case DType::Float8E4M3FN:
    return luts().fp8e4fn[*p];
  case DType::Float8E8M0FNU:
    return luts().fp8e8m0[*p];
  default:
    return static_cast<float>(load_int(t, p));
  }
}

void store_f32(DType t, uint8_t* p, float v) {
  switch (t) {
  case DType::Float32:
    store_raw<float>(p, v);
    break;
  case DType::TFloat32:
    store_raw<uint32_t>(p, f32_to_tf32_bits(v));
    break;
  case DType::BFloat16:
    store_raw<uint16_t>(p, f32_to_bf16_bits(v));
    break;
  case DType::Float16:
    store_raw<uint16_t>(p, f32_to_f16_bits(v));
    break;
  case DType::Float8E4M3:
    *p = f32_to_fp8_bits(v, 4, 3);
    break;
  case DType::Float8E5M2:
    *p = f32_to_fp8_bits(v, 5, 2);
    break;
  case DType::Float8E4M3FN:
    *p = f32_to_e4m3fn(v);
    break;
  case DType::Float8E8M0FNU:
    *p = f32_to_e8m0(v);
    break;
  default:
    store_int(t, p, float_to_int(t, v));
    break;
  }
}

void decode_f32(DType t, const uint8_t* src, int64_t stride, int64_t n, float* out) {
  if (t == DType::Float32 || t == DType::TFloat32) {
    if (stride == 1) {
      copy_bytes(reinterpret_cast<uint8_t*>(out), src, static_cast<size_t>(n) * 4);
      return;
    }
    for (int64_t i = 0; i < n; ++i) out[i] = load_raw<float>(src + i * stride * 4);
    return;
  }
  if (t == DType::BFloat16) {
    if (stride == 1) { // (its own loop, which the compiler vectorises: the matmul's operands)
      for (int64_t i = 0; i < n; ++i)
        out[i] = float_of(static_cast<uint32_t>(load_raw<uint16_t>(src + i * 2)) << 16);
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      out[i] = float_of(static_cast<uint32_t>(load_raw<uint16_t>(src + i * stride * 2)) << 16);
    return;
  }
  if (t == DType::Int32 && stride == 1) {
    const int32_t* s = reinterpret_cast<const int32_t*>(src);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(s[i]);
    return;
  }
  const int64_t bs = stride * elem_size(t);
  for (int64_t i = 0; i < n; ++i) out[i] = load_f32(t, src + i * bs);
}

void encode_f32(DType t, uint8_t* dst, int64_t stride, int64_t n, const float* in) {
  if (t == DType::Float32) {
    if (stride == 1) {
      copy_bytes(dst, reinterpret_cast<const uint8_t*>(in), static_cast<size_t>(n) * 4);
      return;
    }
    for (int64_t i = 0; i < n; ++i) store_raw<float>(dst + i * stride * 4, in[i]);
    return;
  }
  if (t == DType::BFloat16) {
    for (int64_t i = 0; i < n; ++i)
      store_raw<uint16_t>(dst + i * stride * 2, f32_to_bf16_bits(in[i]));
    return;
  }
  const int64_t bs = stride * elem_size(t);
  for (int64_t i = 0; i < n; ++i) store_f32(t, dst + i * bs, in[i]);
}

void decode_i64(DType t, const uint8_t* src, int64_t stride, int64_t n, int64_t* out) {
  const int64_t bs = stride * elem_size(t);
  if (ir::dtype_is_float(t)) {
    for (int64_t i = 0; i < n; ++i) {
      float f = load_f32(t, src + i * bs);
      out[i] = std::isfinite(f) ? static_cast<int64_t>(std::trunc(static_cast<double>(f))) : 0;
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = load_int(t, src + i * bs);
}

void encode_i64(DType t, uint8_t* dst, int64_t stride, int64_t n, const int64_t* in) {
  const int64_t bs = stride * elem_size(t);
  if (ir::dtype_is_float(t)) {
    for (int64_t i = 0; i < n; ++i) store_f32(t, dst + i * bs, static_cast<float>(in[i]));
    return;
  }
  for (int64_t i = 0; i < n; ++i) store_int(t, dst + i * bs, in[i]);
}

void fill_unwritten(DType t, uint8_t* dst, int64_t n, int64_t int_fill) {
  if (!ir::dtype_is_float(t)) {
    if (int_fill == 0) {
      std::memset(dst, 0, static_cast<size_t>(n) * elem_size(t));
      return;
    }
    const int s = elem_size(t);
    for (int64_t i = 0; i < n; ++i) encode_i64(t, dst + i * s, 1, 1, &int_fill);
    return;
  }
  uint8_t one[4];
  store_f32(t, one, std::numeric_limits<float>::quiet_NaN());
  const int s = elem_size(t);
  if (s == 4 && t == DType::Float32) {
    float nan = std::numeric_limits<float>::quiet_NaN();
    float* f = reinterpret_cast<float*>(dst);
    for (int64_t i = 0; i < n; ++i) f[i] = nan;
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * s, one, s);
}

} // namespace nki::sim
