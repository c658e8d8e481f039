#pragma once
/// Reads the printer's JSON form of a kernel (docs/ir-format.md) back into an ir::Kernel,
/// through the IRBuilder. Used where a kernel traced elsewhere (by the Python surface) must run
/// natively: the simulator's golden tests and its benchmark driver.
#include <memory>
#include <string_view>

#include "ir/ir.h"

namespace nki::printer {

/// Rebuilds the kernel. Tensor and loop-axis ids are preserved; region and instruction ids
/// are renumbered densely in program order. Throws std::invalid_argument on malformed input.
std::unique_ptr<ir::Kernel> kernel_from_json(std::string_view text);

} // namespace nki::printer
