#include <gtest/gtest.h>

#include "printer/printer.h"
#include "protocol/requests.h"
#include "sema/sema.h"
#include "trace_fixture.h"

using namespace nki;
using ir::RegionKind;

TEST_F(TraceTest, pop_scope_rejects_unbalanced_exit) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  ir::RegionId k = cg.push_scope(RegionKind::KernelScope, {});
  ir::RegionId loop_body = cg.push_scope(RegionKind::AllocationScope, {});
  try {
    cg.pop_scope(k);
    FAIL() << "popped a scope that is not the innermost";
  } catch (const sema::InternalError& e) {
    EXPECT_EQ(std::string(e.what()), "unbalanced scope exit: expected AllocationScope#" +
                                         std::to_string(loop_body) + ", got KernelScope#" +
                                         std::to_string(k));
  }
  cg.pop_scope(loop_body);
  cg.pop_scope(k);
  EXPECT_THROW(cg.pop_scope(k), sema::InternalError);
  s.finalize();
}

TEST_F(TraceTest, guard_close_out_of_order_is_refused) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto k = cg.kernel_scope("k");
  auto a = cg.allocation_scope();
  EXPECT_THROW(k.close(), sema::InternalError); // not innermost; guard is spent
  a.close();
  cg.pop_scope(k.region());
  s.finalize();
}

TEST_F(TraceTest, guards_are_move_only_and_pop_once) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  {
    auto k = cg.kernel_scope("k");
    auto moved = std::move(k);
    EXPECT_EQ(cg.depth(), 1u);
  }
  EXPECT_EQ(cg.depth(), 0u);
  s.finalize();
}

TEST_F(TraceTest, every_region_kind_nests_and_prints_with_its_kind) {
  trace::TraceSession s(opts("nest"));
  auto& cg = s.codegen();
  ir::RegionId ids[8];
  {
    auto k = cg.kernel_scope("nest");
    ids[0] = k.region();
    auto f = cg.function_scope("helper");
    ids[1] = f.region();
    auto loop = cg.affine_range(0, 8, 2, ir::AxisType::Sequential, "i");
    ids[2] = loop.loop->region();
    ids[3] = loop.alloc->region();
    ir::Predicate p;
    p.terms.push_back({loop.iv, ir::CmpOp::Lt, ir::AffineExpr(4)});
    auto iff = cg.if_scope(p);
    ids[4] = iff.region();
    auto w = cg.while_scope();
    ids[5] = w.region();
    auto st = cg.pipeline_stage(0, 1);
    ids[6] = st.region();
    auto nr = cg.no_reorder();
    ids[7] = nr.region();
    EXPECT_EQ(cg.depth(), 8u);
  }
  auto kernel = s.finalize();
  const RegionKind kinds[] = {RegionKind::KernelScope, RegionKind::FunctionScope,
                              RegionKind::LoopScope,   RegionKind::AllocationScope,
                              RegionKind::IfScope,     RegionKind::WhileScope,
                              RegionKind::ScopeRegion, RegionKind::ScopeRegion};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(kernel->region(ids[i]).kind, kinds[i]);
    EXPECT_EQ(kernel->region(ids[i]).parent, i == 0 ? ir::kNone : ids[i - 1]);
  }
  EXPECT_EQ(kernel->loop_axis(kernel->region(ids[2]).payload.axis).axis_type,
            ir::AxisType::Sequential);
  std::string text = printer::to_text(*kernel);
  const char* expected[] = {"KernelScope @nest {",
                            "  FunctionScope @helper {",
                            "    LoopScope sequential %i in [0, 8) step 2 trip 4 {",
                            "      AllocationScope {",
                            "        IfScope %i < 4 {",
                            "          WhileScope {",
                            "            ScopeRegion stage stage_id=0 execution_order=1 {",
                            "              ScopeRegion no_reorder {"};
  size_t pos = 0;
  for (const char* line : expected) {
    size_t at = text.find(std::string("  ") + line, pos);
    ASSERT_NE(at, std::string::npos) << "missing, in order: " << line << "\n" << text;
    pos = at;
  }
  EXPECT_EQ(text.find("StmtScope"), std::string::npos);
}

TEST_F(TraceTest, affine_range_with_one_trip_emits_no_loop) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  {
    auto k = cg.kernel_scope("k");
    auto r = cg.affine_range(3, 4, 1);
    EXPECT_FALSE(r.loop.has_value());
    EXPECT_TRUE(r.iv.is_constant());
    EXPECT_EQ(r.iv.constant(), 3);
    EXPECT_EQ(cg.depth(), 1u);
  }
  auto kernel = s.finalize();
  EXPECT_EQ(kernel->regions().size(), 1u);
  EXPECT_TRUE(kernel->loop_axes().empty());
}

