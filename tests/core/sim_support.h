#pragma once
// Building small kernels through the request protocol (what the Python surface sends) and
// running them on the simulator, for the simulator's native tests.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lang/requests.h"
#include "sim/numerics.h"
#include "sim/simulator.h"
#include "trace/trace_context.h"
#include "util/json.h"

namespace simtest {

using namespace nki;

/// A kernel under construction: one open KernelScope, requests as JSON text.
class KernelUnderTest {
public:
  explicit KernelUnderTest(std::vector<int64_t> grid = {}) {
    codegen::TraceOptions o;
    o.kernel_name = "k";
    o.grid = std::move(grid);
    o.loc = {"k.py", 1, 1};
    session_ = std::make_unique<trace::TraceSession>(o);
    cg_ = &session_->codegen();
  }
  ~KernelUnderTest() { session_.reset(); }

  codegen::NeuronCodegen& cg() { return *cg_; }
  /// Sends one request (after setting the source line); returns the reply's value id or -1.
  int req(const std::string& json, int line = 0) {
    if (line) cg_->builder.set_loc({"k.py", line, 1});
    util::Json r = util::Json::parse(lang::handle_request(*cg_, util::Json::parse(json)));
    return r.is_object() && r.has("v") ? static_cast<int>(r["v"].integer()) : -1;
  }
  int param(const std::string& name, const std::string& shape,
            const std::string& dtype = "float32") {
    return req(R"({"op":"param","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
               dtype + R"("})");
  }
  void open() { region_ = cg_->kernel_scope("k").release(); }
  int ndarray(const std::string& name, const std::string& shape, const std::string& dtype,
              const std::string& buffer, const std::string& init = "", int line = 0) {
    return req(R"({"op":"ndarray","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
                   dtype + R"(","buffer":")" + buffer + "\"" +
                   (init.empty() ? "" : ",\"init\":" + init) + "}",
               line);
  }
  /// {"op":"call","api":api,"operands":[[role, operand-json], ...], ...rest}
  int call(const std::string& api, const std::vector<std::pair<std::string, std::string>>& ops,
           const std::string& rest = "", int line = 0) {
    std::string s;
    for (const auto& [role, v] : ops)
      s += (s.empty() ? "" : ",") + ("[\"" + role + "\"," + v + "]");
    return req(R"({"op":"call","api":")" + api + R"(","operands":[)" + s + "]" +
                   (rest.empty() ? "" : "," + rest) + "}",
               line);
  }
  static std::string v(int id) { return "{\"v\":" + std::to_string(id) + "}"; }
  static std::string view(int id, const std::string& items) {
    return "{\"v\":" + std::to_string(id) + ",\"items\":" + items + "}";
  }
  void assign(const std::string& dst, const std::string& src, const std::string& acc = "",
              int line = 0) {
    req(R"({"op":"assign","dst":)" + dst + R"(,"src":)" + src + R"(,"acc":")" + acc + "\"}", line);
  }
  std::shared_ptr<const ir::Kernel> finish(const std::vector<int>& outputs) {
    std::string vals;
    for (int o : outputs) vals += (vals.empty() ? "" : ",") + v(o);
    req(R"({"op":"return","values":[)" + vals + "]}");
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

/// Slice item JSON: {"k":"slice","start":{"c":a},"stop":{"c":b}}.
inline std::string slice(int64_t a, int64_t b) {
  return R"({"k":"slice","start":{"c":)" + std::to_string(a) + R"(},"stop":{"c":)" +
         std::to_string(b) + "}}";
}

/// The options the helpers below run with by default: masks kept as written, so that a kernel
/// with kMaskEverywhere on its instructions stays on the ordinary path (the reference the fast
/// paths are compared with).
inline sim::SimOptions test_options() {
  sim::SimOptions o;
  o.keep_masks = true;
  return o;
}

/// Runs `k` with float32-valued inputs; returns each output decoded as fp32 and, in
/// `inputs_after`, the parameters' contents after the run (in-place updates).
inline std::vector<std::vector<float>>
run(std::shared_ptr<const ir::Kernel> k, const std::vector<std::vector<float>>& inputs,
    sim::RunLog* log = nullptr, sim::SimOptions opts = test_options(),
    std::vector<std::vector<float>>* inputs_after = nullptr) {
  sim::Simulator s(k, opts);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Tensor& t = k->tensor(k->params()[i]);
    sim::encode_f32(t.dtype, s.input(i), 1, static_cast<int64_t>(inputs[i].size()),
                    inputs[i].data());
  }
  s.run();
  std::vector<std::vector<float>> out;
  for (size_t i = 0; i < s.num_outputs(); ++i) {
    const ir::Tensor& t = s.output_tensor(i);
    int64_t n = s.output_nbytes(i) / ir::dtype_size(t.dtype);
    std::vector<float> v(static_cast<size_t>(n));
    sim::decode_f32(t.dtype, s.output(i), 1, n, v.data());
    out.push_back(std::move(v));
  }
  if (inputs_after) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::vector<float> v(inputs[i].size());
      const ir::Tensor& t = k->tensor(k->params()[i]);
      sim::decode_f32(t.dtype, s.input(i), 1, static_cast<int64_t>(v.size()), v.data());
      inputs_after->push_back(std::move(v));
    }
  }
  if (log) *log = s.log();
  return out;
}

inline std::vector<float> iota_values(size_t n, float scale = 1.0f, float offset = 0.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>(i % 1000);
  return v;
}

/// A mask holding on every partition of a 128-row tile: the same kernel with it on every
/// instruction stays on the ordinary path (no strips, no fusion, no interleaved loops), the
/// reference the fast paths' bytes are compared with.
inline const char* const kMaskEverywhere =
    R"("mask":[{"lhs":{"c":0,"t":[["A",0,1]],"shape":[128,1]},"op":"<","rhs":{"c":128}}])";

/// A run's outputs as bytes, and what its log and storage counted.
struct RunBytes {
  std::vector<uint8_t> out;
  int64_t peak = 0, bytes_moved = 0, instructions = 0, interleaved = 0;
  size_t warnings = 0;
  std::vector<std::string> warning_texts;
};

/// Runs `k` on fp32 inputs copied byte for byte into its parameters.
inline RunBytes run_bytes(std::shared_ptr<const ir::Kernel> k,
                          const std::vector<std::vector<float>>& in,
                          const sim::SimOptions& opts = test_options()) {
  sim::Simulator s(k, opts);
  for (size_t i = 0; i < in.size(); ++i) std::memcpy(s.input(i), in[i].data(), in[i].size() * 4);
  s.run();
  RunBytes r;
  for (size_t o = 0; o < s.num_outputs(); ++o)
    r.out.insert(r.out.end(), s.output(o), s.output(o) + s.output_nbytes(o));
  r.peak = s.peak_bytes();
  r.bytes_moved = s.log().bytes_moved;
  r.instructions = s.log().instructions;
  r.interleaved = s.log().interleaved_iterations;
  r.warnings = s.log().warnings.size();
  for (const sim::RunWarning& w : s.log().warnings) r.warning_texts.push_back(w.text);
  return r;
}

/// n pseudo-random fp32 values in about [-10.7, 10.7] from a linear congruential `seed`.
inline std::vector<float> lcg_values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(seed)) / 2.0e8f;
  }
  return v;
}

} // namespace simtest
