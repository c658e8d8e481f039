// Matrix multiplication and transposes (nl.matmul, nisa.nc_matmul, nl.transpose, nisa.nc_transpose).
#include "lang/call.h"
#include "lang/common.h"
#include "sema/sema.h"

namespace nki::lang {

void register_matmul_ops(OpRegistry&) {}

}  // namespace nki::lang
