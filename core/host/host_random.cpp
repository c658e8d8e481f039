// np.random for host arrays: NumPy's legacy RandomState — MT19937 seeded as
// `np.random.seed(int)` seeds it, doubles as `random_sample` draws them (53 bits from two
// 32-bit outputs) and normals as the legacy polar method — so a seed gives NumPy's numbers.
//
// The Python stand-in keeps its own copy of the generator in step with this one (integers are
// drawn there): a normal draw therefore reports how many 32-bit outputs it used (rejections make
// that vary) and hands over the cached second normal of an unfinished pair instead of keeping it.
#include <cmath>
#include <cstdint>

#include "host/host_ops.h"
#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::host {

using util::Json;

namespace {

struct Mt19937 {
  uint32_t key[624];
  int pos = 624;
  int64_t used = 0; ///< 32-bit outputs drawn since the last reply
  bool has_gauss = false;
  double gauss = 0;

  void seed(uint32_t s) {
    for (int i = 0; i < 624; ++i) {
      key[i] = s;
      s = 1812433253u * (s ^ (s >> 30)) + static_cast<uint32_t>(i + 1);
    }
    pos = 624;
    has_gauss = false;
    gauss = 0;
  }
  void regenerate() {
    const uint32_t upper = 0x80000000u, lower = 0x7fffffffu, matrix = 0x9908b0dfu;
    int i = 0;
    for (; i < 624 - 397; ++i) {
      uint32_t y = (key[i] & upper) | (key[i + 1] & lower);
      key[i] = key[i + 397] ^ (y >> 1) ^ ((y & 1u) ? matrix : 0u);
    }
    for (; i < 623; ++i) {
      uint32_t y = (key[i] & upper) | (key[i + 1] & lower);
      key[i] = key[i + 397 - 624] ^ (y >> 1) ^ ((y & 1u) ? matrix : 0u);
    }
    uint32_t y = (key[623] & upper) | (key[0] & lower);
    key[623] = key[396] ^ (y >> 1) ^ ((y & 1u) ? matrix : 0u);
    pos = 0;
  }
  uint32_t next32() {
    if (pos == 624) regenerate();
    ++used;
    uint32_t y = key[pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }
  double next_double() {
    int32_t a = static_cast<int32_t>(next32() >> 5), b = static_cast<int32_t>(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  double next_gauss() {
    if (has_gauss) {
      has_gauss = false;
      return gauss;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * next_double() - 1.0;
      x2 = 2.0 * next_double() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss = f * x1;
    has_gauss = true;
    return f * x2;
  }
};

Mt19937& rng() {
  static Mt19937 r = [] {
    Mt19937 m;
    m.seed(5489u); // an unseeded RandomState draws from OS entropy; here a fixed default
    return m;
  }();
  return r;
}

} // namespace

std::string random(const Json& j) {
  if (j["op"].string() == "seed") {
    int64_t s = j["seed"].integer();
    if (s < 0 || s > 0xffffffffLL) sema::err_seed_out_of_range();
    rng().seed(static_cast<uint32_t>(s));
    return "null";
  }
  int64_t n = j["n"].integer();
  int id = new_array(HType::F64, n);
  double* out = reinterpret_cast<double*>(array(id).bytes());
  const bool normal = j["kind"].string() == "normal";
  Mt19937& r = rng();
  r.used = 0;
  for (int64_t i = 0; i < n; ++i) out[i] = normal ? r.next_gauss() : r.next_double();
  util::JsonWriter w;
  w.begin_object().key("id").value(id).key("used").value(r.used);
  if (r.has_gauss) {
    // The caller keeps the pair's second normal (NumPy's has_gauss) for its next draw.
    w.key("gauss").value(r.gauss);
    r.has_gauss = false;
  }
  w.end_object();
  return w.take();
}

} // namespace nki::host
