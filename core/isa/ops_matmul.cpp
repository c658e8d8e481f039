// nisa.nc_matmul of the current language: dst (PSUM) first; accumulate=None is "auto" — the
// first write to a PSUM element overwrites it, later ones accumulate (the simulator tracks it
// per element); the dst dtype rules per NeuronCore generation. nc_matmul_mx and quantize_mx:
// NeuronCore-v4's MX (microscaling) forms, sim/exec_mx.cpp.
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

// --- MX (NeuronCore-v4): x4-packed fp8 / fp4 data with e8m0 scales --------------------------

bool x4_dtype(DType t) {
  return t == DType::Float8E5M2X4 || t == DType::Float8E4M3FNX4 || t == DType::Float4E2M1FNX4;
}

void need_dtype(const OpCall& c, const std::string& role, DType t, bool ok,
                const std::string& names) {
  if (!ok) sema::err_supported_operand_dtype(role, c.api, dtype_name(t), names);
}

// An MX data tile's partitions: a multiple of 32, at most 128.
void mx_partitions(const NeuronCodegen& cg, const OpCall& c, const std::string& role, ValueId v) {
  const auto& s = lang::shape_of(cg, v);
  if (s.empty() || s[0] % 32 != 0 || s[0] > 128)
    sema::err_isa_rule(c.api, "the partition size of " + role +
                                  " must be a multiple of 32, at most 128, " +
                                  sema::describe(role, s));
}

// A scale tile: float8_e8m0fnu or uint8, data's free size, its partitions reaching the last
// group's scale (partition 32q + r for data partitions 32q + 8r ...).
void mx_scale(const NeuronCodegen& cg, const OpCall& c, const std::string& role, ValueId scale,
              ValueId data) {
  DType t = lang::dtype_of(cg, scale);
  need_dtype(c, role, t, t == DType::Float8E8M0FNU || t == DType::UInt8, "float8_e8m0fnu, uint8");
  const auto& s = lang::shape_of(cg, scale);
  const auto& d = lang::shape_of(cg, data);
  const int64_t need = d[0] - 32 + 4;
  if (s.empty() || s[0] < need || lang::free_size(s) != lang::free_size(d))
    sema::err_isa_rule(c.api, role +
                                  " holds one scale per 8 partitions x 4 elements of the data: "
                                  "at least " +
                                  std::to_string(need) + " partitions of " +
                                  std::to_string(lang::free_size(d)) + " elements, " +
                                  sema::describe(role, s));
}

void quantize_mx(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 4) sema::err_min_arch_support_for_inst(c.api, "trn3", cg.options().target);
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), src = tile(cg, c, "src", Mem::Sbuf);
  ValueId scale = tile(cg, c, "dst_scale", Mem::Sbuf);
  DType st = lang::dtype_of(cg, src), dt = lang::dtype_of(cg, dst);
  need_dtype(c, "src", st, st == DType::Float16 || st == DType::BFloat16, "float16, bfloat16");
  need_dtype(c, "dst", dt, dt == DType::Float8E5M2X4 || dt == DType::Float8E4M3FNX4,
             "float8_e5m2_x4, float8_e4m3fn_x4");
  mx_partitions(cg, c, "src", src);
  const auto& ss = lang::shape_of(cg, src);
  const auto& ds = lang::shape_of(cg, dst);
  if (lang::free_size(ss) % 4 != 0 || ds[0] != ss[0] ||
      lang::free_size(ds) * 4 != lang::free_size(ss))
    sema::err_isa_rule(c.api, "dst has src's partitions and a quarter of its free size (four "
                              "values per x4 element): " +
                                  sema::describe("dst", ds) + " for " + sema::describe("src", ss));
  mx_scale(cg, c, "dst_scale", scale, dst);
  Instruction in = lang::make_inst("quantize_mx", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  lang::add_operand(cg, in, "dst_scale", scale);
  emit(cg, c, std::move(in));
}

