// nisa instructions of the Vector, Scalar and GpSimd engines (activation, tensor_scalar, iota, memset, selects, ...).
#include "lang/call.h"
#include "lang/common.h"
#include "sema/sema.h"

namespace nki::lang {

void register_vector_isa_ops(OpRegistry&) {}

}  // namespace nki::lang
