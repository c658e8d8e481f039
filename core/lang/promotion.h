#pragma once
/// NKI's type promotion for arithmetic (reference §1.5, "NKI Type Promotion").
#include "ir/types.h"

namespace nki::lang {

/// The result type of an arithmetic op on two tiles.
ir::DType promote(ir::DType a, ir::DType b);

/// The dtype a Python scalar takes in arithmetic: NKI makes weak scalars the widest hardware
/// type of their kind (bool → uint8, int → int32, float → float32), so `fp16_tile + 1.2` is
/// float32 unless `dtype=` says otherwise.
ir::DType scalar_dtype(bool is_float, bool is_bool = false);

} // namespace nki::lang
