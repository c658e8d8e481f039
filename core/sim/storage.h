#pragma once
/// Memory of one simulation: a byte buffer per tensor (aliases — reshape/view — share their
/// base tensor's buffer), plus which elements were ever written.
///
/// Written-ness is tracked cheaply: a buffer is either fully written (the common case once a
/// tile has been produced: no per-element state) or carries a byte per element that writes set.
/// Allocation (re-)executes at the instruction defining a tensor: memory that is allocated and
/// not written reads as NaN (0 for integers) and the first such read is reported. Memory is not
/// filled at allocation (that would cost a pass over every tensor): reads substitute the value
/// through the written map, and outputs are filled when the run ends.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace nki::sim {

/// Which elements of a buffer were ever written: a prefix [0, prefix) written in order, plus a
/// bit per element for writes beyond it (allocated with the first such write), nothing once all
/// are. A tensor written from its start in order — a fused tile loop writing rows one after the
/// other — keeps no bits at all; runs set whole words at a time.
class WrittenMap {
public:
  bool all() const { return all_; }
  bool test(int64_t e) const {
    return all_ || e < prefix_ || (!bits_.empty() && ((bits_[e >> 6] >> (e & 63)) & 1u));
  }
  /// Forgets every write (a new allocation of the tensor).
  void reset(int64_t elems);
  void set_all();
  void set(int64_t e) { set_range(e, 1); }
  void set_range(int64_t e, int64_t n);
  /// Whether elements [e, e + n) were all written.
  bool test_range(int64_t e, int64_t n) const;
  /// Elements written so far.
  int64_t count() const;

private:
  void check_full();
  bool all_ = false;
  int64_t elems_ = 0;
  int64_t prefix_ = 0;  // [0, prefix_) written
  int64_t pending_ = 0; // bit writes since the last full check (may count re-writes)
  std::vector<uint64_t> bits_;
};

struct Buffer {
  ir::DType dtype = ir::DType::Float32; ///< dtype of the base tensor (float32 for a
                                        ///< low-precision tensor when precise_fp is off)
  int64_t int_fill = 0;                 ///< what a never-written integer element reads as
  int64_t elems = 0;
  std::unique_ptr<uint64_t[]> words; ///< holds the bytes (at `skew` bytes in)
  size_t skew = 0;
  uint8_t* bytes() const { return reinterpret_cast<uint8_t*>(words.get()) + skew; }
  /// Room for nbytes() bytes, uninitialised. A buffer of 16 KiB or more starts `slot` · 1280
  /// bytes past a 4 KiB boundary (modulo 4096, in steps of 256), so that buffers made one after
  /// another do not all share their addresses' low twelve bits: a loop loading one and storing
  /// another at about the same offset modulo 4 KiB has each load wait on an earlier store it
  /// only appears to depend on (both builds; a row copy in wasm took 1.7x as long, and
  /// layernorm's epilogue, reading 32 KiB gamma and beta rows, 5% longer). Returns whether it
  /// was staggered (the slot used).
  bool allocate_bytes(int64_t slot);
  int64_t nbytes() const { return elems * ir::dtype_size(dtype); }
  WrittenMap written;
  bool read_only = false; ///< a parameter nothing writes (KernelPlan::read_only)
};

/// A tile whose elements are, one for one, elements of read-only memory (a load or copy of a
/// parameter nothing writes, KernelPlan::alias): reads of the tile read that memory in place.
/// Element (i0, i1, ...) of the tile is element origin + Σ stride[d] · id of `buf`.
struct Redirect {
  Buffer* buf = nullptr;
  int64_t origin = 0;
  std::vector<int64_t> stride; ///< per dimension of the tile
};

