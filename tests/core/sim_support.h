#pragma once
// Building small kernels through the request protocol (what the Python surface sends) and
// running them on the simulator, for the simulator's native tests.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "protocol/requests.h"
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
    util::Json r = util::Json::parse(protocol::handle_request(*cg_, util::Json::parse(json)));
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

/// The first element where two buffers of `dtype` differ, bit for bit, or -1 — except that two
/// NaNs of a float dtype are equal whatever their sign and payload: which operand's NaN an
/// operation on two NaNs keeps is the compiler's choice (C++ leaves it open), and the plain
/// interpreter's unmasked loops and the plan's fused passes choose differently
/// (sim_plan_off_test.cpp).
inline int64_t first_unequal(ir::DType dtype, const uint8_t* a, const uint8_t* b, int64_t nbytes) {
  const int64_t size = ir::dtype_size(dtype), n = nbytes / size;
  const bool is_float = ir::dtype_is_float(dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (std::memcmp(a + i * size, b + i * size, static_cast<size_t>(size)) == 0) continue;
    if (is_float) {
      float x = 0, y = 0;
      sim::decode_f32(dtype, a + i * size, 1, 1, &x);
      sim::decode_f32(dtype, b + i * size, 1, 1, &y);
      if (x != x && y != y) continue;
    }
    return i;
  }
  return -1;
}

/// The same run on the plain interpreter (SimOptions::plan off) must give the same output bytes,
/// warnings and prints as `s`, run with the plan: every kernel the helpers below run is also a
/// case of the plan-off check (sim_plan_off_test.cpp runs the goldens both ways).
inline void expect_plain_agrees(std::shared_ptr<const ir::Kernel> k, sim::Simulator& s,
                                const std::vector<std::vector<uint8_t>>& inputs,
                                sim::SimOptions opts) {
  if (!opts.plan) return;
  opts.plan = false;
  sim::Simulator p(k, opts);
  for (size_t i = 0; i < inputs.size(); ++i)
    std::memcpy(p.input(i), inputs[i].data(), inputs[i].size());
  p.run();
  for (size_t o = 0; o < s.num_outputs(); ++o) {
    const int64_t at =
        first_unequal(s.output_tensor(o).dtype, s.output(o), p.output(o), s.output_nbytes(o));
    EXPECT_EQ(at, -1) << "output " << o << " differs with the plan off at element " << at;
  }
  for (size_t i = 0; i < inputs.size(); ++i) // parameters updated in place
    EXPECT_TRUE(std::memcmp(s.input(i), p.input(i), inputs[i].size()) == 0)
        << "parameter " << i << " differs with the plan off";
  ASSERT_EQ(s.log().warnings.size(), p.log().warnings.size()) << "warnings with the plan off";
  for (size_t w = 0; w < s.log().warnings.size(); ++w)
    EXPECT_EQ(s.log().warnings[w].text, p.log().warnings[w].text);
  ASSERT_EQ(s.log().prints.size(), p.log().prints.size()) << "prints with the plan off";
  for (size_t w = 0; w < s.log().prints.size(); ++w) {
    const auto &a = s.log().prints[w].values, &b = p.log().prints[w].values;
    EXPECT_TRUE(a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 8) == 0)
        << "print " << w << " differs with the plan off";
  }
  EXPECT_EQ(s.log().instructions, p.log().instructions) << "instructions with the plan off";
}

/// The parameters' bytes as written before a run.
inline std::vector<std::vector<uint8_t>> input_bytes(sim::Simulator& s) {
  std::vector<std::vector<uint8_t>> v;
  for (size_t i = 0; i < s.num_inputs(); ++i)
    v.emplace_back(s.input(i), s.input(i) + s.input_nbytes(i));
  return v;
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
  const std::vector<std::vector<uint8_t>> given = input_bytes(s);
  s.run();
  expect_plain_agrees(k, s, given, opts);
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
  const std::vector<std::vector<uint8_t>> given = input_bytes(s);
  s.run();
  expect_plain_agrees(k, s, given, opts);
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
