#pragma once
/// Host arrays: NumPy-semantics array storage and operations in the core, behind the trace-time
/// numpy fallback's ndarray (its core-backed storage). Python keeps shapes, strides, dtype
/// resolution (NEP 50) and errors; the core holds the bytes and runs the loops.
///
/// Values compute in double for float loops (float32/float16 results are then rounded, as a
/// float32/float16 NumPy loop's are: exactly for + - * /, within an ulp for transcendentals)
/// and in int64 for integer loops (wrapping to the output width). One request per operation:
/// JSON in, JSON out (docs/simulator.md lists them).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nki::host {

/// NumPy dtypes the fallback has.
enum class HType : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };

std::optional<HType> parse_htype(const std::string& name); // "float32", "bool", ...
int hsize(HType t);
bool is_float(HType t);

/// A strided view of an array (offsets and strides in elements).
struct HView {
  int id = -1;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
};

/// Handles one request and returns its reply (both JSON). Throws sema::NkiError for user errors.
std::string request(const std::string& json);

/// The bytes of array `id` and their count (for typed-array views over them).
uint8_t* data(int id);
int64_t nbytes(int id);
/// Arrays alive now (for leak tests).
int64_t live_arrays();
/// One element of array `id` as a double (exact except for 64-bit integers past 2^53), and a
/// store of one (cast as NumPy casts) — scalar indexing without a JSON request.
double get(int id, int64_t index);
void set(int id, int64_t index, double v);

// --- shared by host_*.cpp -------------------------------------------------------------------

struct HArray {
  HType type = HType::F64;
  int64_t n = 0;
  std::vector<uint64_t> words; // the bytes, 8-byte aligned
  uint8_t* bytes() { return reinterpret_cast<uint8_t*>(words.data()); }
};
HArray& array(int id);
/// A new array of `n` elements of `t` (zeroed); its id.
int new_array(HType t, int64_t n);

/// Element access: a value as double / int64, and stores with NumPy's casts.
double load_f(const uint8_t* p, HType t);
int64_t load_i(const uint8_t* p, HType t);
void store_f(uint8_t* p, HType t, double v);
void store_i(uint8_t* p, HType t, int64_t v);

/// Calls f(flat, offs) for every position of `shape` in row-major order: `flat` counts
/// positions, offs[k] is view k's element offset there (each view broadcast to `shape`,
/// right-aligned, extent-1 axes repeating).
template <typename F>
void for_each(const std::vector<int64_t>& shape, const std::vector<const HView*>& views, F&& f) {
  const size_t r = shape.size(), nv = views.size();
  std::vector<int64_t> st(nv * (r ? r : 1), 0), offs(nv), idx(r, 0);
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  if (total == 0) return;
  for (size_t k = 0; k < nv; ++k) {
    const HView& v = *views[k];
    offs[k] = v.offset;
    size_t pad = r - v.shape.size();
    for (size_t a = 0; a < v.shape.size(); ++a)
      st[k * r + pad + a] = v.shape[a] == 1 ? 0 : v.strides[a];
  }
  for (int64_t flat = 0;;) {
    f(flat, offs.data());
    if (++flat == total) return;
    size_t a = r;
    while (a-- > 0) {
      for (size_t k = 0; k < nv; ++k) offs[k] += st[k * r + a];
      if (++idx[a] < shape[a]) break;
      for (size_t k = 0; k < nv; ++k) offs[k] -= st[k * r + a] * shape[a];
      idx[a] = 0;
    }
  }
}

} // namespace nki::host
