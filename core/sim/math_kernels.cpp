#include "sim/math_kernels.h"
#include "sim/numerics.h"

#include <cmath>
#include <cstring>
#include <limits>

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

inline float py_mod(float a, float b) { // NumPy's mod: the result takes the divisor's sign
  float r = std::fmod(a, b);
  if (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) r += b;
  return r;
}

inline float one(Alu op, float a, float b) {
  switch (op) {
  case Alu::Add:
    return a + b;
  case Alu::Subtract:
    return a - b;
  case Alu::Multiply:
    return a * b;
  case Alu::Divide:
    return a / b;
  case Alu::Maximum:
    return ((a >= b) | (a != a)) ? a : b;
  case Alu::Minimum:
    return ((a <= b) | (a != a)) ? a : b;
  case Alu::Power:
    return std::pow(a, b);
  case Alu::Mod:
    return py_mod(a, b);
  case Alu::Fmod:
    return std::fmod(a, b);
  case Alu::Equal:
    return a == b ? 1.0f : 0.0f;
  case Alu::NotEqual:
    return a != b ? 1.0f : 0.0f;
  case Alu::Greater:
    return a > b ? 1.0f : 0.0f;
  case Alu::GreaterEqual:
    return a >= b ? 1.0f : 0.0f;
  case Alu::Less:
    return a < b ? 1.0f : 0.0f;
  case Alu::LessEqual:
    return a <= b ? 1.0f : 0.0f;
  case Alu::LogicalAnd:
    return (a != 0.0f && b != 0.0f) ? 1.0f : 0.0f;
  case Alu::LogicalOr:
    return (a != 0.0f || b != 0.0f) ? 1.0f : 0.0f;
  case Alu::LogicalXor:
    return ((a != 0.0f) != (b != 0.0f)) ? 1.0f : 0.0f;
  case Alu::LogicalNot:
    return a == 0.0f ? 1.0f : 0.0f;
  case Alu::Abs:
    return std::fabs(a);
  case Alu::Rsqrt:
    return 1.0f / std::sqrt(a);
  case Alu::Reciprocal:
    return 1.0f / a;
  case Alu::Bypass:
    return a;
  default: { // bitvec operators on fp32 inputs: act on the integer values
    int64_t r = alu_i64(op, static_cast<int64_t>(a), static_cast<int64_t>(b));
    return static_cast<float>(r);
  }
  }
}

// In place (o == a or o == b) is its own loop: the vectorizers' overlap checks send an output
// equal to an input to their scalar fallback, while o[i] = f(o[i]) vectorizes as it is.
template <typename F> inline void map2(const float* a, const float* b, float* o, int64_t n, F f) {
  if (o == a)
    for (int64_t i = 0; i < n; ++i) o[i] = f(o[i], b[i]);
  else if (o == b)
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], o[i]);
  else
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
}
template <typename F> inline void map1(const float* a, float* o, int64_t n, F f) {
  if (o == a)
    for (int64_t i = 0; i < n; ++i) o[i] = f(o[i]);
  else
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
}

} // namespace

std::optional<Alu> parse_alu(const std::string& name) {
  return ir::find_alu(ir::canonical_op(name));
}

float alu_identity(Alu op) {
  switch (op) {
  case Alu::Multiply:
    return 1.0f;
  case Alu::Maximum:
    return -kInf;
  case Alu::Minimum:
    return kInf;
  case Alu::LogicalAnd:
    return 1.0f;
  case Alu::BitwiseAnd:
    return fbits(0xffffffffu);
  default:
    return 0.0f;
  }
}

float alu_one(Alu op, float a, float b) {
  return one(op, a, b);
}

