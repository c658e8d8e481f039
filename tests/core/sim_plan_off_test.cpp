// The plan's shortcuts against the plain interpreter (SimOptions::plan off, what
// NKI_PLAYGROUND_SIM_PLAN=off selects): every golden kernel (tests/sim/goldens/<case>/kernel.json,
// the example kernels traced by the Python surfaces) runs both ways on its inputs and on a
// second, pseudo-random set, and must give the same output bytes, warnings and prints — bit for
// bit: the plan only decides what may run together or in place, never how a value is rounded.
// One latitude: an element both ways NaN may differ in its NaN's sign and payload (which
// operand's NaN x · y keeps when both are NaN is the compiler's choice; simtest::first_unequal).
// (The kernels the other sim tests build run both ways too: tests/core/sim_support.h.)
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "golden_cases.h"
#include "sim/npy.h"
#include "sim/plan.h"
#include "sim/simulator.h"
#include "sim_support.h"
#include "util/json.h"

using namespace nki;

namespace {

struct Outcome {
  std::vector<ir::DType> dtypes;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::string> warnings;
  std::vector<std::vector<double>> prints;
  int64_t instructions = 0;
  std::string error; ///< what the run raised (random indices may point out of bounds)
};

Outcome run(const std::shared_ptr<const ir::Kernel>& k,
            const std::vector<std::vector<uint8_t>>& inputs, bool plan) {
  sim::SimOptions o = sim::options_for_target("trn1");
  o.plan = plan;
  sim::Simulator s(k, o);
  for (size_t i = 0; i < inputs.size(); ++i)
    std::memcpy(s.input(i), inputs[i].data(), inputs[i].size());
  Outcome r;
  try {
    s.run();
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
  for (size_t i = 0; i < s.num_outputs(); ++i) {
    r.dtypes.push_back(s.output_tensor(i).dtype);
    r.outputs.emplace_back(s.output(i), s.output(i) + s.output_nbytes(i));
  }
  for (const sim::RunWarning& w : s.log().warnings) r.warnings.push_back(w.text);
  for (const sim::PrintRecord& p : s.log().prints) r.prints.push_back(p.values);
  r.instructions = s.log().instructions;
  return r;
}

// Bytes of every parameter from a linear congruential generator: fp32 values in about
// [-4, 4] for float parameters (never NaN), raw bytes otherwise.
std::vector<std::vector<uint8_t>> random_inputs(const ir::Kernel& k, uint32_t seed) {
  std::vector<std::vector<uint8_t>> v;
  for (ir::TensorId p : k.params()) {
    const ir::Tensor& t = k.tensor(p);
    int64_t n = 1;
    for (int64_t d : t.shape) n *= d;
    std::vector<uint8_t> b(static_cast<size_t>(n * ir::dtype_size(t.dtype)));
    if (t.dtype == ir::DType::Float32) {
      for (int64_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        float x = static_cast<float>(static_cast<int32_t>(seed)) / 5.0e8f;
        std::memcpy(b.data() + i * 4, &x, 4);
      }
    } else {
      for (uint8_t& x : b) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<uint8_t>(seed >> 24);
      }
    }
    v.push_back(std::move(b));
  }
  return v;
}

class PlanOff : public ::testing::TestWithParam<std::string> {};

TEST_P(PlanOff, golden_kernel_gives_the_same_bytes_with_the_plan_off) {
  const goldens::Case gc = goldens::load(GetParam());
  const std::shared_ptr<const ir::Kernel>& k = gc.kernel;
  std::vector<std::vector<uint8_t>> given;
  for (const util::Json& name : gc.entry["inputs"].array())
    given.push_back(sim::npy_read_file(gc.folder + name.string() + ".npy").data);
  for (const auto& inputs : {given, random_inputs(*k, 7)}) {
    Outcome planned = run(k, inputs, true), plain = run(k, inputs, false);
    EXPECT_EQ(planned.error, plain.error) << GetParam();
    ASSERT_EQ(planned.outputs.size(), plain.outputs.size());
    for (size_t o = 0; o < planned.outputs.size(); ++o)
      EXPECT_EQ(simtest::first_unequal(planned.dtypes[o], planned.outputs[o].data(),
                                       plain.outputs[o].data(),
                                       static_cast<int64_t>(planned.outputs[o].size())),
                -1)
          << GetParam() << " output " << o;
    EXPECT_EQ(planned.warnings, plain.warnings) << GetParam();
    ASSERT_EQ(planned.prints.size(), plain.prints.size()) << GetParam();
    for (size_t p = 0; p < planned.prints.size(); ++p)
      EXPECT_EQ(0, std::memcmp(planned.prints[p].data(), plain.prints[p].data(),
                               planned.prints[p].size() * sizeof(double)))
          << GetParam() << " print " << p;
    EXPECT_EQ(planned.instructions, plain.instructions) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Goldens, PlanOff, ::testing::ValuesIn(goldens::names()),
                         [](const auto& info) { return info.param; });

// The switch as the surfaces send it: {"plan": false} in the simulation options.
TEST(PlanOffOption, options_json_turns_the_plan_off) {
  EXPECT_TRUE(sim::options_from_json(R"({"target":"trn2"})").plan);
  EXPECT_FALSE(sim::options_from_json(R"({"target":"trn2","plan":false})").plan);
  EXPECT_TRUE(sim::options_from_json(R"({"plan":true})").plan);
}

// The plain plan decides nothing: no read-only parameter, alias, strip group or scan shortcut.
TEST(PlanOffOption, plain_plan_is_empty_where_the_plan_is_not) {
  const std::shared_ptr<const ir::Kernel> k = goldens::load("selective_scan").kernel;
  const sim::KernelPlan full = sim::plan_kernel(*k), plain = sim::plain_plan(*k);
  EXPECT_FALSE(full.groups.empty());
  EXPECT_TRUE(plain.groups.empty());
  EXPECT_EQ(plain.read_only, std::vector<uint8_t>(k->tensors().size(), 0));
  EXPECT_EQ(plain.alias, std::vector<uint8_t>(k->instructions().size(), 0));
  EXPECT_EQ(plain.group_of, std::vector<int32_t>(k->instructions().size(), -1));
  EXPECT_EQ(plain.scan_pre, std::vector<int32_t>(k->instructions().size(), -1));
  EXPECT_EQ(plain.folded, std::vector<uint8_t>(k->instructions().size(), 0));
}

} // namespace
