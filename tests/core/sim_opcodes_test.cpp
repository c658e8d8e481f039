// Every opcode the core emits has an executor: the opcodes are read from the op families'
// sources (make_inst("...") in core/lang and core/isa) and from docs/ops/*.md, so a new opcode
// without an executor fails here (until it executes, the simulator refuses it with "not supported
// in the simulator yet: <opcode>").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "sim/exec.h"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::set<std::string> opcodes_in_sources() {
  std::set<std::string> out;
  std::regex make_inst(R"re(make_inst\("([a-z0-9_]+)")re");
  for (const char* folder : {"/core/lang", "/core/isa"}) { // Beta 1's ops, the current language's
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(NKI_SOURCE_DIR) + folder)) {
      if (e.path().extension() != ".cpp") continue;
      std::string text = read_file(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), make_inst), end; it != end; ++it)
        out.insert((*it)[1]);
    }
  }
  // Opcodes named by a variable: the creation APIs (nl.ndarray/zeros/ones/full), bn_stats /
  // bn_aggr (their API name), aliases and constants (ops_tensor_views / ops_constants).
  for (const char* op :
       {"ndarray", "zeros", "ones", "full", "bn_stats", "bn_aggr", "reshape", "view",
        "shared_constant", "shared_identity_matrix", "tensor_copy_dynamic_src"})
    out.insert(op);
  return out;
}

std::set<std::string> opcodes_in_docs() {
  std::set<std::string> out;
  // "### `tensor.nc_matmul` — ..." / "### `bn_stats` / `bn_aggr` — ...": the backticked names
  // before the dash, engine prefix dropped. Headings that name no instruction are skipped.
  const std::set<std::string> not_opcodes = {"expand_dims", "assert_shape", "zeros_like",
                                             "empty_like"};
  std::regex name("`(?:[a-z]+\\.)?([a-z0-9_]+)`");
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(NKI_SOURCE_DIR) + "/docs/ops")) {
    std::stringstream lines(read_file(e.path()));
    for (std::string line; std::getline(lines, line);) {
      size_t dash = line.find(" \u2014 ");
      if (line.rfind("### `", 0) != 0 || dash == std::string::npos) continue;
      std::string head = line.substr(0, dash);
      for (std::sregex_iterator it(head.begin(), head.end(), name), end; it != end; ++it)
        if (!not_opcodes.count((*it)[1])) out.insert((*it)[1]);
    }
  }
  return out;
}

} // namespace

TEST(SimOpcodes, every_opcode_the_sources_emit_has_an_executor) {
  const nki::sim::ExecTable& t = nki::sim::exec_table();
  std::set<std::string> ops = opcodes_in_sources();
  EXPECT_GT(ops.size(), 40u);
  for (const std::string& op : ops) EXPECT_NE(t.find(op), nullptr) << "no executor for " << op;
}

TEST(SimOpcodes, every_documented_opcode_has_an_executor) {
  const nki::sim::ExecTable& t = nki::sim::exec_table();
  std::set<std::string> ops = opcodes_in_docs();
  EXPECT_GT(ops.size(), 25u);
  for (const std::string& op : ops) EXPECT_NE(t.find(op), nullptr) << "no executor for " << op;
}
