#pragma once
// The host-array requests implemented outside host_arrays.cpp (host_math.cpp,
// host_random.cpp), and helpers they share. Internal to core/sim.
#include <string>

#include "host/host.h"
#include "util/json.h"

namespace nki::host {

HView view_of(const util::Json& j);
std::string reply_id(int id);
const char* htype_name(HType t);

std::string ufunc(const util::Json& j);  // elementwise with broadcasting
std::string reduce(const util::Json& j); // over axes
std::string matmul(const util::Json& j); // 2-D @ 2-D
std::string random(const util::Json& j); // seed / uniform / normal (NumPy's legacy MT19937)

} // namespace nki::host
