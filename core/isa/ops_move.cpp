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

bool math_in_psum(const NeuronCodegen& cg, ValueId v) {
  return lang::tensor_of(cg, v).memory() == Memory::PSUM;
}

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

void dma_transpose(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), src = tile(cg, c, "src", kHbmOrSbuf);
  const auto& ss = lang::shape_of(cg, src);
  std::vector<int64_t> axes = c.attr_ints("axes");
  // The default permutations (NKI 0.6.0's docstring): [1, 0], [2, 1, 0], and [3, 1, 2, 0] for
  // four axes — the middle two stay in place.
  if (axes.empty() && ss.size() == 4) axes = {3, 1, 2, 0};
  if (axes.empty())
    for (size_t i = ss.size(); i-- > 0;) axes.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> want(axes.size());
  std::vector<bool> seen(ss.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes.size() != ss.size() || axes[i] < 0 || axes[i] >= static_cast<int64_t>(ss.size()) ||
        seen[static_cast<size_t>(axes[i])])
      sema::err_isa_rule(c.api, "axes must permute the source's dimensions");
    seen[static_cast<size_t>(axes[i])] = true;
    want[i] = ss[static_cast<size_t>(axes[i])];
  }
  if (want != lang::shape_of(cg, dst)) {
    std::string perm;
    for (int64_t a : axes) perm += (perm.empty() ? "" : ", ") + std::to_string(a);
    sema::err_isa_rule(c.api,
                       sema::describe("dst", lang::shape_of(cg, dst)) + " must have the shape of " +
                           sema::describe("src transposed", want) + " (axes (" + perm + "))");
  }
  Instruction in = lang::make_inst("dma_transpose", Engine::Dma);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  in.attrs.push_back({"axes", axes});
  emit(cg, c, std::move(in));
}

void tensor_copy_predicated(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::OnChip), pred = tile(cg, c, "predicate", Mem::OnChip);
  same_layout(cg, c.api, "dst", dst, "predicate", pred);
  DType pt = lang::dtype_of(cg, pred);
  if (pt != DType::UInt8 && pt != DType::UInt16 && pt != DType::UInt32)
    sema::err_isa_rule(c.api, std::string("predicate must be uint8, uint16 or uint32, got ") +
                                  dtype_name(pt));
  Instruction in = lang::make_inst("tensor_copy_predicated", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  const lang::ValueOrScalar& src = c.operand("src");
  if (src.is_scalar()) {
    lang::add_scalar(in, "src", src.scalar);
  } else {
    lang::require_memory(cg, src.value, "src", c.api, Mem::OnChip);
    same_layout(cg, c.api, "dst", dst, "src", src.value);
    if (lang::dtype_of(cg, src.value) != lang::dtype_of(cg, dst))
      sema::err_src_dst_same_dtype_predicated();
    if (math_in_psum(cg, src.value) && math_in_psum(cg, pred))
      sema::err_isa_both_psum(c.api, "src", "predicate");
    lang::add_operand(cg, in, "src", src.value);
  }
  lang::add_operand(cg, in, "predicate", pred);
  if (c.attr_bool("reverse_pred")) in.attrs.push_back({"reverse_pred", int64_t{1}});
  emit(cg, c, std::move(in));
}

// iota / affine_select's [step, num] pattern over dst's free elements (up to 4 pairs).
std::vector<int64_t> pattern_attr(NeuronCodegen& cg, const OpCall& c, ValueId dst) {
  std::vector<int64_t> pat = c.attr_ints("pattern");
  int64_t n = 1;
  for (size_t i = 1; i < pat.size(); i += 2) n *= pat[i];
  if (n != lang::free_size(lang::shape_of(cg, dst)))
    sema::err_isa_rule(c.api, "the pattern's " + std::to_string(n) +
                                  " elements must be dst's elements per partition (" +
                                  std::to_string(lang::free_size(lang::shape_of(cg, dst))) + ")");
  return pat;
}

void iota(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf);
  Instruction in = lang::make_inst("iota", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  in.attrs.push_back({"pattern", pattern_attr(cg, c, dst)});
  in.attrs.push_back({"offset", c.attr_int("offset", 0)});
  in.attrs.push_back({"channel_multiplier", c.attr_int("channel_multiplier", 0)});
  emit(cg, c, std::move(in));
}

