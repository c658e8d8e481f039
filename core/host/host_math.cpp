// Host-array math with NumPy's semantics: elementwise ufuncs (broadcasting), reductions over
// axes, 2-D matmul. Float loops compute in double and round to the output type; integer
// loops compute in int64 and wrap. A ufunc the core does not have replies {"unsupported": true}
// and the fallback computes it in Python.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "host/host_ops.h"
#include "sema/sema.h"

namespace nki::host {

using util::Json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using FloatFn = double (*)(double, double);
using IntFn = int64_t (*)(int64_t, int64_t);

void divmod(double a, double b, double& floordiv, double& mod) { // NumPy's npy_divmod
  mod = std::fmod(a, b);
  if (b == 0.0) {
    floordiv = a / b;
    return;
  }
  double div = (a - mod) / b;
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, a / b);
  }
}

struct FloatOp {
  const char* name;
  FloatFn f;
};
const FloatOp kFloat[] = {
    {"add", [](double a, double b) { return a + b; }},
    {"subtract", [](double a, double b) { return a - b; }},
    {"multiply", [](double a, double b) { return a * b; }},
    {"divide", [](double a, double b) { return a / b; }},
    {"power", [](double a, double b) { return std::pow(a, b); }},
    {"maximum", [](double a, double b) { return (a != a || b != b) ? kNaN : (a >= b ? a : b); }},
    {"minimum", [](double a, double b) { return (a != a || b != b) ? kNaN : (a <= b ? a : b); }},
    {"arctan2", [](double a, double b) { return std::atan2(a, b); }},
    {"fmod", [](double a, double b) { return std::fmod(a, b); }},
    {"floor_divide",
     [](double a, double b) {
       double d, m;
       divmod(a, b, d, m);
       return d;
     }},
    {"remainder",
     [](double a, double b) {
       double d, m;
       divmod(a, b, d, m);
       return b == 0.0 ? kNaN : m;
     }},
    {"equal", [](double a, double b) { return a == b ? 1.0 : 0.0; }},
    {"not_equal", [](double a, double b) { return a != b ? 1.0 : 0.0; }},
    {"greater", [](double a, double b) { return a > b ? 1.0 : 0.0; }},
    {"greater_equal", [](double a, double b) { return a >= b ? 1.0 : 0.0; }},
    {"less", [](double a, double b) { return a < b ? 1.0 : 0.0; }},
    {"less_equal", [](double a, double b) { return a <= b ? 1.0 : 0.0; }},
    {"logical_and", [](double a, double b) { return (a != 0 && b != 0) ? 1.0 : 0.0; }},
    {"logical_or", [](double a, double b) { return (a != 0 || b != 0) ? 1.0 : 0.0; }},
    {"logical_xor", [](double a, double b) { return ((a != 0) != (b != 0)) ? 1.0 : 0.0; }},
    // one input (b unused)
    {"negative", [](double a, double) { return -a; }},
    {"positive", [](double a, double) { return a; }},
    {"absolute", [](double a, double) { return std::fabs(a); }},
    {"square", [](double a, double) { return a * a; }},
    {"reciprocal", [](double a, double) { return 1.0 / a; }},
    {"sign", [](double a, double) { return a != a ? kNaN : (a > 0) - (a < 0) + 0.0; }},
    {"sqrt", [](double a, double) { return std::sqrt(a); }},
    {"exp", [](double a, double) { return std::exp(a); }},
    {"exp2", [](double a, double) { return std::exp2(a); }},
    {"expm1", [](double a, double) { return std::expm1(a); }},
    {"log", [](double a, double) { return std::log(a); }},
    {"log2", [](double a, double) { return std::log2(a); }},
    {"log10", [](double a, double) { return std::log10(a); }},
    {"log1p", [](double a, double) { return std::log1p(a); }},
    {"sin", [](double a, double) { return std::sin(a); }},
    {"cos", [](double a, double) { return std::cos(a); }},
    {"tan", [](double a, double) { return std::tan(a); }},
    {"arcsin", [](double a, double) { return std::asin(a); }},
    {"arccos", [](double a, double) { return std::acos(a); }},
    {"arctan", [](double a, double) { return std::atan(a); }},
    {"sinh", [](double a, double) { return std::sinh(a); }},
    {"cosh", [](double a, double) { return std::cosh(a); }},
    {"tanh", [](double a, double) { return std::tanh(a); }},
    {"floor", [](double a, double) { return std::floor(a); }},
    {"ceil", [](double a, double) { return std::ceil(a); }},
    {"trunc", [](double a, double) { return std::trunc(a); }},
    {"rint", [](double a, double) { return std::nearbyint(a); }},
    {"isnan", [](double a, double) { return std::isnan(a) ? 1.0 : 0.0; }},
    {"isinf", [](double a, double) { return std::isinf(a) ? 1.0 : 0.0; }},
    {"isfinite", [](double a, double) { return std::isfinite(a) ? 1.0 : 0.0; }},
    {"logical_not", [](double a, double) { return a == 0 ? 1.0 : 0.0; }},
};

