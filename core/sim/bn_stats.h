#pragma once
/// bn_stats' per-row statistics: (count, mean, variance·count) of a row's even-indexed and of
/// its odd-indexed elements, each sum and each sum of squared deviations added in order,
/// element by element — one row, or several side by side with the same bits (their chains
/// independent, which is what keeps the processor busy). The bn_stats executor's
/// (exec_reduce.cpp) rows read in place.
#include <cstdint>

namespace nki::sim {

/// out[0..6) = (count, mean, m2) of the even positions, then of the odd ones, of v[0..n).
void bn_stats_row(const float* v, int64_t n, float* out);
/// bn_stats_row of four rows of one length (out[r]: row r's six values).
void bn_stats_rows4(const float* const v[4], int64_t n, float* const out[4]);
/// bn_stats_row of sixteen rows of one length.
void bn_stats_rows16(const float* const v[16], int64_t n, float* const out[16]);
/// bn_stats_row of `count` rows of one length: sixteen at a time, then four, then one.
void bn_stats_rows(const float* const* v, int count, int64_t n, float* const* out);

} // namespace nki::sim
