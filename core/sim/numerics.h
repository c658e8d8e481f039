#pragma once
/// NKI numerics: how each dtype's bytes become the fp32 (or integer) values engines compute on,
/// and how results are cast on write.
///
/// Storage keeps every tensor in its dtype's own bytes (bf16 = 2 bytes, fp8 = 1 byte, int32 =
/// 4 bytes, ...): int32 stays exact, a bitcast view (`t.view(dtype)`) is the same bytes read
/// another way, host arrays cross as raw bytes, and memory figures are the real ones. Engines
/// compute arithmetic in fp32, so reads decode runs of elements into contiguous fp32 scratch
/// (vectorizable loops) and writes encode them back:
///   - float outputs round to nearest, ties to even (bf16, fp16, tf32, fp8 e4m3 / e5m2 with
///     subnormals; overflow goes to inf, NaN stays NaN);
///   - integer outputs of fp32 results round to nearest even and saturate to the type's range
///     (NaN gives 0); bool_ stores 1 for any non-zero value.
/// Bit-exact paths (same-dtype copies, bitvec operators, GpSimd integer arithmetic) use the
/// integer codecs, which wrap to the type's width.
#include <cstdint>

#include "ir/types.h"

namespace nki::sim {

using ir::DType;

/// memmove for the simulator's row copies. In wasm, Emscripten 3.1.6's memcpy hands every
/// copy of 512 bytes or more to JavaScript (a call out of wasm per row); this file is built
/// with bulk memory, so the copy is one `memory.copy`. Natively it is memmove.
void copy_bytes(uint8_t* dst, const uint8_t* src, size_t n);

/// Bytes of one element.
inline int elem_size(DType t) {
  return ir::dtype_size(t);
}

/// fp32 value of `x` rounded to the grid of float dtype `t` (identity for float32).
float round_to(DType t, float x);

/// Decodes `n` elements at `src` (element stride `stride`, in elements) into fp32.
void decode_f32(DType t, const uint8_t* src, int64_t stride, int64_t n, float* out);
/// Encodes `n` fp32 values (cast on write) into elements at `dst` with element stride `stride`.
void encode_f32(DType t, uint8_t* dst, int64_t stride, int64_t n, const float* in);

/// Decodes elements as integers: integer dtypes give their value; float dtypes their value
/// truncated toward zero (used where an engine reads a float as an integer, e.g. indices).
void decode_i64(DType t, const uint8_t* src, int64_t stride, int64_t n, int64_t* out);
/// Encodes integers: integer dtypes wrap to their width; float dtypes round the value.
void encode_i64(DType t, uint8_t* dst, int64_t stride, int64_t n, const int64_t* in);

/// One element (slow path helpers).
float load_f32(DType t, const uint8_t* p);
void store_f32(DType t, uint8_t* p, float v);

/// The bytes of "never written" memory: a quiet NaN for float dtypes, `int_fill` for integers
/// (0 for Beta 1; 4, NKI 0.6.0's simulator sentinel, for the current language).
void fill_unwritten(DType t, uint8_t* dst, int64_t n, int64_t int_fill = 0);

/// Bit-level encoders of single values (exposed for tests).
uint16_t f32_to_bf16_bits(float x);
uint16_t f32_to_f16_bits(float x);
uint8_t f32_to_fp8_bits(float x, int exp_bits, int man_bits);
float small_float_to_f32(uint32_t bits, int exp_bits, int man_bits);

} // namespace nki::sim
