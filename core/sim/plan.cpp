#include "sim/plan.h"

#include <algorithm>
#include <string>

namespace nki::sim {

using namespace nki::ir;

namespace {

constexpr const char* kReadRoles[] = {
    "src",     "value",     "data",        "data0",        "data1",    "x",
    "y",       "operand0",  "operand1",    "scale",        "bias",     "stationary",
    "moving",  "indices",   "on_true",     "on_true_tile", "on_false", "on_false_value",
    "initial", "bound0",    "bound1",      "prob",         "seed",     "imm",
    "vals",    "predicate", "segment_ids",
};

TensorId base_of(const Kernel& k, TensorId t) {
  const Tensor& x = k.tensor(t);
  return x.alias_of != kNone ? x.alias_of : t;
}

} // namespace

bool reads_only(const std::string& role) {
  return std::any_of(std::begin(kReadRoles), std::end(kReadRoles),
                     [&](const char* r) { return role == r; });
}

KernelPlan plan_kernel(const Kernel& k) {
  const size_t nt = k.tensors().size();
  std::vector<int> writers(nt, 0);     // instructions writing each base tensor
  std::vector<uint8_t> aliased(nt, 0); // tensors another tensor is a view of
  for (const Tensor& t : k.tensors())
    if (t.alias_of != kNone) aliased[static_cast<size_t>(t.alias_of)] = 1;
  for (const Instruction& in : k.instructions()) {
    if (in.result != kNone) ++writers[static_cast<size_t>(base_of(k, in.result))];
    for (const Operand& o : in.operands)
      if (!o.is_scalar && o.ap.tensor != kNone && !reads_only(o.role))
        ++writers[static_cast<size_t>(base_of(k, o.ap.tensor))];
  }
  KernelPlan p;
  p.read_only.assign(nt, 0);
  for (TensorId t : k.params())
    if (base_of(k, t) == t && writers[static_cast<size_t>(t)] == 0)
      p.read_only[static_cast<size_t>(t)] = 1;
  p.alias.assign(k.instructions().size(), 0);
  for (const Instruction& in : k.instructions()) {
    const bool copy =
        in.opcode == "load" || in.opcode == "tensor_copy" || in.opcode == "broadcast_to";
    if (!copy || in.result == kNone) continue;
    const Tensor& r = k.tensor(in.result);
    if (r.role != TensorRole::Local || r.alias_of != kNone || r.shape.empty() ||
        !r.constant.empty() || aliased[static_cast<size_t>(r.id)] ||
        writers[static_cast<size_t>(r.id)] != 1)
      continue;
    const Operand* src = nullptr;
    for (const Operand& o : in.operands)
      if (o.role == "src") src = &o;
    if (!src || src->is_scalar || src->ap.indirect || k.tensor(src->ap.tensor).dtype != r.dtype)
      continue;
    // The Scalar engine copies through fp32: bit for bit only for float32.
    if (in.engine == Engine::Scalar && r.dtype != DType::Float32) continue;
    p.alias[static_cast<size_t>(in.id)] = 1;
  }
  return p;
}

} // namespace nki::sim
