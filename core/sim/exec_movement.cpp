// Data movement: DMA (load, store, dma_copy with read-modify-write and oob_mode, transposing
// loads), on-chip copies (tensor_copy, broadcast_to, dynamic-offset copies), gathers and
// atomic read-modify-write. Same-dtype copies are bit-exact; a dtype change goes through fp32
// and is cast on write.
#include <algorithm>
#include <vector>

#include "sema/sema.h"
#include "sim/diagnostics.h"
#include "sim/exec.h"
#include "sim/math_kernels.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

// dst <- src over the destination's tile (masked), optionally dst = dst op src.
void copy_into(Exec& ex, const Domain& dom, const View& dst, const View& src, bool through_f32,
               const Alu* rmw = nullptr) {
  const bool bits = !through_f32 && !rmw && dst.dtype == src.dtype;
  // A bit copy of memory onto itself (a tile living in its store's destination, plan.h
  // StripGroup::forward) changes nothing where the source was written.
  const bool onto_itself = bits && !dst.ind && !src.ind && dst.buf == src.buf &&
                           dst.rank == src.rank && dst.origin == src.origin &&
                           std::equal(dst.stride, dst.stride + dst.rank, src.stride) &&
                           src.inner_stride() == 1 && src.esize == elem_size(src.buf->dtype);
  float a[kChunk], b[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    if (onto_itself && src.buf->written.test_range(src.offset(pos, lo), n)) {
      ex.log.bytes_moved -= 2 * n * src.esize; // counted when the views were made; none move
      return;
    }
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      if (bits) {
        copy_bits(dst, src, pos, lo + c, m, ex);
        continue;
      }
      read_f32(src, pos, lo + c, m, a, ex);
      if (rmw) {
        read_f32(dst, pos, lo + c, m, b, ex);
        alu_f32(*rmw, b, a, a, m);
      }
      write_f32(dst, pos, lo + c, m, a);
    }
  });
}

// A copy the plan lets alias (KernelPlan::alias): when the whole tile is copied from read-only
// memory, the tile reads that memory in place instead (Storage::Redirect); false otherwise.
bool alias_copy(Exec& ex, const Instruction& in, const Domain& dom, const char* src_role) {
  if (!ex.plan.alias[static_cast<size_t>(in.id)]) return false;
  const TensorId tile = copy_target(ex.k, in);
  ex.storage.clear_redirect(tile);
  if (dom.masked()) return false;
  View src = resolve(ex.storage, ex.k, ex.need(in, src_role).ap, dom, ex.env, in.loc, ex.pool);
  if (src.linear || src.ind || !src.buf->read_only || src.dtype != src.buf->dtype) return false;
  Redirect r;
  r.buf = src.buf;
  r.origin = src.origin;
  r.stride.assign(src.stride, src.stride + dom.rank());
  ex.storage.set_redirect(tile, r);
  return true;
}

void copy_exec(Exec& ex, const Instruction& in, const char* src_role, bool through_f32) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  if (alias_copy(ex, in, dom, src_role)) return;
  View dst = ex.output(in, dom);
  View src = ex.view(ex.need(in, src_role), dom);
  copy_into(ex, dom, dst, src, through_f32);
}

void exec_load(Exec& ex, const Instruction& in) {
  copy_exec(ex, in, "src", false);
}
void exec_store(Exec& ex, const Instruction& in) {
  copy_exec(ex, in, ex.find(in, "value") ? "value" : "src", false);
}

void exec_tensor_copy(Exec& ex, const Instruction& in) {
  // The Scalar engine copies through fp32 (NeuronCore-v2); Vector and GpSimd are bit-exact
  // when the dtype does not change.
  copy_exec(ex, in, "src", in.engine == Engine::Scalar);
}

void exec_dma_copy(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  if (alias_copy(ex, in, dom, "src")) return;
  View dst = ex.output(in, dom);
  View src = ex.view(ex.need(in, ex.find(in, "src") ? "src" : "value"), dom);
  bool skip = ex.attr_str(in, "oob_mode") == "skip";
  dst.skip_oob = src.skip_oob = skip;
  std::string rmw = ex.attr_str(in, "dst_rmw_op");
  if (rmw.empty()) {
    copy_into(ex, dom, dst, src, false);
    return;
  }
  auto op = parse_alu(rmw);
  if (!op) ex.unsupported("dma_copy(dst_rmw_op=" + rmw + ")");
  copy_into(ex, dom, dst, src, true, &*op);
}

// nisa.dma_compute: dst = srcs[0] + srcs[1] + ... in fp32, each source read in dst's element
// order (row-major when the shapes differ), out-of-bounds indirect elements skipped with
// oob_mode skip. A source that is dst itself reads its value before the write (per run).
void exec_dma_compute(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View dst = ex.output(in, dom);
  const bool skip = ex.attr_str(in, "oob_mode") == "skip";
  dst.skip_oob = skip;
  std::vector<View> srcs;
  for (int i = 0;; ++i) {
    const std::string role = "src" + std::to_string(i);
    if (!ex.find(in, role.c_str())) break;
    srcs.push_back(ex.view(ex.need(in, role.c_str()), dom));
    srcs.back().skip_oob = skip;
  }
  float acc[kChunk], b[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t m = std::min(kChunk, n - c);
      read_f32(srcs[0], pos, lo + c, m, acc, ex);
      for (size_t s = 1; s < srcs.size(); ++s) {
        read_f32(srcs[s], pos, lo + c, m, b, ex);
        for (int64_t i = 0; i < m; ++i) acc[i] += b[i];
      }
      write_f32(dst, pos, lo + c, m, acc);
    }
  });
}