void nc_matmul_mx(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 4) sema::err_min_arch_support_for_inst(c.api, "trn3", cg.options().target);
  ValueId dst = tile(cg, c, "dst", Mem::Psum);
  ValueId st = tile(cg, c, "stationary", Mem::Sbuf), mv = tile(cg, c, "moving", Mem::Sbuf);
  ValueId ss = tile(cg, c, "stationary_scale", Mem::Sbuf);
  ValueId ms = tile(cg, c, "moving_scale", Mem::Sbuf);
  for (auto [role, v] : {std::pair<const char*, ValueId>{"stationary", st}, {"moving", mv}}) {
    DType t = lang::dtype_of(cg, v);
    need_dtype(c, role, t, x4_dtype(t), "float8_e5m2_x4, float8_e4m3fn_x4, float4_e2m1fn_x4");
    mx_partitions(cg, c, role, v);
  }
  DType ot = lang::dtype_of(cg, dst);
  need_dtype(c, "dst", ot, ot == DType::Float32 || ot == DType::BFloat16, "float32, bfloat16");
  const auto& s = lang::shape_of(cg, st);
  const auto& m = lang::shape_of(cg, mv);
  const auto& o = lang::shape_of(cg, dst);
  if (s[0] != m[0])
    sema::err_isa_rule(c.api, "stationary and moving must have the same partition size, " +
                                  sema::describe("stationary", s) + ", " +
                                  sema::describe("moving", m));
  const int64_t mw = lang::free_size(s), nw = lang::free_size(m);
  if (mw % 2 != 0 || mw > 128)
    sema::err_isa_rule(c.api, "the free size of stationary must be even and at most 128, " +
                                  sema::describe("stationary", s));
  const int64_t nmax = ot == DType::Float32 ? 4096 : 8192;
  if (nw > nmax)
    sema::err_isa_rule(c.api, "the free size of moving must not exceed " + std::to_string(nmax) +
                                  " for a " + dtype_name(ot) + " dst, " +
                                  sema::describe("moving", m));
  if (o.empty() || o[0] != mw || lang::free_size(o) != nw)
    sema::err_isa_rule(c.api, "dst is (stationary's free size, moving's free size) = (" +
                                  std::to_string(mw) + ", " + std::to_string(nw) + "), " +
                                  sema::describe("dst", o));
  mx_scale(cg, c, "stationary_scale", ss, st);
  mx_scale(cg, c, "moving_scale", ms, mv);
  std::vector<int64_t> pos = c.attr_ints("tile_position"), size = c.attr_ints("tile_size");
  if (pos.empty() != size.empty())
    sema::err_isa_rule(c.api, "tile_position and tile_size must both be set to enable tiling");
  if (!size.empty()) {
    if (size.size() != 2 || pos.size() != 2 || size[1] != 128 ||
        (size[0] != 32 && size[0] != 64 && size[0] != 128) || pos[1] != 0 ||
        pos[0] % size[0] != 0 || pos[0] + size[0] > 128 || s[0] > size[0])
      sema::err_isa_rule(c.api, "row tiling: tile_size is (32, 64 or 128, 128), tile_position "
                                "(a multiple of the row size, 0), the stationary partitions "
                                "within the row size");
  }
  Instruction in = lang::make_inst("nc_matmul_mx", Engine::Tensor);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "stationary", st);
  lang::add_operand(cg, in, "moving", mv);
  lang::add_operand(cg, in, "stationary_scale", ss);
  lang::add_operand(cg, in, "moving_scale", ms);
  const util::Json& acc = c.attrs["accumulate"];
  if (acc.is_string())
    in.attrs.push_back({"accumulate", std::string("auto")});
  else
    in.attrs.push_back({"accumulate", c.attr_int("accumulate", 0)});
  if (!pos.empty()) {
    in.attrs.push_back({"tile_position", pos});
    in.attrs.push_back({"tile_size", size});
  }
  emit(cg, c, std::move(in));
}

} // namespace

void register_matmul_ops(Registry& r) {
  r.add("nc_matmul", nc_matmul);
  r.add("nc_matmul_mx", nc_matmul_mx);
  r.add("quantize_mx", quantize_mx);
}

} // namespace nki::isa
