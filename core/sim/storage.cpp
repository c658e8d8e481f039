#include "sim/storage.h"

#include <cstring>

#include "sim/diagnostics.h"
#include "sim/numerics.h"

namespace nki::sim {

using namespace nki::ir;

Storage::Storage(const Kernel& k) : k_(k), bufs_(k.tensors().size()) {}

TensorId Storage::base(TensorId t) const {
  const Tensor& x = k_.tensor(t);
  return x.alias_of != kNone ? x.alias_of : t;
}

Buffer& Storage::buffer(TensorId t) {
  TensorId b = base(t);
  std::unique_ptr<Buffer>& slot = bufs_.at(b);
  if (slot) return *slot;
  const Tensor& x = k_.tensor(b);
  auto buf = std::make_unique<Buffer>();
  buf->dtype = x.dtype;
  buf->elems = 1;
  for (int64_t s : x.shape) buf->elems *= s;
  int64_t nbytes = buf->nbytes();
  buf->words.reset(new uint64_t[static_cast<size_t>((nbytes + 7) / 8 + 1)]);
  allocated_ += nbytes;
  if (allocated_ > peak_) peak_ = allocated_;
  if (!x.constant.empty()) {
    std::vector<float> vals(x.constant.begin(), x.constant.end());
    encode_f32(x.dtype, buf->bytes(), 1, static_cast<int64_t>(vals.size()), vals.data());
    buf->fully_written = true;
  } else {
    fill_unwritten(x.dtype, buf->bytes(), buf->elems);
    buf->written.assign(static_cast<size_t>(buf->elems), 0);
  }
  slot = std::move(buf);
  return *slot;
}

void Storage::allocate(TensorId t) {
  Buffer& b = buffer(t);
  if (!k_.tensor(base(t)).constant.empty()) return;
  fill_unwritten(b.dtype, b.bytes(), b.elems);
  b.fully_written = false;
  b.written.assign(static_cast<size_t>(b.elems), 0);
  b.written_count = 0;
}

void Storage::mark_written(TensorId t) {
  Buffer& b = buffer(t);
  b.fully_written = true;
  b.written.clear();
  b.written.shrink_to_fit();
}

void Storage::reset_instance() {
  for (size_t i = 0; i < bufs_.size(); ++i) {
    if (!bufs_[i]) continue;
    switch (k_.tensor(static_cast<TensorId>(i)).buffer) {
    case ir::Buffer::PrivateHbm:
    case ir::Buffer::Sbuf:
    case ir::Buffer::Psum:
      allocated_ -= bufs_[i]->nbytes();
      bufs_[i].reset();
      break;
    default:
      break;
    }
  }
}

int64_t bytes_per_partition(const Tensor& t) {
  int64_t n = 1;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (static_cast<int>(d) != t.partition_dim) n *= t.shape[d];
  return n * dtype_size(t.dtype);
}

namespace {

constexpr int64_t kPsumBankBytes = 2048;
constexpr int64_t kPsumBanks = 8;

class CapacityWalk {
public:
  CapacityWalk(const Kernel& k, int64_t sbuf) : k_(k), sbuf_limit_(sbuf) {}

  void region(RegionId id) {
    int64_t sbuf0 = sbuf_, banks0 = banks_;
    for (const Item& it : k_.region(id).body) {
      if (it.kind == Item::Kind::Region) {
        region(it.id);
        continue;
      }
      const Instruction& in = k_.inst(it.id);
      if (in.result == kNone) continue;
      const Tensor& t = k_.tensor(in.result);
      if (t.alias_of != kNone || t.role != TensorRole::Local) continue;
      if (t.memory() == Memory::SBUF) {
        sbuf_ += bytes_per_partition(t);
        if (sbuf_ > sbuf_limit_) err_sbuf_overflow(sbuf_, sbuf_limit_, in.loc);
      } else if (t.memory() == Memory::PSUM) {
        banks_ += (bytes_per_partition(t) + kPsumBankBytes - 1) / kPsumBankBytes;
        if (banks_ > kPsumBanks) err_psum_overflow(banks_, kPsumBanks, in.loc);
      }
    }
    sbuf_ = sbuf0; // the region closes: what it allocated is released
    banks_ = banks0;
  }

private:
  const Kernel& k_;
  int64_t sbuf_limit_;
  int64_t sbuf_ = 0, banks_ = 0;
};

} // namespace

void check_capacity(const Kernel& k, int64_t sbuf_bytes) {
  if (k.root() == kNone) return;
  CapacityWalk(k, sbuf_bytes).region(k.root());
}

} // namespace nki::sim
