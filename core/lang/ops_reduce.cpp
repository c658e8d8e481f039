// Reductions, scans and statistics (nl.sum/max/..., nisa.tensor_reduce, tensor_tensor_scan, bn_stats/bn_aggr, ...).
#include "lang/call.h"
#include "lang/common.h"
#include "sema/sema.h"

namespace nki::lang {

void register_reduce_ops(OpRegistry&) {}

}  // namespace nki::lang
