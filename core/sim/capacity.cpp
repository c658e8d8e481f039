#include "sim/capacity.h"

#include <algorithm>
#include <unordered_set>

#include "ir/target.h"
#include "sim/diagnostics.h"
#include "sim/storage.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

bool repeats(RegionKind k) {
  return k == RegionKind::LoopScope || k == RegionKind::WhileScope;
}

/// Program order of the kernel: every instruction gets a position (pre-order over the region
/// tree), every region the range of positions it spans.
class Linearized {
public:
  explicit Linearized(const Kernel& k)
      : k_(k), pos_(k.instructions().size(), -1), first_(k.regions().size(), 0),
        last_(k.regions().size(), -1) {
    walk(k.root());
  }
  int64_t pos(InstId i) const { return pos_[static_cast<size_t>(i)]; }
  int64_t end(RegionId r) const { return last_[static_cast<size_t>(r)]; }
  const std::vector<InstId>& order() const { return order_; }

private:
  void walk(RegionId id) {
    first_[static_cast<size_t>(id)] = static_cast<int64_t>(order_.size());
    for (const Item& it : k_.region(id).body) {
      if (it.kind == Item::Kind::Region) {
        walk(it.id);
        continue;
      }
      pos_[static_cast<size_t>(it.id)] = static_cast<int64_t>(order_.size());
      order_.push_back(it.id);
    }
    last_[static_cast<size_t>(id)] = static_cast<int64_t>(order_.size()) - 1;
  }
  const Kernel& k_;
  std::vector<int64_t> pos_, first_, last_;
  std::vector<InstId> order_;
};

/// Live ranges of the on-chip tensors, NKI's allocator model: a tile occupies its space from
/// the instruction that defines it to its last use, after which the space is reused. A use in
/// a loop the definition is outside of keeps the tile until that loop ends (every iteration
/// reads it); kernel outputs live to the end.
class LiveRanges {
public:
  LiveRanges(const Kernel& k, const Linearized& lin)
      : k_(k), lin_(lin), last_(k.tensors().size(), -1), def_(k.tensors().size(), kNone) {
    for (InstId i : lin.order()) {
      const Instruction& in = k.inst(i);
      if (in.result != kNone) {
        TensorId b = base(in.result);
        if (def_[static_cast<size_t>(b)] == kNone) def_[static_cast<size_t>(b)] = i;
        use(b, in);
      }
      for (const Operand& op : in.operands) use_pattern(op.ap, in);
    }
    for (const LoopAxis& ax : k.loop_axes())
      if (ax.dynamic_trip.tensor != kNone && ax.region != kNone)
        use_in_region(ax.dynamic_trip, ax.region);
    for (const Region& r : k.regions())
      if (r.kind == RegionKind::WhileScope && r.payload.condition.scalar.tensor != kNone)
        use_in_region(r.payload.condition.scalar, r.id);
    const int64_t end = static_cast<int64_t>(lin.order().size());
    for (TensorId o : k.outputs()) last_[static_cast<size_t>(base(o))] = end;
  }
  /// Position of the last use of base tensor `t` (-1 when it is never used).
  int64_t last(TensorId t) const { return last_[static_cast<size_t>(t)]; }

private:
  TensorId base(TensorId t) const {
    while (k_.tensor(t).alias_of != kNone) t = k_.tensor(t).alias_of;
    return t;
  }
  void use_pattern(const AccessPattern& ap, const Instruction& in) {
    for (const AccessPattern* p = &ap; p; p = p->indirect.get())
      if (p->tensor != kNone) use(base(p->tensor), in);
  }
  void use_in_region(const AccessPattern& ap, RegionId r) {
    // A loop's trip count or a while condition is read at the region's end, every iteration.
    for (const AccessPattern* p = &ap; p; p = p->indirect.get())
      if (p->tensor != kNone) {
        int64_t& l = last_[static_cast<size_t>(base(p->tensor))];
        l = std::max(l, lin_.end(r));
      }
  }
  void use(TensorId b, const Instruction& in) {
    int64_t at = lin_.pos(in.id);
    InstId d = def_[static_cast<size_t>(b)];
    if (d != kNone) {
      // The outermost repeating region holding the use but not the definition.
      std::unordered_set<RegionId> def_chain;
      for (RegionId r = k_.inst(d).region; r != kNone; r = k_.region(r).parent) def_chain.insert(r);
      for (RegionId r = in.region; r != kNone && !def_chain.count(r); r = k_.region(r).parent)
        if (repeats(k_.region(r).kind)) at = std::max(at, lin_.end(r));
    }
    int64_t& l = last_[static_cast<size_t>(b)];
    l = std::max(l, at);
  }
  const Kernel& k_;
  const Linearized& lin_;
  std::vector<int64_t> last_;
  std::vector<InstId> def_;
};

} // namespace

void check_capacity(const Kernel& k, int64_t sbuf_bytes) {
  if (k.root() == kNone) return;
  Linearized lin(k);
  LiveRanges live(k, lin);
  const size_t n = lin.order().size();
  // What each position frees once it has executed: the tiles whose last use it is.
  std::vector<std::vector<std::pair<bool, int64_t>>> frees(n + 1);
  int64_t sbuf = 0, banks = 0;
  for (size_t p = 0; p < n; ++p) {
    const Instruction& in = k.inst(lin.order()[p]);
    if (in.result != kNone) {
      const Tensor& t = k.tensor(in.result);
      if (t.alias_of == kNone && t.role == TensorRole::Local &&
          (t.memory() == Memory::SBUF || t.memory() == Memory::PSUM)) {
        const bool is_sbuf = t.memory() == Memory::SBUF;
        int64_t size = is_sbuf ? bytes_per_partition(t)
                               : (bytes_per_partition(t) + kPsumBankBytes - 1) / kPsumBankBytes;
        if (is_sbuf) {
          sbuf += size;
          if (sbuf > sbuf_bytes) err_sbuf_overflow(sbuf, sbuf_bytes, in.loc);
        } else {
          banks += size;
          if (banks > kPsumBanks) err_psum_overflow(banks, kPsumBanks, in.loc);
        }
        int64_t until = std::max<int64_t>(live.last(t.id), static_cast<int64_t>(p));
        frees[static_cast<size_t>(std::min<int64_t>(until, static_cast<int64_t>(n)))].push_back(
            {is_sbuf, size});
      }
    }
    for (const auto& [is_sbuf, size] : frees[p]) (is_sbuf ? sbuf : banks) -= size;
  }
}

} // namespace nki::sim
