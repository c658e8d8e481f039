// Matrix multiplication and transposes (nl.matmul, nisa.nc_matmul, nl.transpose,
// nisa.nc_transpose) and the folding of PSUM accumulation into nc_matmul. docs/ops/movement.md.
#include <algorithm>
#include <tuple>

#include "lang/call.h"
#include "lang/common.h"
#include "lang/decode.h"
#include "lang/movement.h"
#include "printer/printer.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

bool matmul_input_dtype(DType t) {
  switch (t) {
  case DType::Float8E4M3:
  case DType::Float8E5M2:
  case DType::BFloat16:
  case DType::Float16:
  case DType::TFloat32:
  case DType::Float32:
    return true;
  default:
    return false;
  }
}

void require_matmul_dtype(const NeuronCodegen& cg, ValueId v, const std::string& role,
                          const std::string& api) {
  DType t = dtype_of(cg, v);
  if (!matmul_input_dtype(t))
    sema::err_supported_operand_dtype(role, api, dtype_name(t),
                                      "float8_e4m3, float8_e5m2, bfloat16, float16, tfloat32, "
                                      "float32");
}

void require_dims(const NeuronCodegen& cg, ValueId v, const std::string& api, size_t max_rank) {
  if (shape_of(cg, v).size() > max_rank)
    sema::err_exceed_max_supported_dimension(described(cg, v), api, max_rank);
}

void require_dim_at_most(const NeuronCodegen& cg, ValueId v, size_t dim, int64_t limit,
                         const std::string& api) {
  const auto& s = shape_of(cg, v);
  if (dim < s.size() && s[dim] > limit)
    sema::err_size_of_dimension_exceed_arch_limit(dim, described(cg, v), api, limit);
}

// An operand mask (`x[i_f < 64]`, aligned to the operand's own axes) re-expressed on the
// result tile: operand axis `from` becomes result axis `to`. A mask on the contraction axis has
// no counterpart in the result.
Predicate operand_mask_on_result(const MaskSpec& m, size_t rank, int from, int to) {
  Predicate p = align_mask(m, rank);
  std::vector<AffineExpr> subst(rank, AffineExpr(0));
  subst[from] = AffineExpr::var({VarKind::TileAxis, to});
  for (Comparison& cmp : p.terms) {
    for (const AffineExpr* e : {&cmp.lhs, &cmp.rhs})
      for (const auto& [v, c] : e->terms())
        if (v.kind == VarKind::TileAxis && v.id != from)
          sema::err_not_supported_yet("an operand mask on the contraction axis of a matmul "
                                      "operand");
    cmp.lhs = cmp.lhs.substitute_tile_axes(subst);
    cmp.rhs = cmp.rhs.substitute_tile_axes(subst);
  }
  return p;
}

struct MatmulSpec {
  std::string api;
  ValueId stationary = -1, moving = -1;
  std::string stationary_role = "stationary", moving_role = "moving";
  MaskSpec mask;               ///< mask=, on the result tile
  Predicate stationary_bounds; ///< operand masks on the operands' own axes (bounds checks)
  Predicate moving_bounds;
  Predicate operand_masks; ///< the operand masks moved onto the result tile
  std::string perf_mode;
  std::vector<std::pair<std::string, AttrValue>> attrs;
  std::string name;
};

void add_operand_mask(MatmulSpec& s, const MaskSpec& m, const NeuronCodegen& cg, ValueId v,
                      int from, int to, bool stationary) {
  if (m.empty()) return;
  size_t rank = shape_of(cg, v).size();
  (stationary ? s.stationary_bounds : s.moving_bounds) = align_mask(m, rank);
  for (const Comparison& t : operand_mask_on_result(m, rank, from, to).terms)
    s.operand_masks.terms.push_back(t);
}

