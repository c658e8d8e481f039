// Data movement, views and constants (nl.copy, DMA copies and transposes, reshape/broadcast, shared constants).
#include "lang/call.h"
#include "lang/common.h"
#include "sema/sema.h"

namespace nki::lang {

void register_movement_ops(OpRegistry&) {}

}  // namespace nki::lang
