// Data movement: on-chip copies (nl.copy, nisa.tensor_copy, dynamic-offset copies), DMA
// (nisa.dma_copy, nl.load_transpose2d, nisa.dma_transpose, nl.atomic_rmw) and
// nl.gather_flattened. docs/ops/movement.md.
#include "lang/call.h"
#include "lang/common.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

MaskSpec operand_mask(const OpCall& c, const std::string& role) {
  return decode_mask(c.attrs[role + "_mask"]);
}

namespace {

std::string shape_list(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

void require_hbm_or_sbuf(const NeuronCodegen& cg, ValueId v, const std::string& operand,
                         const std::string& api) {
  Memory m = tensor_of(cg, v).memory();
  if (m == Memory::PSUM) sema::err_unsupported_memory(operand, api, "hbm|sbuf", memory_name(m));
}

void require_writable(const NeuronCodegen& cg, ValueId v) {
  const Tensor& t = tensor_of(cg, v);
  if (t.role == TensorRole::Param && !t.mutable_param)
    sema::err_cannot_update_immutable_parameter(t.name);
}

void require_no_indirect(const NeuronCodegen& cg, ValueId v) {
  if (cg.value(v).indirect)
    sema::err_indirect_indices_are_not_supported_with_nki_api(described(cg, v));
}

// The engine of an on-chip copy: engine= or Vector; GpSimd cannot reach PSUM, TensorE and
// DMA do not run tensor_copy.
Engine copy_engine(const NeuronCodegen& cg, const OpCall& c, const std::string& api,
                   const std::vector<std::pair<ValueId, std::string>>& operands) {
  Engine e = engine_attr(c);
  if (e == Engine::None) e = Engine::Vector;
  if (e != Engine::Vector && e != Engine::Scalar && e != Engine::GpSimd)
    sema::err_engine_cannot_run(api, "Vector, Scalar or GpSimd", engine_name(e));
  for (const auto& [v, role] : operands)
    require_memory(cg, v, role, api, e == Engine::GpSimd ? Mem::Sbuf : Mem::OnChip);
  return e;
}

ValueId copy_op(NeuronCodegen& cg, const OpCall& c, const std::string& opcode, Engine engine,
                ValueId src) {
  check_is_tile(cg, src);
  Instruction in = make_inst(opcode, engine);
  in.mask = align_mask(c.mask, shape_of(cg, src).size());
  add_operand(cg, in, "src", src);
  return emit_result(cg, std::move(in), c.name, shape_of(cg, src),
                     c.dtype.value_or(dtype_of(cg, src)));
}

ValueId handle_copy(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  require_memory(cg, src, "src", "copy", Mem::OnChip);
  return copy_op(cg, c, "tensor_copy", Engine::Vector, src);
}

ValueId handle_tensor_copy(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  return copy_op(cg, c, "tensor_copy", copy_engine(cg, c, "tensor_copy", {{src, "src"}}), src);
}

ValueId handle_tensor_copy_dynamic_src(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  Engine e = copy_engine(cg, c, "tensor_copy_dynamic_src", {{src, "src"}});
  return copy_op(cg, c, "tensor_copy_dynamic_src", e, src);
}

ValueId handle_tensor_copy_dynamic_dst(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = c.tile("dst"), src = c.tile("src");
  Engine e = copy_engine(cg, c, "tensor_copy_dynamic_dst", {{dst, "dst"}, {src, "src"}});
  check_is_tile(cg, src);
  if (elements(shape_of(cg, dst)) != elements(shape_of(cg, src)))
    sema::err_tiled_offloaded_memcpy_same_shape(shape_list(shape_of(cg, src)),
                                                shape_list(shape_of(cg, dst)));
  Instruction in = make_inst("tensor_copy_dynamic_dst", e);
  in.mask = align_mask(c.mask, shape_of(cg, dst).size());
  add_operand(cg, in, "dst", dst);
  add_operand(cg, in, "src", src);
  emit_effect(cg, std::move(in));
  return -1;
}

ValueId handle_dma_copy(NeuronCodegen& cg, const OpCall& c) {
  ValueId dst = c.tile("dst"), src = c.tile("src");
  require_hbm_or_sbuf(cg, dst, "dst", "dma_copy");
  require_hbm_or_sbuf(cg, src, "src", "dma_copy");
  require_writable(cg, dst);
  const auto& ds = shape_of(cg, dst);
  const auto& ss = shape_of(cg, src);
  if (elements(ds) != elements(ss))
    sema::err_tiled_offloaded_memcpy_same_shape(shape_list(ss), shape_list(ds));
  Instruction in = make_inst("dma_copy", Engine::Dma);
  in.mask = align_mask(c.mask, ds.size());
  add_operand(cg, in, "dst", dst);
  add_operand(cg, in, "src", src);
  for (const char* key : {"dst_rmw_op", "oob_mode", "dge_mode"}) {
    std::string v = c.attr_string(key);
    if (!v.empty()) in.attrs.push_back({key, v});
  }
  emit_effect(cg, std::move(in));
  return -1;
}

ValueId handle_load_transpose2d(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  require_memory(cg, src, "src", "load_transpose2d", Mem::Hbm);
  require_no_indirect(cg, src);
  const auto& s = shape_of(cg, src);
  if (s.size() > 2)
    sema::err_exceed_max_supported_dimension(described(cg, src), "load_transpose2d", 2);
  std::vector<int64_t> out = s.size() == 2 ? std::vector<int64_t>{s[1], s[0]} : s;
  Instruction in = make_inst("load_transpose2d", Engine::Dma);
  add_operand(cg, in, "src", src);
  in.mask = align_mask(c.mask, out.size());
  return emit_result(cg, std::move(in), c.name, out, c.dtype.value_or(dtype_of(cg, src)));
}

ValueId handle_dma_transpose(NeuronCodegen& cg, const OpCall& c) {
  ValueId src = c.tile("src");
  require_hbm_or_sbuf(cg, src, "src", "dma_transpose");
  require_no_indirect(cg, src);
  const auto& s = shape_of(cg, src);
  if (s.size() > 4)
    sema::err_exceed_max_supported_dimension(described(cg, src), "dma_transpose", 4);
  static const std::vector<std::vector<int64_t>> kPerms = {
      {}, {0}, {1, 0}, {2, 1, 0}, {3, 1, 2, 0}};
  const std::vector<int64_t>& perm = kPerms[s.size()];
  std::vector<int64_t> axes = c.attr_ints("axes");
  if (!axes.empty() && axes != perm)
    sema::err_dma_transpose_axes(shape_list(axes), shape_list(perm));
  std::vector<int64_t> out;
  for (int64_t a : perm) out.push_back(s[a]);
  Instruction in = make_inst("dma_transpose", Engine::Dma);
  add_operand(cg, in, "src", src);
  in.mask = align_mask(c.mask, out.size());
  in.attrs.push_back({"axes", perm});
  std::string dge = c.attr_string("dge_mode");
  if (!dge.empty()) in.attrs.push_back({"dge_mode", dge});
  return emit_result(cg, std::move(in), c.name, out, c.dtype.value_or(dtype_of(cg, src)));
}

ValueId handle_gather_flattened(NeuronCodegen& cg, const OpCall& c) {
  ValueId data = c.tile("data"), indices = c.tile("indices");
  for (auto [v, role] : {std::pair{data, "data"}, {indices, "indices"}}) {
    require_memory(cg, v, role, "gather_flattened", Mem::Sbuf);
    check_is_tile(cg, v);
    if (shape_of(cg, v).size() > 4)
      sema::err_exceed_max_supported_dimension(described(cg, v), "gather_flattened", 4);
  }
  if (dtype_of(cg, indices) != DType::UInt32)
    sema::err_supported_operand_dtype("indices", "gather_flattened",
                                      dtype_name(dtype_of(cg, indices)), "uint32");
  require_same_partitions(cg, "gather_flattened", {data, indices});
  Instruction in = make_inst("gather_flattened", Engine::GpSimd);
  in.mask = align_mask(c.mask, shape_of(cg, indices).size());
  add_operand(cg, in, "data", data);
  add_operand(cg, in, "indices", indices);
  return emit_result(cg, std::move(in), c.name, shape_of(cg, indices),
                     c.dtype.value_or(dtype_of(cg, data)));
}

ValueId handle_atomic_rmw(NeuronCodegen& cg, const OpCall& c) {
  std::string op = c.attr_string("op", "");
  if (op != "add") sema::err_atomic_rmw_add_only(op.empty() ? "None" : op);
  ValueId dst = c.tile("dst");
  require_memory(cg, dst, "dst", "atomic_rmw", Mem::Hbm);
  if (!cg.value(dst).indirect) sema::err_atomic_rmw_dynamic_index();
  require_writable(cg, dst);
  const ValueOrScalar& value = c.operand("value");
  Instruction in = make_inst("atomic_rmw", Engine::Dma);
  in.mask = align_mask(c.mask, shape_of(cg, dst).size());
  add_operand(cg, in, "dst", dst);
  if (value.is_scalar()) {
    add_scalar(in, "value", value.scalar);
  } else {
    require_memory(cg, value.value, "value", "atomic_rmw", Mem::Sbuf);
    check_is_tile(cg, value.value);
    if (elements(shape_of(cg, value.value)) != elements(shape_of(cg, dst)))
      sema::err_tiled_offloaded_memcpy_same_shape(shape_list(shape_of(cg, value.value)),
                                                  shape_list(shape_of(cg, dst)));
    add_operand(cg, in, "value", value.value);
  }
  in.attrs.push_back({"op", op});
  emit_effect(cg, std::move(in));
  return -1;
}

} // namespace

void register_movement_ops(OpRegistry& r) {
  r.add("copy", handle_copy);
  r.add("tensor_copy", handle_tensor_copy);
  r.add("tensor_copy_dynamic_src", handle_tensor_copy_dynamic_src);
  r.add("tensor_copy_dynamic_dst", handle_tensor_copy_dynamic_dst);
  r.add("dma_copy", handle_dma_copy);
  r.add("load_transpose2d", handle_load_transpose2d);
  r.add("dma_transpose", handle_dma_transpose);
  r.add("gather_flattened", handle_gather_flattened);
  r.add("atomic_rmw", handle_atomic_rmw);
  register_view_ops(r);
  register_constant_ops(r);
  register_partition_move_ops(r);
}

} // namespace nki::lang
