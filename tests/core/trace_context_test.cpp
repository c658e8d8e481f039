#include <gtest/gtest.h>

#include "sema/sema.h"
#include "trace_fixture.h"

using namespace nki;
using trace::TraceContext;

namespace {
constexpr const char* kOutside = "calling NKI API outside of NKI kernels is not supported.";
}

TEST_F(TraceTest, nki_ctx_raises_outside_kernel_with_exact_message) {
  try {
    trace::nki_ctx();
    FAIL() << "nki_ctx() returned outside a kernel";
  } catch (const sema::NkiError& e) {
    EXPECT_STREQ(e.what(), kOutside);
    EXPECT_EQ(e.kind(), "RuntimeError");
  }
}

TEST_F(TraceTest, err_nki_api_outside_of_nki_kernel_has_exact_text) {
  try {
    sema::err_nki_api_outside_of_nki_kernel();
  } catch (const sema::NkiError& e) {
    EXPECT_STREQ(e.what(), kOutside);
  }
}

TEST_F(TraceTest, nki_ctx_returns_the_active_codegen) {
  codegen::NeuronCodegen& cg = TraceContext::new_ctx(opts());
  EXPECT_EQ(&trace::nki_ctx(), &cg);
  EXPECT_EQ(trace::nki_ctx_or_none(), &cg);
  EXPECT_EQ(TraceContext::global_ctx.get(), &cg);
  TraceContext::abandon();
}

TEST_F(TraceTest, nki_ctx_or_none_is_null_before_during_and_after_a_trace) {
  EXPECT_EQ(trace::nki_ctx_or_none(), nullptr);
  {
    trace::TraceSession s(opts());
    EXPECT_NE(trace::nki_ctx_or_none(), nullptr);
    auto g = s.codegen().kernel_scope("k");
    g.close();
    auto kernel = s.finalize();
    EXPECT_EQ(kernel->name(), "k");
  }
  EXPECT_EQ(trace::nki_ctx_or_none(), nullptr);
}

TEST_F(TraceTest, nki_ctx_or_none_is_null_after_a_trace_that_threw) {
  EXPECT_THROW(
      {
        trace::TraceSession s(opts());
        auto g = s.codegen().kernel_scope("k");
        auto loop = s.codegen().affine_range(0, 4, 1);
        sema::err_num_partition_exceed_arch_limit(256, 128);
      },
      sema::NkiError);
  EXPECT_EQ(trace::nki_ctx_or_none(), nullptr);
  // The next trace works.
  trace::TraceSession s(opts("next"));
  auto g = s.codegen().kernel_scope("next");
  g.close();
  EXPECT_EQ(s.finalize()->name(), "next");
}

TEST_F(TraceTest, get_cur_scope_raises_outside_and_tracks_the_innermost_region) {
  EXPECT_THROW(trace::get_cur_scope(), sema::NkiError);
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  EXPECT_EQ(trace::get_cur_scope(), ir::kNone);
  {
    auto k = cg.kernel_scope("k");
    EXPECT_EQ(trace::get_cur_scope(), k.region());
    {
      auto a = cg.allocation_scope();
      EXPECT_EQ(trace::get_cur_scope(), a.region());
    }
    EXPECT_EQ(trace::get_cur_scope(), k.region());
  }
  EXPECT_EQ(trace::get_cur_scope(), ir::kNone);
  s.finalize();
}

TEST_F(TraceTest, second_new_ctx_is_refused_while_a_trace_is_active) {
  codegen::NeuronCodegen& first = TraceContext::new_ctx(opts("first"));
  try {
    TraceContext::new_ctx(opts("second"));
    FAIL() << "second trace accepted";
  } catch (const sema::NkiError& e) {
    EXPECT_EQ(e.kind(), "RuntimeError");
    EXPECT_NE(std::string(e.what()).find("'first'"), std::string::npos);
  }
  EXPECT_EQ(trace::nki_ctx_or_none(), &first);
  TraceContext::abandon();
}

TEST_F(TraceTest, finalize_with_open_scopes_is_refused_and_clears_the_cell) {
  auto& cg = TraceContext::new_ctx(opts());
  ir::RegionId k = cg.push_scope(ir::RegionKind::KernelScope, {});
  (void)k;
  EXPECT_THROW(TraceContext::finalize_kernel(), sema::InternalError);
  EXPECT_EQ(trace::nki_ctx_or_none(), nullptr);
}

TEST_F(TraceTest, finalize_outside_a_trace_raises_the_outside_kernel_error) {
  EXPECT_THROW(TraceContext::finalize_kernel(), sema::NkiError);
}

TEST_F(TraceTest, trace_side_scopes_chain_through_parent_scope) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  cg.enter_trace_scope(trace::TraceScopeKind::KernelScope, "k@k.py:1", "k");
  cg.enter_stmt("a = 1@k.py:2");
  cg.enter_trace_scope(trace::TraceScopeKind::FunctionScope, "helper@k.py:5", "helper");
  cg.enter_stmt("b = 2@k.py:6");
  const trace::TraceScope* st = cg.trace_scope();
  ASSERT_EQ(st->kind, trace::TraceScopeKind::StmtScope);
  EXPECT_EQ(st->name_and_loc, "b = 2@k.py:6");
  EXPECT_EQ(st->stack_frame, "helper");
  ASSERT_EQ(st->parent_scope->kind, trace::TraceScopeKind::FunctionScope);
  ASSERT_EQ(st->parent_scope->parent_scope->kind, trace::TraceScopeKind::StmtScope);
  EXPECT_EQ(st->parent_scope->parent_scope->parent_scope->kind, trace::TraceScopeKind::KernelScope);
  cg.exit_trace_scope(trace::TraceScopeKind::FunctionScope); // closes the open StmtScope too
  EXPECT_EQ(cg.trace_scope()->kind, trace::TraceScopeKind::StmtScope);
  EXPECT_THROW(cg.exit_trace_scope(trace::TraceScopeKind::FunctionScope), sema::InternalError);
  cg.exit_trace_scope(trace::TraceScopeKind::KernelScope);
  EXPECT_EQ(cg.trace_scope(), nullptr);
  auto g = cg.kernel_scope("k");
  g.close();
  s.finalize();
}
