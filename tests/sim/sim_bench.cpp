// The simulator's benchmark driver, built twice from this one file: natively
// (build/native/sim_bench) and for WebAssembly (build/wasm/sim_bench.cjs, run with node), so the
// two are the same C++ on the same kernels. scripts/bench_sim.mjs runs both.
//
//   sim_bench <case> [repeats]               case: matmul | elementwise | softmax | copy | scan
//   sim_bench --kernel FILE.json [repeats]   a kernel traced by the Python surface (its IR JSON)
//   --plan off (anywhere)                    the plain interpreter (SimOptions::plan false): the
//                                            hash must be the plan's (tests/sim/README.md)
//
// The built-in cases build their kernel through the request protocol (what the Python surface
// sends); the others read the IR the Python surface printed (tests/sim/trace_bench.mjs). Each
// timed run is a fresh Simulator whose inputs are written straight into its memory
// (deterministic values in [-1, 1), in each parameter's dtype; not timed), then run() (timed).
// Prints one JSON line: {"case", "best_ms", "median_ms", "tensor_bytes", "sim_peak_bytes",
// "heap_bytes", "bytes_moved", "instructions", "matmul_macs", "scan_steps",
// "interleaved_iterations", "hash"} — heap_bytes is how far the wasm heap
// grew while building the kernel and running it (its peak; wasm only, 0 natively); hash is an
// FNV-1a of the outputs' bytes (the same on both builds, and before and after an optimisation).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "printer/kernel_json.h"
#include "protocol/requests.h"
#include "sim/numerics.h"
#include "sim/simulator.h"
#include "trace/trace_context.h"
#include "util/json.h"

#ifdef __EMSCRIPTEN__
#include <unistd.h>
#else
#include <malloc.h>
#endif

using namespace nki;

namespace {

class Builder {
public:
  explicit Builder(const std::string& name) {
    codegen::TraceOptions o;
    o.kernel_name = name;
    o.loc = {"bench.py", 1, 1};
    session_ = std::make_unique<trace::TraceSession>(o);
    cg_ = &session_->codegen();
  }
  int req(const std::string& json) {
    util::Json r = util::Json::parse(protocol::handle_request(*cg_, util::Json::parse(json)));
    return r.is_object() && r.has("v") ? static_cast<int>(r["v"].integer()) : -1;
  }
  int param(const std::string& name, const std::string& shape) {
    return req(R"({"op":"param","name":")" + name + R"(","shape":)" + shape +
               R"(,"dtype":"float32"})");
  }
  void open() { region_ = cg_->kernel_scope(cg_->options().kernel_name).release(); }
  int ndarray(const std::string& name, const std::string& shape, const std::string& buffer,
              const std::string& init = "") {
    return req(R"({"op":"ndarray","name":")" + name + R"(","shape":)" + shape +
               R"(,"dtype":"float32","buffer":")" + buffer + "\"" +
               (init.empty() ? "" : ",\"init\":" + init) + "}");
  }
  int call(const std::string& api, const std::string& operands, const std::string& rest = "") {
    return req(R"({"op":"call","api":")" + api + R"(","operands":)" + operands +
               (rest.empty() ? "" : "," + rest) + "}");
  }
  static std::string v(int id) { return "{\"v\":" + std::to_string(id) + "}"; }
  static std::string view(int id, const std::string& items) {
    return "{\"v\":" + std::to_string(id) + ",\"items\":" + items + "}";
  }
  codegen::NeuronCodegen& cg() { return *cg_; }
  std::shared_ptr<const ir::Kernel> finish(int out) {
    req(R"({"op":"return","values":[)" + v(out) + "]}");
    cg_->pop_scope(region_);
    std::shared_ptr<const ir::Kernel> k = session_->finalize();
    session_.reset();
    return k;
  }

private:
  std::unique_ptr<trace::TraceSession> session_;
  codegen::NeuronCodegen* cg_ = nullptr;
  ir::RegionId region_ = ir::kNone;
};

// A slice start + size, both offset by `step * loop`: {"k":"slice",...}.
std::string loop_slice(int axis, int64_t step, int64_t size) {
  std::string t = R"([["L",)" + std::to_string(axis) + "," + std::to_string(step) + "]]";
  return R"({"k":"slice","start":{"c":0,"t":)" + t + R"(},"stop":{"c":)" + std::to_string(size) +
         R"(,"t":)" + t + "}}";
}

