// The run session: the core's record of a run's finished kernels, printed once, deduplicated
// by IR text with their `simulated` flags, cleared at the start and the end of a run.
#include <gtest/gtest.h>

#include "lang/ops.h"
#include "printer/printer.h"
#include "protocol/requests.h"
#include "run/run_session.h"
#include "trace_fixture.h"
#include "util/json.h"

using namespace nki;

namespace {

lang::IndexItem tile_item(int axis, std::vector<int64_t> shape) {
  lang::IndexItem it;
  it.kind = lang::IndexItem::Kind::Expr;
  it.expr.expr = ir::AffineExpr::var({ir::VarKind::TileAxis, axis});
  it.expr.shape = std::move(shape);
  return it;
}

/// A copy kernel over 128 x `cols` (its IR text differs with `cols`).
std::unique_ptr<ir::Kernel> small_kernel(const std::string& name, int64_t cols) {
  trace::TraceSession s(TraceTest::opts(name));
  auto& cg = s.codegen();
  cg.builder.set_loc({"k.py", 2, 1});
  lang::ValueId a = lang::param(cg, "a", {128, cols}, ir::DType::Float32, false);
  {
    auto k = cg.kernel_scope(name);
    lang::ValueId out =
        lang::ndarray(cg, "out", {128, cols}, ir::DType::Float32, ir::Buffer::SharedHbm, {});
    std::vector<lang::IndexItem> idx = {tile_item(0, {128, 1}), tile_item(1, {1, cols})};
    lang::ValueId t = lang::load(cg, lang::view(cg, a, idx), {}, "t");
    lang::store(cg, lang::view(cg, out, idx), t);
    lang::set_outputs(cg, {out});
  }
  return s.finalize();
}

class RunSessionTest : public TraceTest {
public:
  void SetUp() override {
    TraceTest::SetUp();
    run::session().begin_run();
  }
  void TearDown() override {
    run::session().end_run();
    TraceTest::TearDown();
  }
};

TEST_F(RunSessionTest, keeps_each_distinct_kernel_once_simulated_only_if_every_copy_was) {
  auto& s = run::session();
  auto first = s.add_kernel(small_kernel("k", 512), true);
  s.add_kernel(small_kernel("k", 512), false); // the same IR again: not a new entry
  s.add_kernel(small_kernel("k", 256), true);
  s.add_kernel(small_kernel("k", 256), true);
  const auto& ks = s.kernels();
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0].printed, first);
  EXPECT_FALSE(ks[0].simulated);
  EXPECT_TRUE(ks[1].simulated);
}

TEST_F(RunSessionTest, printed_forms_are_the_printers) {
  auto p = run::session().add_kernel(small_kernel("k", 512), false);
  printer::RecordSink sink;
  printer::print_kernel(*p->kernel(), sink);
  EXPECT_EQ(p->text(), printer::to_text(*p->kernel()));
  EXPECT_EQ(p->records_json(), printer::records_to_json(sink.records()));
  EXPECT_EQ(p->json(), printer::to_json(*p->kernel()));
}

TEST_F(RunSessionTest, a_listener_hears_each_new_kernel_as_it_is_finished) {
  std::vector<int> heard;
  run::session().begin_run([&](int i) { heard.push_back(i); });
  run::session().add_kernel(small_kernel("a", 512), false);
  EXPECT_EQ(heard, std::vector<int>({0}));
  run::session().add_kernel(small_kernel("a", 512), false);
  run::session().add_kernel(small_kernel("b", 512), false);
  EXPECT_EQ(heard, std::vector<int>({0, 1}));
}

TEST_F(RunSessionTest, begin_and_end_of_a_run_clear_it) {
  run::session().add_kernel(small_kernel("k", 512), false);
  run::session().begin_run();
  EXPECT_TRUE(run::session().kernels().empty());
  run::session().add_kernel(small_kernel("k", 512), false);
  run::session().end_run();
  EXPECT_TRUE(run::session().kernels().empty());
}

} // namespace
