// Host arrays: the registry, element access with NumPy's casts, and the requests that move
// data (new, free, copy with cast, assign with broadcasting, fill, arange).
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <unordered_map>

#include "host/host.h"
#include "host/host_ops.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sim/numerics.h"
#include "util/json.h"

namespace nki::host {

using util::Json;
using util::JsonWriter;

namespace {

struct Registry {
  std::unordered_map<int, std::unique_ptr<HArray>> arrays;
  int next = 1;
};
Registry& reg() {
  static Registry r;
  return r;
}

constexpr struct {
  const char* name;
  HType t;
  int size;
} kTypes[] = {{"bool", HType::Bool, 1},   {"int8", HType::I8, 1},     {"uint8", HType::U8, 1},
              {"int16", HType::I16, 2},   {"uint16", HType::U16, 2},  {"int32", HType::I32, 4},
              {"uint32", HType::U32, 4},  {"int64", HType::I64, 8},   {"uint64", HType::U64, 8},
              {"float16", HType::F16, 2}, {"float32", HType::F32, 4}, {"float64", HType::F64, 8}};

template <typename T> T raw(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T> void put(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// NumPy's float -> integer cast (C truncation). Values C leaves undefined (NaN, out of range)
// give the type's minimum, as x86-64 NumPy does for int64.
int64_t trunc_to_int(double v, HType t) {
  if (std::isnan(v) || v >= 9.2233720368547758e18 || v < -9.2233720368547758e18)
    return t == HType::U64 ? 0 : std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

} // namespace

std::optional<HType> parse_htype(const std::string& name) {
  for (const auto& e : kTypes)
    if (name == e.name) return e.t;
  return std::nullopt;
}

int hsize(HType t) {
  for (const auto& e : kTypes)
    if (e.t == t) return e.size;
  return 0;
}

const char* htype_name(HType t) {
  for (const auto& e : kTypes)
    if (e.t == t) return e.name;
  return "?";
}

bool is_float(HType t) {
  return t == HType::F16 || t == HType::F32 || t == HType::F64;
}

HArray& array(int id) {
  auto it = reg().arrays.find(id);
  if (it == reg().arrays.end())
    throw sema::InternalError("host array " + std::to_string(id) + " does not exist");
  return *it->second;
}

static uint8_t* element(int id, int64_t index) {
  HArray& a = array(id);
  if (index < 0 || index >= a.n)
    throw sema::InternalError("host array " + std::to_string(id) + ": element " +
                              std::to_string(index) + " out of range");
  return a.bytes() + index * hsize(a.type);
}

double get(int id, int64_t index) {
  return load_f(element(id, index), array(id).type);
}

void set(int id, int64_t index, double v) {
  store_f(element(id, index), array(id).type, v);
}

int new_array(HType t, int64_t n) {
  auto a = std::make_unique<HArray>();
  a->type = t;
  a->n = n;
  a->words.assign(static_cast<size_t>((n * hsize(t) + 7) / 8 + 1), 0);
  int id = reg().next++;
  reg().arrays[id] = std::move(a);
  return id;
}

uint8_t* data(int id) {
  return array(id).bytes();
}
int64_t nbytes(int id) {
  return array(id).n * hsize(array(id).type);
}
int64_t live_arrays() {
  return static_cast<int64_t>(reg().arrays.size());
}

double load_f(const uint8_t* p, HType t) {
  switch (t) {
  case HType::Bool:
    return *p ? 1.0 : 0.0;
  case HType::I8:
    return static_cast<int8_t>(*p);
  case HType::U8:
    return *p;
  case HType::I16:
    return raw<int16_t>(p);
  case HType::U16:
    return raw<uint16_t>(p);
  case HType::I32:
    return raw<int32_t>(p);
  case HType::U32:
    return raw<uint32_t>(p);
  case HType::I64:
    return static_cast<double>(raw<int64_t>(p));
  case HType::U64:
    return static_cast<double>(raw<uint64_t>(p));
  case HType::F16:
    return sim::load_f32(ir::DType::Float16, p);
  case HType::F32:
    return raw<float>(p);
  case HType::F64:
    return raw<double>(p);
  }
  return 0;
}

int64_t load_i(const uint8_t* p, HType t) {
  switch (t) {
  case HType::Bool:
    return *p ? 1 : 0;
  case HType::I8:
    return static_cast<int8_t>(*p);
  case HType::U8:
    return *p;
  case HType::I16:
    return raw<int16_t>(p);
  case HType::U16:
    return raw<uint16_t>(p);
  case HType::I32:
    return raw<int32_t>(p);
  case HType::U32:
    return raw<uint32_t>(p);
  case HType::I64:
    return raw<int64_t>(p);
  case HType::U64:
    return static_cast<int64_t>(raw<uint64_t>(p));
  default:
    return trunc_to_int(load_f(p, t), HType::I64);
  }
}

void store_f(uint8_t* p, HType t, double v) {
  switch (t) {
  case HType::Bool:
    *p = v != 0.0;
    return;
  case HType::F16:
    sim::store_f32(ir::DType::Float16, p, static_cast<float>(v));
    return;
  case HType::F32:
    put<float>(p, static_cast<float>(v));
    return;
  case HType::F64:
    put<double>(p, v);
    return;
  default:
    store_i(p, t, trunc_to_int(v, t));
    return;
  }
}

void store_i(uint8_t* p, HType t, int64_t v) {
  switch (t) {
  case HType::Bool:
    *p = v != 0;
    return;
  case HType::I8:
  case HType::U8:
    *p = static_cast<uint8_t>(v);
    return;
  case HType::I16:
  case HType::U16:
    put<uint16_t>(p, static_cast<uint16_t>(v));
    return;
  case HType::I32:
  case HType::U32:
    put<uint32_t>(p, static_cast<uint32_t>(v));
    return;
  case HType::I64:
  case HType::U64:
    put<int64_t>(p, v);
    return;
  default:
    store_f(p, t, static_cast<double>(v));
    return;
  }
}

HView view_of(const Json& j) {
  HView v;
  v.id = static_cast<int>(j["id"].integer());
  v.offset = j.get_int("off", 0);
  v.shape = j["shape"].int_list();
  v.strides = j["strides"].int_list();
  return v;
}

std::string reply_id(int id) {
  JsonWriter w;
  w.begin_object().key("id").value(id).end_object();
  return w.take();
}

// Copies `src` (broadcast) into `dst`'s elements with a cast; through a temporary when both
// are the same array (overlapping views).
void assign(const HView& dst, const HView& src) {
  HArray& d = array(dst.id);
  HArray& s = array(src.id);
  HView from = src;
  int tmp = -1;
  if (dst.id == src.id) {
    tmp = new_array(s.type, s.n);
    std::memcpy(array(tmp).bytes(), s.bytes(), static_cast<size_t>(s.n * hsize(s.type)));
    from.id = tmp;
  }
  HArray& f = array(from.id);
  const int ds = hsize(d.type), fs = hsize(f.type);
  const bool same = d.type == f.type, fl = is_float(f.type) || is_float(d.type);
  for_each(dst.shape, {&dst, &from}, [&](int64_t, const int64_t* o) {
    uint8_t* dp = d.bytes() + o[0] * ds;
    const uint8_t* sp = f.bytes() + o[1] * fs;
    if (same)
      std::memcpy(dp, sp, static_cast<size_t>(ds));
    else if (fl)
      store_f(dp, d.type, load_f(sp, f.type));
    else
      store_i(dp, d.type, load_i(sp, f.type));
  });
  if (tmp >= 0) reg().arrays.erase(tmp);
}

std::string request(const std::string& text) {
  Json j = Json::parse(text);
  const std::string& op = j["op"].string();
  auto type = [&](const char* key) {
    auto t = parse_htype(j[key].string());
    if (!t) sema::err_unsupported_host_dtype(j[key].string());
    return *t;
  };
  if (op == "new") {
    int id = new_array(type("dtype"), j["n"].integer());
    if (j.has("fill")) {
      HArray& a = array(id);
      const int s = hsize(a.type);
      uint8_t one[8];
      if (j["int"].is_bool() && j["int"].boolean())
        store_i(one, a.type, j["fill"].integer());
      else
        store_f(one, a.type, j["fill"].number());
      for (int64_t i = 0; i < a.n; ++i) std::memcpy(a.bytes() + i * s, one, static_cast<size_t>(s));
    }
    return reply_id(id);
  }
  if (op == "free") {
    reg().arrays.erase(static_cast<int>(j["id"].integer()));
    return "null";
  }
  if (op == "copy") { // a new contiguous array of `dtype` holding `src` (cast)
    HView src = view_of(j["src"]);
    int64_t n = 1;
    for (int64_t s : src.shape) n *= s;
    int id = new_array(type("dtype"), n);
    HView dst{id, 0, src.shape, {}};
    dst.strides.assign(src.shape.size(), 1);
    for (size_t a = src.shape.size(); a-- > 1;) dst.strides[a - 1] = dst.strides[a] * src.shape[a];
    assign(dst, src);
    return reply_id(id);
  }
  if (op == "assign") {
    assign(view_of(j["dst"]), view_of(j["src"]));
    return "null";
  }
  if (op == "arange") { // start + i * step, computed in the result type's domain
    HType t = type("dtype");
    int64_t n = j["n"].integer();
    int id = new_array(t, n);
    HArray& a = array(id);
    const int s = hsize(t);
    if (is_float(t)) {
      double start = j["start"].number(), step = j["step"].number();
      for (int64_t i = 0; i < n; ++i)
        store_f(a.bytes() + i * s, t, start + static_cast<double>(i) * step);
    } else {
      int64_t start = j["start"].integer(), step = j["step"].integer();
      for (int64_t i = 0; i < n; ++i) store_i(a.bytes() + i * s, t, start + i * step);
    }
    return reply_id(id);
  }
  if (op == "ufunc") return ufunc(j);
  if (op == "reduce") return reduce(j);
  if (op == "matmul") return matmul(j);
  if (op == "seed" || op == "random") return random(j);
  throw sema::InternalError("unknown host array request '" + op + "'");
}

} // namespace nki::host
