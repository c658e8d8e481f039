#pragma once
/// The facts the Python front ends need besides the trace: the hardware limits and the targets
/// (ir/target.h: `nl.tile_size`, NEURON_PLATFORM_TARGET_OVERRIDE) and the operator /
/// activation names with their NumPy spellings (ir/op_names.h). The core holds the one copy;
/// the front ends ask once, on first use (their modules import before a core is attached, e.g.
/// when Pyodide boots from a snapshot).
#include <string>

namespace nki::lang {

/// {"tile_size": {"pmax", "psum_fmax", "gemm_stationary_fmax", "gemm_moving_fmax",
/// "bn_stats_fmax", "psum_min_align", "sbuf_min_align", "total_available_sbuf_size" (trn1)},
/// "psum": {"banks", "bank_bytes"}, "targets": [{"name", "names", "nc_version",
/// "sbuf_partition_bytes"}], "alu": [names], "unary_alu": [one-input names],
/// "activation": [names], "aliases": {numpy name: NKI name}}
std::string facts_json();

} // namespace nki::lang
