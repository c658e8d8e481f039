// Constants and creation helpers: nl.shared_constant, nl.shared_identity_matrix (deduplicated),
// nl.zeros_like / nl.empty_like, PSUM tile limits at creation, and direct-allocation records
// (ncc.sbuf/psum .alloc / .mod_alloc). docs/ops/movement.md.
#include <algorithm>
#include <optional>

#include "lang/call.h"
#include "lang/common.h"
#include "lang/movement.h"
#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sema/sema_movement.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

bool visible_here(const NeuronCodegen& cg, const Tensor& t) {
  if (t.region == kNone) return true;
  for (RegionId r = cg.cur_scope(); r != kNone; r = cg.kernel().region(r).parent)
    if (r == t.region) return true;
  return false;
}

// A constant HBM tensor whose contents live in the IR (Tensor::constant, row-major).
ValueId make_constant(NeuronCodegen& cg, const std::string& opcode, const std::string& name,
                      std::vector<int64_t> shape, DType dtype, std::vector<double> values,
                      std::vector<std::pair<std::string, AttrValue>> attrs = {}) {
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = Buffer::SharedHbm;
  t.constant = std::move(values);
  TensorId id = cg.builder.create_tensor(std::move(t));
  ValueId v = cg.add_value(identity_pattern(cg.kernel().tensor(id)));
  Instruction in = make_inst(opcode, Engine::None);
  in.result = id;
  in.attrs = std::move(attrs);
  cg.builder.create_inst(std::move(in));
  return v;
}

ValueId handle_shared_constant(NeuronCodegen& cg, const OpCall& c) {
  std::vector<int64_t> shape = c.attr_ints("shape");
  const util::Json& vals = c.attrs["values"];
  std::vector<double> values;
  if (vals.is_array()) {
    for (const util::Json& x : vals.array()) {
      if (!x.is_bool() && !x.is_number()) sema::err_shared_constant_values();
      values.push_back(x.is_bool() ? (x.boolean() ? 1.0 : 0.0) : x.number());
    }
  }
  if (shape.empty() || static_cast<int64_t>(values.size()) != elements(shape))
    sema::err_shared_constant_values();
  DType dtype;
  if (c.dtype) {
    dtype = *c.dtype;
  } else {
    std::string name = c.attr_string("source_dtype", "float32");
    auto parsed = parse_dtype(name);
    if (!parsed) sema::err_unsupported_dtype(name);
    dtype = *parsed;
  }
  return make_constant(cg, "shared_constant", c.name.empty() ? "const" : c.name, shape, dtype,
                       std::move(values));
}

ValueId handle_shared_identity_matrix(NeuronCodegen& cg, const OpCall& c) {
  int64_t n = c.attr_int("n", 0);
  if (n <= 0) sema::err_identity_matrix_size(n);
  DType dtype = c.dtype.value_or(DType::UInt8);
  // NKI reuses one identity matrix per size and dtype.
  for (const Instruction& in : cg.kernel().instructions()) {
    if (in.opcode != "shared_identity_matrix" || in.result == kNone) continue;
    const Tensor& t = cg.kernel().tensor(in.result);
    if (t.dtype == dtype && t.shape == std::vector<int64_t>{n, n} && visible_here(cg, t))
      return cg.add_value(identity_pattern(t));
  }
  std::vector<double> values(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i * n + i)] = 1.0;
  return make_constant(cg, "shared_identity_matrix", c.name.empty() ? "identity" : c.name, {n, n},
                       dtype, std::move(values));
}

ValueId like(NeuronCodegen& cg, const OpCall& c, bool zeros) {
  ValueId a = c.tile("a");
  const Tensor& t = tensor_of(cg, a);
  std::vector<int64_t> shape = shape_of(cg, a);
  int pdim = 0;
  if (cg.value(a).is_identity(t)) pdim = t.partition_dim;
  DType dtype = c.dtype.value_or(t.dtype);
  std::string buf = c.attr_string("buffer", "sbuf");
  auto buffer = parse_buffer(buf);
  if (!buffer) sema::err_unknown_buffer(buf);
  std::string name = c.attr_string("tensor_name", "");
  if (name.empty()) name = c.name;
  std::optional<double> init;
  if (zeros) init = 0.0;
  return ndarray(cg, name, shape, dtype, *buffer, init, zeros ? "zeros" : "ndarray", pdim);
}

ValueId handle_zeros_like(NeuronCodegen& cg, const OpCall& c) {
  return like(cg, c, true);
}
ValueId handle_empty_like(NeuronCodegen& cg, const OpCall& c) {
  return like(cg, c, false);
}

ValueId handle_allocation(NeuronCodegen& cg, const OpCall& c) {
  ValueId t = c.tile("tensor");
  record_allocation(cg, t, c.attrs);
  return -1;
}

} // namespace

void check_psum_tensor(const std::string& name, const std::vector<int64_t>& shape,
                       int partition_dim, DType dtype) {
  std::vector<int64_t> tile(shape.begin() + std::min<size_t>(partition_dim, shape.size()),
                            shape.end());
  int64_t bytes = free_size(tile) * dtype_size(dtype);
  if (bytes > kPsumPartitionBytes / kPsumBanks)
    sema::err_psum_tile_exceeds_bank(sema::describe(name.empty() ? "t" : name, shape), bytes);
}

void record_allocation(NeuronCodegen& cg, ValueId v, const util::Json& alloc) {
  std::string kind = alloc.get_string("alloc_kind");
  if (kind.empty() || kind == "auto_alloc") return;
  Instruction* in = cg.builder.last_inst();
  if (!in || in->result != cg.value(v).tensor)
    throw sema::InternalError("a direct allocation must follow the tensor's creation");
  for (const auto& [key, value] : in->attrs)
    if (key == "value") sema::err_tensor_creation_on_scratchpad_with_init_value_not_supported();
  std::string memory = memory_name(cg.kernel().tensor(in->result).memory());
  in->attrs.push_back({"alloc", memory + "." + kind});
  // What was given: addresses (base_partition when not 0) and non-empty tile counts.
  for (std::string key : {"base_bank", "base_addr", "base_partition"})
    if (alloc[key].is_number() && (key != "base_partition" || alloc[key].integer() != 0))
      in->attrs.push_back({key, alloc[key].integer()});
  for (const char* key : {"num_bank_tiles", "num_par_tiles", "num_free_tiles", "tiles"})
    if (alloc[key].is_array() && alloc[key].size() > 0)
      in->attrs.push_back({key, alloc[key].int_list()});
}

void register_constant_ops(OpRegistry& r) {
  r.add("shared_constant", handle_shared_constant);
  r.add("shared_identity_matrix", handle_shared_identity_matrix);
  r.add("zeros_like", handle_zeros_like);
  r.add("empty_like", handle_empty_like);
  r.add("allocation", handle_allocation);
}

} // namespace nki::lang
