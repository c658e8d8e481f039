// The OCP microscaling (MX) instructions of NeuronCore-v4: quantize_mx (Vector engine: groups
// of 8 partitions x 4 elements share a power-of-two scale, NKI's doubled block scale) and
// nc_matmul_mx (Tensor engine: x4-packed fp8 / fp4 operands dequantized by their scales,
// multiplied in fp32, PSUM accumulate as nc_matmul). Scale layout (NKI's trn3 guide): the
// group of data partitions [32q + 8r, 32q + 8r + 8) and x4 element f has its scale at
// partition 32q + r, column f.
#include <cmath>
#include <vector>

#include "sim/exec.h"
#include "sim/exec_util.h"
#include "sim/numerics.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

int64_t scale_partition(int64_t p) {
  return p - p % 32 + (p % 32) / 8;
}

// The element dtype of a packed x4 dtype and the bits of one element.
DType lane_dtype(DType t) {
  return t == DType::Float8E5M2X4 ? DType::Float8E5M2 : DType::Float8E4M3FN;
}

float fp4_e2m1(uint32_t bits) {
  static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  return (bits & 8u) ? -mag[bits & 7u] : mag[bits & 7u];
}

// Lane j (0..3) of a packed element, as fp32.
float unpack(DType t, uint32_t word, int j) {
  if (t == DType::Float4E2M1FNX4) return fp4_e2m1((word >> (4 * j)) & 15u);
  const uint8_t b = static_cast<uint8_t>(word >> (8 * j));
  return load_f32(lane_dtype(t), &b);
}

// The scale of a tile element as a power of two: uint8 holds the e8m0 code, float8_e8m0fnu
// its value.
float scale_value(const Tile2D& s, int64_t p, int64_t f) {
  const double v = s.at(scale_partition(p), f);
  if (s.dtype == DType::Float8E8M0FNU) return static_cast<float>(v);
  return std::ldexp(1.0f, static_cast<int>(v) - 127);
}

void exec_quantize_mx(Exec& ex, const Instruction& in) {
  const Tile2D src = read_tile(ex, ex.need(in, "src"));
  const Operand& d = ex.need(in, "dst");
  const Operand& so = ex.need(in, "dst_scale");
  Tile2D q = read_shape(d), sc = read_shape(so);
  const DType qt = ex.k.tensor(d.ap.tensor).dtype, st = ex.k.tensor(so.ap.tensor).dtype;
  const int emax = qt == DType::Float8E5M2X4 ? 15 : 8;
  std::vector<uint8_t> keep(sc.v.size(), 0);
  for (int64_t p0 = 0; p0 < src.parts; p0 += 8)
    for (int64_t f = 0; f < q.free; ++f) {
      float amax = 0.0f;
      for (int64_t p = p0; p < p0 + 8; ++p)
        for (int j = 0; j < 4; ++j)
          amax = std::max(amax, std::fabs(static_cast<float>(src.at(p, 4 * f + j))));
      int e = -127;
      if (amax > 0) e = std::max(-127, std::min(127, std::ilogb(amax) - (emax - 1)));
      const float x = std::ldexp(1.0f, e);
      for (int64_t p = p0; p < p0 + 8; ++p) {
        uint32_t word = 0;
        for (int j = 0; j < 4; ++j) {
          uint8_t b = 0;
          store_f32(lane_dtype(qt), &b, static_cast<float>(src.at(p, 4 * f + j)) / x);
          word |= static_cast<uint32_t>(b) << (8 * j);
        }
        q.at(p, f) = word;
      }
      const int64_t sp = scale_partition(p0);
      sc.at(sp, f) = st == DType::Float8E8M0FNU ? static_cast<double>(x) : e + 127;
      keep[static_cast<size_t>(sp * sc.free + f)] = 1;
    }
  write_tile(ex, d, q);
  write_tile(ex, so, sc, &keep);
}

// Dequantized (4P, free) fp32 matrix of an x4 operand: row 4p + j is lane j of partition p.
std::vector<float> dequantize(Exec& ex, const Instruction& in, const char* data,
                              const char* scale) {
  const Operand& o = ex.need(in, data);
  const Tile2D t = read_tile(ex, o), s = read_tile(ex, ex.need(in, scale));
  const DType dt = ex.k.tensor(o.ap.tensor).dtype;
  std::vector<float> out(static_cast<size_t>(4 * t.parts * t.free));
  for (int64_t p = 0; p < t.parts; ++p)
    for (int64_t f = 0; f < t.free; ++f) {
      const float x = scale_value(s, p, f);
      const uint32_t word = static_cast<uint32_t>(static_cast<int64_t>(t.at(p, f)));
      for (int j = 0; j < 4; ++j)
        out[static_cast<size_t>((4 * p + j) * t.free + f)] = unpack(dt, word, j) * x;
    }
  return out;
}

void exec_nc_matmul_mx(Exec& ex, const Instruction& in) {
  const std::vector<float> S = dequantize(ex, in, "stationary", "stationary_scale");
  const std::vector<float> V = dequantize(ex, in, "moving", "moving_scale");
  const int64_t mw = ex.need(in, "stationary").ap.tile_shape.back();
  const int64_t nw = ex.need(in, "moving").ap.tile_shape.back();
  const int64_t k = static_cast<int64_t>(S.size()) / mw;
  std::vector<float> R(static_cast<size_t>(mw * nw), 0.0f);
  for (int64_t m = 0; m < mw; ++m)
    for (int64_t n = 0; n < nw; ++n) {
      float a = 0.0f;
      for (int64_t i = 0; i < k; ++i)
        a += S[static_cast<size_t>(i * mw + m)] * V[static_cast<size_t>(i * nw + n)];
      R[static_cast<size_t>(m * nw + n)] = a;
    }
  ex.log.matmul_macs += k * mw * nw;
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  store_matmul_result(ex, in, dom, 0, 0, nw, R.data());
}

} // namespace

void register_mx_execs(ExecTable& t) {
  t.add("quantize_mx", exec_quantize_mx);
  t.add("nc_matmul_mx", exec_nc_matmul_mx);
}

} // namespace nki::sim
