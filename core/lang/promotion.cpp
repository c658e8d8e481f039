#include "lang/promotion.h"

namespace nki::lang {

using ir::DType;

namespace {
bool is_fp8(DType t) {
  return t == DType::Float8E4M3 || t == DType::Float8E5M2;
}
bool is_unsigned(DType t) {
  return t == DType::Bool || t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32;
}
DType signed_of_size(int bytes) {
  return bytes <= 1 ? DType::Int8 : bytes == 2 ? DType::Int16 : DType::Int32;
}
} // namespace

DType promote(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  bool fa = ir::dtype_is_float(a), fb = ir::dtype_is_float(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    if (a == DType::Float32 || b == DType::Float32) return DType::Float32;
    if (a == DType::TFloat32 || b == DType::TFloat32) return DType::TFloat32;
    if (is_fp8(a) && is_fp8(b)) return DType::BFloat16; // e4m3 × e5m2
    if (is_fp8(a)) return b;                            // fp8 × 16-bit float
    if (is_fp8(b)) return a;
    return DType::Float32; // float16 × bfloat16
  }
  // int × int
  int sa = ir::dtype_size(a), sb = ir::dtype_size(b);
  if (is_unsigned(a) == is_unsigned(b)) return sa >= sb ? a : b;
  DType u = is_unsigned(a) ? a : b, s = is_unsigned(a) ? b : a;
  int su = ir::dtype_size(u), ss = ir::dtype_size(s);
  if (ss > su) return s;
  if (su >= 4) return DType::Float32; // int32 × uint32 has no integer home
  return signed_of_size(su * 2);
}

DType scalar_dtype(bool is_float, bool is_bool) {
  if (is_bool) return DType::UInt8;
  return is_float ? DType::Float32 : DType::Int32;
}

} // namespace nki::lang
