#include "lang/math_common.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "ir/op_names.h"
#include "ir/target.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_math.h"

namespace nki::lang::math {

using namespace nki::ir;

// The operator and activation names are ir/op_names.h's (the one table).
std::string canonical_op(const std::string& name) {
  return ir::canonical_op(name);
}

bool is_binary_alu(const std::string& op) {
  auto a = ir::find_alu(op);
  return a && !ir::alu_is_unary(*a);
}

bool is_unary_alu(const std::string& op) {
  auto a = ir::find_alu(op);
  return a && ir::alu_is_unary(*a) && *a != ir::AluOp::Bypass;
}

bool is_bitvec(const std::string& op) {
  auto a = ir::find_alu(op);
  return a && ir::alu_is_bitvec(*a);
}

bool is_reduce_op(const std::string& op) {
  auto a = ir::find_alu(op);
  return a && ir::alu_is_reduce(*a);
}

bool is_activation_fn(const std::string& op) {
  return ir::find_activation(op).has_value();
}

int nc_version(const OpCall& c) {
  return static_cast<int>(c.attr_int("nc_version", 2));
}

const char* target_name(int v) {
  return ir::target_of_nc_version(v).name;
}

std::string op_attr(const OpCall& c, const std::string& key) {
  const util::Json& j = c.attrs[key];
  if (j.is_null()) return "";
  if (!j.is_string()) sema::err_expected_operator(key, c.api);
  return canonical_op(j.string());
}

std::string reduce_cmd_attr(const OpCall& c) {
  const util::Json& j = c.attrs["reduce_cmd"];
  if (j.is_null()) return "idle";
  if (j.is_string()) return j.string();
  static const char* kNames[] = {"idle", "reset", "reduce", "reset_reduce", "load_reduce"};
  int64_t v = c.attr_int("reduce_cmd", 0);
  if (v < 0 || v > 4) sema::err_unknown_reduce_cmd(v);
  return kNames[v];
}

std::vector<int64_t> affine_list(const AffineExpr& e) {
  std::vector<int64_t> out{e.constant()};
  for (const auto& [v, coeff] : e.terms()) {
    if (v.kind == VarKind::LoopIvMod || v.kind == VarKind::LoopIvDiv)
      sema::err_not_supported_yet("a loop variable modulo in this expression");
    out.push_back(v.kind == VarKind::LoopIv ? 0 : v.kind == VarKind::ProgramId ? 1 : 2);
    out.push_back(v.id);
    out.push_back(coeff);
  }
  return out;
}

std::string describe_param(const NeuronCodegen& cg, const std::string& param, ValueId v) {
  return sema::describe(param, shape_of(cg, v));
}

ValueId as_tile(NeuronCodegen& cg, ValueId v, const std::string& param, const std::string& api,
                Mem allowed) {
  require_memory(cg, v, param, api, allowed);
  check_is_tile(cg, v);
  const AccessPattern& ap = cg.value(v);
  if (ap.tile_shape.size() >= 2) return v;
  // `t[:, 0]` drops the free dimension; instructions read it as the (P, 1) column it is.
  AccessPattern col = ap;
  while (col.tile_shape.size() < 2) col.tile_shape.push_back(1);
  return cg.add_value(std::move(col));
}

ValueId tile_arg(NeuronCodegen& cg, const OpCall& c, const std::string& role, Mem allowed) {
  const ValueOrScalar& o = c.operand(role);
  if (o.is_scalar()) sema::err_expected_tile(role, c.api);
  return as_tile(cg, o.value, role, c.api, allowed);
}

void same_partitions(const NeuronCodegen& cg, const std::string& api,
                     const std::vector<std::pair<std::string, ValueId>>& params) {
  if (params.empty()) return;
  int64_t p = shape_of(cg, params[0].second)[0];
  for (const auto& [name, v] : params) {
    if (shape_of(cg, v)[0] == p) continue;
    std::string list;
    for (size_t i = 0; i < params.size(); ++i)
      list += (i ? ", " : "") + describe_param(cg, params[i].first, params[i].second);
    sema::err_num_partition_mismatch(list, api);
  }
}

void check_vector(const NeuronCodegen& cg, const std::string& api, const std::string& data_param,
                  ValueId data, const std::string& param, ValueId v) {
  const auto& s = shape_of(cg, v);
  if (free_size(s) != 1) sema::err_operand_not_vector(param, api, s);
  same_partitions(cg, api, {{data_param, data}, {param, v}});
}

bool in_psum(const NeuronCodegen& cg, ValueId v) {
  return tensor_of(cg, v).memory() == Memory::PSUM;
}

void check_psum_write(const NeuronCodegen& cg, ValueId v) {
  if (!in_psum(cg, v)) return;
  DType t = dtype_of(cg, v);
  if (dtype_size(t) != 4 && t != DType::BFloat16) sema::err_psum_write_dtype();
  if (t == DType::TFloat32) sema::err_psum_write_dtype();
}

void not_both_psum(const NeuronCodegen& cg, const std::string& api, ValueId a,
                   const std::string& b_param, ValueId b) {
  if (in_psum(cg, a) && in_psum(cg, b)) sema::err_unsupported_memory(b_param, api, "sbuf", "psum");
}

std::vector<int64_t> broadcast_shapes(const NeuronCodegen& cg, const std::string& api,
                                      const std::vector<std::pair<std::string, ValueId>>& params) {
  // Partitions are matched by the caller; free dimensions broadcast right-aligned (NumPy).
  size_t rank = 0;
  for (const auto& p : params) rank = std::max(rank, shape_of(cg, p.second).size());
  std::vector<int64_t> out(rank, 1);
  out[0] = shape_of(cg, params[0].second)[0];
  for (const auto& [name, v] : params) {
    const auto& s = shape_of(cg, v);
    size_t off = rank - s.size();
    for (size_t k = 1; k < s.size(); ++k) {
      int64_t& o = out[k + off];
      if (s[k] == o || s[k] == 1) continue;
      if (o != 1) {
        std::string list;
        for (size_t i = 0; i < params.size(); ++i)
          list += (i ? ", " : "") + describe_param(cg, params[i].first, params[i].second);
        sema::err_param_shape_incompatible_with_numpy(list, api);
      }
      o = s[k];
    }
  }
  return out;
}

namespace {

// `ap` read at the positions of a `shape` tile; `subst` maps its tile axes onto them. An
// indirect index is read at the same tile position, so it is re-indexed the same way.
AccessPattern broadcast_ap(const AccessPattern& ap, const std::vector<AffineExpr>& subst,
                           const std::vector<int64_t>& shape) {
  AccessPattern out;
  out.tensor = ap.tensor;
  out.tile_shape = shape;
  for (const AffineExpr& e : ap.index) out.index.push_back(e.substitute_tile_axes(subst));
  if (ap.indirect) {
    out.indirect = std::make_shared<const AccessPattern>(broadcast_ap(*ap.indirect, subst, shape));
    out.indirect_dim = ap.indirect_dim;
  }
  return out;
}

} // namespace

ValueId broadcast_to(NeuronCodegen& cg, ValueId v, const std::vector<int64_t>& shape) {
  const AccessPattern& ap = cg.value(v);
  if (ap.tile_shape == shape) return v;
  const auto& s = ap.tile_shape;
  size_t off = shape.size() - s.size();
  std::vector<AffineExpr> subst(s.size());
  for (size_t k = 0; k < s.size(); ++k) {
    size_t to = k == 0 ? 0 : k + off;
    bool repeat = s[k] == 1 && shape[to] != 1;
    subst[k] = repeat ? AffineExpr(0) : AffineExpr::var({VarKind::TileAxis, static_cast<int>(to)});
  }
  return cg.add_value(broadcast_ap(ap, subst, shape));
}

std::vector<int64_t> reduce_axes(const OpCall& c, size_t rank) {
  std::vector<int64_t> axes = c.attr_ints("axis");
  if (axes.empty()) sema::err_empty_axis();
  for (int64_t& a : axes) {
    int64_t given = a;
    if (a < 0) a += static_cast<int64_t>(rank);
    if (a < 0 || a >= static_cast<int64_t>(rank)) sema::err_axis_out_of_bounds(given, rank);
    if (a == 0) sema::err_reduction_on_partition_axis();
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

std::vector<int64_t> reduced_shape(const std::vector<int64_t>& shape,
                                   const std::vector<int64_t>& axes, bool keepdims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool reduced = std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) != axes.end();
    if (!reduced)
      out.push_back(shape[d]);
    else if (keepdims)
      out.push_back(1);
  }
  if (out.size() < 2) out.push_back(1);
  return out;
}

std::string derived_name(const std::string& name, const std::string& suffix) {
  return name.empty() ? "" : name + "_" + suffix;
}

} // namespace nki::lang::math