// Emits one nc_matmul: stationary [K, M] and moving [K, N...] in SBUF → PSUM fp32 [M, N...]
// (perf_mode double_row: [K, 2, M] x [K, 2, N] → [M, N]).
ValueId emit_matmul(NeuronCodegen& cg, const MatmulSpec& s) {
  const std::string& api = s.api;
  bool double_row = s.perf_mode.rfind("double_row", 0) == 0;
  for (auto [v, role] : {std::pair{s.stationary, s.stationary_role}, {s.moving, s.moving_role}}) {
    require_memory(cg, v, role, api, Mem::Sbuf);
    check_is_tile(cg, v);
    check_tile(tensor_of(cg, v).name, shape_of(cg, v));
    require_matmul_dtype(cg, v, role, api);
  }
  require_same_partitions(cg, api, {s.stationary, s.moving});
  const auto& ss = shape_of(cg, s.stationary);
  const auto& ms = shape_of(cg, s.moving);
  std::vector<int64_t> out;
  if (double_row) {
    for (auto [v, role] : {std::pair{s.stationary, s.stationary_role}, {s.moving, s.moving_role}})
      if (shape_of(cg, v).size() != 3 || shape_of(cg, v)[1] != 2)
        sema::err_perf_mode_operand_shape(s.perf_mode, api, role, described(cg, v));
    require_dim_at_most(cg, s.stationary, 2, kGemmStationaryFmax, api);
    require_dim_at_most(cg, s.moving, 2, kGemmMovingFmax, api);
    out = {ss[2], ms[2]};
  } else {
    require_dims(cg, s.stationary, api, 2);
    if (free_size(ss) > kGemmStationaryFmax)
      sema::err_size_of_dimension_exceed_arch_limit(1, described(cg, s.stationary), api,
                                                    kGemmStationaryFmax);
    if (free_size(ms) > kGemmMovingFmax)
      sema::err_size_of_dimension_exceed_arch_limit(1, described(cg, s.moving), api,
                                                    kGemmMovingFmax);
    out.push_back(ss[1]);
    out.insert(out.end(), ms.begin() + 1, ms.end());
  }

  Instruction in = make_inst("nc_matmul", Engine::Tensor);
  in.mask = s.stationary_bounds;
  add_operand(cg, in, "stationary", s.stationary);
  in.mask = s.moving_bounds;
  add_operand(cg, in, "moving", s.moving);
  in.mask = align_mask(s.mask, out.size());
  if (!s.operand_masks.empty() && (double_row || ms.size() != 2))
    sema::err_not_supported_yet("operand masks on matmul operands with more than one free axis");
  for (const Comparison& t : s.operand_masks.terms) in.mask.terms.push_back(t);
  in.attrs = s.attrs;
  return emit_result(cg, std::move(in), s.name, out, DType::Float32, Buffer::Psum);
}

// tile_position / tile_size: a PE-array tile [rows, cols] at (row, col), multiples of 32. A
// position may be an expression of loop variables ((i % 2) * 64, as NKI's doc tests write it):
// every value it takes is checked, and the IR prints the expression.
struct PeCoord {
  int64_t lo = 0, hi = 0; ///< the values it takes, over the loops' ranges
  bool aligned = true;    ///< every value a multiple of 32
  AffineExpr expr;
};

std::vector<PeCoord> pe_coords(const NeuronCodegen& cg, const OpCall& c, const std::string& key) {
  const util::Json& j = c.attrs[key];
  std::vector<PeCoord> out;
  if (j.is_null()) return out;
  if (!j.is_array()) sema::err_matmul_pe_tile("both must be given as (row, column) pairs");
  for (const util::Json& x : j.array()) {
    PeCoord p;
    if (x.is_object()) {
      p.expr = decode_expr(x).expr;
      std::tie(p.lo, p.hi) = cg.range_of(p.expr, {});
      p.aligned = p.expr.constant() % 32 == 0;
      for (const auto& [v, coeff] : p.expr.terms()) p.aligned = p.aligned && coeff % 32 == 0;
    } else {
      p.lo = p.hi = c.integer_of(x, key);
      p.expr = AffineExpr(p.lo);
      p.aligned = p.lo % 32 == 0;
    }
    out.push_back(p);
  }
  return out;
}

void check_pe_tile(const NeuronCodegen& cg, const std::vector<PeCoord>& pos,
                   const std::vector<int64_t>& size, ValueId stationary) {
  if (pos.empty() && size.empty()) return;
  if (pos.size() != 2 || size.size() != 2)
    sema::err_matmul_pe_tile("both must be given as (row, column) pairs");
  for (int i = 0; i < 2; ++i) {
    if (pos[i].lo < 0 || !pos[i].aligned || size[i] <= 0 || size[i] % 32)
      sema::err_matmul_pe_tile("positions and sizes are multiples of 32");
    if (pos[i].hi + size[i] > kPmax)
      sema::err_matmul_pe_tile("the tile must lie within the 128 x 128 PE array");
  }
  const auto& ss = shape_of(cg, stationary);
  if (ss[0] > size[0] || free_size(ss) > size[1])
    sema::err_matmul_pe_tile("the stationary tile '" + described(cg, stationary) +
                             "' does not fit a PE tile of " + std::to_string(size[0]) + " x " +
                             std::to_string(size[1]));
}

