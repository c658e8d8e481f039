#include "ir/types.h"

namespace nki::ir {

namespace {
struct DTypeInfo {
  DType t;
  const char* name;
  const char* short_name;
  int size;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::Bool, "bool_", "bool", 1},
    {DType::UInt8, "uint8", "u8", 1},
    {DType::Int8, "int8", "i8", 1},
    {DType::UInt16, "uint16", "u16", 2},
    {DType::Int16, "int16", "i16", 2},
    {DType::UInt32, "uint32", "u32", 4},
    {DType::Int32, "int32", "i32", 4},
    {DType::Float8E4M3, "float8_e4m3", "fp8e4", 1},
    {DType::Float8E5M2, "float8_e5m2", "fp8e5", 1},
    {DType::BFloat16, "bfloat16", "bf16", 2},
    {DType::Float16, "float16", "f16", 2},
    {DType::TFloat32, "tfloat32", "tf32", 4},
    {DType::Float32, "float32", "f32", 4},
    {DType::Float8E4M3FN, "float8_e4m3fn", "fp8e4fn", 1},
    {DType::Float8E8M0FNU, "float8_e8m0fnu", "fp8e8m0", 1},
    {DType::Float8E5M2X4, "float8_e5m2_x4", "fp8e5x4", 4},
    {DType::Float8E4M3FNX4, "float8_e4m3fn_x4", "fp8e4fnx4", 4},
    {DType::Float4E2M1FNX4, "float4_e2m1fn_x4", "fp4x4", 2},
};
const DTypeInfo& info(DType t) {
  return kDTypes[static_cast<int>(t)];
}
} // namespace

const char* dtype_name(DType t) {
  return info(t).name;
}
const char* dtype_short(DType t) {
  return info(t).short_name;
}
int dtype_size(DType t) {
  return info(t).size;
}

std::optional<DType> parse_dtype(std::string_view name) {
  if (name == "bool" || name == "bool8") return DType::Bool;
  // Beta 1's front end maps its float8_e4m3fn / float8_e5m2fn to the IEEE-style types before
  // the core sees them; the current language's float8_e4m3fn is the OCP type.
  if (name == "float8_e5m2fn") return DType::Float8E5M2;
  for (const auto& d : kDTypes)
    if (name == d.name || name == d.short_name) return d.t;
  return std::nullopt;
}

bool dtype_is_float(DType t) {
  return t >= DType::Float8E4M3 && t <= DType::Float8E8M0FNU;
}
bool dtype_is_signed_int(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32;
}

const char* buffer_name(Buffer b) {
  switch (b) {
  case Buffer::Input:
    return "hbm";
  case Buffer::SharedHbm:
    return "shared_hbm";
  case Buffer::PrivateHbm:
    return "private_hbm";
  case Buffer::Sbuf:
    return "sbuf";
  case Buffer::Psum:
    return "psum";
  }
  return "?";
}

std::optional<Buffer> parse_buffer(std::string_view name) {
  if (name == "shared_hbm") return Buffer::SharedHbm;
  if (name == "private_hbm" || name == "hbm") return Buffer::PrivateHbm;
  if (name == "sbuf") return Buffer::Sbuf;
  if (name == "psum") return Buffer::Psum;
  if (name == "input") return Buffer::Input;
  return std::nullopt;
}

Memory memory_of(Buffer b) {
  switch (b) {
  case Buffer::Sbuf:
    return Memory::SBUF;
  case Buffer::Psum:
    return Memory::PSUM;
  default:
    return Memory::HBM;
  }
}

const char* memory_name(Memory m) {
  switch (m) {
  case Memory::HBM:
    return "hbm";
  case Memory::SBUF:
    return "sbuf";
  case Memory::PSUM:
    return "psum";
  }
  return "?";
}

const char* engine_name(Engine e) {
  switch (e) {
  case Engine::None:
    return "none";
  case Engine::Dma:
    return "dma";
  case Engine::Tensor:
    return "tensor";
  case Engine::Vector:
    return "vector";
  case Engine::Scalar:
    return "scalar";
  case Engine::GpSimd:
    return "gpsimd";
  case Engine::Sync:
    return "sync";
  }
  return "?";
}

std::string SourceLoc::str() const {
  if (!known()) return file.empty() ? "<unknown>" : file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

std::string SourceLoc::short_str() const {
  auto slash = file.find_last_of('/');
  std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
  if (!known()) return base.empty() ? "<unknown>" : base;
  return base + ":" + std::to_string(line) + ":" + std::to_string(col);
}

} // namespace nki::ir
