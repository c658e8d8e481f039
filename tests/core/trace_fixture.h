#pragma once
#include <gtest/gtest.h>

#include "trace/trace_context.h"

/// Every core test runs under this fixture: the trace state must be clean after each test
/// (a failed or forgotten trace must never leak into the next one).
class TraceTest : public ::testing::Test {
public:
  void SetUp() override { ASSERT_EQ(nki::trace::nki_ctx_or_none(), nullptr); }
  void TearDown() override {
    EXPECT_EQ(nki::trace::nki_ctx_or_none(), nullptr) << "a test left a trace active";
    nki::trace::TraceContext::abandon();
  }
  static nki::codegen::TraceOptions opts(const std::string& name = "k",
                                         std::vector<int64_t> grid = {}) {
    nki::codegen::TraceOptions o;
    o.kernel_name = name;
    o.grid = std::move(grid);
    o.loc = {"k.py", 1, 1};
    return o;
  }
};
