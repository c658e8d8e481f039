// Every diagnostic the core throws has a stable code (its err_* builder's name, see sema::Code)
// and a section in docs/errors.md. The builders are found by reading the headers, so a new
// builder without a docs section fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "sema/sema.h"
#include "sim/diagnostics.h"

namespace fs = std::filesystem;
using nki::sema::code_of_builder;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kRoot = NKI_SOURCE_DIR;

/// The anchors of docs/errors.md: `## code` headings and `<a id="code">` tags.
std::set<std::string> documented_codes() {
  std::set<std::string> ids;
  std::string doc = read(kRoot / "docs" / "errors.md");
  std::regex heading(R"((?:^|\n)#{2,4} `?([a-z0-9-]+)`?\s*\n)");
  std::regex anchor(R"re(<a id="([a-z0-9-]+)">)re");
  for (auto& re : {heading, anchor})
    for (std::sregex_iterator it(doc.begin(), doc.end(), re), end; it != end; ++it)
      ids.insert((*it)[1]);
  return ids;
}

/// Builder names (err_* and warn_*) declared in the headers that hold diagnostics.
std::vector<std::string> declared_builders() {
  std::vector<fs::path> headers = {kRoot / "core" / "sim" / "diagnostics.h"};
  for (const auto& e : fs::directory_iterator(kRoot / "core" / "sema"))
    if (e.path().extension() == ".h") headers.push_back(e.path());
  std::regex decl(R"((?:void|std::string|Warning) ((?:err|warn)_[a-z0-9_]+)\()");
  std::vector<std::string> names;
  for (const auto& h : headers) {
    std::string text = read(h);
    for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it)
      names.push_back((*it)[1]);
  }
  return names;
}

/// Names raise_by_name accepts (the surface's door to the core's messages).
std::vector<std::string> raise_by_name_names() {
  // Beta 1's names (sema.cpp) and the current language's (sema_current.cpp, which raise_by_name
  // falls back to).
  std::string text = read(kRoot / "core" / "sema" / "sema.cpp") +
                     read(kRoot / "core" / "sema" / "sema_current.cpp");
  std::regex name(R"re(name == "(err_[a-z0-9_]+)")re");
  std::vector<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it)
    names.push_back((*it)[1]);
  return names;
}

} // namespace

TEST(DiagnosticCodes, code_is_the_builder_name_without_prefix_with_hyphens) {
  EXPECT_EQ(code_of_builder("err_nki_api_outside_of_nki_kernel"), "nki-api-outside-of-nki-kernel");
  EXPECT_EQ(code_of_builder("err_1d_arange_not_supported"), "1d-arange-not-supported");
  EXPECT_EQ(code_of_builder("warn_unwritten_read"), "unwritten-read");
}

TEST(DiagnosticCodes, every_builder_has_a_section_in_docs_errors_md) {
  auto docs = documented_codes();
  auto builders = declared_builders();
  ASSERT_GT(builders.size(), 100u) << "the header scan found too few builders";
  for (const char* sim_warning : {"warn_unwritten_read", "warn_dynamic_trip"})
    EXPECT_NE(std::find(builders.begin(), builders.end(), sim_warning), builders.end())
        << "the header scan missed the simulator's " << sim_warning;
  for (const auto& b : builders) {
    if (b == "err_unbalanced_scope_exit") continue; // an InternalError: our bug, not the user's
    EXPECT_TRUE(docs.count(code_of_builder(b)))
        << b << ": no `## " << code_of_builder(b) << "` section in docs/errors.md";
  }
}

TEST(DiagnosticCodes, every_raise_by_name_diagnostic_carries_its_documented_code) {
  auto docs = documented_codes();
  auto names = raise_by_name_names();
  ASSERT_GT(names.size(), 15u);
  for (const auto& n : names) {
    try {
      nki::sema::raise_by_name(n, {"x", "1"});
      ADD_FAILURE() << n << " did not throw";
    } catch (const nki::sema::NkiError& e) {
      EXPECT_FALSE(e.code().empty()) << n;
      EXPECT_EQ(e.code(), code_of_builder(n)) << n;
      EXPECT_TRUE(docs.count(e.code())) << n << ": code " << e.code() << " not in docs/errors.md";
    }
  }
}

// Code::of(__func__) names the function it is written in: a code made anywhere but directly in
// an err_* / warn_* builder (a helper, a lambda) would name no docs section.
TEST(DiagnosticCodes, every_throw_sits_directly_in_an_err_builder) {
  std::regex def(
      R"(^(?:\[\[noreturn\]\] )?(?:void|std::string|(?:sema::)?Warning) ([a-z0-9_]+)\()");
  int throws = 0;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "core")) {
    if (e.path().extension() != ".cpp") continue;
    std::istringstream text(read(e.path()));
    std::string line, current;
    for (int n = 1; std::getline(text, line); ++n) {
      std::smatch m;
      if (std::regex_search(line, m, def)) current = m[1];
      if (line.find("Code::of(") == std::string::npos || line.rfind("Code Code::of(", 0) == 0)
        continue;
      ++throws;
      EXPECT_TRUE(current.rfind("err_", 0) == 0 || current.rfind("warn_", 0) == 0)
          << e.path().string() << ":" << n << ": Code::of outside an err_*/warn_* builder (in '"
          << current << "')";
      EXPECT_NE(line.find("Code::of(__func__)"), std::string::npos)
          << e.path().string() << ":" << n << ": codes come from __func__ only";
    }
  }
  EXPECT_GT(throws, 100);
}

TEST(DiagnosticCodes, a_trace_warning_carries_its_code) {
  EXPECT_EQ(nki::sema::warn_shadowing_local_tensor("float32 acc[128, 512]", "acc").code.str(),
            "shadowing-local-tensor");
  EXPECT_EQ(nki::sema::warn_block_dimension_is_deprecated("t[4, 128, 512]").code.str(),
            "block-dimension-is-deprecated");
}

// The simulator's warnings get their codes the same way; the page links them to docs/errors.md.
TEST(DiagnosticCodes, a_simulator_warning_carries_its_code) {
  nki::sema::Warning unwritten = nki::sim::warn_unwritten_read("t", {0, 3}, "tensor_tensor");
  EXPECT_EQ(unwritten.code.str(), "unwritten-read");
  EXPECT_EQ(unwritten.message, "reading memory that was never written: 'tensor_tensor' reads "
                               "`t[0, 3]`, which no instruction wrote (it holds NaN; 0 for "
                               "integer tensors)");
  nki::sema::Warning trip = nki::sim::warn_dynamic_trip(0);
  EXPECT_EQ(trip.code.str(), "dynamic-trip");
  EXPECT_EQ(trip.message,
            "dynamic loop trip count is 0; the loop runs once (On-chip while loop cannot scale "
            "to zero)");
}

TEST(DiagnosticCodes, a_thrown_diagnostic_carries_its_code) {
  try {
    nki::sema::err_tensor_access_out_of_bound("x", 1, 0, 4095, 4000);
  } catch (const nki::sema::NkiError& e) {
    EXPECT_EQ(e.code(), "tensor-access-out-of-bound");
    EXPECT_EQ(e.kind(), "IndexError");
  }
}
