#pragma once
/// Access patterns evaluated for one execution of an instruction.
///
/// With the loop variables and program ids fixed, every index of an access pattern is affine
/// in the tile axes, so an operand becomes a strided view: an element offset at tile position
/// 0 plus one stride per axis. A mask becomes, for each position of the outer axes, one
/// interval of the innermost axis. Executors therefore work on runs (a start and a length
/// along the innermost axis) that read and write whole strided rows, never per-element affine
/// evaluation. Indirect (runtime) indices are the one per-element path.
#include <cstdint>
#include <deque>
#include <vector>

#include "ir/ir.h"
#include "sim/numerics.h"
#include "sim/storage.h"

namespace nki::sim {

constexpr int kMaxRank = 8;
/// Elements per scratch chunk: runs are processed this many at a time.
constexpr int64_t kChunk = 1024;

/// Values of the loop variables and program ids at this point of the execution.
struct Env {
  std::vector<int64_t> iv;  ///< by loop axis id
  std::vector<int64_t> pid; ///< by grid axis
  /// A partition window (Interpreter strips): while win_rows > 0, every domain of rank >= 2
  /// whose axis 0 spans win_rows partitions visits only partitions [win_lo, win_hi).
  int64_t win_rows = 0, win_lo = 0, win_hi = 0;
  bool keep_masks = false;  ///< SimOptions::keep_masks
  std::vector<int64_t> reg; ///< register values, by register id (32-bit, sign-extended)
  /// The part of `e` that does not depend on tile axes.
  int64_t eval_symbols(const ir::AffineExpr& e) const;
  /// Whether a predicate over loop variables and program ids holds.
  bool holds(const ir::Predicate& p) const;
};

/// The tile positions an instruction processes: a shape, refined by a mask.
class Domain {
public:
  Domain(const std::vector<int64_t>& shape, const ir::Predicate& mask, const Env& env);

  int rank() const { return rank_; }
  /// The tile's extent along axis k (a window does not change it).
  int64_t extent(int k) const { return shape_[k]; }
  /// Partitions [row_lo(), row_hi()) of axis 0 are visited (all of them unless windowed).
  int64_t row_lo() const { return row_lo_; }
  int64_t row_hi() const { return row_hi_; }
  bool windowed() const { return rank_ > 1 && (row_lo_ != 0 || row_hi_ != shape_[0]); }
  const int64_t* shape() const { return shape_; }
  bool masked() const { return !terms_.empty() || none_; }
  bool none() const { return none_; }

  /// Calls f(pos, lo, n) for every maximal run along the innermost axis: `pos` holds the
  /// outer axes' positions (rank-1 values), the run covers innermost positions [lo, lo+n).
  template <typename F> void for_each_run(F&& f) const {
    if (none_) return;
    int64_t pos[kMaxRank] = {0};
    const int outer = rank_ - 1;
    if (outer > 0) {
      if (row_lo_ >= row_hi_) return;
      pos[0] = row_lo_;
    }
    for (;;) {
      int64_t lo = 0, hi = shape_[rank_ - 1];
      if (inner_interval(pos, lo, hi) && hi > lo) f(static_cast<const int64_t*>(pos), lo, hi - lo);
      int k = outer - 1;
      while (k > 0 && ++pos[k] == shape_[k]) pos[k--] = 0;
      if (k > 0) continue;                      // an axis between 0 and the innermost moved
      if (k < 0 || ++pos[0] == row_hi_) return; // else the next partition
    }
  }
  /// Smallest and largest position visited along each axis (false when nothing is visited).
  bool bounds(int64_t* lo, int64_t* hi) const;
  /// Number of positions visited.
  int64_t count() const;

private:
  struct Term {
    int64_t c;
    int64_t a[kMaxRank];
    ir::CmpOp op;
  };
  bool inner_interval(const int64_t* pos, int64_t& lo, int64_t& hi) const;
  /// Whether term t holds at every position the domain visits (its rows, all of its columns).
  bool holds_everywhere(const Term& t) const;
  bool scan_bounds(int64_t* lo, int64_t* hi) const;
  int rank_ = 0;
  int64_t shape_[kMaxRank];
  int64_t row_lo_ = 0, row_hi_ = 0;
  std::vector<Term> terms_;
  bool none_ = false;
  mutable int bounds_state_ = 0; // 0: not computed, 1: visited, 2: nothing visited
  mutable int64_t blo_[kMaxRank], bhi_[kMaxRank];
};

/// One operand resolved onto a domain (its tile axes right-aligned onto the domain's axes;
/// extent-1 axes broadcast).
struct View {
  const ir::Tensor* tensor = nullptr;
  Buffer* buf = nullptr;
  ir::DType dtype = ir::DType::Float32;
  int esize = 4;
  uint8_t* data = nullptr;
  int rank = 0;
  int64_t origin = 0;
  int64_t stride[kMaxRank] = {0};
  // indirect indexing: the element offset adds idx(t) * ind_stride, idx read through `ind`
  const View* ind = nullptr;
  int64_t ind_stride = 0, ind_dim = -1, ind_base = 0, ind_size = 0, ind_scale = 1;
  int64_t ind_dstride[kMaxRank] = {0}; ///< the indirect dimension's static index along the tile
  bool skip_oob = false; ///< oob_mode=skip: out-of-bounds indirect elements are skipped
  const ir::SourceLoc* loc = nullptr; ///< the instruction, for run-time errors
  /// The pattern's tile has another shape with as many elements: its elements pair with the
  /// domain's in row-major order. Not a strided view; Exec::view materializes it.
  bool linear = false;

