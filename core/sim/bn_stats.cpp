// bn_stats' row statistics (bn_stats.h): the one-row form is the definition; the four- and
// sixteen-row forms give its bits, row for row.
#include "sim/bn_stats.h"

#include "sim/simd.h"

namespace nki::sim {

// Count and sum in order, then the squared deviations in order, of the even positions, then
// of the odd ones.
void bn_stats_row(const float* v, int64_t n, float* out) {
  for (int parity = 0; parity < 2; ++parity) {
    float count = 0, sum = 0;
    for (int64_t i = parity; i < n; i += 2) count += 1, sum += v[i];
    float mean = count > 0 ? sum / count : 0.0f, m2 = 0;
    for (int64_t i = parity; i < n; i += 2) {
      float dlt = v[i] - mean;
      m2 += dlt * dlt;
    }
    out[parity * 3 + 0] = count;
    out[parity * 3 + 1] = mean;
    out[parity * 3 + 2] = m2;
  }
}

// bn_stats_row of four rows side by side (out[r]: row r's six values), each row's sums and
// squared deviations in its own order, so the same values; the eight chains (row, parity) are
// independent, which the one-row form leaves the processor waiting on. A count is exact while
// it stays below 2^24 (where counting by ones stops growing): larger rows take the one-row form.
void bn_stats_rows4(const float* const v[4], int64_t n, float* const out[4]) {
  if (n >= (int64_t{1} << 24)) {
    for (int r = 0; r < 4; ++r) bn_stats_row(v[r], n, out[r]);
    return;
  }
  const float count[2] = {static_cast<float>((n + 1) / 2), static_cast<float>(n / 2)};
  // Lane r of a vector is row r: four columns of the four rows at a time, transposed, so
  // that each (row, parity) chain adds its elements one by one in order, as in one row.
  float sum[2][4], mean[2][4], m2[2][4];
  F4 c[4], acc0 = splat4(0.0f), acc1 = acc0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    transpose4(load4(v[0] + i), load4(v[1] + i), load4(v[2] + i), load4(v[3] + i), c);
    acc0 += c[0], acc1 += c[1];
    acc0 += c[2], acc1 += c[3];
  }
  for (int r = 0; r < 4; ++r) sum[0][r] = acc0[r], sum[1][r] = acc1[r];
  for (int64_t j = i; j < n; ++j)
    for (int r = 0; r < 4; ++r) sum[j & 1][r] += v[r][j];
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < 4; ++r) mean[p][r] = count[p] > 0 ? sum[p][r] / count[p] : 0.0f;
  const F4 mean0 = {mean[0][0], mean[0][1], mean[0][2], mean[0][3]};
  const F4 mean1 = {mean[1][0], mean[1][1], mean[1][2], mean[1][3]};
  acc0 = splat4(0.0f), acc1 = acc0;
  for (i = 0; i + 4 <= n; i += 4) {
    transpose4(load4(v[0] + i), load4(v[1] + i), load4(v[2] + i), load4(v[3] + i), c);
    F4 d0 = c[0] - mean0, d1 = c[1] - mean1;
    acc0 += d0 * d0, acc1 += d1 * d1;
    d0 = c[2] - mean0, d1 = c[3] - mean1;
    acc0 += d0 * d0, acc1 += d1 * d1;
  }
  for (int r = 0; r < 4; ++r) m2[0][r] = acc0[r], m2[1][r] = acc1[r];
  for (int64_t j = i; j < n; ++j)
    for (int r = 0; r < 4; ++r) {
      const float d = v[r][j] - mean[j & 1][r];
      m2[j & 1][r] += d * d;
    }
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 2; ++p) {
      out[r][p * 3 + 0] = count[p];
      out[r][p * 3 + 1] = mean[p][r];
      out[r][p * 3 + 2] = m2[p][r];
    }
}

