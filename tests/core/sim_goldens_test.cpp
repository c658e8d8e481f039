// The example kernels' goldens run natively: each case's IR (tests/sim/goldens/<case>/
// kernel.json, traced by the Python surface) executes on the simulator with the .npy inputs,
// and the outputs must match what real NumPy computed (tolerances per dtype, in cases.json).
// Regenerate with /usr/bin/python3 tests/sim/make_goldens.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "golden_cases.h"
#include "sim/npy.h"
#include "sim/numerics.h"
#include "sim/simulator.h"

using namespace nki;

namespace {

// NumPy type string → the NKI dtype with the same bytes.
ir::DType dtype_of_descr(const std::string& d) {
  std::string t = d.substr(1);
  if (t == "f4") return ir::DType::Float32;
  if (t == "f2") return ir::DType::Float16;
  if (t == "i1") return ir::DType::Int8;
  if (t == "u1") return ir::DType::UInt8;
  if (t == "i2") return ir::DType::Int16;
  if (t == "u2") return ir::DType::UInt16;
  if (t == "i4") return ir::DType::Int32;
  if (t == "u4") return ir::DType::UInt32;
  if (t == "b1") return ir::DType::Bool;
  throw std::invalid_argument("no NKI dtype for .npy type " + d);
}

std::vector<float> as_floats(ir::DType t, const uint8_t* bytes, int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  sim::decode_f32(t, bytes, 1, n, v.data());
  return v;
}

class SimGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(SimGolden, kernel_matches_numpy_reference) {
  const goldens::Case gc = goldens::load(GetParam());
  const util::Json* c = &gc.entry;
  const std::string& folder = gc.folder;
  sim::Simulator s(gc.kernel);
  const auto& inputs = (*c)["inputs"].array();
  ASSERT_EQ(inputs.size(), s.num_inputs());
  for (size_t i = 0; i < inputs.size(); ++i) {
    sim::NpyArray a = sim::npy_read_file(folder + inputs[i].string() + ".npy");
    ASSERT_EQ(static_cast<int64_t>(a.data.size()), s.input_nbytes(i)) << inputs[i].string();
    std::memcpy(s.input(i), a.data.data(), a.data.size());
  }
  s.run();
  const auto& outs = (*c)["outputs"].array();
  ASSERT_EQ(outs.size(), s.num_outputs());
  for (size_t o = 0; o < outs.size(); ++o) {
    sim::NpyArray want = sim::npy_read_file(folder + outs[o]["file"].string());
    ir::DType wt = dtype_of_descr(want.descr);
    const ir::Tensor& t = s.output_tensor(o);
    ASSERT_EQ(t.dtype, wt) << GetParam();
    ASSERT_EQ(t.shape, want.shape) << GetParam();
    double rtol = outs[o]["tolerance"][0].number(), atol = outs[o]["tolerance"][1].number();
    auto got = as_floats(t.dtype, s.output(o), want.size());
    auto exp = as_floats(wt, want.data.data(), want.size());
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      bool ok = std::isnan(exp[i]) ? std::isnan(got[i])
                : std::isinf(exp[i])
                    ? got[i] == exp[i]
                    : std::fabs(got[i] - exp[i]) <= atol + rtol * std::fabs(exp[i]);
      if (!ok && ++bad <= 3)
        ADD_FAILURE() << GetParam() << " element " << i << ": got " << got[i] << ", want "
                      << exp[i];
    }
    EXPECT_EQ(bad, 0) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SimGolden, ::testing::ValuesIn(goldens::names()),
                         [](const auto& info) { return info.param; });

} // namespace
