#include "sim/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nki::sim {

namespace {

const char kMagic[] = "\x93NUMPY";

std::string value_after(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw std::invalid_argument("npy header has no '" + key + "'");
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) throw std::invalid_argument("malformed npy header");
  size_t i = colon + 1;
  while (i < header.size() && header[i] == ' ') ++i;
  return header.substr(i);
}

} // namespace

int64_t NpyArray::size() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

int NpyArray::itemsize() const {
  size_t i = descr.find_first_of("0123456789");
  return i == std::string::npos ? 0 : std::stoi(descr.substr(i));
}

NpyArray npy_parse(std::string_view bytes) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    throw std::invalid_argument("not a .npy file");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t hlen, start;
  if (major == 1) {
    hlen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw std::invalid_argument("truncated .npy header");
    hlen = 0;
    for (int i = 0; i < 4; ++i)
      hlen |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    start = 12;
  } else {
    throw std::invalid_argument("unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() < start + hlen) throw std::invalid_argument("truncated .npy header");
  std::string header(bytes.substr(start, hlen));
  NpyArray a;
  std::string d = value_after(header, "descr");
  if (d.empty() || (d[0] != '\'' && d[0] != '"')) throw std::invalid_argument("bad npy descr");
  a.descr = d.substr(1, d.find(d[0], 1) - 1);
  if (a.descr.size() < 3 || a.descr[0] == '>')
    throw std::invalid_argument("unsupported npy dtype '" + a.descr + "' (big-endian or object)");
  if (value_after(header, "fortran_order").rfind("True", 0) == 0)
    throw std::invalid_argument("Fortran-ordered .npy files are not supported");
  std::string s = value_after(header, "shape");
  size_t close = s.find(')');
  std::string dims = s.substr(1, close - 1);
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t p = item.find_first_of("0123456789");
    if (p != std::string::npos) a.shape.push_back(std::stoll(item.substr(p)));
  }
  size_t n = static_cast<size_t>(a.size() * a.itemsize());
  if (bytes.size() < start + hlen + n) throw std::invalid_argument("truncated .npy data");
  a.data.assign(bytes.begin() + start + hlen, bytes.begin() + start + hlen + n);
  return a;
}

std::string npy_format(const NpyArray& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + ", ";
  if (a.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (a.shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header =
      "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  bool v2 = header.size() + 11 > 65535;
  size_t pre = v2 ? 12 : 10;
  size_t total = (pre + header.size() + 1 + 63) / 64 * 64;
  header.append(total - pre - header.size() - 1, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\0';
  size_t hl = header.size();
  for (int i = 0; i < (v2 ? 4 : 2); ++i) out += static_cast<char>((hl >> (8 * i)) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  return out;
}

NpyArray npy_read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return npy_parse(ss.str());
}

void npy_write_file(const std::string& path, const NpyArray& a) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot write " + path);
  std::string bytes = npy_format(a);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace nki::sim
