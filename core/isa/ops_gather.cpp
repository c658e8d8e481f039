// Moves and searches across partitions or along them, dst first: nc_stream_shuffle and
// local_gather (Beta 1's checks and executors), nc_n_gather, nonzero_with_count, topk.
// docs/current-language.md, "The nki.isa instructions".
#include "isa/isa.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_current.h"
#include "sema/sema_math.h"
#include "sema/sema_movement.h"

namespace nki::isa {

using namespace nki::ir;

namespace {

const std::vector<int64_t>& shape(const NeuronCodegen& cg, ValueId v) {
  return lang::shape_of(cg, v);
}

int64_t parts(const NeuronCodegen& cg, ValueId v) {
  return shape(cg, v).empty() ? 1 : shape(cg, v)[0];
}

void need_dtype(const NeuronCodegen& cg, const OpCall& c, const std::string& role, ValueId v,
                std::initializer_list<DType> ok, const std::string& names) {
  DType t = lang::dtype_of(cg, v);
  for (DType d : ok)
    if (t == d) return;
  sema::err_supported_operand_dtype(role, c.api, dtype_name(t), names);
}

void need_same_partitions(const NeuronCodegen& cg, const OpCall& c, const std::string& a_role,
                          ValueId a, const std::string& b_role, ValueId b) {
  if (parts(cg, a) != parts(cg, b))
    sema::err_isa_rule(c.api, a_role + " and " + b_role + " must have the same partition size: " +
                                  sema::describe(a_role, shape(cg, a)) + ", " +
                                  sema::describe(b_role, shape(cg, b)));
}

void nc_stream_shuffle(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = c.tile("dst"), src = c.tile("src");
  std::vector<int64_t> mask = lang::check_stream_shuffle(cg, c, dst, src);
  Instruction in = lang::make_inst("nc_stream_shuffle", Engine::Vector);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  in.attrs.push_back({"shuffle_mask", mask});
  emit(cg, c, std::move(in));
}

// dst holds num_valid_indices runs of num_elem_per_idx elements per partition, in src's dtype.
void local_gather(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf);
  ValueId src = c.tile("src_buffer"), index = c.tile("index");
  auto [per_idx, valid] = lang::check_local_gather(cg, c, src, index);
  need_same_partitions(cg, c, "dst", dst, "src_buffer", src);
  if (lang::free_size(shape(cg, dst)) != valid * per_idx)
    sema::err_isa_rule(c.api, "dst holds num_valid_indices * num_elem_per_idx = " +
                                  std::to_string(valid * per_idx) + " elements per partition, " +
                                  sema::describe("dst", shape(cg, dst)));
  if (lang::dtype_of(cg, dst) != lang::dtype_of(cg, src))
    sema::err_supported_operand_dtype("dst", c.api, dtype_name(lang::dtype_of(cg, dst)),
                                      dtype_name(lang::dtype_of(cg, src)));
  Instruction in = lang::make_inst("local_gather", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src_buffer", src);
  lang::add_operand(cg, in, "index", index);
  in.attrs.push_back({"num_elem_per_idx", per_idx});
  in.attrs.push_back({"num_valid_indices", valid});
  emit(cg, c, std::move(in));
}

void nc_n_gather(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), data = tile(cg, c, "data", Mem::Sbuf);
  ValueId idx = tile(cg, c, "indices", Mem::Sbuf);
  need_dtype(cg, c, "indices", idx, {DType::UInt32}, "uint32");
  if (lang::dtype_of(cg, dst) != lang::dtype_of(cg, data))
    sema::err_supported_operand_dtype("dst", c.api, dtype_name(lang::dtype_of(cg, dst)),
                                      dtype_name(lang::dtype_of(cg, data)));
  need_same_partitions(cg, c, "dst", dst, "data", data);
  need_same_partitions(cg, c, "dst", dst, "indices", idx);
  if (parts(cg, dst) > 128)
    sema::err_isa_rule(c.api, "the partition size must not exceed 128, " +
                                  sema::describe("dst", shape(cg, dst)));
  if (lang::free_size(shape(cg, dst)) != lang::free_size(shape(cg, idx)))
    sema::err_isa_layout_mismatch(c.api, sema::describe("dst", shape(cg, dst)),
                                  sema::describe("indices", shape(cg, idx)));
  Instruction in = lang::make_inst("nc_n_gather", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "data", data);
  lang::add_operand(cg, in, "indices", idx);
  emit(cg, c, std::move(in));
}

void nonzero_with_count(NeuronCodegen& cg, const OpCall& c) {
  if (nc_version(cg) < 3) sema::err_min_arch_support_for_inst(c.api, "trn2", cg.options().target);
  ValueId dst = tile(cg, c, "dst", Mem::Sbuf), src = tile(cg, c, "src", Mem::Sbuf);
  need_dtype(cg, c, "src", src, {DType::Float32, DType::Int32}, "float32, int32");
  need_dtype(cg, c, "dst", dst, {DType::Int32}, "int32");
  need_same_partitions(cg, c, "dst", dst, "src", src);
  if (lang::free_size(shape(cg, dst)) != lang::free_size(shape(cg, src)) + 1)
    sema::err_isa_rule(c.api, "dst must have exactly one more element per partition than src "
                              "(the count): " +
                                  sema::describe("dst", shape(cg, dst)) + ", " +
                                  sema::describe("src", shape(cg, src)));
  Instruction in = lang::make_inst("nonzero_with_count", Engine::GpSimd);
  lang::add_operand(cg, in, "dst", dst);
  lang::add_operand(cg, in, "src", src);
  in.attrs.push_back({"index_offset", c.attr_int("index_offset", 0)});
  in.attrs.push_back({"padding_val", c.attr_int("padding_val", -1)});
  emit(cg, c, std::move(in));
}

void topk(NeuronCodegen& cg, const OpCall& c) {
  ValueId val = tile(cg, c, "val_dst", Mem::Sbuf), idx = tile(cg, c, "idx_dst", Mem::Sbuf);
  ValueId src = tile(cg, c, "src", Mem::Sbuf);
  need_dtype(cg, c, "src", src, {DType::BFloat16}, "bfloat16");
  need_dtype(cg, c, "val_dst", val, {DType::BFloat16}, "bfloat16");
  need_dtype(cg, c, "idx_dst", idx, {DType::UInt32}, "uint32");
  if (shape(cg, val) != shape(cg, idx))
    sema::err_isa_layout_mismatch(c.api, sema::describe("val_dst", shape(cg, val)),
                                  sema::describe("idx_dst", shape(cg, idx)));
  need_same_partitions(cg, c, "val_dst", val, "src", src);
  if (parts(cg, src) % 16 != 0)
    sema::err_isa_rule(c.api, "the partition size must be a multiple of 16, " +
                                  sema::describe("src", shape(cg, src)));
  const int64_t n = c.attr_int("n", 0), k = lang::free_size(shape(cg, val));
  if (n < 8 || n >= 65536)
    sema::err_isa_rule(c.api, "n must be in [8, 65536), got " + std::to_string(n));
  if (k < 1 || k >= 32768 || k > n)
    sema::err_isa_rule(c.api, "K (val_dst's free size) must be in [1, 32768) and at most n = " +
                                  std::to_string(n) + ", got " + std::to_string(k));
  if (lang::free_size(shape(cg, src)) * 16 < n)
    sema::err_isa_rule(
        c.api, "src's free size must be at least ceil(n / 16) = " + std::to_string((n + 15) / 16) +
                   ", " + sema::describe("src", shape(cg, src)));
  Instruction in = lang::make_inst("topk", Engine::GpSimd);
  lang::add_operand(cg, in, "val_dst", val);
  lang::add_operand(cg, in, "idx_dst", idx);
  lang::add_operand(cg, in, "src", src);
  in.attrs.push_back({"n", n});
  emit(cg, c, std::move(in));
}

} // namespace

void register_gather_ops(Registry& r) {
  r.add("nc_stream_shuffle", nc_stream_shuffle);
  r.add("local_gather", local_gather);
  r.add("nc_n_gather", nc_n_gather);
  r.add("nonzero_with_count", nonzero_with_count);
  r.add("topk", topk);
}

} // namespace nki::isa
