#include "ir/target.h"

namespace nki::ir {

const std::vector<Target>& targets() {
  // SBUF: 24 MiB (trn1), 28 MiB (trn2), 32 MiB (trn3, Trainium3 architecture guide) over 128
  // partitions.
  static const std::vector<Target> kTargets = {
      {"trn1", {"trn1", "inf2", "gen2"}, 2, kSbufPartitionBytes},
      {"trn2", {"trn2", "gen3"}, 3, 224 * 1024},
      {"trn3", {"trn3", "gen4"}, 4, 256 * 1024},
  };
  return kTargets;
}

const Target* find_target(const std::string& name) {
  for (const Target& t : targets())
    for (const char* n : t.names)
      if (name == n) return &t;
  return nullptr;
}

const Target& target_or_trn1(const std::string& name) {
  const Target* t = find_target(name);
  return t ? *t : targets().front();
}

const Target& target_of_nc_version(int nc_version) {
  for (const Target& t : targets())
    if (t.nc_version >= nc_version) return t;
  return targets().back();
}

int64_t sbuf_partition_bytes(const std::string& target) {
  return target_or_trn1(target).sbuf_partition_bytes;
}

} // namespace nki::ir
