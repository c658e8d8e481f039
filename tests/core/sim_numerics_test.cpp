// NKI numerics of the simulator: round-to-nearest-even casts on write (ties, subnormals,
// overflow to inf) for bf16, fp16, fp8 e4m3 / e5m2, integer casts, and the fast exp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/math_kernels.h"
#include "sim/numerics.h"

using namespace nki;
using nki::ir::DType;

namespace {

float bits_to_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

float cast(DType t, float x) {
  uint8_t buf[4];
  sim::store_f32(t, buf, x);
  return sim::load_f32(t, buf);
}

} // namespace

TEST(SimNumerics, bf16_rounds_ties_to_even) {
  EXPECT_EQ(sim::f32_to_bf16_bits(1.0f + 1.0f / 256), 0x3f80);         // tie → even (down)
  EXPECT_EQ(sim::f32_to_bf16_bits(1.0f + 3.0f / 256), 0x3f82);         // tie → even (up)
  EXPECT_EQ(sim::f32_to_bf16_bits(1.0f + 1.0f / 256 + 1e-6f), 0x3f81); // above the tie
  EXPECT_EQ(sim::f32_to_bf16_bits(-1.0f - 1.0f / 256), 0xbf80);
}

TEST(SimNumerics, bf16_overflow_subnormals_and_nan) {
  EXPECT_EQ(sim::f32_to_bf16_bits(std::numeric_limits<float>::max()), 0x7f80); // → inf
  EXPECT_EQ(sim::f32_to_bf16_bits(bits_to_float(0x7f7f7fff)), 0x7f7f);         // stays finite
  EXPECT_EQ(sim::f32_to_bf16_bits(std::ldexp(1.0f, -133)), 0x0001);            // smallest subnormal
  EXPECT_EQ(sim::f32_to_bf16_bits(std::ldexp(1.0f, -134)), 0x0000);            // tie → even (0)
  EXPECT_TRUE(std::isnan(cast(DType::BFloat16, std::nanf(""))));
  EXPECT_EQ(cast(DType::BFloat16, 3.399e38f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(cast(DType::BFloat16, 3.39e38f), bits_to_float(0x7f7f0000));
}

TEST(SimNumerics, fp16_rounds_ties_overflows_and_keeps_subnormals) {
  EXPECT_EQ(cast(DType::Float16, 65504.0f), 65504.0f);
  EXPECT_EQ(cast(DType::Float16, 65519.0f), 65504.0f);
  EXPECT_EQ(cast(DType::Float16, 65520.0f), std::numeric_limits<float>::infinity()); // tie
  EXPECT_EQ(cast(DType::Float16, -70000.0f), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(sim::f32_to_f16_bits(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(sim::f32_to_f16_bits(std::ldexp(1.0f, -25)), 0x0000);        // tie → even
  EXPECT_EQ(sim::f32_to_f16_bits(3.0f * std::ldexp(1.0f, -25)), 0x0002); // tie → even
  EXPECT_EQ(sim::f32_to_f16_bits(1.0f + 1.0f / 2048), 0x3c00);           // tie → even
  EXPECT_EQ(sim::f32_to_f16_bits(1.0f + 3.0f / 2048), 0x3c02);
  EXPECT_EQ(cast(DType::Float16, 0.1f), 0.0999755859375f);
}

TEST(SimNumerics, fp8_e4m3_and_e5m2_round_to_their_grids) {
  // e4m3: bias 7, largest finite 240 (1.111b x 2^7), smallest subnormal 2^-9.
  EXPECT_EQ(cast(DType::Float8E4M3, 240.0f), 240.0f);
  EXPECT_EQ(cast(DType::Float8E4M3, 247.0f), 240.0f);
  EXPECT_EQ(cast(DType::Float8E4M3, 248.0f), std::numeric_limits<float>::infinity()); // tie
  EXPECT_EQ(cast(DType::Float8E4M3, std::ldexp(1.0f, -9)), std::ldexp(1.0f, -9));
  EXPECT_EQ(cast(DType::Float8E4M3, std::ldexp(1.0f, -10)), 0.0f); // tie → even
  EXPECT_EQ(cast(DType::Float8E4M3, 1.0625f), 1.0f);               // tie → even (down)
  EXPECT_EQ(cast(DType::Float8E4M3, 1.1875f), 1.25f);              // tie → even (up)
  // e5m2: bias 15, largest finite 57344, smallest subnormal 2^-16.
  EXPECT_EQ(cast(DType::Float8E5M2, 57344.0f), 57344.0f);
  EXPECT_EQ(cast(DType::Float8E5M2, 61440.0f), std::numeric_limits<float>::infinity()); // tie
  EXPECT_EQ(cast(DType::Float8E5M2, std::ldexp(1.0f, -16)), std::ldexp(1.0f, -16));
  EXPECT_EQ(cast(DType::Float8E5M2, 1.125f), 1.0f); // tie → even
  // Every finite code decodes and encodes back to itself.
  for (int e : {4, 5}) {
    int m = e == 4 ? 3 : 2;
    for (uint32_t code = 0; code < 256; ++code) {
      float v = sim::small_float_to_f32(code, e, m);
      if (std::isnan(v)) continue;
      EXPECT_EQ(sim::f32_to_fp8_bits(v, e, m), code) << e << " " << code;
    }
  }
}

TEST(SimNumerics, integer_casts_round_to_nearest_even_and_saturate) {
  EXPECT_EQ(cast(DType::Int32, 2.5f), 2.0f);
  EXPECT_EQ(cast(DType::Int32, 3.5f), 4.0f);
  EXPECT_EQ(cast(DType::Int32, -2.5f), -2.0f);
  EXPECT_EQ(cast(DType::Int8, 300.0f), 127.0f);
  EXPECT_EQ(cast(DType::Int8, -300.0f), -128.0f);
  EXPECT_EQ(cast(DType::UInt8, -3.0f), 0.0f);
  EXPECT_EQ(cast(DType::UInt16, 70000.0f), 65535.0f);
  EXPECT_EQ(cast(DType::Int32, std::nanf("")), 0.0f);
  EXPECT_EQ(cast(DType::Int32, 3.0e9f), 2147483647.0f);
  EXPECT_EQ(cast(DType::Bool, 0.25f), 1.0f);
  // Integer codecs wrap bit-exactly.
  uint8_t b[4];
  int64_t v = 16777217, back;
  sim::encode_i64(DType::Int32, b, 1, 1, &v);
  sim::decode_i64(DType::Int32, b, 1, 1, &back);
  EXPECT_EQ(back, 16777217);
  v = 257;
  sim::encode_i64(DType::UInt8, b, 1, 1, &v);
  sim::decode_i64(DType::UInt8, b, 1, 1, &back);
  EXPECT_EQ(back, 1);
}

TEST(SimNumerics, fp32_min_is_exact_and_tf32_rounds_to_ten_mantissa_bits) {
  float fp32_min = bits_to_float(0xff7fffffu);
  EXPECT_EQ(cast(DType::Float32, fp32_min), -3.4028234663852886e38f);
  EXPECT_EQ(sim::round_to(DType::TFloat32, 1.0f + 1.0f / 2048), 1.0f); // tie → even
  EXPECT_EQ(sim::round_to(DType::TFloat32, 1.0f + 3.0f / 2048), 1.0f + 1.0f / 512);
}

TEST(SimNumerics, exp_is_within_two_ulp_and_handles_the_edges) {
  std::vector<float> in, out;
  for (float x = -100.0f; x < 88.0f; x += 0.0137f) in.push_back(x);
  in.insert(in.end(), {0.0f, -0.0f, 88.7f, 89.0f, 1000.0f, -104.0f, -1000.0f,
                       std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity(), std::nanf("")});
  out.resize(in.size());
  sim::exp_f32(in.data(), out.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    double want = std::exp(static_cast<double>(in[i]));
    float wf = static_cast<float>(want);
    if (std::isnan(in[i])) {
      EXPECT_TRUE(std::isnan(out[i]));
    } else if (std::isinf(wf)) {
      EXPECT_EQ(out[i], wf) << in[i];
    } else if (wf == 0.0f || std::fpclassify(wf) == FP_SUBNORMAL) {
      EXPECT_NEAR(out[i], wf, std::fabs(wf) * 1e-6 + 1e-44) << in[i];
    } else {
      float ulp = std::nextafter(wf, INFINITY) - wf;
      EXPECT_LE(std::fabs(out[i] - wf), 2 * ulp) << in[i];
    }
  }
}

TEST(SimNumerics, exp_in_blocks_is_the_scalar_exp_bit_for_bit_at_the_fast_paths_edges) {
  // exp_f32 over blocks of 32 (the fast path, tested by each lane's exponent k + 127 lying in
  // [1, 254]) against the same values one at a time (the scalar form): every fp32 value where
  // k leaves [-126, 127] (x near 88.38 and -87.68), then each of those alone in a block of
  // ordinary values, and one bit pattern in every 65521 (NaNs, infinities, huge, tiny),
  // out of place and in place. Run over all 2^32 patterns once, it found no difference.
  std::vector<float> x;
  for (float lo : {88.0f, -88.1f})
    for (float v = lo; v < lo + 0.8f; v = std::nextafter(v, INFINITY)) x.push_back(v);
  const size_t edges = x.size();
  for (size_t i = 0; i < edges; i += 7) {
    for (int j = 0; j < 32; ++j) x.push_back(0.25f * static_cast<float>(j) - 4.0f);
    x[x.size() - 1 - i % 32] = x[i];
  }
  for (uint64_t u = 0; u < (1ull << 32); u += 65521)
    x.push_back(bits_to_float(static_cast<uint32_t>(u)));
  x.resize(x.size() / 32 * 32);
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<float> got(x.size()), one(x.size()), inplace = x;
  sim::exp_f32(x.data(), got.data(), n);
  sim::exp_f32(inplace.data(), inplace.data(), n);
  for (int64_t i = 0; i < n; ++i) sim::exp_f32(&x[i], &one[i], 1);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(std::memcmp(&got[i], &one[i], 4), 0) << "x = " << x[i] << " at " << i;
    ASSERT_EQ(std::memcmp(&inplace[i], &one[i], 4), 0) << "in place, x = " << x[i];
  }
}

TEST(SimNumerics, exp_of_x_op_a_value_is_exp_of_the_rounded_results) {
  // exp_f32_op(x, op, v) against the operation then exp_f32, bit for bit: blocks of 32 on the
  // fast path and off it (a value out of [-87, 88], a NaN), the eight- and four-wide tails and
  // the scalar tail, in place and not.
  std::vector<float> x;
  for (int i = 0; i < 32 * 6 + 8 + 4 + 3; ++i)
    x.push_back(0.37f * static_cast<float>(i % 53) - 9.0f);
  x[40] = 500.0f;         // a block's value past the fast path (and past overflow)
  x[100] = std::nanf(""); // a NaN
  x[150] = -300.0f;       // an underflowing one
  const int64_t n = static_cast<int64_t>(x.size());
  for (sim::Alu op : {sim::Alu::Multiply, sim::Alu::Subtract, sim::Alu::Add})
    for (float v : {1.0f, 0.3f, -2.5f, 1e-3f}) {
      std::vector<float> pre(x.size()), want(x.size()), got(x.size());
      for (size_t i = 0; i < x.size(); ++i) pre[i] = sim::alu_one(op, x[i], v);
      sim::exp_f32(pre.data(), want.data(), n);
      sim::exp_f32_op(x.data(), op, v, got.data(), n);
      for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(std::memcmp(&got[i], &want[i], 4), 0)
            << static_cast<int>(op) << " " << v << " at " << i;
      std::vector<float> inplace = x;
      sim::exp_f32_op(inplace.data(), op, v, inplace.data(), n);
      EXPECT_EQ(std::memcmp(inplace.data(), want.data(), x.size() * 4), 0) << v;
    }
}