int64_t py_floordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct IntOp {
  const char* name;
  IntFn f;
};
const IntOp kInt[] = {
    {"add",
     [](int64_t a, int64_t b) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
     }},
    {"subtract",
     [](int64_t a, int64_t b) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
     }},
    {"multiply",
     [](int64_t a, int64_t b) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
     }},
    {"maximum", [](int64_t a, int64_t b) { return a >= b ? a : b; }},
    {"minimum", [](int64_t a, int64_t b) { return a <= b ? a : b; }},
    {"floor_divide", py_floordiv},
    {"remainder", [](int64_t a, int64_t b) { return b == 0 ? 0 : a - py_floordiv(a, b) * b; }},
    {"fmod", [](int64_t a, int64_t b) { return b == 0 ? 0 : a % b; }},
    {"equal", [](int64_t a, int64_t b) -> int64_t { return a == b; }},
    {"not_equal", [](int64_t a, int64_t b) -> int64_t { return a != b; }},
    {"greater", [](int64_t a, int64_t b) -> int64_t { return a > b; }},
    {"greater_equal", [](int64_t a, int64_t b) -> int64_t { return a >= b; }},
    {"less", [](int64_t a, int64_t b) -> int64_t { return a < b; }},
    {"less_equal", [](int64_t a, int64_t b) -> int64_t { return a <= b; }},
    {"logical_and", [](int64_t a, int64_t b) -> int64_t { return a != 0 && b != 0; }},
    {"logical_or", [](int64_t a, int64_t b) -> int64_t { return a != 0 || b != 0; }},
    {"logical_xor", [](int64_t a, int64_t b) -> int64_t { return (a != 0) != (b != 0); }},
    {"bitwise_and", [](int64_t a, int64_t b) { return a & b; }},
    {"bitwise_or", [](int64_t a, int64_t b) { return a | b; }},
    {"bitwise_xor", [](int64_t a, int64_t b) { return a ^ b; }},
    {"negative",
     [](int64_t a, int64_t) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }},
    {"positive", [](int64_t a, int64_t) { return a; }},
    {"absolute", [](int64_t a, int64_t) { return a < 0 ? -a : a; }},
    {"square",
     [](int64_t a, int64_t) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(a));
     }},
    {"sign", [](int64_t a, int64_t) -> int64_t { return (a > 0) - (a < 0); }},
    {"invert", [](int64_t a, int64_t) { return ~a; }},
    {"logical_not", [](int64_t a, int64_t) -> int64_t { return a == 0; }},
    {"floor", [](int64_t a, int64_t) { return a; }},
    {"ceil", [](int64_t a, int64_t) { return a; }},
    {"trunc", [](int64_t a, int64_t) { return a; }},
    {"rint", [](int64_t a, int64_t) { return a; }},
};

template <typename T, size_t N> const T* lookup(const T (&table)[N], const std::string& name) {
  for (const T& e : table)
    if (name == e.name) return &e;
  return nullptr;
}

std::string unsupported() {
  return "{\"unsupported\":true}";
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t a = shape.size(); a-- > 1;) s[a - 1] = s[a] * shape[a];
  return s;
}