// C = A @ B, 512 x 512 x 512 fp32, tiled as NKI tiles it: A given transposed (a_t [K, M]),
// 128 x 512 output tiles accumulated in PSUM over 128-row K tiles, evicted with a copy.
std::shared_ptr<const ir::Kernel> matmul_kernel() {
  Builder b("matmul_512");
  int a = b.param("a_t", "[512,512]"), bb = b.param("b", "[512,512]");
  b.open();
  int c = b.ndarray("c", "[512,512]", "shared_hbm");
  auto m = b.cg().affine_range(0, 4, 1, ir::AxisType::Affine, "m");
  auto acc_id = b.ndarray("acc", "[128,512]", "psum", "0");
  auto k = b.cg().affine_range(0, 4, 1, ir::AxisType::Affine, "k");
  int lhs = b.call("load", R"([["src",)" +
                               Builder::view(a, "[" + loop_slice(k.axis, 128, 128) + "," +
                                                    loop_slice(m.axis, 128, 128) + "]") +
                               "]]");
  int rhs = b.call("load", R"([["src",)" +
                               Builder::view(bb, "[" + loop_slice(k.axis, 128, 128) + "]") + "]]");
  int prod = b.call("nc_matmul", R"([["stationary",)" + Builder::v(lhs) + R"(],["moving",)" +
                                     Builder::v(rhs) + "]]");
  b.req(R"({"op":"assign","dst":)" + Builder::v(acc_id) + R"(,"src":)" + Builder::v(prod) +
        R"(,"acc":"add"})");
  k.alloc->close();
  k.loop->close();
  int res = b.call("copy", R"([["src",)" + Builder::v(acc_id) + "]]");
  b.call("store", R"([["dst",)" + Builder::view(c, "[" + loop_slice(m.axis, 128, 128) + "]") +
                      R"(],["value",)" + Builder::v(res) + "]]");
  m.alloc->close();
  m.loop->close();
  return b.finish(c);
}

// out = a + b over 128 x 65536 fp32, 128 x 512 tiles (load, load, add, store per tile).
std::shared_ptr<const ir::Kernel> elementwise_kernel() {
  Builder b("add_128x65536");
  int a = b.param("a", "[128,65536]"), bb = b.param("b", "[128,65536]");
  b.open();
  int out = b.ndarray("out", "[128,65536]", "shared_hbm");
  auto j = b.cg().affine_range(0, 128, 1, ir::AxisType::Affine, "j");
  std::string items = "[{\"k\":\"slice\"}," + loop_slice(j.axis, 512, 512) + "]";
  int x = b.call("load", R"([["src",)" + Builder::view(a, items) + "]]");
  int y = b.call("load", R"([["src",)" + Builder::view(bb, items) + "]]");
  int s = b.call("add", R"([["x",)" + Builder::v(x) + R"(],["y",)" + Builder::v(y) + "]]");
  b.call("store",
         R"([["dst",)" + Builder::view(out, items) + R"(],["value",)" + Builder::v(s) + "]]");
  j.alloc->close();
  j.loop->close();
  return b.finish(out);
}

// Row softmax of 128 x 4096 fp32 with the nl ops: max, subtract, exp, sum, divide.
std::shared_ptr<const ir::Kernel> softmax_kernel() {
  Builder b("softmax_128x4096");
  int x = b.param("x", "[128,4096]");
  b.open();
  int out = b.ndarray("out", "[128,4096]", "shared_hbm");
  int t = b.call("load", R"([["src",)" + Builder::v(x) + "]]");
  int mx =
      b.call("max", R"([["x",)" + Builder::v(t) + "]]", R"("attrs":{"axis":[1],"keepdims":true})");
  int sh = b.call("subtract", R"([["x",)" + Builder::v(t) + R"(],["y",)" + Builder::v(mx) + "]]");
  int e = b.call("exp", R"([["x",)" + Builder::v(sh) + "]]");
  int sm =
      b.call("sum", R"([["x",)" + Builder::v(e) + "]]", R"("attrs":{"axis":[1],"keepdims":true})");
  int r = b.call("divide", R"([["x",)" + Builder::v(e) + R"(],["y",)" + Builder::v(sm) + "]]");
  b.call("store", R"([["dst",)" + Builder::v(out) + R"(],["value",)" + Builder::v(r) + "]]");
  return b.finish(out);
}