  int64_t offset(const int64_t* pos, int64_t lo) const {
    int64_t o = origin + lo * stride[rank - 1];
    for (int k = 0; k < rank - 1; ++k) o += stride[k] * pos[k];
    return o;
  }
  int64_t inner_stride() const { return stride[rank - 1]; }
};

class Reporter;

/// The location of a view made outside any instruction. resolve() keeps a pointer to the
/// location it is given (for run-time errors), so callers pass an object that outlives the
/// view: an instruction's `loc`, or this one.
inline const ir::SourceLoc& no_loc() {
  static const ir::SourceLoc none;
  return none;
}

/// Resolves `ap` onto `dom` in `storage`; checks that every element it reaches is inside the
/// tensor (static part; indirect indices are checked as they are read).
View resolve(Storage& storage, const ir::Kernel& k, const ir::AccessPattern& ap, const Domain& dom,
             const Env& env, const ir::SourceLoc& loc, std::deque<View>& indirect_pool);

/// Reports the first read of never-written memory of a run.
class Reporter {
public:
  virtual ~Reporter() = default;
  virtual void unwritten_read(const View& v, int64_t element) = 0;
};

/// Reads a run as fp32 (decoding the view's dtype).
void read_f32(const View& v, const int64_t* pos, int64_t lo, int64_t n, float* out, Reporter& r);
/// Writes a run of fp32 values (cast on write).
void write_f32(const View& v, const int64_t* pos, int64_t lo, int64_t n, const float* in);
/// Integer forms (bit-exact paths).
void read_i64(const View& v, const int64_t* pos, int64_t lo, int64_t n, int64_t* out, Reporter& r);
void write_i64(const View& v, const int64_t* pos, int64_t lo, int64_t n, const int64_t* in);
/// Copies a run between two views of the same dtype, bit for bit.
void copy_bits(const View& dst, const View& src, const int64_t* pos, int64_t lo, int64_t n,
               Reporter& r);

/// Zero-copy access for the common case: the run's `n` elements as a contiguous fp32 array
/// when the view is float32, direct (no indirect index), stride 1 along the run and — for
/// reading — fully written; nullptr otherwise (use read_f32 / write_f32).
const float* direct_in(const View& v, const int64_t* pos, int64_t lo);
float* direct_out(const View& v, const int64_t* pos, int64_t lo);
/// After computing into direct_out's pointer: records the run as written.
void wrote_direct(const View& v, const int64_t* pos, int64_t lo, int64_t n);

/// Marks the view's tensor as fully written when `dom` (unmasked) makes it cover every
/// element; otherwise writes are tracked per element.
void note_write_coverage(const View& v, const Domain& dom);

} // namespace nki::sim
