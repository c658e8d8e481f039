// Data movement of the current language: nisa.dma_copy, tensor_copy, memset (dst first; the
// opcodes and executors are Beta 1's, writing through a "dst" operand). docs/current-language.md.
#include "isa/isa.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"

namespace nki::isa {

using namespace nki::ir;

namespace {

constexpr Mem kHbmOrSbuf = static_cast<Mem>(3);

void dma_copy(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", kHbmOrSbuf), src = tile(cg, c, "src", kHbmOrSbuf);
  const auto& ds = lang::shape_of(cg, dst);
  const auto& ss = lang::shape_of(cg, src);
  if (lang::elements(ds) != lang::elements(ss))
    sema::err_isa_element_count(c.api, sema::describe("dst", ds), sema::describe("src", ss));
  std::string dge = c.attr_string("dge_mode", "unknown");
  if (dge == "hwdge") {
    if (nc_version(cg) < 3)
      sema::err_min_arch_support_for_inst("dma_copy(dge_mode=hwdge)", "trn2", cg.options().target);
    if (lang::dtype_of(cg, dst) != lang::dtype_of(cg, src))
      sema::err_isa_hwdge_cast(dtype_name(lang::dtype_of(cg, src)),
                               dtype_name(lang::dtype_of(cg, dst)));
  }
  bool dynamic = cg.value(dst).indirect || cg.value(src).indirect;
  if (dynamic && dge == "none") sema::err_isa_dynamic_needs_dge(c.api);
  Instruction in = lang::make_inst("dma_copy", Engine::Dma);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  std::string oob = c.attr_string("oob_mode", "error");
  if (oob == "skip") in.attrs.push_back({"oob_mode", oob});
  if (dge != "unknown") in.attrs.push_back({"dge_mode", dge});
  if (c.attrs.has("priority") && !c.attrs["priority"].is_null())
    in.attrs.push_back({"priority", c.attr_int("priority", 0)});
  emit(cg, c, std::move(in));
}

void tensor_copy(NeuronCodegen& cg, const OpCall& c) {
  Engine e = engine_of(c, Engine::Vector, {Engine::Vector, Engine::Scalar, Engine::GpSimd});
  if (e == Engine::Scalar && nc_version(cg) < 3)
    sema::err_min_arch_support_for_inst("tensor_copy(engine=scalar)", "trn2", cg.options().target);
  Mem m = e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip;
  ValueId dst = tile(cg, c, "dst", m), src = tile(cg, c, "src", m);
  same_layout(cg, c.api, "dst", dst, "src", src);
  Instruction in = lang::make_inst("tensor_copy", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  emit(cg, c, std::move(in));
}

void memset(NeuronCodegen& cg, const OpCall& c) {
  Engine e = engine_of(c, Engine::Vector, {Engine::Vector, Engine::GpSimd});
  ValueId dst = tile(cg, c, "dst", e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip);
  const lang::ValueOrScalar& v = c.operand("value");
  if (!v.is_scalar()) sema::err_expected_scalar("value", c.api);
  DType t = lang::dtype_of(cg, dst);
  if (!dtype_is_float(t) && v.scalar_is_float &&
      v.scalar != static_cast<double>(static_cast<int64_t>(v.scalar)))
    sema::err_isa_value_dtype(c.api, std::to_string(v.scalar), dtype_name(t));
  Instruction in = lang::make_inst("memset", e);
  lang::add_operand(cg, in, "dst", dst);
  in.attrs.push_back({"value", v.scalar});
  emit(cg, c, std::move(in));
}

} // namespace

void register_move_ops(Registry& r) {
  r.add("dma_copy", dma_copy);
  r.add("tensor_copy", tensor_copy);
  r.add("memset", memset);
}

} // namespace nki::isa
