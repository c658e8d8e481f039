#include "lang/facts.h"

#include "ir/op_names.h"
#include "ir/target.h"
#include "util/json.h"

namespace nki::lang {

std::string facts_json() {
  util::JsonWriter w;
  w.begin_object().key("tile_size").begin_object();
  w.key("pmax").value(ir::kPmax).key("psum_fmax").value(ir::kPsumFmax);
  w.key("gemm_stationary_fmax").value(ir::kGemmStationaryFmax);
  w.key("gemm_moving_fmax").value(ir::kGemmMovingFmax);
  w.key("bn_stats_fmax").value(ir::kBnStatsFmax);
  w.key("psum_min_align").value(ir::kPsumMinAlign).key("sbuf_min_align").value(ir::kSbufMinAlign);
  w.key("total_available_sbuf_size").value(ir::kSbufPartitionBytes).end_object();
  w.key("psum").begin_object().key("banks").value(ir::kPsumBanks);
  w.key("bank_bytes").value(ir::kPsumBankBytes).end_object();
  w.key("targets").begin_array();
  for (const ir::Target& t : ir::targets()) {
    w.begin_object().key("name").value(t.name).key("names").begin_array();
    for (const char* n : t.names) w.value(n);
    w.end_array().key("nc_version").value(t.nc_version);
    w.key("sbuf_partition_bytes").value(t.sbuf_partition_bytes).end_object();
  }
  w.end_array();
  w.key("alu").begin_array();
  for (const std::string& n : ir::alu_names()) w.value(n);
  w.end_array().key("unary_alu").begin_array();
  for (const std::string& n : ir::alu_names())
    if (ir::alu_is_unary(*ir::find_alu(n)) && n != "bypass") w.value(n);
  w.end_array().key("activation").begin_array();
  for (const std::string& n : ir::activation_names()) w.value(n);
  w.end_array().key("aliases").begin_object();
  for (const auto& [from, to] : ir::op_aliases()) w.key(from).value(to);
  w.end_object().end_object();
  return w.take();
}

} // namespace nki::lang