// tile_position as an attribute: integers, or the expressions' text when one is symbolic.
AttrValue pe_position_attr(const NeuronCodegen& cg, const std::vector<PeCoord>& pos) {
  bool constant =
      std::all_of(pos.begin(), pos.end(), [](const PeCoord& p) { return p.expr.is_constant(); });
  if (constant) {
    std::vector<int64_t> v;
    for (const PeCoord& p : pos) v.push_back(p.lo);
    return v;
  }
  std::string text = "[";
  for (size_t i = 0; i < pos.size(); ++i)
    text += (i ? ", " : "") + printer::format_expr(cg.kernel(), pos[i].expr, 0);
  return text + "]";
}

ValueId handle_nc_matmul(NeuronCodegen& cg, const OpCall& c) {
  MatmulSpec s;
  s.api = "nc_matmul";
  s.stationary = c.tile("stationary");
  s.moving = c.tile("moving");
  s.mask = c.mask;
  add_operand_mask(s, operand_mask(c, "stationary"), cg, s.stationary, 1, 0, true);
  add_operand_mask(s, operand_mask(c, "moving"), cg, s.moving, 1, 1, false);
  s.perf_mode = c.attr_string("perf_mode", "");
  if (s.perf_mode == "none") s.perf_mode.clear();
  s.name = c.name;
  for (const char* flag : {"is_stationary_onezero", "is_moving_onezero", "is_transpose"})
    if (c.attr_bool(flag)) s.attrs.push_back({flag, int64_t{1}});
  auto pos = pe_coords(cg, c, "tile_position");
  auto size = c.attr_ints("tile_size");
  check_pe_tile(cg, pos, size, s.stationary);
  if (!pos.empty()) s.attrs.push_back({"tile_position", pe_position_attr(cg, pos)});
  if (!size.empty()) s.attrs.push_back({"tile_size", size});
  if (!s.perf_mode.empty()) s.attrs.push_back({"perf_mode", s.perf_mode});
  return emit_matmul(cg, s);
}

// A PF-transpose. TensorE: an identity matmul, SBUF ≤ 128 x 128 → PSUM. VectorE: ≤ 32 x 32,
// SBUF/PSUM → SBUF. Free axes are collapsed (row-major) into one.
ValueId emit_transpose(NeuronCodegen& cg, const std::string& api, ValueId x, Engine engine,
                       const Predicate& mask, const std::string& name) {
  const auto& xs = shape_of(cg, x);
  int64_t limit = engine == Engine::Vector ? 32 : kPmax;
  if (xs[0] > limit) sema::err_size_of_dimension_exceed_arch_limit(0, described(cg, x), api, limit);
  if (free_size(xs) > limit)
    sema::err_size_of_dimension_exceed_arch_limit(1, described(cg, x), api, limit);
  if (engine == Engine::Tensor) {
    require_memory(cg, x, "data", api, Mem::Sbuf);
  } else {
    require_memory(cg, x, "data", api, Mem::OnChip);
  }
  Instruction in = make_inst("nc_transpose", engine);
  add_operand(cg, in, "data", x);
  in.mask = mask;
  return emit_result(cg, std::move(in), name, {free_size(xs), xs[0]}, dtype_of(cg, x),
                     engine == Engine::Tensor ? Buffer::Psum : Buffer::Sbuf);
}

ValueId copy_to_sbuf(NeuronCodegen& cg, ValueId v, DType dtype, const std::string& name,
                     const Predicate& mask = {}) {
  Instruction in = make_inst("tensor_copy", Engine::Vector);
  in.mask = mask;
  add_operand(cg, in, "src", v);
  return emit_result(cg, std::move(in), name, shape_of(cg, v), dtype, Buffer::Sbuf);
}

std::string tmp_name(const NeuronCodegen& cg, ValueId v, const std::string& suffix) {
  return tensor_of(cg, v).name + suffix;
}