void nc_transpose(NeuronCodegen& cg, const OpCall& c) {
  Engine e = engine_of(c, Engine::None, {Engine::Tensor, Engine::Vector});
  ValueId data = tile(cg, c, "data", Mem::OnChip);
  const auto& ds = lang::shape_of(cg, data);
  if (e == Engine::None) { // a PSUM dst is the Tensor engine's; else small ones the Vector's
    const bool to_psum = lang::tensor_of(cg, c.tile("dst")).buffer == ir::Buffer::Psum;
    e = !to_psum && ds[0] <= 32 && lang::free_size(ds) <= 32 ? Engine::Vector : Engine::Tensor;
  }
  ValueId dst = tile(cg, c, "dst", e == Engine::Tensor ? Mem::Psum : Mem::Sbuf);
  if (e == Engine::Tensor) lang::require_memory(cg, data, "data", c.api, Mem::Sbuf);
  const int64_t limit = e == Engine::Tensor ? 128 : 32;
  if (ds[0] > limit || lang::free_size(ds) > limit)
    sema::err_isa_rule(c.api, std::string("the ") + engine_name(e) + " engine transposes up to " +
                                  std::to_string(limit) + " x " + std::to_string(limit));
  const auto& o = lang::shape_of(cg, dst);
  if (o[0] != lang::free_size(ds) || lang::free_size(o) != ds[0])
    sema::err_isa_rule(c.api, "dst must be data transposed: " + sema::describe("dst", o) + " for " +
                                  sema::describe("data", ds));
  Instruction in = lang::make_inst("nc_transpose", e);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  emit(cg, c, std::move(in));
}

void gather_flattened(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), data = tile(cg, c, "data", Mem::Sbuf);
  ValueId idx = tile(cg, c, "indices", Mem::Sbuf);
  same_layout(cg, c.api, "dst", dst, "indices", idx);
  Instruction in = lang::make_inst("gather_flattened", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  lang::add_operand(cg, in, "indices", idx);
  emit(cg, c, std::move(in));
}

// dst = srcs[0] + srcs[1] + ... in fp32 on the DMA engines (NKI 0.6.0: reduce_op add, scales
// all 1.0, at most 16 sources of dst's element count). With a vector_offset view on a source
// equal to dst (or on dst) it is NKI's read-modify-write scatter / gather.
void dma_compute(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", kHbmOrSbuf);
  const int64_t n = c.attr_int("count", 0);
  if (n < 1 || n > 16)
    sema::err_isa_rule(c.api, "srcs holds 1 to 16 tensors, got " + std::to_string(n));
  std::string op = c.attr_string("reduce_op");
  if (op != "add") sema::err_instruction_unsupported_op(op.empty() ? "None" : op, c.api);
  if (c.attrs.has("scales") && c.attrs["scales"].is_array()) {
    const util::Json& sc = c.attrs["scales"];
    if (static_cast<int64_t>(sc.size()) != n)
      sema::err_isa_rule(c.api, "scales holds one factor per source (" + std::to_string(n) +
                                    "), got " + std::to_string(sc.size()));
    for (size_t i = 0; i < sc.size(); ++i)
      if (!sc[i].is_number() || sc[i].number() != 1.0)
        sema::err_isa_rule(c.api, "every scale must be 1.0 (NKI 0.6.0 supports no other)");
  }
  Instruction in = lang::make_inst("dma_compute", Engine::Dma);
  lang::add_operand(cg, in, "dst", dst);
  const auto& ds = lang::shape_of(cg, dst);
  bool indirect = cg.value(dst).indirect != nullptr;
  for (int64_t i = 0; i < n; ++i) {
    const std::string role = "src" + std::to_string(i);
    ValueId s = tile(cg, c, role, kHbmOrSbuf);
    if (lang::elements(lang::shape_of(cg, s)) != lang::elements(ds))
      sema::err_isa_element_count(c.api, sema::describe("dst", ds),
                                  sema::describe(role, lang::shape_of(cg, s)));
    indirect = indirect || cg.value(s).indirect != nullptr;
    lang::add_operand(cg, in, role, s);
  }
  if (indirect && (n != 2 || !c.attr_bool("unique_indices", true)))
    sema::err_isa_rule(c.api, "a read-modify-write (a source or dst with vector_offset) takes "
                              "exactly 2 sources and unique_indices=True");
  if (c.attr_string("oob_mode", "error") == "skip")
    in.attrs.push_back({"oob_mode", std::string("skip")});
  emit(cg, c, std::move(in));
}

} // namespace

void register_move_ops(Registry& r) {
  r.add("dma_copy", dma_copy);
  r.add("dma_transpose", dma_transpose);
  r.add("tensor_copy", tensor_copy);
  r.add("tensor_copy_predicated", tensor_copy_predicated);
  r.add("memset", memset);
  r.add("iota", iota);
  r.add("nc_transpose", nc_transpose);
  r.add("gather_flattened", gather_flattened);
  r.add("dma_compute", dma_compute);
}

} // namespace nki::isa
