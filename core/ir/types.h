#pragma once
/// Value types of the IR: dtypes, buffers and memories, engines, source locations.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nki::ir {

/// NKI's element types (reference §1.5). Order matters only for printing tables; float types
/// are those from Float8E4M3 to Float8E8M0FNU.
enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  UInt16,
  Int16,
  UInt32,
  Int32,
  Float8E4M3,
  Float8E5M2,
  BFloat16,
  Float16,
  TFloat32,
  Float32,
  // The current language's newer types (NKI 0.2-0.5): OCP fp8 (no inf, NaN = S.1111.111), the
  // MX scale type (exponent only), and the x4 packed types (opaque bit containers here).
  Float8E4M3FN,
  Float8E8M0FNU,
  Float8E5M2X4,
  Float8E4M3FNX4,
  Float4E2M1FNX4,
};

/// NKI's name ("float32", "bfloat16", "float8_e4m3", "bool_").
const char* dtype_name(DType t);
/// Short form used by the printer ("f32", "bf16", "fp8e4", "i32", "u8", "bool").
const char* dtype_short(DType t);
/// Accepts NKI names and NumPy spellings ("float32", "bool", "bool_", "uint8", ...).
std::optional<DType> parse_dtype(std::string_view name);
int dtype_size(DType t);
bool dtype_is_float(DType t);
bool dtype_is_signed_int(DType t);

/// Where a tensor was placed by its creation API (`buffer=`) or that it is a kernel parameter.
enum class Buffer : uint8_t { Input, SharedHbm, PrivateHbm, Sbuf, Psum };
enum class Memory : uint8_t { HBM, SBUF, PSUM };

const char* buffer_name(Buffer b); // "hbm", "shared_hbm", "private_hbm", "sbuf", "psum"
std::optional<Buffer> parse_buffer(std::string_view name);
Memory memory_of(Buffer b);
const char* memory_name(Memory m); // "hbm", "sbuf", "psum"

/// The NeuronCore engine an instruction runs on.
enum class Engine : uint8_t { None, Dma, Tensor, Vector, Scalar, GpSimd, Sync };
const char* engine_name(Engine e); // "none", "dma", "tensor", "vector", "scalar", "gpsimd", "sync"

/// A position in the user's source. line and col are 1-based; 0 means unknown.
struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
  /// "file.py:9:13" with the file's base name (stable across machines, used in IR text).
  std::string short_str() const;
  /// "path/to/file.py:9:13" as the user named the file.
  std::string str() const;
};

} // namespace nki::ir
