#pragma once
// Building kernels of the current language (`import nki`) through the request protocol the
// Python package speaks: strided views, registers, loops over registers, unrolled loops and
// dst-first ISA calls. Used by current_language_test.cpp and sim_current_test.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "printer/printer.h"
#include "protocol/requests.h"
#include "sim/numerics.h"
#include "sim/simulator.h"
#include "sim_support.h"
#include "trace/trace_context.h"
#include "util/json.h"

namespace curtest {

using namespace nki;

/// A current-language kernel under construction: one open KernelScope.
class CurrentKernel {
public:
  explicit CurrentKernel(int64_t lnc = 1, const std::string& target = "trn3") {
    codegen::TraceOptions o;
    o.kernel_name = "k";
    o.loc = {"k.py", 1, 1};
    o.language = "nki 0.6.0";
    o.lnc = lnc;
    o.target = target;
    session_ = std::make_unique<trace::TraceSession>(o);
    cg_ = &session_->codegen();
  }

  codegen::NeuronCodegen& cg() { return *cg_; }
  /// One request as JSON text (after stamping `line`); the parsed reply.
  util::Json req(const std::string& json, int line = 0) {
    if (line) cg_->builder.set_loc({"k.py", line, 1});
    return util::Json::parse(protocol::handle_request(*cg_, util::Json::parse(json)));
  }
  /// A parameter; returns its tensor id.
  int param(const std::string& name, const std::string& shape,
            const std::string& dtype = "float32") {
    auto r = req(R"({"op":"param","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
                 dtype + R"("})");
    return static_cast<int>(r["t"].integer());
  }
  void open() { region_ = cg_->kernel_scope("k").release(); }
  /// nl.ndarray; returns the storage tensor id.
  int ndarray(const std::string& name, const std::string& shape, const std::string& dtype,
              const std::string& buffer, int line = 0) {
    auto r = req(R"({"op":"ndarray","name":")" + name + R"(","shape":)" + shape + R"(,"dtype":")" +
                     dtype + R"(","buffer":")" + buffer + "\"}",
                 line);
    return static_cast<int>(r["t"].integer());
  }
  /// A strided view operand: {"sv": {"t", "off", "pat", ...}}.
  static std::string sv(int t, const std::string& pat, int64_t off = 0,
                        const std::string& extra = "") {
    return R"({"sv":{"t":)" + std::to_string(t) + R"(,"off":)" + std::to_string(off) +
           R"(,"pat":)" + pat + (extra.empty() ? "" : "," + extra) + "}}";
  }
  /// {"op":"isa_call","api":api,"operands":[[role, operand], ...],"attrs":{...}}
  void isa(const std::string& api, const std::vector<std::pair<std::string, std::string>>& ops,
           const std::string& attrs = "{}", int line = 0) {
    std::string s;
    for (const auto& [role, v] : ops)
      s += (s.empty() ? "" : ",") + ("[\"" + role + "\"," + v + "]");
    req(R"({"op":"isa_call","api":")" + api + R"(","operands":[)" + s + R"(],"attrs":)" + attrs +
            "}",
        line);
  }
  static std::string scalar(double v) {
    util::JsonWriter w;
    w.begin_object().key("s").value(v).end_object();
    return w.take();
  }
  /// Returns tensor ids as outputs and finalizes.
  std::shared_ptr<const ir::Kernel> finish(const std::vector<int>& outputs) {
    std::string vals;
    for (int o : outputs) vals += std::string(vals.empty() ? "" : ",") + sv_whole(o);
    req(R"({"op":"return","values":[)" + vals + "]}");
    cg_->pop_scope(region_);
    std::shared_ptr<const ir::Kernel> k = session_->finalize();
    session_.reset();
    return k;
  }
  /// The whole of tensor `t` as a view.
  std::string sv_whole(int t) {
    const ir::Tensor& x = cg_->kernel().tensor(t);
    std::vector<int64_t> w(x.shape.size(), 1);
    for (size_t d = x.shape.size(); d-- > 1;) w[d - 1] = w[d] * x.shape[d];
    std::string pat = "[";
    for (size_t d = 0; d < x.shape.size(); ++d)
      pat += (d ? ",[" : "[") + std::to_string(w[d]) + "," + std::to_string(x.shape[d]) + "]";
    return sv(t, pat + "]");
  }

private:
  std::unique_ptr<trace::TraceSession> session_;
  codegen::NeuronCodegen* cg_ = nullptr;
  ir::RegionId region_ = ir::kNone;
};

/// simtest::run with the options first (the current language's tests pass them always).
inline std::vector<std::vector<float>>
run(std::shared_ptr<const ir::Kernel> k, const std::vector<std::vector<float>>& inputs,
    sim::SimOptions opts = {}, sim::RunLog* log = nullptr,
    std::vector<std::vector<float>>* inputs_after = nullptr) {
  return simtest::run(std::move(k), inputs, log, std::move(opts), inputs_after);
}

/// The current language's simulator contract (what nki.simulate runs with).
inline sim::SimOptions current_options(const std::string& target = "trn3") {
  sim::SimOptions o = sim::options_for_target(target);
  o.unwritten_int = 4;
  o.label_own_checks = true;
  return o;
}

} // namespace curtest
