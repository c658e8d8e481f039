#pragma once
/// The NeuronCore limits the language checks and the simulator enforces (`nl.tile_size`,
/// reference §1.2) and the targets with what differs between them: the one copy. The Python
/// front ends read them from the core (the `facts` binding, lang/facts.h); lang/, isa/ and sim/
/// use these names.
#include <cstdint>
#include <string>
#include <vector>

namespace nki::ir {

constexpr int64_t kPmax = 128;                     ///< partitions of SBUF/PSUM
constexpr int64_t kPsumFmax = 512;                 ///< fp32 elements per partition of a bank
constexpr int64_t kPsumBanks = 8;                  ///< PSUM banks
constexpr int64_t kPsumPartitionBytes = 16 * 1024; ///< PSUM bytes per partition (all banks)
constexpr int64_t kPsumBankBytes = kPsumPartitionBytes / kPsumBanks;
constexpr int64_t kSbufPartitionBytes = 192 * 1024; ///< usable SBUF per partition, trn1
constexpr int64_t kGemmStationaryFmax = 128;
constexpr int64_t kGemmMovingFmax = 512;
constexpr int64_t kBnStatsFmax = 512;
constexpr int64_t kPsumMinAlign = 4;
constexpr int64_t kSbufMinAlign = 1;

/// A target (NEURON_PLATFORM_TARGET_OVERRIDE, the simulator's `target` option).
struct Target {
  const char* name; ///< "trn1", "trn2", "trn3"
  std::vector<const char*>
      names;      ///< every spelling that means it (name first: "trn1", "inf2", "gen2")
  int nc_version; ///< NeuronCore generation: 2, 3, 4
  int64_t sbuf_partition_bytes; ///< usable SBUF bytes per partition
};

/// trn1 (192 KiB SBUF per partition), trn2 (224 KiB), trn3 (256 KiB), in nc_version order.
const std::vector<Target>& targets();
/// The target a name spells, or nullptr.
const Target* find_target(const std::string& name);
/// The target of `name`, trn1 for a name that spells none (the simulator's default).
const Target& target_or_trn1(const std::string& name);
/// The target of NeuronCore generation `nc_version` (below 2: trn1; above 4: trn3).
const Target& target_of_nc_version(int nc_version);

/// Usable SBUF bytes per partition of `target` (target_or_trn1).
int64_t sbuf_partition_bytes(const std::string& target);

} // namespace nki::ir