ValueId handle_nc_transpose(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("data");
  check_is_tile(cg, x);
  const auto& xs = shape_of(cg, x);
  Engine engine = engine_attr(c);
  if (engine == Engine::None)
    engine = xs[0] <= 32 && free_size(xs) <= 32 ? Engine::Vector : Engine::Tensor;
  if (engine != Engine::Tensor && engine != Engine::Vector)
    sema::err_engine_cannot_run("nc_transpose", "Tensor or Vector", engine_name(engine));
  Predicate mask = align_mask(c.mask, 2);
  bool cast = c.dtype && *c.dtype != dtype_of(cg, x);
  ValueId t = emit_transpose(cg, "nc_transpose", x, engine, cast ? Predicate{} : mask,
                             cast ? tmp_name(cg, x, "_T") : c.name);
  if (!cast) return t;
  return copy_to_sbuf(cg, t, *c.dtype, c.name, mask);
}

ValueId handle_transpose(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  require_memory(cg, x, "x", "transpose", Mem::OnChip);
  check_is_tile(cg, x);
  require_dims(cg, x, "transpose", 2);
  require_dim_at_most(cg, x, 0, kPmax, "transpose");
  require_dim_at_most(cg, x, 1, kPmax, "transpose");
  const auto& xs = shape_of(cg, x);
  DType dtype = c.dtype.value_or(dtype_of(cg, x));
  Predicate mask = align_mask(c.mask, 2);
  if (xs[0] <= 32 && xs[1] <= 32) {
    ValueId t = emit_transpose(cg, "transpose", x, Engine::Vector,
                               dtype == dtype_of(cg, x) ? mask : Predicate{},
                               dtype == dtype_of(cg, x) ? c.name : tmp_name(cg, x, "_T"));
    return dtype == dtype_of(cg, x) ? t : copy_to_sbuf(cg, t, dtype, c.name, mask);
  }
  // TensorE reads SBUF only: a PSUM input is evicted first; its PSUM result is evicted after.
  ValueId src = x;
  if (tensor_of(cg, x).memory() == Memory::PSUM)
    src = copy_to_sbuf(cg, x, dtype_of(cg, x), tmp_name(cg, x, "_sbuf"));
  ValueId t = emit_transpose(cg, "transpose", src, Engine::Tensor, {}, tmp_name(cg, x, "_T_psum"));
  return copy_to_sbuf(cg, t, dtype, c.name, mask);
}

ValueId handle_matmul(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x"), y = c.tile("y");
  bool transpose_x = c.attr_bool("transpose_x");
  for (auto [v, role] : {std::pair{x, "x"}, {y, "y"}}) {
    require_memory(cg, v, role, "matmul", Mem::Sbuf);
    check_is_tile(cg, v);
    require_dims(cg, v, "matmul", 2);
  }
  const auto& xs = shape_of(cg, x);
  const auto& ys = shape_of(cg, y);
  // x is [K, M] (transpose_x) or [M, K]: both dims ≤ 128; y is [K, N] with N ≤ 512.
  require_dim_at_most(cg, x, 0, kPmax, "matmul");
  require_dim_at_most(cg, x, 1, kGemmStationaryFmax, "matmul");
  require_dim_at_most(cg, y, 0, kPmax, "matmul");
  require_dim_at_most(cg, y, 1, kGemmMovingFmax, "matmul");
  int64_t k = transpose_x ? xs[0] : xs[1];
  if (k != ys[0])
    sema::err_param_shape_incompatible_with_matmul(described(cg, x) + ", " + described(cg, y),
                                                   "matmul", transpose_x);
  MatmulSpec s;
  s.api = "matmul";
  s.stationary_role = "x";
  s.moving_role = "y";
  s.mask = c.mask;
  s.name = c.name;
  s.moving = y;
  if (transpose_x) {
    s.stationary = x;
    add_operand_mask(s, operand_mask(c, "x"), cg, x, 1, 0, true);
  } else {
    // matmul(x, y) is nc_matmul(transpose(x), y): a TensorE transpose into PSUM, evicted to
    // SBUF for the matmul. A mask on x's rows (axis 0) masks the result's rows.
    Predicate xm = operand_mask_on_result(operand_mask(c, "x"), xs.size(), 0, 0);
    for (const Comparison& t : xm.terms) s.operand_masks.terms.push_back(t);
    require_matmul_dtype(cg, x, "x", "matmul");
    ValueId t = emit_transpose(cg, "matmul", x, Engine::Tensor, {}, tmp_name(cg, x, "_T_psum"));
    s.stationary = copy_to_sbuf(cg, t, dtype_of(cg, x), tmp_name(cg, x, "_T"));
  }
  add_operand_mask(s, operand_mask(c, "y"), cg, y, 1, 1, false);
  return emit_matmul(cg, s);
}

