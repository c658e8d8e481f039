// Structural ops: parameters, allocation, program ids, loads and stores, assignment, outputs.
#include <algorithm>

#include "lang/call.h"
#include "lang/common.h"
#include "lang/movement.h"
#include "lang/ops.h"
#include "lang/promotion.h"
#include "sema/sema.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

std::string shape_list(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// NumPy broadcasting of `from` onto `to` (right-aligned); true when every dimension matches
// or is 1 in `from`.
bool broadcasts_to(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  if (from.size() > to.size()) {
    for (size_t i = 0; i < from.size() - to.size(); ++i)
      if (from[i] != 1) return false;
  }
  size_t off = to.size() >= from.size() ? to.size() - from.size() : 0;
  for (size_t i = 0; i < std::min(from.size(), to.size()); ++i) {
    int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    (void)off;
    if (f != t && f != 1) return false;
  }
  return true;
}

ValueId handle_load(NeuronCodegen& cg, const OpCall& c) {
  return load(cg, c.tile("src"), c.dtype, c.name, c.mask);
}
ValueId handle_store(NeuronCodegen& cg, const OpCall& c) {
  store(cg, c.tile("dst"), c.tile("value"), c.mask);
  return -1;
}

} // namespace

ValueInfo value_info(const NeuronCodegen& cg, ValueId v) {
  const AccessPattern& ap = cg.value(v);
  const Tensor& t = cg.kernel().tensor(ap.tensor);
  return {v, ap.tile_shape, t.dtype, t.buffer, t.name};
}

ValueId param(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape, DType dtype,
              bool mutable_param) {
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = Buffer::Input;
  t.role = TensorRole::Param;
  t.mutable_param = mutable_param;
  TensorId id = cg.builder.create_tensor(std::move(t));
  cg.builder.add_param(id);
  return cg.add_value(identity_pattern(cg.kernel().tensor(id)));
}

ValueId ndarray(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape, DType dtype,
                Buffer buffer, std::optional<double> init, const std::string& api,
                int partition_dim) {
  const std::string shown = name.empty() ? "t" : name;
  bool on_chip = memory_of(buffer) != Memory::HBM;
  if (on_chip) {
    if (partition_dim < 0 || partition_dim >= static_cast<int>(shape.size())) partition_dim = 0;
    std::vector<int64_t> tile(shape.begin() + partition_dim, shape.end());
    check_tile(shown, tile);
    // The current language's PSUM tensors may span banks (a trn3 matmul fills up to all 8);
    // its capacity check is the simulator's, by liveness.
    if (buffer == Buffer::Psum && cg.kernel().language().empty())
      check_psum_tensor(shown, shape, partition_dim, dtype);
    if (partition_dim > 0)
      cg.warn("DeprecationWarning",
              sema::warn_block_dimension_is_deprecated(sema::describe(shown, shape)));
  } else {
    partition_dim = 0;
    if (init) sema::err_hbm_tensor_with_init_value_not_supported();
    if (buffer == Buffer::SharedHbm) {
      RegionId r = cg.cur_scope();
      // The current language's unrolled loops, helpers and per-core bodies are not levels:
      // only a runtime loop's body is.
      if (r != kNone && !cg.kernel().language().empty()) r = cg.builder.allocation_home(r);
      if (r != kNone && cg.kernel().region(r).kind != RegionKind::KernelScope)
        sema::err_shared_hbm_must_in_kernel_level();
    }
  }
  Tensor t;
  t.name = name;
  t.shape = shape;
  t.dtype = dtype;
  t.buffer = buffer;
  t.partition_dim = partition_dim;
  TensorId id = cg.builder.create_tensor(std::move(t));
  ValueId v = cg.add_value(identity_pattern(cg.kernel().tensor(id)));
  Instruction in = make_inst(api, init ? Engine::Vector : Engine::None);
  in.result = id;
  if (init) in.attrs.push_back({"value", *init});
  cg.builder.create_inst(std::move(in));
  return v;
}