/// The loop types (`lp`, `od`) and the function of request `j`'s ufunc `name`: one of `fop` /
/// `iop` by the loop type's kind; nullopt when the types or the name are not supported here.
struct LoopOps {
  HType lp, od;
  bool fl;
  const FloatOp* fop;
  const IntOp* iop;
};
std::optional<LoopOps> loop_ops(const Json& j) {
  auto lp = parse_htype(j["lp"].string()), od = parse_htype(j["od"].string());
  if (!lp || !od || *lp == HType::U64) return std::nullopt;
  const bool fl = is_float(*lp);
  const std::string& name = j["name"].string();
  const FloatOp* fop = fl ? lookup(kFloat, name) : nullptr;
  const IntOp* iop = fl ? nullptr : lookup(kInt, name);
  if (!fop && !iop) return std::nullopt;
  return LoopOps{*lp, *od, fl, fop, iop};
}

} // namespace

std::string ufunc(const Json& j) {
  const std::optional<LoopOps> ops = loop_ops(j);
  if (!ops) return unsupported();
  // Plain locals, not a structured binding: C++17 lambdas cannot capture those.
  const HType lp = ops->lp, od = ops->od;
  const bool fl = ops->fl;
  const FloatOp* fop = ops->fop;
  const IntOp* iop = ops->iop;
  std::vector<int64_t> shape = j["shape"].int_list();
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  int out = new_array(od, n);
  // Operands: views, or scalars (already cast to the loop type by the caller) as 0-d views.
  std::vector<HView> views;
  std::vector<int> temps;
  for (const Json& o : j["inputs"].array()) {
    if (o.has("id")) {
      views.push_back(view_of(o));
      continue;
    }
    int t = new_array(lp, 1);
    temps.push_back(t);
    if (fl)
      store_f(array(t).bytes(), lp, o["s"].number());
    else
      store_i(array(t).bytes(), lp, o["s"].integer());
    views.push_back(HView{t, 0, {}, {}});
  }
  HView outv{out, 0, shape, contiguous_strides(shape)};
  std::vector<const HView*> ptrs{&outv};
  for (const HView& v : views) ptrs.push_back(&v);
  std::vector<HArray*> arrs;
  for (const HView& v : views) arrs.push_back(&array(v.id));
  HArray& o = array(out);
  const int os = hsize(od);
  const bool two = views.size() > 1;
  for_each(shape, ptrs, [&](int64_t, const int64_t* offs) {
    uint8_t* dp = o.bytes() + offs[0] * os;
    const uint8_t* a = arrs[0]->bytes() + offs[1] * hsize(arrs[0]->type);
    const uint8_t* b = two ? arrs[1]->bytes() + offs[2] * hsize(arrs[1]->type) : nullptr;
    if (fl) {
      double x = load_f(a, arrs[0]->type), y = two ? load_f(b, arrs[1]->type) : 0.0;
      double r = fop->f(x, y);
      if (od == HType::F16) r = static_cast<float>(r); // half loops compute in float32
      store_f(dp, od, r);
    } else {
      int64_t x = load_i(a, arrs[0]->type), y = two ? load_i(b, arrs[1]->type) : 0;
      store_i(dp, od, iop->f(x, y));
    }
  });
  for (int t : temps) request("{\"op\":\"free\",\"id\":" + std::to_string(t) + "}");
  return reply_id(out);
}

