#include "sim/storage.h"

#include <algorithm>
#include <cstring>

#include "sim/diagnostics.h"
#include "sim/numerics.h"

namespace nki::sim {

using namespace nki::ir;

Storage::Storage(const Kernel& k, MemoryOptions opts)
    : k_(k), opts_(opts), bufs_(k.tensors().size()), redirects_(k.tensors().size()),
      strips_(k.tensors().size()) {}

namespace {
bool low_precision(DType t) {
  return t == DType::BFloat16 || t == DType::Float16 || t == DType::TFloat32 ||
         t == DType::Float8E4M3 || t == DType::Float8E5M2;
}
} // namespace

TensorId Storage::base(TensorId t) const {
  const Tensor& x = k_.tensor(t);
  return x.alias_of != kNone ? x.alias_of : t;
}

DType Storage::held_dtype(const Tensor& x) const {
  // Inputs keep the bytes the host gave, constants the bytes they were declared in; computed
  // low-precision tensors hold fp32 values.
  if (!opts_.precise_fp && low_precision(x.dtype) && x.role == TensorRole::Local &&
      x.constant.empty() && (x.dtype != DType::Float16 || opts_.float16_in_fp32))
    return DType::Float32;
  return x.dtype;
}

bool Buffer::allocate_bytes(int64_t slot) {
  const size_t n = static_cast<size_t>(nbytes());
  if (n < (size_t{1} << 14)) {
    words.reset(new uint64_t[(n + 7) / 8 + 1]);
    skew = 0;
    return false;
  }
  words.reset(new uint64_t[(n + 4096 + 7) / 8 + 1]);
  const uintptr_t at = reinterpret_cast<uintptr_t>(words.get());
  const uintptr_t want = static_cast<uintptr_t>(slot * 5 % 16) * 256;
  skew = static_cast<size_t>((want - at) & 4095);
  return true;
}

Buffer& Storage::buffer(TensorId t) {
  TensorId b = base(t);
  std::unique_ptr<Buffer>& slot = bufs_.at(b);
  if (slot) return *slot;
  const Tensor& x = k_.tensor(b);
  auto buf = std::make_unique<Buffer>();
  buf->dtype = held_dtype(x);
  buf->int_fill = opts_.int_fill;
  buf->elems = 1;
  for (int64_t s : x.shape) buf->elems *= s;
  int64_t nbytes = buf->nbytes();
  if (buf->allocate_bytes(large_)) ++large_;
  allocated_ += nbytes;
  if (allocated_ > peak_) peak_ = allocated_;
  if (!x.constant.empty()) {
    std::vector<float> vals(x.constant.begin(), x.constant.end());
    encode_f32(x.dtype, buf->bytes(), 1, static_cast<int64_t>(vals.size()), vals.data());
    buf->written.set_all();
  } else if (x.role == TensorRole::Param) {
    buf->written.set_all(); // inputs are written before the run
  } else {
    // Not filled: never-written elements read as NaN / 0 through the written map, and
    // materialize() fills them where the host reads memory directly (outputs).
    buf->written.reset(buf->elems);
  }
  slot = std::move(buf);
  return *slot;
}

void Storage::allocate(TensorId t) {
  Buffer& b = buffer(t);
  if (!k_.tensor(base(t)).constant.empty()) return;
  b.written.reset(b.elems);
}

void Storage::mark_written(TensorId t) {
  buffer(t).written.set_all();
}

void Storage::materialize(TensorId t) {
  Buffer& b = buffer(t);
  if (b.written.all()) return;
  const int es = dtype_size(b.dtype);
  uint8_t one[4];
  fill_unwritten(b.dtype, one, 1, b.int_fill);
  for (int64_t i = 0; i < b.elems; ++i)
    if (!b.written.test(i)) std::memcpy(b.bytes() + i * es, one, es);
}

void Storage::reset_instance() {
  for (size_t i = 0; i < bufs_.size(); ++i) {
    switch (k_.tensor(static_cast<TensorId>(i)).buffer) {
    case ir::Buffer::PrivateHbm:
    case ir::Buffer::Sbuf:
    case ir::Buffer::Psum:
      redirects_[i].buf = nullptr;
      if (!bufs_[i]) break;
      allocated_ -= bufs_[i]->nbytes();
      bufs_[i].reset();
      break;
    default:
      break;
    }
  }
}

void WrittenMap::reset(int64_t elems) {
  all_ = false;
  elems_ = elems;
  prefix_ = 0;
  pending_ = 0;
  bits_.clear(); // (keeps its memory: the next bits start from zeros again)
}

void WrittenMap::set_all() {
  all_ = true;
  bits_.clear();
  bits_.shrink_to_fit();
}

namespace {
// The bits of word w that [e, end) covers (w's elements are [64 w, 64 w + 64)).
uint64_t word_mask(int64_t w, int64_t e, int64_t end) {
  const int64_t lo = std::max<int64_t>(e - 64 * w, 0), hi = std::min<int64_t>(end - 64 * w, 64);
  const uint64_t upto = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
  return upto & ~((uint64_t{1} << lo) - 1);
}
} // namespace

void WrittenMap::set_range(int64_t e, int64_t n) {
  if (all_ || n <= 0) return;
  const int64_t end = e + n;
  if (end <= prefix_) return;
  if (e <= prefix_) { // continues the prefix (and perhaps meets bits set beyond it)
    prefix_ = end;
    // Over the bits set from the new end on, a word at a time: the run of ones from the
    // prefix's position in its word (the word shifted down has zeros on top, so the run
    // stops at the word's end at the latest).
    while (!bits_.empty() && prefix_ < elems_) {
      const int at = static_cast<int>(prefix_ & 63);
      const uint64_t ones = ~(bits_[static_cast<size_t>(prefix_ >> 6)] >> at);
      const int run = ones == 0 ? 64 : __builtin_ctzll(ones);
      prefix_ += run;
      if (run < 64 - at) break;
    }
    if (prefix_ >= elems_) set_all();
    return;
  }
  if (bits_.empty()) bits_.assign(static_cast<size_t>((elems_ + 63) >> 6), 0);
  const int64_t first = e >> 6, last = (end - 1) >> 6;
  bits_[static_cast<size_t>(first)] |= word_mask(first, e, end);
  for (int64_t w = first + 1; w < last; ++w) bits_[static_cast<size_t>(w)] = ~uint64_t{0};
  if (last != first) bits_[static_cast<size_t>(last)] |= word_mask(last, e, end);
  pending_ += n;
  if (pending_ >= elems_ - prefix_) check_full();
}

bool WrittenMap::test_range(int64_t e, int64_t n) const {
  if (all_ || n <= 0) return true;
  const int64_t end = e + n;
  if (end <= prefix_) return true;
  if (bits_.empty()) return false;
  e = std::max(e, prefix_);
  const int64_t first = e >> 6, last = (end - 1) >> 6;
  for (int64_t w = first; w <= last; ++w) {
    const uint64_t m = w == first || w == last ? word_mask(w, e, end) : ~uint64_t{0};
    if ((bits_[static_cast<size_t>(w)] & m) != m) return false;
  }
  return true;
}

int64_t WrittenMap::count() const {
  if (all_) return elems_;
  int64_t n = prefix_;
  if (bits_.empty() || prefix_ >= elems_) return n;
  const int64_t first = prefix_ >> 6;
  n += __builtin_popcountll(bits_[static_cast<size_t>(first)] & word_mask(first, prefix_, elems_));
  for (size_t w = static_cast<size_t>(first) + 1; w < bits_.size(); ++w)
    n += __builtin_popcountll(bits_[w]);
  return n;
}

void WrittenMap::check_full() {
  const int64_t n = count();
  if (n >= elems_)
    set_all();
  else
    pending_ = n - prefix_; // (the next check: when the writes could have filled the rest)
}

int64_t bytes_per_partition(const Tensor& t) {
  int64_t n = 1;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (static_cast<int>(d) != t.partition_dim) n *= t.shape[d];
  return n * dtype_size(t.dtype);
}

} // namespace nki::sim