AffineExpr program_id(NeuronCodegen& cg, int64_t axis) {
  size_t rank = cg.options().grid.size();
  if (axis < 0 || static_cast<size_t>(axis) >= std::max<size_t>(rank, 1))
    sema::err_program_id_axis(axis, rank);
  if (rank == 0) return AffineExpr(0); // a plain call is a grid of one
  return AffineExpr::var({VarKind::ProgramId, static_cast<int>(axis)});
}

void check_is_tile(const NeuronCodegen& cg, ValueId v) {
  const Tensor& t = tensor_of(cg, v);
  if (t.partition_dim <= 0) return;
  const AccessPattern& ap = cg.value(v);
  for (int d = 0; d < t.partition_dim; ++d)
    if (ap.index[d].mentions(VarKind::TileAxis))
      sema::err_failed_to_infer_tile_from_local_tensor(t.name);
}

ValueId load(NeuronCodegen& cg, ValueId src, std::optional<DType> dtype, const std::string& name) {
  return load(cg, src, dtype, name, {});
}

ValueId load(NeuronCodegen& cg, ValueId src, std::optional<DType> dtype, const std::string& name,
             const MaskSpec& mask) {
  require_memory(cg, src, "src", "load", Mem::Hbm);
  const std::vector<int64_t> shape = shape_of(cg, src);
  Instruction in = make_inst("load", Engine::Dma);
  in.mask = align_mask(mask, shape.size());
  add_operand(cg, in, "src", src);
  return emit_result(cg, std::move(in), name, shape, dtype.value_or(dtype_of(cg, src)));
}

void store(NeuronCodegen& cg, ValueId dst, ValueId value) {
  store(cg, dst, value, {});
}

void store(NeuronCodegen& cg, ValueId dst, ValueId value, const MaskSpec& mask) {
  require_memory(cg, dst, "dst", "store", Mem::Hbm);
  require_memory(cg, value, "value", "store", Mem::OnChip);
  check_is_tile(cg, value);
  const Tensor& dt = tensor_of(cg, dst);
  if (dt.role == TensorRole::Param && !dt.mutable_param)
    sema::err_cannot_update_immutable_parameter(dt.name);
  const auto& ds = shape_of(cg, dst);
  const auto& vs = shape_of(cg, value);
  if (!broadcasts_to(vs, ds) && elements(vs) != elements(ds))
    sema::err_store_dst_shape_smaller_than_other_shape("store", shape_list(ds), dt.name,
                                                       described(cg, value));
  Instruction in = make_inst("store", Engine::Dma);
  in.mask = align_mask(mask, ds.size());
  add_operand(cg, in, "dst", dst);
  add_operand(cg, in, "value", value);
  emit_effect(cg, std::move(in));
}

