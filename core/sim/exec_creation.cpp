// Creation: allocation (nl.ndarray / zeros / ones / full / *_like), constants (shared_constant,
// shared_identity_matrix), aliases (reshape, view), memset and iota.
#include <vector>

#include "sim/exec.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

void fill(Exec& ex, const Instruction& in, float value) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  float buf[kChunk];
  std::fill(buf, buf + kChunk, value);
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk)
      write_f32(out, pos, lo + c, std::min(kChunk, n - c), buf);
  });
}

// nl.ndarray and friends: (re)allocates the tensor; an init value fills it.
void exec_allocate(Exec& ex, const Instruction& in) {
  const Tensor& t = ex.k.tensor(in.result);
  // Shared HBM is allocated once for all SPMD instances.
  if (t.buffer == ir::Buffer::SharedHbm && ex.storage.has(t.id)) return;
  if (!ex.has_attr(in, "value")) {
    ex.storage.allocate(t.id);
    return;
  }
  fill(ex, in, static_cast<float>(ex.attr_num(in, "value", 0)));
}

void exec_memset(Exec& ex, const Instruction& in) {
  fill(ex, in, static_cast<float>(ex.attr_num(in, "value", 0)));
}

// Constants and aliases hold no work: their buffers are their base's, created on first use.
void exec_nothing(Exec& ex, const Instruction& in) {
  if (in.result != kNone) ex.storage.buffer(in.result);
}

// iota: an affine expression of the tile's axes (and loop variables / program ids), computed
// in 32-bit integers and cast to the output dtype. "affine" = [c, kind, id, coeff, ...] with
// kind 0 = loop variable, 1 = program id, 2 = tile axis.
void exec_iota(Exec& ex, const Instruction& in) {
  if (ex.has_attr(in, "pattern")) return exec_iota_pattern(ex, in); // the current language
  std::vector<int64_t> aff = ex.attr_ints(in, "affine");
  if (aff.empty()) ex.unsupported("iota without its affine expression");
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  int64_t base = aff[0];
  int64_t a[kMaxRank] = {0};
  const int r = dom.rank();
  const int off = r - static_cast<int>(ex.out_shape(in).size());
  for (size_t i = 1; i + 3 <= aff.size(); i += 3) {
    int64_t kind = aff[i], id = aff[i + 1], c = aff[i + 2];
    if (kind == 0)
      base += c * ex.env.iv.at(static_cast<size_t>(id));
    else if (kind == 1)
      base += c * (id < static_cast<int64_t>(ex.env.pid.size()) ? ex.env.pid[id] : 0);
    else if (id + off >= 0 && id + off < r)
      a[id + off] += c;
  }
  int64_t vals[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t v0 = base;
    for (int k = 0; k < r - 1; ++k) v0 += a[k] * pos[k];
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      for (int64_t i = 0; i < m; ++i) vals[i] = static_cast<int32_t>(v0 + a[r - 1] * (lo + c + i));
      write_i64(out, pos, lo + c, m, vals);
    }
  });
}

// An on-chip tile without a fill (the current language's ndarray): the instructions of a strip
// write it row by row.
bool unfilled_on_chip(const Kernel& k, const Instruction& in) {
  const Tensor& t = k.tensor(in.result);
  return !find_attr(in, "value") && t.constant.empty() &&
         (t.memory() == Memory::SBUF || t.memory() == Memory::PSUM);
}

} // namespace

void register_creation_execs(ExecTable& t) {
  OpFacts allocation, view;
  allocation.row_local = allocation.fusable = true;
  allocation.row_local_if = unfilled_on_chip;
  view.view = true;
  t.add("ndarray", exec_allocate, allocation);
  for (const char* op : {"zeros", "ones", "full", "empty_like", "zeros_like"})
    t.add(op, exec_allocate);
  for (const char* op : {"shared_constant", "shared_identity_matrix"}) t.add(op, exec_nothing);
  for (const char* op : {"reshape", "view"}) t.add(op, exec_nothing, view);
  t.add("memset", exec_memset);
  t.add("iota", exec_iota);
}

} // namespace nki::sim
