// SBUF / PSUM capacity of a current-language kernel by liveness: its Python loops are unrolled
// and its tiles outlive the iteration that made them (lists of tiles), so "live until the
// region closes" would count every tile of a kernel at once. Here a tensor is live from its
// allocation to its last use in program order; a use inside a runtime loop (fori_loop,
// while_loop) of a tensor made outside it keeps the tensor live to the loop's end. NKI's own
// simulator does not model capacity: these are nki-playground's warnings.
#include "sim/liveness.h"

#include <algorithm>
#include <map>
#include <vector>

#include "ir/target.h"
#include "sim/diagnostics.h"
#include "sim/storage.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

struct Live {
  int64_t def = -1, last = -1;
  const Instruction* alloc = nullptr;
};

class Walk {
public:
  explicit Walk(const Kernel& k) : k_(k) {}

  void region(RegionId id) {
    const Region& r = k_.region(id);
    bool runtime_loop = r.kind == RegionKind::WhileScope ||
                        (r.kind == RegionKind::LoopScope && r.payload.axis != kNone &&
                         k_.loop_axis(r.payload.axis).tag == LoopAxis::Tag::DynamicAxis);
    int64_t start = pos_;
    if (runtime_loop) loops_.push_back(start);
    for (const Item& it : r.body) {
      if (it.kind == Item::Kind::Region)
        region(it.id);
      else
        inst(k_.inst(it.id));
    }
    if (runtime_loop) {
      loops_.pop_back();
      // A tensor made before the loop and used in it stays live for the whole loop.
      for (auto& [t, l] : live_)
        if (l.def < start && l.last >= start) l.last = std::max(l.last, pos_);
    }
  }

  std::map<TensorId, Live> live_;

private:
  void use(TensorId t) {
    TensorId b = k_.tensor(t).alias_of != kNone ? k_.tensor(t).alias_of : t;
    auto found = live_.find(b);
    if (found != live_.end()) found->second.last = std::max(found->second.last, pos_);
  }

  void inst(const Instruction& in) {
    if (in.result != kNone) {
      const Tensor& t = k_.tensor(in.result);
      if (t.alias_of == kNone && t.role == TensorRole::Local && t.memory() != Memory::HBM) {
        Live& l = live_[t.id];
        if (l.def < 0) {
          l.def = l.last = pos_;
          l.alloc = &in;
        }
      }
    }
    for (const Operand& o : in.operands) {
      if (o.is_scalar || o.reg != kNone || o.ap.tensor == kNone) continue;
      use(o.ap.tensor);
      if (o.ap.indirect) use(o.ap.indirect->tensor);
    }
    ++pos_;
  }

  const Kernel& k_;
  int64_t pos_ = 0;
  std::vector<int64_t> loops_;
};

} // namespace

std::vector<CapacityWarning> capacity_by_liveness(const Kernel& k, int64_t sbuf_bytes,
                                                  const std::string& target) {
  std::vector<CapacityWarning> out;
  if (k.root() == kNone) return out;
  Walk w(k);
  w.region(k.root());
  // Events in program order: allocations add at def, releases after the last use.
  struct Event {
    int64_t at;
    int order; // releases (0) before allocations (1) at the same position
    int64_t sbuf, banks;
    const Instruction* alloc;
  };
  std::vector<Event> ev;
  for (const auto& [id, l] : w.live_) {
    const Tensor& t = k.tensor(id);
    int64_t bytes = bytes_per_partition(t);
    bool sbuf = t.memory() == Memory::SBUF;
    int64_t s = sbuf ? bytes : 0, b = sbuf ? 0 : (bytes + kPsumBankBytes - 1) / kPsumBankBytes;
    ev.push_back({l.def, 1, s, b, l.alloc});
    ev.push_back({l.last + 1, 0, -s, -b, nullptr});
  }
  std::sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
    return a.at != b.at ? a.at < b.at : a.order < b.order;
  });
  int64_t sbuf = 0, banks = 0;
  bool sbuf_said = false, psum_said = false;
  for (const Event& e : ev) {
    sbuf += e.sbuf;
    banks += e.banks;
    if (!e.alloc) continue;
    if (!sbuf_said && sbuf > sbuf_bytes) {
      out.push_back({warn_sbuf_over_capacity(sbuf, sbuf_bytes, target), e.alloc->loc});
      sbuf_said = true;
    }
    if (!psum_said && banks > kPsumBanks) {
      out.push_back({warn_psum_over_capacity(banks, kPsumBanks), e.alloc->loc});
      psum_said = true;
    }
  }
  return out;
}

} // namespace nki::sim
