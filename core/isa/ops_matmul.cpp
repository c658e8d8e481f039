// nisa.nc_matmul of the current language: dst (PSUM) first; accumulate=None is "auto" — the
// first write to a PSUM element overwrites it, later ones accumulate (the simulator tracks it
// per element); the dst dtype rules per NeuronCore generation.
#include "ir/target.h"
#include "isa/isa.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"
#include "sema/sema_movement.h"

namespace nki::isa {

using namespace nki::ir;

namespace {

bool matmul_dtype(DType t, int nc) {
  switch (t) {
  case DType::Float8E4M3:
  case DType::Float8E5M2:
  case DType::BFloat16:
  case DType::Float16:
  case DType::TFloat32:
  case DType::Float32:
    return true;
  case DType::Float8E4M3FN:
    return nc >= 4;
  default:
    return false;
  }
}

bool wide(DType t) {
  return t == DType::Float32 || t == DType::TFloat32;
}

void nc_matmul(NeuronCodegen& cg, const OpCall& c) {
  const int nc = nc_version(cg);
  ValueId dst = tile(cg, c, "dst", Mem::Psum);
  ValueId st = tile(cg, c, "stationary", Mem::Sbuf), mv = tile(cg, c, "moving", Mem::Sbuf);
  const auto& ss = lang::shape_of(cg, st);
  const auto& ms = lang::shape_of(cg, mv);
  const auto& os = lang::shape_of(cg, dst);
  std::string perf = c.attr_string("perf_mode", "none");
  const bool double_row = perf == "double_row";
  if (double_row && nc < 3)
    sema::err_min_arch_support_for_inst("nc_matmul(perf_mode=double_row)", "trn2",
                                        cg.options().target);
  if (ss[0] != ms[0])
    sema::err_num_partition_mismatch(
        sema::describe("stationary", ss) + ", " + sema::describe("moving", ms), "nc_matmul");
  if (ss[0] > ir::kPmax)
    sema::err_size_of_dimension_exceed_arch_limit(0, sema::describe("stationary", ss), "nc_matmul",
                                                  ir::kPmax);
  int64_t m = lang::free_size(ss), n = lang::free_size(ms);
  if (double_row) {
    if (ss.size() != 3 || ss[1] != 2 || ms.size() != 3 || ms[1] != 2)
      sema::err_perf_mode_operand_shape(perf, "nc_matmul",
                                        ss.size() != 3 || ss[1] != 2 ? "stationary" : "moving",
                                        sema::describe("", ss.size() != 3 || ss[1] != 2 ? ss : ms));
    m /= 2;
    n /= 2;
  }
  if (m > ir::kGemmStationaryFmax)
    sema::err_size_of_dimension_exceed_arch_limit(1, sema::describe("stationary", ss), "nc_matmul",
                                                  ir::kGemmStationaryFmax);
  DType dt = lang::dtype_of(cg, dst);
  // trn3's moving tile may be wider than gemm_moving_fmax.
  const int64_t n_max = nc >= 4 ? (dt == DType::BFloat16 ? 8192 : 4096) : ir::kGemmMovingFmax;
  if (n > n_max)
    sema::err_size_of_dimension_exceed_arch_limit(1, sema::describe("moving", ms), "nc_matmul",
                                                  n_max);
  if (os.empty() || os[0] != m || lang::free_size(os) != n)
    sema::err_isa_rule(c.api, "dst is the product's [" + std::to_string(m) + ", " +
                                  std::to_string(n) + "] tile, got " + sema::describe("dst", os));
  if (!(dt == DType::Float32 || (nc >= 4 && dt == DType::BFloat16)))
    sema::err_isa_rule(c.api, std::string("nc_matmul dst dtype must be float32 on gen") +
                                  std::to_string(nc) + ", got " + dtype_name(dt));
  for (auto [role, v] : {std::pair<const char*, ValueId>{"stationary", st}, {"moving", mv}}) {
    DType t = lang::dtype_of(cg, v);
    if (!matmul_dtype(t, nc))
      sema::err_supported_operand_dtype(
          role, "nc_matmul", dtype_name(t),
          "float8_e4m3, float8_e5m2, bfloat16, float16, tfloat32, float32");
  }
  DType a = lang::dtype_of(cg, st), b = lang::dtype_of(cg, mv);
  if (wide(a) != wide(b))
    sema::err_isa_rule(c.api, "if one input is float32/tfloat32, the other must be too");
  if ((a == DType::Float8E4M3 && b == DType::Float8E4M3FN) ||
      (a == DType::Float8E4M3FN && b == DType::Float8E4M3))
    sema::err_isa_rule(c.api, "float8_e4m3 (legacy) and float8_e4m3fn cannot be mixed");
  std::vector<int64_t> pos = c.attr_ints("tile_position"), size = c.attr_ints("tile_size");
  if (pos.empty() != size.empty())
    sema::err_isa_rule(c.api, "tile_position and tile_size must both be set to enable tiling");
  Instruction in = lang::make_inst("nc_matmul", Engine::Tensor);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "stationary", st);
  lang::add_operand(cg, in, "moving", mv);
  const util::Json& acc = c.attrs["accumulate"];
  if (acc.is_string())
    in.attrs.push_back({"accumulate", std::string("auto")});
  else
    in.attrs.push_back({"accumulate", c.attr_int("accumulate", 0)});
  for (const char* flag : {"is_stationary_onezero", "is_moving_onezero", "is_transpose"})
    if (c.attr_bool(flag)) in.attrs.push_back({flag, int64_t{1}});
  if (!pos.empty()) {
    in.attrs.push_back({"tile_position", pos});
    in.attrs.push_back({"tile_size", size});
  }
  if (double_row) in.attrs.push_back({"perf_mode", perf});
  emit(cg, c, std::move(in));
}

} // namespace

void register_matmul_ops(Registry& r) {
  r.add("nc_matmul", nc_matmul);
}

} // namespace nki::isa
