// The Vector engine's 8-wide search instructions (nisa.max8, nc_find_index8, nc_match_replace8)
// and GpSimd's sequence_bounds.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/math_common.h"
#include "sema/sema.h"
#include "sema/sema_math.h"

namespace nki::lang {

using namespace nki::ir;
using namespace nki::lang::math;

namespace {

constexpr int64_t kSearchFmax = 16384;

void check_elements(const NeuronCodegen& cg, const OpCall& c, const std::string& param, ValueId v,
                    int64_t lo, int64_t hi) {
  int64_t n = free_size(shape_of(cg, v));
  if (n < lo || n > hi) sema::err_elements_per_partition(param, c.api, n, lo, hi);
}

ValueId handle_max8(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = tile_arg(cg, c, "src");
  check_elements(cg, c, "src", src, 8, kSearchFmax);
  const auto& s = shape_of(cg, src);
  Instruction in = make_inst("max8", Engine::Vector);
  in.mask = align_mask(c.mask, s.size());
  add_operand(cg, in, "src", src);
  return emit_result(cg, std::move(in), c.name, {s[0], 8}, c.dtype.value_or(dtype_of(cg, src)));
}

ValueId handle_find_index8(NeuronCodegen& cg, const OpCall& c) {
  ValueId data = tile_arg(cg, c, "data"), vals = tile_arg(cg, c, "vals");
  check_elements(cg, c, "data", data, 8, kSearchFmax);
  check_elements(cg, c, "vals", vals, 8, 8);
  same_partitions(cg, c.api, {{"data", data}, {"vals", vals}});
  DType t = c.dtype.value_or(DType::UInt32);
  if (t != DType::UInt16 && t != DType::UInt32)
    sema::err_instruction_supported_dtypes(c.api, "dtype", target_name(nc_version(c)),
                                           dtype_name(t), "uint16, uint32");
  const auto& s = shape_of(cg, data);
  Instruction in = make_inst("nc_find_index8", Engine::Vector);
  in.mask = align_mask(c.mask, s.size());
  add_operand(cg, in, "data", data);
  add_operand(cg, in, "vals", vals);
  return emit_result(cg, std::move(in), c.name, {s[0], 8}, t);
}

ValueId handle_match_replace8(NeuronCodegen& cg, const OpCall& c) {
  ValueId data = tile_arg(cg, c, "data"), vals = tile_arg(cg, c, "vals");
  check_elements(cg, c, "data", data, 1, kSearchFmax);
  check_elements(cg, c, "vals", vals, 8, 8);
  same_partitions(cg, c.api, {{"data", data}, {"vals", vals}});
  const ValueOrScalar& imm = c.operand("imm");
  if (!imm.is_scalar()) sema::err_expected_scalar("imm", c.api);
  const auto s = shape_of(cg, data);
  Instruction in = make_inst("nc_match_replace8", Engine::Vector);
  in.mask = align_mask(c.mask, s.size());
  add_operand(cg, in, "data", data);
  add_operand(cg, in, "vals", vals);
  add_scalar(in, "imm", imm.scalar);
  if (c.has("dst_idx")) {
    ValueId idx = tile_arg(cg, c, "dst_idx");
    same_partitions(cg, c.api, {{"data", data}, {"dst_idx", idx}});
    check_elements(cg, c, "dst_idx", idx, 8, 8);
    check_psum_write(cg, idx);
    add_operand(cg, in, "dst_idx", idx);
  }
  return emit_result(cg, std::move(in), c.name, s, c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_sequence_bounds(NeuronCodegen& cg, const OpCall& c) {
  ValueId ids = tile_arg(cg, c, "segment_ids", Mem::Sbuf); // GpSimd: no PSUM
  const auto& s = shape_of(cg, ids);
  if (s[0] != 1) sema::err_partition_size("segment_ids", c.api, 1, s[0]);
  DType in_t = dtype_of(cg, ids);
  for (DType t : {in_t, c.dtype.value_or(in_t)})
    if (t != DType::Float32 && t != DType::Int32)
      sema::err_instruction_supported_dtypes(c.api, t == in_t ? "segment_ids" : "dtype",
                                             target_name(nc_version(c)), dtype_name(t),
                                             "float32, int32");
  Instruction in = make_inst("sequence_bounds", Engine::GpSimd);
  add_operand(cg, in, "segment_ids", ids);
  return emit_result(cg, std::move(in), c.name, {1, 2, free_size(s)}, c.dtype.value_or(in_t));
}

} // namespace

void math::register_search_ops(OpRegistry& r) {
  r.add("max8", handle_max8);
  r.add("nc_find_index8", handle_find_index8);
  r.add("nc_match_replace8", handle_match_replace8);
  r.add("sequence_bounds", handle_sequence_bounds);
}

} // namespace nki::lang