// A view of a source laid out in its own tile order, re-indexed as the output's axes: output
// axis k runs along source axis perm[k].
View permuted(const View& src, const std::vector<int64_t>& perm, int out_rank) {
  View v = src;
  v.rank = out_rank;
  for (int k = 0; k < out_rank; ++k) v.stride[k] = src.stride[perm[k]];
  return v;
}

void transpose_copy(Exec& ex, const Instruction& in, std::vector<int64_t> perm) {
  const Operand& s = ex.need(in, "src");
  std::vector<int64_t> out_shape = ex.out_shape(in);
  if (perm.size() != s.ap.tile_shape.size()) { // a 1-D load_transpose2d is a plain copy
    perm.clear();
    for (size_t i = 0; i < s.ap.tile_shape.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  }
  Domain sdom(s.ap.tile_shape, {}, ex.env);
  View src = permuted(ex.view(s, sdom), perm, static_cast<int>(out_shape.size()));
  Domain dom(out_shape, in.mask, ex.env);
  View dst = ex.output(in, dom);
  copy_into(ex, dom, dst, src, false);
}

void exec_load_transpose2d(Exec& ex, const Instruction& in) {
  transpose_copy(ex, in, {1, 0});
}
void exec_dma_transpose(Exec& ex, const Instruction& in) {
  transpose_copy(ex, in, ex.attr_ints(in, "axes"));
}

// gather_flattened: out[p, i...] = data[p, :].flatten()[indices[p, i...]].
void exec_gather_flattened(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "data");
  const std::vector<int64_t>& ds = d.ap.tile_shape;
  int64_t parts = ds.empty() ? 1 : ds[0], free = 1;
  for (size_t i = 1; i < ds.size(); ++i) free *= ds[i];
  // The data tile, row-major, as fp32.
  std::vector<float> data(static_cast<size_t>(parts * free));
  Domain ddom(ds, {}, ex.env);
  View dv = ex.view(d, ddom);
  float* w = data.data();
  ddom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    read_f32(dv, pos, lo, n, w, ex);
    w += n;
  });
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  View idx = ex.view(ex.need(in, "indices"), dom);
  int64_t iv[kChunk];
  float vals[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t p = dom.rank() > 1 ? pos[0] : 0;
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_i64(idx, pos, lo + c, m, iv, ex);
      for (int64_t i = 0; i < m; ++i) {
        if (iv[i] < 0 || iv[i] >= free)
          err_tensor_access_out_of_bound(dv.tensor->name, 1, iv[i], iv[i], free, in.loc);
        vals[i] = data[static_cast<size_t>(p * free + iv[i])];
      }
      write_f32(out, pos, lo + c, m, vals);
    }
  });
}

// atomic_rmw: dst[idx] += value, one element at a time (repeated indices accumulate).
void exec_atomic_rmw(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View dst = ex.output(in, dom);
  Source val = ex.source(in, "value", dom);
  auto op = parse_alu(ex.attr_str(in, "op", "add"));
  if (!op) ex.unsupported("atomic_rmw(op=" + ex.attr_str(in, "op") + ")");
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      float a, b;
      ex.read(val, pos, lo + i, 1, &a);
      read_f32(dst, pos, lo + i, 1, &b, ex);
      b = alu_one(*op, b, a);
      write_f32(dst, pos, lo + i, 1, &b);
    }
  });
}

// A dma_copy that accumulates into its destination (dst_rmw_op) reads it: not row by row.
bool plain_dma(const Kernel&, const Instruction& in) {
  return !find_attr(in, "dst_rmw_op");
}

} // namespace

void register_movement_execs(ExecTable& t) {
  // Copies into their result (and stores) row by row; the current language's dma_copy fills
  // a tile through its "dst" (OpFacts::into_dst) and is the store of its language as well.
  OpFacts copy, store, dma;
  copy.row_local = copy.fusable = copy.copy = true;
  store.row_local = store.fusable = store.store = true;
  dma.row_local = dma.fusable = dma.copy = dma.into_dst = dma.store = true;
  dma.row_local_if = plain_dma;
  t.add("load", exec_load, copy);
  t.add("store", exec_store, store);
  t.add("dma_copy", exec_dma_copy, dma);
  t.add("tensor_copy", exec_tensor_copy, copy);
  t.add("broadcast_to", exec_tensor_copy, copy);
  t.add("tensor_copy_dynamic_src", exec_tensor_copy);
  t.add("tensor_copy_dynamic_dst", exec_tensor_copy);
  t.add("load_transpose2d", exec_load_transpose2d);
  t.add("dma_transpose", exec_dma_transpose);
  t.add("gather_flattened", exec_gather_flattened);
  t.add("atomic_rmw", exec_atomic_rmw);
  t.add("dma_compute", exec_dma_compute);
}

} // namespace nki::sim