// out = a over 128 x `cols` fp32, 128 x 512 tiles (load, store per tile): the simulator's copy
// bandwidth, which the real kernels' floors use — at 128 x 65536 (64 MiB of tensors) and at
// 128 x 262144 (256 MiB, past this machine's last-level cache, as layernorm's tensors are).
std::shared_ptr<const ir::Kernel> copy_kernel(int64_t cols) {
  const std::string shape = "[128," + std::to_string(cols) + "]";
  Builder b("copy_128x" + std::to_string(cols));
  int a = b.param("a", shape);
  b.open();
  int out = b.ndarray("out", shape, "shared_hbm");
  auto j = b.cg().affine_range(0, cols / 512, 1, ir::AxisType::Affine, "j");
  std::string items = "[{\"k\":\"slice\"}," + loop_slice(j.axis, 512, 512) + "]";
  int x = b.call("load", R"([["src",)" + Builder::view(a, items) + "]]");
  b.call("store",
         R"([["dst",)" + Builder::view(out, items) + R"(],["value",)" + Builder::v(x) + "]]");
  j.alloc->close();
  j.loop->close();
  return b.finish(out);
}

// h = x * h + y along each row of 128 x 16400 fp32 (tensor_tensor_scan, 128 x 2050 tiles read
// in place, each from h = 0): the simulator's rate of sequential dependent steps, which the
// floors use. Rows 16400 elements long, not a power of two, so that the eight rows a scan
// step reads side by side do not share the cache's sets.
std::shared_ptr<const ir::Kernel> scan_kernel() {
  Builder b("scan_128x16400");
  int x = b.param("x", "[128,16400]"), y = b.param("y", "[128,16400]");
  b.open();
  int out = b.ndarray("out", "[128,16400]", "shared_hbm");
  auto j = b.cg().affine_range(0, 8, 1, ir::AxisType::Affine, "j");
  std::string items = "[{\"k\":\"slice\"}," + loop_slice(j.axis, 2050, 2050) + "]";
  int a = b.call("load", R"([["src",)" + Builder::view(x, items) + "]]");
  int c = b.call("load", R"([["src",)" + Builder::view(y, items) + "]]");
  int h = b.call("tensor_tensor_scan",
                 R"([["data0",)" + Builder::v(a) + R"(],["data1",)" + Builder::v(c) +
                     R"(],["initial",{"s":0.0}]])",
                 R"("attrs":{"op0":"multiply","op1":"add"})");
  b.call("store",
         R"([["dst",)" + Builder::view(out, items) + R"(],["value",)" + Builder::v(h) + "]]");
  j.alloc->close();
  j.loop->close();
  return b.finish(out);
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

std::shared_ptr<const ir::Kernel> read_kernel(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return printer::kernel_from_json(ss.str());
}

int64_t nbytes(const ir::Tensor& t) {
  int64_t n = ir::dtype_size(t.dtype);
  for (int64_t s : t.shape) n *= s;
  return n;
}

// Parameter i's values: deterministic in [-1, 1), encoded in its dtype (integers: zeros).
void fill_input(sim::Simulator& s, size_t i) {
  const ir::Tensor& t = s.kernel().tensor(s.kernel().params()[i]);
  uint8_t* dst = s.input(i);
  if (!ir::dtype_is_float(t.dtype)) {
    std::memset(dst, 0, static_cast<size_t>(nbytes(t)));
    return;
  }
  const int64_t n = nbytes(t) / ir::dtype_size(t.dtype), es = ir::dtype_size(t.dtype);
  uint32_t state = 12345u + static_cast<uint32_t>(t.id);
  float chunk[1024];
  for (int64_t c = 0; c < n; c += 1024) {
    const int64_t m = std::min<int64_t>(1024, n - c);
    for (int64_t e = 0; e < m; ++e) {
      state = state * 1664525u + 1013904223u;
      chunk[e] = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
    sim::encode_f32(t.dtype, dst + c * es, 1, m, chunk);
  }
}

} // namespace

int main(int argc, char** argv) {
#ifndef __EMSCRIPTEN__
  // Keep freed memory in the heap, as wasm memory does (it never shrinks): without this,
  // glibc returns every >= 32 MiB buffer to the OS and each run pays fresh page faults that
  // the wasm build, reusing its grown memory, does not.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
#ifdef __EMSCRIPTEN__
  // The heap's high-water mark: wasm's sbrk never moves back, so its growth from here on is
  // the most heap the runs ever needed at once (allocator overhead included).
  const uintptr_t heap_start = reinterpret_cast<uintptr_t>(sbrk(0));
#endif
  std::vector<std::string> args(argv + 1, argv + argc);
  sim::SimOptions opts;
  for (size_t a = 0; a + 1 < args.size(); ++a)
    if (args[a] == "--plan") {
      opts.plan = args[a + 1] != "off";
      args.erase(args.begin() + static_cast<long>(a), args.begin() + static_cast<long>(a) + 2);
      break;
    }
  std::string which = "matmul", file;
  if (args.size() >= 2 && args[0] == "--kernel") {
    file = args[1];
    which = file.substr(file.find_last_of('/') + 1);
    which = which.substr(0, which.rfind(".json"));
    args.erase(args.begin(), args.begin() + 2);
  } else if (!args.empty()) {
    which = args[0];
    args.erase(args.begin());
  }
  int repeats = !args.empty() ? std::max(1, std::atoi(args[0].c_str())) : 5;
  std::shared_ptr<const ir::Kernel> k = !file.empty()            ? read_kernel(file)
                                        : which == "elementwise" ? elementwise_kernel()
                                        : which == "softmax"     ? softmax_kernel()
                                        : which == "copy"        ? copy_kernel(65536)
                                        : which == "copy_large"  ? copy_kernel(262144)
                                        : which == "scan"        ? scan_kernel()
                                                                 : matmul_kernel();
  int64_t tensor_bytes = 0;
  for (ir::TensorId p : k->params()) tensor_bytes += nbytes(k->tensor(p));
  for (ir::TensorId o : k->outputs()) tensor_bytes += nbytes(k->tensor(o));
  std::vector<double> times;
  // Reserved now: growing it between runs would put a small block inside the memory the
  // previous run freed, and the heap (sbrk never shrinks) would grow around it.
  times.reserve(static_cast<size_t>(repeats));
  int64_t sim_peak = 0, bytes_moved = 0, instructions = 0, macs = 0, scan_steps = 0,
          interleaved = 0;
  uint64_t hash = 0;
  for (int r = 0; r < repeats + 1; ++r) { // the first run warms up (not timed)
    sim::Simulator s(k, opts);
    for (size_t i = 0; i < s.num_inputs(); ++i) fill_input(s, i);
    double t0 = now_ms();
    s.run();
    double dt = now_ms() - t0;
    if (r > 0) times.push_back(dt);
    sim_peak = s.peak_bytes();
    bytes_moved = s.log().bytes_moved;
    instructions = s.log().instructions;
    macs = s.log().matmul_macs;
    scan_steps = s.log().scan_steps;
    interleaved = s.log().interleaved_iterations;
    hash = 1469598103934665603ull;
    for (size_t o = 0; o < s.num_outputs(); ++o) {
      const uint8_t* p = s.output(o);
      const int64_t nb = s.output_nbytes(o); // (not in the loop's condition: it is no inline)
      for (int64_t i = 0; i < nb; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
    }
  }
  std::sort(times.begin(), times.end());
  int64_t heap = 0;
#ifdef __EMSCRIPTEN__
  heap = static_cast<int64_t>(reinterpret_cast<uintptr_t>(sbrk(0)) - heap_start);
#endif
  std::printf("{\"case\":\"%s\",\"best_ms\":%.3f,\"median_ms\":%.3f,\"tensor_bytes\":%lld,"
              "\"sim_peak_bytes\":%lld,\"heap_bytes\":%lld,\"bytes_moved\":%lld,"
              "\"instructions\":%lld,\"matmul_macs\":%lld,\"scan_steps\":%lld,"
              "\"interleaved_iterations\":%lld,\"hash\":\"%016llx\"}\n",
              which.c_str(), times.front(), times[times.size() / 2],
              static_cast<long long>(tensor_bytes), static_cast<long long>(sim_peak),
              static_cast<long long>(heap), static_cast<long long>(bytes_moved),
              static_cast<long long>(instructions), static_cast<long long>(macs),
              static_cast<long long>(scan_steps), static_cast<long long>(interleaved),
              static_cast<unsigned long long>(hash));
  return 0;
}