void assign(NeuronCodegen& cg, ValueId dst, const ValueOrScalar& src, const std::string& accumulate,
            const std::string& expr_text, bool src_is_temporary) {
  const Tensor& dt = tensor_of(cg, dst);
  const auto& ds = shape_of(cg, dst);
  if (dt.role == TensorRole::Param && !dt.mutable_param)
    sema::err_cannot_update_immutable_parameter(dt.name);
  bool dst_hbm = dt.memory() == Memory::HBM;
  if (src.is_scalar()) {
    Instruction in = make_inst(accumulate.empty() ? "memset" : "tensor_scalar",
                               dst_hbm ? Engine::Dma : Engine::Vector);
    add_operand(cg, in, "dst", dst);
    if (accumulate.empty()) {
      in.attrs.push_back({"value", src.scalar});
    } else {
      add_operand(cg, in, "data", dst);
      add_scalar(in, "operand0", src.scalar);
      in.attrs.push_back({"op0", accumulate});
    }
    emit_effect(cg, std::move(in));
    return;
  }
  // `psum += nc_matmul(...)`, `t[...] = nl.copy(...)`: the op writes the destination itself.
  if (src_is_temporary && fold_into_destination(cg, dst, src.value, accumulate)) return;
  const Tensor& st = tensor_of(cg, src.value);
  const auto& ss = shape_of(cg, src.value);
  if (!broadcasts_to(ss, ds) && elements(ss) != elements(ds))
    sema::err_store_dst_shape_smaller_than_other_shape(expr_text, shape_list(ds), dt.name,
                                                       described(cg, src.value));
  bool src_hbm = st.memory() == Memory::HBM;
  Instruction in;
  if (!accumulate.empty()) {
    if (dst_hbm || src_hbm) sema::err_not_supported_yet("accumulating assignment into HBM");
    in = make_inst("tensor_tensor", Engine::Vector);
    add_operand(cg, in, "dst", dst);
    add_operand(cg, in, "x", dst);
    add_operand(cg, in, "y", src.value);
    in.attrs.push_back({"op", accumulate});
  } else if (dst_hbm || src_hbm) {
    in = make_inst(dst_hbm && !src_hbm   ? "store"
                   : src_hbm && !dst_hbm ? "load"
                                         : "dma_copy",
                   Engine::Dma);
    add_operand(cg, in, "dst", dst);
    add_operand(cg, in, src_hbm && !dst_hbm ? "src" : "value", src.value);
  } else {
    in = make_inst("tensor_copy", Engine::Vector);
    add_operand(cg, in, "dst", dst);
    add_operand(cg, in, "src", src.value);
  }
  emit_effect(cg, std::move(in));
}

namespace {
bool is_written(const Kernel& k, TensorId t) {
  for (const Instruction& in : k.instructions())
    for (const Operand& op : in.operands)
      if (op.role == "dst" && !op.is_scalar &&
          (op.ap.tensor == t || k.tensor(op.ap.tensor).alias_of == t))
        return true;
  return false;
}
} // namespace

void set_outputs(NeuronCodegen& cg, const std::vector<ValueId>& values, bool by_reference,
                 bool simulated) {
  std::vector<TensorId> outs;
  for (ValueId v : values) {
    const Tensor& t = tensor_of(cg, v);
    // NKI's simulator returns an on-chip tensor too (the range_select doc test returns its
    // SBUF result); compiling for a device does not.
    bool memory_ok = t.memory() == Memory::HBM || simulated;
    if (!memory_ok || !cg.value(v).is_identity(t)) sema::err_output_not_hbm(t.name);
    outs.push_back(t.id);
  }
  for (TensorId o : outs) {
    const Tensor& t = cg.kernel().tensor(o);
    // The current language returns what the kernel allocated, written or not (NKI's
    // simulator hands back its NaN / 4 sentinels).
    if (t.role == TensorRole::Param || !cg.kernel().language().empty()) continue;
    if (!is_written(cg.kernel(), o)) sema::err_tensor_output_not_written_to(t.name);
  }
  if (by_reference) {
    for (TensorId p : cg.kernel().params())
      if (std::find(outs.begin(), outs.end(), p) == outs.end() && is_written(cg.kernel(), p))
        outs.push_back(p);
    cg.builder.set_outputs(std::move(outs));
    return;
  }
  std::string missing;
  for (TensorId p : cg.kernel().params()) {
    const Tensor& t = cg.kernel().tensor(p);
    if (t.mutable_param && std::find(outs.begin(), outs.end(), p) == outs.end())
      missing += (missing.empty() ? "`" : ", `") + t.name + "`";
  }
  if (!missing.empty()) sema::err_mutable_parameter_not_returned(missing);
  cg.builder.set_outputs(std::move(outs));
}

void register_memory_ops(OpRegistry& r) {
  r.add("load", handle_load);
  r.add("store", handle_store);
}

} // namespace nki::lang
