#pragma once
/// Memory of one simulation: a byte buffer per tensor (aliases — reshape/view — share their
/// base tensor's buffer), plus which elements were ever written.
///
/// Written-ness is tracked cheaply: a buffer is either fully written (the common case once a
/// tile has been produced: no per-element state) or carries a byte per element that writes set.
/// Allocation (re-)executes at the instruction defining a tensor: memory that is allocated and
/// not written reads as NaN (0 for integers) and the first such read is reported.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace nki::sim {

struct Buffer {
  ir::DType dtype = ir::DType::Float32; ///< dtype of the base tensor
  int64_t elems = 0;
  std::unique_ptr<uint64_t[]> words; ///< the bytes, 8-byte aligned
  uint8_t* bytes() const { return reinterpret_cast<uint8_t*>(words.get()); }
  int64_t nbytes() const { return elems * ir::dtype_size(dtype); }
  bool fully_written = false;
  std::vector<uint8_t> written; ///< per element; meaningful while !fully_written
  int64_t written_count = 0;
};

class Storage {
public:
  explicit Storage(const ir::Kernel& k);

  /// The buffer of tensor `t` (its base's, for an alias), created on first use.
  Buffer& buffer(ir::TensorId t);
  /// Whether `t`'s buffer exists in this run (instance, for non-shared memory).
  bool has(ir::TensorId t) const { return bufs_.at(base(t)) != nullptr; }
  /// Base tensor of `t` (itself unless it aliases another).
  ir::TensorId base(ir::TensorId t) const;
  /// Allocates (or re-allocates, at a new execution of its defining instruction) `t`: the
  /// contents become "never written" (NaN / 0).
  void allocate(ir::TensorId t);
  /// Marks `t` as fully written without touching its bytes (inputs, constants).
  void mark_written(ir::TensorId t);
  /// Drops the buffers of every tensor whose memory is not shared across SPMD instances
  /// (private HBM, SBUF, PSUM), so that the next instance starts afresh.
  void reset_instance();
  /// Bytes currently allocated (for the peak-memory figure).
  int64_t allocated_bytes() const { return allocated_; }
  int64_t peak_bytes() const { return peak_; }

private:
  const ir::Kernel& k_;
  std::vector<std::unique_ptr<Buffer>> bufs_; // by base tensor id
  int64_t allocated_ = 0, peak_ = 0;
};

/// Bytes per partition a tensor occupies in SBUF/PSUM (every dimension but the partition
/// dimension, times the element size).
int64_t bytes_per_partition(const ir::Tensor& t);

/// SBUF and PSUM capacity at every point of the kernel, by walking the region tree: a tensor
/// is live from the instruction that defines it until its region closes. Raises NKI's
/// "stack overflow" error at the allocation that first exceeds a limit.
/// `sbuf_bytes` is the usable SBUF per partition (192 KiB on trn1, 224 KiB on trn2).
void check_capacity(const ir::Kernel& k, int64_t sbuf_bytes);

} // namespace nki::sim
