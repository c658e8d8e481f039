// The two cores of a Logical NeuronCore (LNC2, `kernel[2]`): nisa.core_barrier and
// nisa.sendrecv. NKI allows them only with LNC enabled on NeuronCore-v3 or newer; the
// simulator runs the two cores' bodies side by side, meeting at each of them (sim/lnc.cpp).
#include "isa/isa.h"
#include "sema/sema.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"
#include "sema/sema_movement.h"

namespace nki::isa {

using namespace nki::ir;

namespace {

void need_lnc2(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 3) sema::err_min_arch_support_for_inst(c.api, "trn2", cg.options().target);
  if (cg.options().lnc != 2)
    sema::err_isa_rule(c.api, "NKI allows it only when LNC (Logical NeuronCore) is enabled: "
                              "launch the kernel on two cores, kernel[2](...)");
}

void core_barrier(NeuronCodegen& cg, const OpCall& c) {
  need_lnc2(cg, c);
  ValueId data = tile(cg, c, "data", Mem::Hbm);
  const Buffer b = lang::tensor_of(cg, data).buffer;
  if (b != Buffer::SharedHbm && b != Buffer::Input)
    sema::err_isa_rule(c.api, "data must be in shared HBM (buffer=nl.shared_hbm or a kernel "
                              "argument), got " +
                                  std::string(buffer_name(b)));
  if (c.attr_ints("cores") != std::vector<int64_t>{0, 1})
    sema::err_isa_rule(c.api, "only cores=(0, 1) is supported");
  Engine e =
      engine_of(c, Engine::GpSimd,
                {Engine::GpSimd, Engine::Vector, Engine::Scalar, Engine::Tensor, Engine::Sync});
  Instruction in = lang::make_inst("core_barrier", e);
  lang::add_operand(cg, in, "data", data);
  in.attrs.push_back({"cores", std::vector<int64_t>{0, 1}});
  emit(cg, c, std::move(in));
}

int64_t rank_attr(const OpCall& c, const std::string& key) {
  const util::Json& j = c.attrs[key];
  const int64_t r = c.integer_of(j, key);
  if (r != 0 && r != 1)
    sema::err_isa_rule(c.api, key + " must be 0 or 1, got " + std::to_string(r));
  return r;
}

void sendrecv(NeuronCodegen& cg, const OpCall& c) {
  need_lnc2(cg, c);
  ValueId src = tile(cg, c, "src", Mem::Sbuf), dst = tile(cg, c, "dst", Mem::Sbuf);
  if (lang::dtype_of(cg, dst) != lang::dtype_of(cg, src))
    sema::err_supported_operand_dtype("dst", c.api, dtype_name(lang::dtype_of(cg, dst)),
                                      dtype_name(lang::dtype_of(cg, src)));
  if (lang::shape_of(cg, dst) != lang::shape_of(cg, src))
    sema::err_isa_layout_mismatch(c.api, sema::describe("dst", lang::shape_of(cg, dst)),
                                  sema::describe("src", lang::shape_of(cg, src)));
  const int64_t to = rank_attr(c, "send_to_rank"), from = rank_attr(c, "recv_from_rank");
  const int64_t pipe = c.integer_of(c.attrs["pipe_id"], "pipe_id");
  const bool gpsimd = c.attr_string("dma_engine", "dma") == "gpsimd_dma";
  if (gpsimd) {
    const int64_t bytes =
        lang::free_size(lang::shape_of(cg, src)) * dtype_size(lang::dtype_of(cg, src));
    const int64_t limit = 256 * dtype_size(lang::dtype_of(cg, src));
    if (bytes > limit)
      sema::err_isa_rule(c.api, "dma_engine=gpsimd_dma moves at most " + std::to_string(limit) +
                                    " bytes per partition of a " +
                                    dtype_name(lang::dtype_of(cg, src)) + " tile, got " +
                                    std::to_string(bytes));
  }
  Instruction in = lang::make_inst("sendrecv", gpsimd ? Engine::GpSimd : Engine::Dma);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  in.attrs.push_back({"send_to_rank", to});
  in.attrs.push_back({"recv_from_rank", from});
  in.attrs.push_back({"pipe_id", pipe});
  if (gpsimd) in.attrs.push_back({"dma_engine", std::string("gpsimd_dma")});
  emit(cg, c, std::move(in));
}

} // namespace

void register_lnc_ops(Registry& r) {
  r.add("core_barrier", core_barrier);
  r.add("sendrecv", sendrecv);
}

} // namespace nki::isa
