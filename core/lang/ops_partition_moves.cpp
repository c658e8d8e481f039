// Moves across or within groups of partitions: nisa.nc_stream_shuffle (Vector, 32-partition
// quadrants) and nisa.local_gather (GpSimd, 16-partition cores). docs/ops/movement.md.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

constexpr int64_t kQuadrant = 32;       ///< partitions a stream shuffle permutes at a time
constexpr int64_t kCorePartitions = 16; ///< partitions one GpSimd core reaches
constexpr int64_t kShuffleKeep = 255;   ///< shuffle_mask value: leave the partition unmodified

int64_t partitions(const NeuronCodegen& cg, ValueId v) {
  const auto& s = shape_of(cg, v);
  return s.empty() ? 1 : s[0];
}

ValueId handle_nc_stream_shuffle(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src"), dst = c.tile("dst");
  std::vector<int64_t> mask = check_stream_shuffle(cg, c, dst, src);
  Instruction in = make_inst("nc_stream_shuffle", Engine::Vector);
  in.mask = align_mask(c.mask, shape_of(cg, dst).size());
  add_operand(cg, in, "dst", dst);
  add_operand(cg, in, "src", src);
  in.attrs.push_back({"shuffle_mask", mask});
  emit_effect(cg, std::move(in));
  return -1;
}

ValueId handle_local_gather(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src_buffer"), index = c.tile("index");
  auto [per_idx, valid] = check_local_gather(cg, c, src, index);
  const int64_t p = partitions(cg, src);
  Instruction in = make_inst("local_gather", Engine::GpSimd);
  // NKI's result shape is not documented; its doc test annotates [P, n / 16, 16, per_idx]
  // for n valid indices (the core's 16 partitions as an axis); other counts stay flat.
  std::vector<int64_t> out =
      valid % kCorePartitions == 0
          ? std::vector<int64_t>{p, valid / kCorePartitions, kCorePartitions, per_idx}
          : std::vector<int64_t>{p, valid, per_idx};
  in.mask = align_mask(c.mask, out.size());
  add_operand(cg, in, "src_buffer", src);
  add_operand(cg, in, "index", index);
  in.attrs.push_back({"num_elem_per_idx", per_idx});
  in.attrs.push_back({"num_valid_indices", valid});
  return emit_result(cg, std::move(in), c.name, out, dtype_of(cg, src));
}

} // namespace

std::vector<int64_t> check_stream_shuffle(const NeuronCodegen& cg, const OpCall& c, ValueId dst,
                                          ValueId src) {
  require_memory(cg, src, "src", "nc_stream_shuffle", Mem::OnChip);
  require_memory(cg, dst, "dst", "nc_stream_shuffle", Mem::OnChip);
  check_is_tile(cg, src);
  check_is_tile(cg, dst);
  if (dtype_of(cg, dst) != dtype_of(cg, src))
    sema::err_supported_operand_dtype("dst", "nc_stream_shuffle", dtype_name(dtype_of(cg, dst)),
                                      dtype_name(dtype_of(cg, src)));
  const int64_t ps = partitions(cg, src), pd = partitions(cg, dst);
  if (free_size(shape_of(cg, src)) != free_size(shape_of(cg, dst)))
    sema::err_stream_shuffle_arg("dst " + described(cg, dst) +
                                 " must have as many elements per partition as src " +
                                 described(cg, src));
  if (!c.attrs.has("shuffle_mask") || !c.attrs["shuffle_mask"].is_array() ||
      c.attrs["shuffle_mask"].size() != static_cast<size_t>(kQuadrant))
    sema::err_stream_shuffle_arg("shuffle_mask must be a list of 32 integers");
  std::vector<int64_t> mask = c.attr_ints("shuffle_mask");
  for (size_t i = 0; i < mask.size(); ++i) {
    int64_t m = mask[i];
    if (m == kShuffleKeep) continue;
    if (m < 0 || m >= kQuadrant)
      sema::err_stream_shuffle_arg("shuffle_mask[" + std::to_string(i) +
                                   "] = " + std::to_string(m) +
                                   " is not a partition of a quadrant (0 to 31, or 255 to keep "
                                   "the partition unmodified)");
    // Every quadrant dst reaches reads the same offset of the same quadrant of src.
    for (int64_t q = 0; q * kQuadrant + static_cast<int64_t>(i) < pd; ++q)
      if (q * kQuadrant + m >= ps)
        sema::err_stream_shuffle_arg(
            "partition " + std::to_string(q * kQuadrant + static_cast<int64_t>(i)) +
            " of dst copies partition " + std::to_string(q * kQuadrant + m) + " of src " +
            described(cg, src) + ", which has " + std::to_string(ps) + " partitions");
  }
  return mask;
}

std::pair<int64_t, int64_t> check_local_gather(const NeuronCodegen& cg, const OpCall& c,
                                               ValueId src, ValueId index) {
  require_memory(cg, src, "src_buffer", "local_gather", Mem::Sbuf);
  require_memory(cg, index, "index", "local_gather", Mem::Sbuf);
  check_is_tile(cg, src);
  check_is_tile(cg, index);
  if (dtype_of(cg, index) != DType::UInt16)
    sema::err_supported_operand_dtype("index", "local_gather", dtype_name(dtype_of(cg, index)),
                                      "uint16");
  require_same_partitions(cg, "local_gather", {src, index});
  const int64_t p = partitions(cg, src);
  if (p % kCorePartitions != 0)
    sema::err_local_gather_arg("the partition size " + std::to_string(p) +
                               " of src_buffer and index must be a multiple of 16");
  const int64_t per_idx = c.attr_int("num_elem_per_idx", 1);
  if (per_idx != 1 && per_idx != 2 && per_idx != 4 && per_idx != 8 && per_idx != 16 &&
      per_idx != 32)
    sema::err_local_gather_arg("num_elem_per_idx must be one of 1, 2, 4, 8, 16, 32, got " +
                               std::to_string(per_idx));
  // Each core flattens its 16-partition slice of index: at most that many valid indices.
  const int64_t per_core = kCorePartitions * free_size(shape_of(cg, index));
  const int64_t valid = c.attr_int("num_valid_indices", per_core);
  if (valid < 1 || valid > per_core || valid > 4096)
    sema::err_local_gather_arg("num_valid_indices must be between 1 and " +
                               std::to_string(std::min<int64_t>(per_core, 4096)) +
                               " (the indices in a core's 16 partitions of index, at most "
                               "4096), got " +
                               std::to_string(valid));
  return {per_idx, valid};
}

void register_partition_move_ops(OpRegistry& r) {
  r.add("nc_stream_shuffle", handle_nc_stream_shuffle);
  r.add("local_gather", handle_local_gather);
}

} // namespace nki::lang