// bn_stats_row of sixteen rows, eight pairs side by side: lanes (r even, r odd, r' even,
// r' odd) of rows r, r' = r + 1 take two columns of each row at a time (read four at a time), so
// each of the 32 (row, parity) chains adds its elements one by one in order, as in one row, with no
// transposing, and eight vector chains are in flight where bn_stats_rows4 has two. Counts as
// in bn_stats_rows4 (exact below 2^24).
//
// Each pair is read sixteen columns (a cache line of each row) at a time before the next pair:
// rows whose length is a multiple of 4 KiB (8192 fp32: layernorm's) put the sixteen rows' lines
// in one set of the L1 cache, which holds eight, and reading four columns of every row in turn
// lost each line before its next four were read (native, 4096 x 8192 in 512-column chunks:
// 22 -> 14 ms; wasm 26 -> 19 ms).
void bn_stats_rows16(const float* const v[16], int64_t n, float* const out[16]) {
  if (n >= (int64_t{1} << 24)) {
    for (int r = 0; r < 16; ++r) bn_stats_row(v[r], n, out[r]);
    return;
  }
  const float count[2] = {static_cast<float>((n + 1) / 2), static_cast<float>(n / 2)};
  float sum[16][2], mean[16][2], m2[16][2];
  F4 acc[8];
  for (F4& a : acc) a = splat4(0.0f);
  // Four columns of a row pair at a time: two full loads, whose low and high halves are the
  // pair's columns i, i + 1 and i + 2, i + 3, added in that order; sixteen of a pair at a time
  // while they last.
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 8; ++j) {
      const float *pa = v[2 * j] + i, *pb = v[2 * j + 1] + i;
      F4 s = acc[j];
      for (int k = 0; k < 16; k += 4) {
        const F4 a = load4(pa + k), b = load4(pb + k);
        s += low_halves(a, b);
        s += high_halves(a, b);
      }
      acc[j] = s;
    }
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 8; ++j) {
      const F4 a = load4(v[2 * j] + i), b = load4(v[2 * j + 1] + i);
      acc[j] += low_halves(a, b);
      acc[j] += high_halves(a, b);
    }
  for (; i + 2 <= n; i += 2)
    for (int j = 0; j < 8; ++j) acc[j] += load2x2(v[2 * j] + i, v[2 * j + 1] + i);
  for (int j = 0; j < 8; ++j)
    for (int l = 0; l < 4; ++l) sum[2 * j + l / 2][l % 2] = acc[j][l];
  if (i < n) // an odd length: the last element, of parity 0
    for (int r = 0; r < 16; ++r) sum[r][0] += v[r][i];
  for (int r = 0; r < 16; ++r)
    for (int p = 0; p < 2; ++p) mean[r][p] = count[p] > 0 ? sum[r][p] / count[p] : 0.0f;
  F4 mv[8];
  for (int j = 0; j < 8; ++j) {
    mv[j] = F4{mean[2 * j][0], mean[2 * j][1], mean[2 * j + 1][0], mean[2 * j + 1][1]};
    acc[j] = splat4(0.0f);
  }
  for (i = 0; i + 16 <= n; i += 16)
    for (int j = 0; j < 8; ++j) {
      const float *pa = v[2 * j] + i, *pb = v[2 * j + 1] + i;
      F4 s = acc[j];
      for (int k = 0; k < 16; k += 4) {
        const F4 a = load4(pa + k), b = load4(pb + k);
        const F4 d0 = low_halves(a, b) - mv[j], d1 = high_halves(a, b) - mv[j];
        s += d0 * d0;
        s += d1 * d1;
      }
      acc[j] = s;
    }
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 8; ++j) {
      const F4 a = load4(v[2 * j] + i), b = load4(v[2 * j + 1] + i);
      const F4 d0 = low_halves(a, b) - mv[j], d1 = high_halves(a, b) - mv[j];
      acc[j] += d0 * d0;
      acc[j] += d1 * d1;
    }
  for (; i + 2 <= n; i += 2)
    for (int j = 0; j < 8; ++j) {
      const F4 d = load2x2(v[2 * j] + i, v[2 * j + 1] + i) - mv[j];
      acc[j] += d * d;
    }
  for (int j = 0; j < 8; ++j)
    for (int l = 0; l < 4; ++l) m2[2 * j + l / 2][l % 2] = acc[j][l];
  if (i < n)
    for (int r = 0; r < 16; ++r) {
      const float d = v[r][i] - mean[r][0];
      m2[r][0] += d * d;
    }
  for (int r = 0; r < 16; ++r)
    for (int p = 0; p < 2; ++p) {
      out[r][p * 3 + 0] = count[p];
      out[r][p * 3 + 1] = mean[r][p];
      out[r][p * 3 + 2] = m2[r][p];
    }
}

void bn_stats_rows(const float* const* v, int count, int64_t n, float* const* out) {
  int r = 0;
  for (; r + 16 <= count; r += 16) bn_stats_rows16(v + r, n, out + r);
  for (; r + 4 <= count; r += 4) bn_stats_rows4(v + r, n, out + r);
  for (; r < count; ++r) bn_stats_row(v[r], n, out[r]);
}

} // namespace nki::sim