std::string reduce(const Json& j) {
  const std::string& name = j["name"].string();
  const std::optional<LoopOps> ops = loop_ops(j);
  if (!ops) return unsupported();
  // Plain locals, not a structured binding: C++17 lambdas cannot capture those.
  const HType od = ops->od;
  const bool fl = ops->fl;
  const FloatOp* fop = ops->fop;
  const IntOp* iop = ops->iop;
  HView in = view_of(j["in"]);
  std::vector<int64_t> axes = j["axes"].int_list();
  HView kept{in.id, in.offset, {}, {}}, red{in.id, 0, {}, {}};
  for (size_t a = 0; a < in.shape.size(); ++a) {
    bool r = std::find(axes.begin(), axes.end(), static_cast<int64_t>(a)) != axes.end();
    (r ? red : kept).shape.push_back(in.shape[a]);
    (r ? red : kept).strides.push_back(in.strides[a]);
  }
  int64_t n = 1, per = 1;
  for (int64_t s : kept.shape) n *= s;
  for (int64_t s : red.shape) per *= s;
  if (per == 0) return unsupported(); // empty reductions: the fallback's own rules
  int out = new_array(od, n);
  HArray& src = array(in.id);
  HArray& o = array(out);
  const int is = hsize(src.type), os = hsize(od);
  const bool has_init = !j["initial"].is_null();
  const bool half = od == HType::F16, sum = name == "add";
  for_each(kept.shape, {&kept}, [&](int64_t flat, const int64_t* base) {
    red.offset = base[0];
    bool first = !has_init;
    double acc = has_init ? j["initial"].number() : 0.0, comp = 0.0;
    int64_t iacc = has_init ? j["initial"].integer() : 0;
    for_each(red.shape, {&red}, [&](int64_t, const int64_t* off) {
      const uint8_t* p = src.bytes() + off[0] * is;
      if (fl) {
        double v = load_f(p, src.type);
        if (first) {
          acc = v, first = false;
        } else if (sum && !half && std::isfinite(acc) && std::isfinite(v)) {
          double t = acc + v; // Neumaier: sums close to exact, then rounded once
          comp += std::fabs(acc) >= std::fabs(v) ? (acc - t) + v : (v - t) + acc;
          acc = t;
        } else {
          acc = fop->f(acc, v);
          if (half) acc = static_cast<float>(acc); // half reduces in a float32 accumulator
        }
      } else {
        int64_t v = load_i(p, src.type);
        iacc = first ? v : iop->f(iacc, v);
        first = false;
      }
    });
    uint8_t* dp = o.bytes() + flat * os;
    if (fl)
      store_f(dp, od, std::isfinite(acc + comp) ? acc + comp : acc);
    else
      store_i(dp, od, iacc);
  });
  return reply_id(out);
}

std::string matmul(const Json& j) {
  auto lp = parse_htype(j["lp"].string()), od = parse_htype(j["od"].string());
  if (!lp || !od || *lp == HType::U64) return unsupported();
  HView a = view_of(j["a"]), b = view_of(j["b"]);
  if (a.shape.size() != 2 || b.shape.size() != 2 || a.shape[1] != b.shape[0]) return unsupported();
  const int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  int out = new_array(*od, M * N);
  HArray &A = array(a.id), &B = array(b.id), &O = array(out);
  const int as = hsize(A.type), bs = hsize(B.type), os = hsize(*od);
  const bool fl = is_float(*lp);
  std::vector<double> acc(static_cast<size_t>(N)), brow(static_cast<size_t>(N));
  std::vector<int64_t> iacc(static_cast<size_t>(N));
  for (int64_t m = 0; m < M; ++m) {
    std::fill(acc.begin(), acc.end(), 0.0);
    std::fill(iacc.begin(), iacc.end(), 0);
    for (int64_t k = 0; k < K; ++k) {
      const uint8_t* ap = A.bytes() + (a.offset + m * a.strides[0] + k * a.strides[1]) * as;
      const uint8_t* bp = B.bytes() + (b.offset + k * b.strides[0]) * bs;
      if (fl) {
        double x = load_f(ap, A.type);
        for (int64_t c = 0; c < N; ++c) acc[c] += x * load_f(bp + c * b.strides[1] * bs, B.type);
      } else {
        int64_t x = load_i(ap, A.type);
        for (int64_t c = 0; c < N; ++c)
          iacc[c] = static_cast<int64_t>(
              static_cast<uint64_t>(iacc[c]) +
              static_cast<uint64_t>(x) *
                  static_cast<uint64_t>(load_i(bp + c * b.strides[1] * bs, B.type)));
      }
    }
    for (int64_t c = 0; c < N; ++c) {
      uint8_t* dp = O.bytes() + (m * N + c) * os;
      if (fl)
        store_f(dp, *od, acc[c]);
      else
        store_i(dp, *od, iacc[c]);
    }
  }
  return reply_id(out);
}

} // namespace nki::host
