#include "ir/ir.h"

#include <algorithm>
#include <stdexcept>

namespace nki::ir {

namespace {
constexpr std::string_view kReadRoles[] = {
    "src",     "value",     "data",        "data0",        "data1",    "x",
    "y",       "operand0",  "operand1",    "scale",        "bias",     "stationary",
    "moving",  "indices",   "on_true",     "on_true_tile", "on_false", "on_false_value",
    "initial", "bound0",    "bound1",      "prob",         "seed",     "imm",
    "vals",    "predicate", "segment_ids",
};
} // namespace

bool role_reads_only(std::string_view role) {
  for (std::string_view r : kReadRoles)
    if (r == role) return true;
  return false;
}

const char* region_kind_name(RegionKind k) {
  switch (k) {
  case RegionKind::KernelScope:
    return "KernelScope";
  case RegionKind::FunctionScope:
    return "FunctionScope";
  case RegionKind::LoopScope:
    return "LoopScope";
  case RegionKind::IfScope:
    return "IfScope";
  case RegionKind::WhileScope:
    return "WhileScope";
  case RegionKind::AllocationScope:
    return "AllocationScope";
  case RegionKind::ScopeRegion:
    return "ScopeRegion";
  }
  return "?";
}

bool AccessPattern::is_identity(const Tensor& t) const {
  if (indirect) return false;
  if (tile_shape != t.shape || index.size() != t.shape.size()) return false;
  for (size_t d = 0; d < index.size(); ++d)
    if (!(index[d] == AffineExpr::var({VarKind::TileAxis, static_cast<int>(d)}))) return false;
  return true;
}

void IRBuilder::set_kernel_info(std::string name, std::vector<int64_t> grid, SourceLoc loc) {
  k_.name_ = std::move(name);
  k_.grid_ = std::move(grid);
  k_.loc_ = std::move(loc);
}

void IRBuilder::set_language(std::string language, int64_t lnc) {
  k_.language_ = std::move(language);
  k_.lnc_ = lnc;
}

TensorId IRBuilder::create_alias(TensorId base, std::string name, std::vector<int64_t> shape,
                                 DType dtype) {
  const Tensor& b = k_.tensors_.at(base);
  Tensor t;
  t.name = unique_name(name);
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = b.buffer;
  t.role = b.role;
  t.loc = b.loc;
  t.region = b.region;
  t.alias_of = b.alias_of != kNone ? b.alias_of : base;
  t.id = static_cast<TensorId>(k_.tensors_.size());
  k_.tensors_.push_back(std::move(t));
  return k_.tensors_.back().id;
}

RegisterId IRBuilder::create_register(std::string name, bool frozen) {
  Register r;
  r.id = static_cast<RegisterId>(k_.registers_.size());
  r.name = unique_name(name.empty() ? "r" : name);
  r.frozen = frozen;
  r.loc = loc_;
  k_.registers_.push_back(std::move(r));
  return k_.registers_.back().id;
}

void IRBuilder::set_trip_count(LoopAxisId axis, int64_t trip) {
  k_.axes_.at(axis).trip_count = trip;
}

RegionId IRBuilder::create_region(RegionKind kind, RegionPayload payload) {
  Region r;
  r.id = static_cast<RegionId>(k_.regions_.size());
  r.kind = kind;
  r.parent = insert_;
  r.payload = std::move(payload);
  r.loc = loc_;
  k_.regions_.push_back(std::move(r));
  RegionId id = k_.regions_.back().id;
  if (insert_ == kNone) {
    if (k_.root_ != kNone) throw std::logic_error("IR already has a root region");
    k_.root_ = id;
  } else {
    k_.regions_[insert_].body.push_back({Item::Kind::Region, id});
  }
  return id;
}

LoopAxisId IRBuilder::create_loop_axis(LoopAxis axis) {
  k_.axes_.push_back(std::move(axis));
  return static_cast<LoopAxisId>(k_.axes_.size() - 1);
}

void IRBuilder::attach_axis(LoopAxisId axis, RegionId region) {
  k_.axes_.at(axis).region = region;
}

std::string IRBuilder::unique_name(const std::string& hint) {
  std::string base = hint.empty() ? "t" : hint;
  std::string name = base;
  int& n = next_suffix_[base];
  while (used_names_.count(name)) name = base + "." + std::to_string(++n);
  used_names_.insert(name);
  return name;
}

RegionId IRBuilder::allocation_home(RegionId r) const {
  while (r != kNone) {
    const Region& g = k_.regions_[r];
    bool transparent = g.kind == RegionKind::FunctionScope || g.kind == RegionKind::ScopeRegion ||
                       (g.kind == RegionKind::LoopScope && g.payload.axis != kNone &&
                        k_.axes_[g.payload.axis].tag == LoopAxis::Tag::UnrolledAxis);
    if (!transparent || g.parent == kNone) return r;
    r = g.parent;
  }
  return r;
}

TensorId IRBuilder::create_tensor(Tensor t) {
  t.id = static_cast<TensorId>(k_.tensors_.size());
  t.name = unique_name(t.name);
  if (t.role == TensorRole::Local) {
    t.loc = loc_;
    t.region = k_.language_.empty() ? insert_ : allocation_home(insert_);
  }
  k_.tensors_.push_back(std::move(t));
  return k_.tensors_.back().id;
}

void IRBuilder::add_param(TensorId t) {
  k_.params_.push_back(t);
}
void IRBuilder::set_outputs(std::vector<TensorId> outs) {
  k_.outputs_ = std::move(outs);
}
void IRBuilder::rename_tensor(TensorId t, std::string name) {
  k_.tensors_.at(t).name = unique_name(name);
}

bool IRBuilder::drop_if_empty(RegionId r) {
  Region& region = k_.regions_.at(r);
  if (!region.body.empty() || region.parent == kNone) return false;
  auto& siblings = k_.regions_[region.parent].body;
  if (siblings.empty() || siblings.back().kind != Item::Kind::Region || siblings.back().id != r)
    return false;
  siblings.pop_back();
  return true;
}

void IRBuilder::set_while_condition(RegionId r, ScalarCondition c) {
  Region& region = k_.regions_.at(r);
  if (region.kind != RegionKind::WhileScope)
    throw std::logic_error("set_while_condition on a region that is not a WhileScope");
  region.payload.condition = std::move(c);
}

Instruction* IRBuilder::last_inst() {
  if (insert_ == kNone) return nullptr;
  const auto& body = k_.regions_[insert_].body;
  if (body.empty() || body.back().kind != Item::Kind::Inst) return nullptr;
  return &k_.insts_[body.back().id];
}

InstId IRBuilder::create_inst(Instruction inst) {
  if (insert_ == kNone) throw std::logic_error("instruction created outside of any region");
  inst.id = static_cast<InstId>(k_.insts_.size());
  inst.loc = loc_;
  inst.region = insert_;
  inst.stmt = stmt_;
  k_.insts_.push_back(std::move(inst));
  InstId id = k_.insts_.back().id;
  k_.regions_[insert_].body.push_back({Item::Kind::Inst, id});
  return id;
}

} // namespace nki::ir