/// How memory behaves: the never-written integer value (Beta 1 reads 0; the current
/// language's simulator fills new tensors with 4) and NKI_PRECISE_FP (on: bf16/fp16/fp8/tf32
/// tensors keep their own bytes; off: they are kept as float32, rounded only at the outputs).
struct MemoryOptions {
  int64_t int_fill = 0;
  bool precise_fp = true;
  /// With precise_fp off, float16 is kept as float32 too (the current language); Beta 1's
  /// simulator computes float16 in NumPy's float16 and only its custom types in fp32.
  bool float16_in_fp32 = true;
};

class Storage {
public:
  explicit Storage(const ir::Kernel& k, MemoryOptions opts = {});

  /// The buffer of tensor `t` (its base's, for an alias), created on first use.
  Buffer& buffer(ir::TensorId t);
  /// Whether `t`'s buffer exists in this run (instance, for non-shared memory).
  bool has(ir::TensorId t) const { return bufs_.at(base(t)) != nullptr; }
  /// Base tensor of `t` (itself unless it aliases another).
  ir::TensorId base(ir::TensorId t) const;
  /// Allocates (or re-allocates, at a new execution of its defining instruction) `t`: the
  /// contents become "never written" (NaN / 0).
  void allocate(ir::TensorId t);
  /// Fills the never-written elements of `t` with the unwritten value (NaN; 0 for integers),
  /// for the host to read the memory directly (outputs).
  void materialize(ir::TensorId t);
  /// Marks `t` as fully written without touching its bytes (inputs, constants).
  void mark_written(ir::TensorId t);
  /// Where tile `t`'s elements are when not in its own buffer: the read-only memory it aliases,
  /// else the strip buffer it lives in while its group runs in strips; nullptr otherwise.
  const Redirect* redirect(ir::TensorId t) const {
    const Redirect& r = redirects_[static_cast<size_t>(t)];
    if (r.buf) return &r;
    const Redirect& s = strips_[static_cast<size_t>(t)];
    return s.buf ? &s : nullptr;
  }
  /// Makes `t` read `r` (its own buffer, if any, is left as it is and no longer read).
  void set_redirect(ir::TensorId t, const Redirect& r) { redirects_[static_cast<size_t>(t)] = r; }
  void clear_redirect(ir::TensorId t) { redirects_[static_cast<size_t>(t)].buf = nullptr; }
  /// Places tile `t` in a strip buffer (Interpreter strips: only the rows of the current strip
  /// exist, `r.origin` shifting them to the buffer's start), or takes it out again.
  void set_strip(ir::TensorId t, const Redirect& r) { strips_[static_cast<size_t>(t)] = r; }
  void clear_strip(ir::TensorId t) { strips_[static_cast<size_t>(t)].buf = nullptr; }
  /// The dtype `x`'s elements are held in: its own, except a computed low-precision tensor when
  /// precise_fp is off (float32). Strip buffers follow it too.
  ir::DType held_dtype(const ir::Tensor& x) const;
  /// Counts scratch memory (strip buffers) in allocated_bytes / peak_bytes.
  void account(int64_t bytes) {
    allocated_ += bytes;
    if (allocated_ > peak_) peak_ = allocated_;
  }
  /// Drops the buffers of every tensor whose memory is not shared across SPMD instances
  /// (private HBM, SBUF, PSUM), so that the next instance starts afresh.
  void reset_instance();
  /// Bytes currently allocated (for the peak-memory figure).
  int64_t allocated_bytes() const { return allocated_; }
  int64_t peak_bytes() const { return peak_; }

private:
  const ir::Kernel& k_;
  MemoryOptions opts_;
  std::vector<std::unique_ptr<Buffer>> bufs_; // by base tensor id
  std::vector<Redirect> redirects_, strips_;  // by tensor id
  int64_t allocated_ = 0, peak_ = 0;
  int64_t large_ = 0; // buffers of 16 KiB or more made so far (Buffer::allocate_bytes' slot)
};

/// Bytes per partition a tensor occupies in SBUF/PSUM (every dimension but the partition
/// dimension, times the element size).
int64_t bytes_per_partition(const ir::Tensor& t);

} // namespace nki::sim
