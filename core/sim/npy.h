#pragma once
/// NumPy's .npy format (versions 1.0–3.0, C order, little-endian): the goldens the native tests
/// read and the files host arrays load and save.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nki::sim {

struct NpyArray {
  std::string descr; ///< NumPy's type string: "<f4", "|u1", "|b1", "<i8", ...
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< row-major bytes
  int64_t size() const;
  int itemsize() const;
};

/// Parses a .npy file's bytes. Throws std::invalid_argument for anything else (Fortran order,
/// big-endian, object arrays).
NpyArray npy_parse(std::string_view bytes);
/// The bytes of a .npy file (format 1.0, or 2.0 when the header needs it).
std::string npy_format(const NpyArray& a);

NpyArray npy_read_file(const std::string& path);
void npy_write_file(const std::string& path, const NpyArray& a);

} // namespace nki::sim
