#pragma once
// The simulator goldens (tests/sim/goldens/<case>/: kernel.json, the .npy inputs and outputs,
// cases.json), read once for the tests that run them: sim_goldens_test (against NumPy) and
// sim_plan_off_test (plan on against plan off).
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "printer/kernel_json.h"
#include "util/json.h"

namespace goldens {

inline const std::string kDir = NKI_SIM_GOLDEN_DIR;

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// One case: its entry of cases.json, its folder (ending in '/') and its kernel.
struct Case {
  nki::util::Json entry;
  std::string folder;
  std::shared_ptr<const nki::ir::Kernel> kernel;
};

/// The case named `name`; throws when cases.json has none.
inline Case load(const std::string& name) {
  nki::util::Json cases = nki::util::Json::parse(read_text(kDir + "/cases.json"));
  for (const nki::util::Json& x : cases.array()) {
    if (x["name"].string() != name) continue;
    std::string folder = kDir + "/" + name + "/";
    return {x, folder, nki::printer::kernel_from_json(read_text(folder + "kernel.json"))};
  }
  throw std::runtime_error("no golden case named " + name);
}

/// Every case's name, in cases.json's order (the tests' parameters).
inline std::vector<std::string> names() {
  std::vector<std::string> out;
  nki::util::Json cases = nki::util::Json::parse(read_text(kDir + "/cases.json"));
  for (const nki::util::Json& x : cases.array()) out.push_back(x["name"].string());
  return out;
}

} // namespace goldens