/// The tensor whose memory `t` is (a reshaped or bitcast view names its base).
TensorId storage_of(const Kernel& k, TensorId t) {
  TensorId base = k.tensor(t).alias_of;
  return base == kNone ? t : base;
}

/// Whether `in` reads the memory `dst` names through another pattern (`a[:, 1:4] = a[:, 0:3] +
/// 1`): writing `dst` while reading it shifted would read elements it already overwrote, so
/// such an assignment keeps its temporary and copy. Reading exactly `dst` (`a[...] = a * 2`)
/// is element-wise in place and safe.
bool reads_overlapping(const NeuronCodegen& cg, const Instruction& in, const AccessPattern& dst) {
  const Kernel& k = cg.kernel();
  TensorId target = storage_of(k, dst.tensor);
  for (const Operand& op : in.operands) {
    if (op.is_scalar || op.ap.tensor == kNone || storage_of(k, op.ap.tensor) != target) continue;
    bool same = op.ap.tensor == dst.tensor && op.ap.index == dst.index &&
                op.ap.tile_shape == dst.tile_shape && !op.ap.indirect && !dst.indirect;
    if (!same) return true;
  }
  return false;
}

bool attr_is_set(const Instruction& in, const std::string& key) {
  for (const auto& [k, v] : in.attrs)
    if (k == key) return true;
  return false;
}

} // namespace

bool fold_into_destination(NeuronCodegen& cg, ValueId dst, ValueId src,
                           const std::string& accumulate) {
  Instruction* in = cg.builder.last_inst();
  if (!in || in->result == kNone || cg.value(src).tensor != in->result) return false;
  const Tensor& st = tensor_of(cg, src);
  if (!cg.value(src).is_identity(st)) return false;
  // The engines' compute instructions write any on-chip tile they are given: `a[...] =
  // nl.exp(x)` is one activation into `a` (converting to a's dtype on the way out), as NKI
  // emits it, not an activation into a temporary and a copy.
  static const char* const kFoldable[] = {"nc_matmul",
                                          "nc_transpose",
                                          "tensor_copy",
                                          "broadcast_to",
                                          "tensor_copy_dynamic_src",
                                          "load",
                                          "tensor_tensor",
                                          "tensor_scalar",
                                          "scalar_tensor_tensor",
                                          "activation",
                                          "reciprocal",
                                          "tensor_reduce",
                                          "iota",
                                          "select",
                                          "memset"};
  if (std::find(std::begin(kFoldable), std::end(kFoldable), in->opcode) == std::end(kFoldable))
    return false;
  const Tensor& dt = tensor_of(cg, dst);
  Memory dm = dt.memory();
  if (dm == Memory::HBM || shape_of(cg, dst) != shape_of(cg, src) || cg.value(dst).indirect)
    return false;
  if (reads_overlapping(cg, *in, cg.value(dst))) return false;
  bool matmul = in->opcode == "nc_matmul";
  if (!accumulate.empty() && (accumulate != "add" || !matmul || dm != Memory::PSUM)) return false;
  if (in->engine == Engine::Tensor && dm != Memory::PSUM) return false; // TensorE writes PSUM
  if (in->engine == Engine::GpSimd && dm == Memory::PSUM) return false;
  if (in->engine == Engine::Dma && dm != Memory::SBUF) return false; // nl.load fills SBUF
  if (dm == Memory::PSUM) {
    bool transpose = in->opcode == "nc_transpose" || attr_is_set(*in, "is_transpose");
    bool four_byte = dtype_size(dt.dtype) == 4 && dt.dtype != DType::TFloat32;
    if (!four_byte && !(transpose && dt.dtype == DType::BFloat16))
      sema::err_psum_write_dtype(transpose);
  }
  require_visible(cg, dst);
  Operand o;
  o.role = "dst";
  o.ap = cg.value(dst);
  check_bounds(cg, o.ap, in->mask);
  in->operands.push_back(std::move(o));
  in->result = kNone;
  if (matmul) in->attrs.push_back({"accumulate", int64_t{accumulate.empty() ? 0 : 1}});
  return true;
}

void register_matmul_ops(OpRegistry& r) {
  r.add("matmul", handle_matmul);
  r.add("nc_matmul", handle_nc_matmul);
  r.add("transpose", handle_transpose);
  r.add("nc_transpose", handle_nc_transpose);
}

} // namespace nki::lang