TEST_F(TraceTest, affine_range_normalizes_bounds_and_tags_the_axis) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  {
    auto k = cg.kernel_scope("k");
    auto r = cg.affine_range(10, 0, -3);
    ASSERT_TRUE(r.loop.has_value());
    const ir::LoopAxis& a = cg.kernel().loop_axis(r.axis);
    EXPECT_EQ(a.trip_count, 4); // 10, 7, 4, 1
    EXPECT_EQ(a.tag, ir::LoopAxis::Tag::AffineAxis);
    EXPECT_EQ(a.axis_type, ir::AxisType::Affine);
    EXPECT_EQ(cg.kernel().region(cg.cur_scope()).kind, RegionKind::AllocationScope);
    auto range = cg.range_of(r.iv * 2, {});
    EXPECT_EQ(range.first, 2);
    EXPECT_EQ(range.second, 20);
  }
  s.finalize();
}

// The scope requests (push / loop / pop, core/lang/scopes.cpp) as the surface sends them.
TEST_F(TraceTest, scope_requests_open_and_close_every_region_through_one_family) {
  trace::TraceSession s(opts());
  auto& cg = s.codegen();
  auto req = [&](const std::string& j) {
    return protocol::handle_request(cg, util::Json::parse(j));
  };
  auto k = cg.kernel_scope("k").release();
  cg.enter_trace_scope(trace::TraceScopeKind::KernelScope, "k@k.py:1", "k");
  // A FunctionScope with its trace-side scope in one request each way.
  int f = std::stoi(req(R"({"op":"push","kind":"FunctionScope","name":"helper",)"
                        R"("trace":["helper@k.py:5","helper"]})"));
  EXPECT_EQ(cg.trace_scope()->kind, trace::TraceScopeKind::FunctionScope);
  EXPECT_EQ(cg.trace_scope()->name_and_loc, "helper@k.py:5");
  auto loop = util::Json::parse(req(R"({"op":"loop","start":0,"stop":4,"name":"i"})"));
  int lp = static_cast<int>(loop["loop"].integer()), al = static_cast<int>(loop["alloc"].integer());
  EXPECT_EQ(cg.kernel().region(lp).kind, RegionKind::LoopScope);
  EXPECT_EQ(cg.cur_scope(), al);
  int st = std::stoi(req(R"({"op":"push","kind":"ScopeRegion","tag":"stage","stage_id":2})"));
  int nr = std::stoi(req(R"({"op":"push","kind":"ScopeRegion","tag":"no_reorder"})"));
  EXPECT_EQ(cg.kernel().region(st).payload.stage_id, 2);
  EXPECT_EQ(cg.kernel().region(nr).payload.tag, "no_reorder");
  // Deferred pops ride on the next request: a bare pop applies only them.
  req(R"({"op":"pop","pop":[)" + std::to_string(nr) + "," + std::to_string(st) + "]}");
  EXPECT_EQ(cg.cur_scope(), al);
  // A pop that is not of the innermost region is refused.
  EXPECT_THROW(req(R"({"op":"pop","region":)" + std::to_string(lp) + "}"), sema::InternalError);
  // The KernelScope opens with the trace, never through push.
  EXPECT_THROW(req(R"({"op":"push","kind":"KernelScope","name":"k"})"), sema::InternalError);
  req(R"({"op":"pop","pop":[)" + std::to_string(al) + "," + std::to_string(lp) + R"(],"region":)" +
      std::to_string(f) + R"(,"drop":true,"trace":"FunctionScope"})");
  EXPECT_EQ(cg.cur_scope(), k);
  EXPECT_EQ(cg.trace_scope()->kind, trace::TraceScopeKind::KernelScope);
  // A helper that emitted nothing leaves no region behind.
  int e = std::stoi(req(R"({"op":"push","kind":"FunctionScope","name":"empty",)"
                        R"("trace":["empty@k.py:9","empty"]})"));
  req(R"({"op":"pop","region":)" + std::to_string(e) + R"(,"drop":true,"trace":"FunctionScope"})");
  cg.exit_trace_scope(trace::TraceScopeKind::KernelScope);
  cg.pop_scope(k);
  auto kernel = s.finalize();
  std::string text = printer::to_text(*kernel);
  EXPECT_NE(text.find("FunctionScope @helper {"), std::string::npos) << text;
  EXPECT_NE(text.find("ScopeRegion stage stage_id=2 {"), std::string::npos) << text;
  EXPECT_EQ(text.find("@empty"), std::string::npos) << text;
}
