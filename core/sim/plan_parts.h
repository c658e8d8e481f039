#pragma once
/// The planner's pieces that plan.cpp (read-only parameters, aliases, strips) and plan_scan.cpp
/// (what a tensor_tensor_scan computes of its neighbours) share; for those two files only.
#include <cstdint>
#include <vector>

#include "ir/ir.h"
#include "sim/plan.h"

namespace nki::sim::planning {

/// The tensor `t` is a view of, or `t`.
ir::TensorId base_of(const ir::Kernel& k, ir::TensorId t);
/// Whether `ap` is its tensor's identity pattern (the whole tensor, axis d at tile axis d).
bool identity(const ir::Kernel& k, const ir::AccessPattern& ap);

/// KernelPlan::scan_pre and KernelPlan::scan_post (`users`: by base tensor, the instructions
/// referring to it; `aliased`: by tensor, whether another tensor is a view of it).
void plan_scan_pre(const ir::Kernel& k, const std::vector<std::vector<ir::InstId>>& users,
                   const std::vector<uint8_t>& aliased, KernelPlan& p);
void plan_scan_post(const ir::Kernel& k, const std::vector<std::vector<ir::InstId>>& users,
                    const std::vector<uint8_t>& aliased, KernelPlan& p);

} // namespace nki::sim::planning