int64_t alu_i64(Alu op, int64_t a, int64_t b) {
  switch (op) {
  case Alu::Add:
    return a + b;
  case Alu::Subtract:
    return a - b;
  case Alu::Multiply:
    return a * b;
  case Alu::Divide:
    return b == 0 ? 0 : a / b;
  case Alu::Maximum:
    return a > b ? a : b;
  case Alu::Minimum:
    return a < b ? a : b;
  case Alu::Mod: {
    if (b == 0) return 0;
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
  case Alu::Fmod:
    return b == 0 ? 0 : a % b;
  case Alu::Equal:
    return a == b;
  case Alu::NotEqual:
    return a != b;
  case Alu::Greater:
    return a > b;
  case Alu::GreaterEqual:
    return a >= b;
  case Alu::Less:
    return a < b;
  case Alu::LessEqual:
    return a <= b;
  case Alu::LogicalAnd:
    return a != 0 && b != 0;
  case Alu::LogicalOr:
    return a != 0 || b != 0;
  case Alu::LogicalXor:
    return (a != 0) != (b != 0);
  case Alu::LogicalNot:
    return a == 0;
  case Alu::BitwiseAnd:
    return a & b;
  case Alu::BitwiseOr:
    return a | b;
  case Alu::BitwiseXor:
    return a ^ b;
  case Alu::LeftShift:
    return (b < 0 || b >= 32) ? 0 : static_cast<int64_t>(static_cast<uint32_t>(a) << b);
  case Alu::RightShift: // logical, on the 32-bit pattern
    return (b < 0 || b >= 32) ? 0 : static_cast<int64_t>(static_cast<uint32_t>(a) >> b);
  case Alu::Invert:
    return ~a;
  case Alu::Abs:
    return a < 0 ? -a : a;
  case Alu::Bypass:
    return a;
  case Alu::Power: {
    int64_t r = 1;
    for (int64_t i = 0; i < b && i < 64; ++i) r *= a;
    return b < 0 ? 0 : r;
  }
  default:
    return static_cast<int64_t>(one(op, static_cast<float>(a), static_cast<float>(b)));
  }
}

void alu_f32(Alu op, const float* a, const float* b, float* o, int64_t n) {
  switch (op) {
  case Alu::Add:
    map2(a, b, o, n, [](float x, float y) { return x + y; });
    return;
  case Alu::Subtract:
    map2(a, b, o, n, [](float x, float y) { return x - y; });
    return;
  case Alu::Multiply:
    map2(a, b, o, n, [](float x, float y) { return x * y; });
    return;
  case Alu::Divide:
    map2(a, b, o, n, [](float x, float y) { return x / y; });
    return;
  case Alu::Maximum:
    map2(a, b, o, n, [](float x, float y) { return ((x >= y) | (x != x)) ? x : y; });
    return;
  case Alu::Minimum:
    map2(a, b, o, n, [](float x, float y) { return ((x <= y) | (x != x)) ? x : y; });
    return;
  default:
    for (int64_t i = 0; i < n; ++i) o[i] = one(op, a[i], b[i]);
  }
}

void alu_f32_scalar(Alu op, const float* a, float s, bool reverse, float* o, int64_t n) {
  if (!reverse) {
    switch (op) {
    case Alu::Add:
      map1(a, o, n, [s](float x) { return x + s; });
      return;
    case Alu::Subtract:
      map1(a, o, n, [s](float x) { return x - s; });
      return;
    case Alu::Multiply:
      map1(a, o, n, [s](float x) { return x * s; });
      return;
    case Alu::Divide:
      map1(a, o, n, [s](float x) { return x / s; });
      return;
    case Alu::Maximum:
      map1(a, o, n, [s](float x) { return ((x >= s) | (x != x)) ? x : s; });
      return;
    case Alu::Minimum:
      map1(a, o, n, [s](float x) { return ((x <= s) | (x != x)) ? x : s; });
      return;
    case Alu::Bypass:
      if (o != a)
        copy_bytes(reinterpret_cast<uint8_t*>(o), reinterpret_cast<const uint8_t*>(a),
                   static_cast<size_t>(n) * 4);
      return;
    default:
      for (int64_t i = 0; i < n; ++i) o[i] = one(op, a[i], s);
      return;
    }
  }
  switch (op) {
  case Alu::Subtract:
    map1(a, o, n, [s](float x) { return s - x; });
    return;
  case Alu::Divide:
    map1(a, o, n, [s](float x) { return s / x; });
    return;
  default:
    for (int64_t i = 0; i < n; ++i) o[i] = one(op, s, a[i]);
  }
}

} // namespace nki::sim
