#include "sim/plan.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>

#include "sim/exec.h"
#include "sim/math_kernels.h"
#include "sim/plan_parts.h"

namespace nki::sim {

using namespace nki::ir;
// Opcodes and roles compare as string_views: their lengths first, where a string against a
// C string measured the literal and compared bytes every time (a fifth of the planning).
using namespace std::string_view_literals;
using planning::base_of;
using planning::identity;

namespace {

// What the opcode's executor declares of it (exec.h: OpFacts).
const OpFacts& facts(const Instruction& in) {
  return exec_table().facts(in.opcode);
}

// Whether partition p of the result depends on partition p of the operands alone, with no
// state beyond the instruction (OpFacts::row_local), and no operand is indirect.
bool row_local(const Kernel& k, const Instruction& in) {
  const OpFacts& f = facts(in);
  if (!f.row_local || (f.row_local_if && !f.row_local_if(k, in))) return false;
  for (const Operand& o : in.operands)
    if (!o.is_scalar && o.ap.indirect) return false;
  return true;
}

// Whether `in` may join group `g` (row-local, as row_local tells): a scan runs only with the
// stores that follow it — it starts its group, so that no element-wise run before it loses
// its fused execution (a group holding a scan runs instruction by instruction), and what it
// gains is its result tile living in the store's destination (StripGroup::forward).
bool joins(const std::vector<const Instruction*>& g, const Instruction& in) {
  if (in.opcode == "tensor_tensor_scan"sv) return false;
  return g.front()->opcode != "tensor_tensor_scan"sv || facts(in).store;
}

// Whether `ap` touches partition p of its tensor at tile partition p (axis 0 of a tile of
// `rank` axes and `rows` partitions): index 0 is tile axis 0 plus loop symbols, no other index
// involves tile axis 0, and the tensor is no view of another.
bool row_aligned(const Kernel& k, const AccessPattern& ap, int64_t rows, size_t rank) {
  const Tensor& t = k.tensor(ap.tensor);
  if (ap.indirect || t.alias_of != kNone || t.partition_dim != 0) return false;
  if (ap.tile_shape.size() != rank || ap.tile_shape[0] != rows) return false;
  if (ap.index.empty() || ap.index.size() != t.shape.size()) return false;
  bool axis0 = false;
  for (size_t d = 0; d < ap.index.size(); ++d)
    for (const auto& [var, c] : ap.index[d].terms()) {
      if (var.kind != VarKind::TileAxis || c == 0) continue;
      if (d == 0 && var.id == 0 && c == 1)
        axis0 = true;
      else if (d == 0 || var.id == 0)
        return false;
    }
  return axis0;
}

// The identity pattern of a result tensor.
AccessPattern whole(const Tensor& t) {
  AccessPattern ap;
  ap.tensor = t.id;
  ap.tile_shape = t.shape;
  ap.index.reserve(t.shape.size());
  for (size_t d = 0; d < t.shape.size(); ++d)
    ap.index.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(d)}));
  return ap;
}

// Whether instructions `insts` satisfy StripGroup's conditions; their bytes per partition.
// The identity patterns of the tensors instructions define (strip_valid reads them often).
std::vector<AccessPattern> wholes(const Kernel& k) {
  std::vector<AccessPattern> w(k.tensors().size());
  for (const Instruction& in : k.instructions())
    if (in.result != kNone) w[static_cast<size_t>(in.result)] = whole(k.tensor(in.result));
  return w;
}

bool strip_valid(const Kernel& k, const std::vector<AccessPattern>& whole_of,
                 const std::vector<const Instruction*>& insts, int64_t rows, int64_t& row_bytes) {
  struct Access {
    const AccessPattern* ap;
    bool write;
    size_t rank;
  };
  // (Scratch kept from call to call: the planner calls this for every prefix of every group.)
  static thread_local std::vector<Access> acc;
  static thread_local std::vector<TensorId> written;
  static thread_local std::vector<std::pair<TensorId, const AffineExpr*>> row_index;
  static thread_local std::vector<std::pair<TensorId, int64_t>> bytes;
  acc.clear();
  written.clear();
  row_index.clear(); // per written tensor
  bytes.clear();
  for (const Instruction* in : insts) {
    const size_t rank = main_shape(k, *in).size();
    if (in->result != kNone)
      acc.push_back({&whole_of[static_cast<size_t>(in->result)], true, rank});
    for (const Operand& o : in->operands)
      if (!o.is_scalar && o.ap.tensor != kNone)
        acc.push_back({&o.ap, !ir::role_reads_only(o.role), rank});
  }
  for (const Access& a : acc)
    if (a.write) written.push_back(base_of(k, a.ap->tensor));
  for (const Access& a : acc) {
    const TensorId b = base_of(k, a.ap->tensor);
    const bool aligned = row_aligned(k, *a.ap, rows, a.rank);
    if (aligned) {
      int64_t n = ir::dtype_size(k.tensor(a.ap->tensor).dtype);
      for (size_t d = 1; d < a.ap->tile_shape.size(); ++d) n *= a.ap->tile_shape[d];
      auto it =
          std::find_if(bytes.begin(), bytes.end(), [&](const auto& e) { return e.first == b; });
      if (it == bytes.end())
        bytes.push_back({b, n});
      else
        it->second = std::max(it->second, n);
    }
    if (std::find(written.begin(), written.end(), b) == written.end()) continue;
    if (!aligned) return false;
    auto it = std::find_if(row_index.begin(), row_index.end(),
                           [&](const auto& e) { return e.first == b; });
    if (it == row_index.end())
      row_index.push_back({b, &a.ap->index[0]});
    else if (!(*it->second == a.ap->index[0]))
      return false;
  }
  row_bytes = 0;
  for (const auto& e : bytes) row_bytes += e.second;
  return true;
}

// For the tile g[n] defines (used by `users` only): the store (or dma_copy) that is its only
// other user — for an ndarray's tile, the only user after the instruction writing it whole —
// when it stores the whole tile into a destination of the same dtype that g[n] .. the store do
// not otherwise access; kNone otherwise.
InstId forward_store(const Kernel& k, const std::vector<const Instruction*>& g, size_t n,
                     const std::vector<InstId>& users) {
  const TensorId t = g[n]->result;
  auto next_user = [&](size_t from) {
    while (from < g.size() && std::find(users.begin(), users.end(), g[from]->id) == users.end())
      ++from;
    return from;
  };
  // The instruction computing the tile: g[n], or the whole write after an ndarray.
  const size_t w = g[n]->opcode == "ndarray"sv ? next_user(n + 1) : n;
  // (A reduction may leave positions untouched and re-allocate its result: kept apart.)
  if (w == g.size() || g[w]->opcode == "tensor_reduce"sv) return kNone;
  const size_t m = next_user(w + 1);
  if (m == g.size()) return kNone;
  if (!facts(*g[m]).store || find_attr(*g[m], "dst_rmw_op")) return kNone;
  for (InstId u : users)
    if (u != g[n]->id && u != g[w]->id && u != g[m]->id) return kNone;
  const Operand* value = find_operand(*g[m], "value");
  if (!value) value = find_operand(*g[m], "src");
  const Operand* dst = find_operand(*g[m], "dst");
  if (!value || !dst || value->is_scalar || value->ap.tensor != t || !identity(k, value->ap))
    return kNone;
  if (dst->ap.tile_shape != k.tensor(t).shape ||
      k.tensor(dst->ap.tensor).dtype != k.tensor(t).dtype)
    return kNone;
  const TensorId d = base_of(k, dst->ap.tensor);
  for (const Instruction* in : g) // a destination of the run's own making may be a strip
    if (in->result != kNone && base_of(k, in->result) == d) return kNone;
  for (size_t i = n; i < m; ++i)
    for (const Operand& o : g[i]->operands)
      if (!o.is_scalar && o.ap.tensor != kNone && base_of(k, o.ap.tensor) == d) return kNone;
  for (const Operand& o : g[m]->operands)
    if (&o != dst && !o.is_scalar && o.ap.tensor != kNone && base_of(k, o.ap.tensor) == d)
      return kNone;
  return g[m]->id;
}

// For the tile g[n] (an ndarray) allocates: whether the first later instruction of the group
// touching it writes all of it through "dst" (the tile's identity pattern) without reading it,
// so that every row of it is written before it is read.
bool written_first(const Kernel& k, const std::vector<const Instruction*>& g, size_t n) {
  const TensorId t = g[n]->result;
  for (size_t m = n + 1; m < g.size(); ++m) {
    bool reads = false, writes_whole = false;
    for (const Operand& o : g[m]->operands) {
      if (o.is_scalar || o.ap.tensor == kNone || base_of(k, o.ap.tensor) != t) continue;
      if (ir::role_reads_only(o.role))
        reads = true;
      else if (o.role == "dst"sv && o.ap.tensor == t && identity(k, o.ap))
        writes_whole = true;
      else
        reads = true; // another written role: not the whole-tile write asked for
    }
    if (reads) return false;
    if (writes_whole) return g[m]->mask.empty();
  }
  return false;
}

// Whether every instruction of a group is one Interpreter::run_fused runs (StripGroup::fuse):
// rank-2 tiles; copies, fp32 ALU operators that are not bitwise, activations, reductions
// along axis 1. The dtypes and strides are checked at run time.
bool fusable(const Kernel& k, const std::vector<const Instruction*>& g) {
  for (const Instruction* in : g) {
    const OpFacts& f = facts(*in);
    if (!f.fusable || (f.fusable_if && !f.fusable_if(k, *in))) return false;
    if (main_shape(k, *in).size() != 2) return false;
    for (const char* key : {"op", "op0", "op1"}) {
      const AttrValue* a = find_attr(*in, key);
      if (!a) continue;
      const std::string* name = std::get_if<std::string>(a);
      if (in->opcode == "activation"sv) continue; // its op is a function (parse_act)
      auto op = name ? parse_alu(*name) : std::nullopt;
      if (!op || alu_is_bitvec(*op)) return false;
    }
  }
  return true;
}

// Instructions referring to each base tensor (as an operand or as their result).
std::vector<std::vector<InstId>> tensor_users(const Kernel& k) {
  // Counted first, so that each list is allocated once (most tensors have two or three users;
  // growing them one by one was a tenth of the planning of an unrolled kernel).
  auto visit = [&](auto&& f) {
    for (const Instruction& in : k.instructions()) {
      if (in.result != kNone) f(base_of(k, in.result), in.id);
      for (const Operand& o : in.operands)
        if (!o.is_scalar && o.ap.tensor != kNone) {
          f(base_of(k, o.ap.tensor), in.id);
          if (o.ap.indirect) f(base_of(k, o.ap.indirect->tensor), in.id);
        }
    }
  };
  std::vector<size_t> count(k.tensors().size(), 0);
  visit([&](TensorId t, InstId) { ++count[static_cast<size_t>(t)]; });
  std::vector<std::vector<InstId>> users(k.tensors().size());
  for (size_t t = 0; t < users.size(); ++t) users[t].reserve(count[t]);
  visit([&](TensorId t, InstId id) { users[static_cast<size_t>(t)].push_back(id); });
  return users;
}

void plan_strips(const Kernel& k, const std::vector<std::vector<InstId>>& users,
                 const std::vector<uint8_t>& aliased, KernelPlan& p) {
  const std::vector<AccessPattern> whole_of = wholes(k);
  auto rows_of = [&](const Instruction& in) -> int64_t {
    std::vector<int64_t> s = main_shape(k, in);
    return s.size() >= 2 && s[0] >= 2 ? s[0] : 0;
  };
  for (const Region& r : k.regions()) {
    size_t i = 0;
    while (i < r.body.size()) {
      if (r.body[i].kind != Item::Kind::Inst) {
        ++i;
        continue;
      }
      const Instruction& first = k.inst(r.body[i].id);
      const int64_t rows = rows_of(first);
      std::vector<const Instruction*> g;
      int64_t row_bytes = 0;
      // (A scan computing the accumulation after it runs alone: in strips, it would not.)
      if (rows > 0 && row_local(k, first) && !p.deferred[static_cast<size_t>(first.id)] &&
          !p.folded[static_cast<size_t>(first.id)] &&
          p.scan_post[static_cast<size_t>(first.id)].mul < 0) {
        g.push_back(&first);
        if (!strip_valid(k, whole_of, g, rows, row_bytes)) g.clear();
      }
      // The instructions after it that may join, as far as the checks of one instruction go
      // (a cap keeps the planning linear in long unrolled bodies); then the longest run of them
      // that strip_valid accepts. What it accepts, it accepts of every prefix (a prefix writes
      // fewer tensors and makes fewer accesses), so the whole run is tried first: in unrolled
      // bodies it is the common case, one check where there was one per prefix.
      std::vector<const Instruction*> run = g;
      for (size_t j = i + 1;
           !g.empty() && run.size() < 32 && j < r.body.size() && r.body[j].kind == Item::Kind::Inst;
           ++j) {
        const Instruction& in = k.inst(r.body[j].id);
        if (rows_of(in) != rows || !row_local(k, in) || !joins(g, in) ||
            p.deferred[static_cast<size_t>(in.id)] || p.folded[static_cast<size_t>(in.id)])
          break;
        run.push_back(&in);
      }
      int64_t rb = 0;
      if (run.size() > 1 && strip_valid(k, whole_of, run, rows, rb)) {
        g = std::move(run);
        row_bytes = rb;
      } else {
        for (size_t n = 1; n < run.size(); ++n) {
          g.push_back(run[n]);
          if (!strip_valid(k, whole_of, g, rows, rb)) {
            g.pop_back();
            break;
          }
          row_bytes = rb;
        }
      }
      if (g.size() < 2) {
        ++i;
        continue;
      }
      StripGroup sg;
      sg.rows = rows;
      sg.row_bytes = row_bytes;
      for (const Instruction* in : g) sg.insts.push_back(in->id);
      sg.fuse = fusable(k, g);
      bool drop = false;
      for (size_t n = 0; n < g.size(); ++n) {
        const Instruction& in = *g[n];
        if (in.result == kNone) continue;
        const Tensor& t = k.tensor(in.result);
        if (t.role != TensorRole::Local || t.alias_of != kNone ||
            aliased[static_cast<size_t>(t.id)] ||
            (t.memory() != Memory::SBUF && t.memory() != Memory::PSUM) || !t.constant.empty())
          continue;
        // Used only by this instruction and the group's later ones, and written only here —
        // or, for a tile an ndarray allocates (the current language), written whole by the
        // first instruction after it that touches it, which does not read it.
        const auto& u = users[static_cast<size_t>(t.id)];
        bool inside = std::all_of(u.begin(), u.end(), [&](InstId id) {
          auto at = std::find(sg.insts.begin(), sg.insts.end(), id);
          return at != sg.insts.end() && at - sg.insts.begin() >= static_cast<long>(n);
        });
        for (size_t m = n + 1; inside && m < g.size(); ++m)
          if (g[m]->result == t.id) inside = false;
        if (in.opcode == "ndarray"sv) {
          inside = inside && written_first(k, g, n);
        } else {
          for (size_t m = n; inside && m < g.size(); ++m)
            for (const Operand& o : g[m]->operands)
              if (!o.is_scalar && o.ap.tensor == t.id && !ir::role_reads_only(o.role))
                inside = false;
        }
        if (!inside) {
          if (in.opcode == "ndarray"sv) drop = true; // its strips would allocate it anew
          continue;
        }
        // A tile whose one reader is a later store of the whole tile, bit for bit, with
        // nothing between touching the store's destination: it can live in the destination.
        InstId into = forward_store(k, g, n, u);
        if (into != kNone)
          sg.forward.push_back({t.id, into});
        else
          sg.local.push_back(t.id);
      }
      if (drop) {
        ++i;
        continue;
      }
      p.group_of[static_cast<size_t>(sg.insts.front())] = static_cast<int32_t>(p.groups.size());
      p.groups.push_back(std::move(sg));
      i += g.size();
    }
  }
}

} // namespace

const std::vector<int64_t>& main_shape(const Kernel& k, const Instruction& in) {
  static const std::vector<int64_t> kNoShape;
  if (in.opcode == "tensor_reduce"sv)
    if (const Operand* d = find_operand(in, "data")) return d->ap.tile_shape;
  if (in.result != kNone) return k.tensor(in.result).shape;
  const Operand* d = find_operand(in, "dst");
  return d ? d->ap.tile_shape : kNoShape;
}

TensorId copy_target(const Kernel& k, const Instruction& in) {
  if (in.result != kNone) return in.result;
  if (!facts(in).into_dst || find_attr(in, "dst_rmw_op")) return kNone;
  const Operand* dst = find_operand(in, "dst");
  return dst && !dst->is_scalar && dst->ap.tensor != kNone && identity(k, dst->ap) ? dst->ap.tensor
                                                                                   : kNone;
}

const AttrValue* find_attr(const Instruction& in, std::string_view key) {
  for (const auto& [name, v] : in.attrs)
    if (name == key) return &v;
  return nullptr;
}

const Operand* find_operand(const Instruction& in, std::string_view role) {
  for (const Operand& o : in.operands)
    if (o.role == role) return &o;
  return nullptr;
}

std::vector<int64_t> attr_axes(const Instruction& in, std::string_view key) {
  const AttrValue* a = find_attr(in, key);
  if (a && std::holds_alternative<int64_t>(*a)) return {std::get<int64_t>(*a)};
  if (a && std::holds_alternative<std::vector<int64_t>>(*a))
    return std::get<std::vector<int64_t>>(*a);
  return {};
}

TensorId planning::base_of(const Kernel& k, TensorId t) {
  const Tensor& x = k.tensor(t);
  return x.alias_of != kNone ? x.alias_of : t;
}

bool planning::identity(const Kernel& k, const AccessPattern& ap) {
  const Tensor& t = k.tensor(ap.tensor);
  if (ap.indirect || ap.tile_shape != t.shape || ap.index.size() != t.shape.size()) return false;
  // Index d is AffineExpr::var(tile axis d), compared without building one.
  for (size_t d = 0; d < ap.index.size(); ++d) {
    const AffineExpr& e = ap.index[d];
    if (e.constant() != 0 || e.terms().size() != 1 || e.terms()[0].second != 1 ||
        !(e.terms()[0].first == Var{VarKind::TileAxis, static_cast<int>(d)}))
      return false;
  }
  return true;
}

KernelPlan plain_plan(const Kernel& k) {
  KernelPlan p;
  const size_t ni = k.instructions().size();
  p.read_only.assign(k.tensors().size(), 0);
  p.alias.assign(ni, 0);
  p.group_of.assign(ni, -1);
  p.scan_pre.assign(ni, -1);
  p.deferred.assign(ni, 0);
  p.scan_post.assign(ni, {});
  p.folded.assign(ni, 0);
  return p;
}

KernelPlan plan_kernel(const Kernel& k) {
  const size_t nt = k.tensors().size();
  std::vector<int> writers(nt, 0);     // instructions writing each base tensor
  std::vector<uint8_t> aliased(nt, 0); // tensors another tensor is a view of
  for (const Tensor& t : k.tensors())
    if (t.alias_of != kNone) aliased[static_cast<size_t>(t.alias_of)] = 1;
  for (const Instruction& in : k.instructions()) {
    // (reshape and view define a view of their source's memory and write nothing.)
    const bool view = facts(in).view;
    if (in.result != kNone && !view) ++writers[static_cast<size_t>(base_of(k, in.result))];
    for (const Operand& o : in.operands)
      if (!o.is_scalar && o.ap.tensor != kNone && !ir::role_reads_only(o.role))
        ++writers[static_cast<size_t>(base_of(k, o.ap.tensor))];
  }
  KernelPlan p;
  p.read_only.assign(nt, 0);
  for (TensorId t : k.params())
    if (base_of(k, t) == t && writers[static_cast<size_t>(t)] == 0)
      p.read_only[static_cast<size_t>(t)] = 1;
  std::vector<uint8_t> allocated(nt, 0); // tiles an ndarray without a fill defines
  for (const Instruction& in : k.instructions())
    if (in.opcode == "ndarray"sv && in.result != kNone && !find_attr(in, "value"))
      allocated[static_cast<size_t>(in.result)] = 1;
  p.alias.assign(k.instructions().size(), 0);
  for (const Instruction& in : k.instructions()) {
    const TensorId tile = copy_target(k, in);
    if (!facts(in).copy || tile == kNone) continue;
    // A dma_copy fills an ndarray's on-chip tile (never an HBM tensor, whose bytes are the
    // output): the ndarray and it are its writers.
    const int own_writers = in.result == kNone ? 2 : 1;
    if (in.result == kNone &&
        (!allocated[static_cast<size_t>(tile)] ||
         (k.tensor(tile).memory() != Memory::SBUF && k.tensor(tile).memory() != Memory::PSUM)))
      continue;
    const Tensor& r = k.tensor(tile);
    if (r.role != TensorRole::Local || r.alias_of != kNone || r.shape.empty() ||
        !r.constant.empty() || aliased[static_cast<size_t>(r.id)] ||
        writers[static_cast<size_t>(r.id)] != own_writers)
      continue;
    const Operand* src = nullptr;
    for (const Operand& o : in.operands)
      if (o.role == "src"sv) src = &o;
    if (!src || src->is_scalar || src->ap.indirect || k.tensor(src->ap.tensor).dtype != r.dtype)
      continue;
    // The Scalar engine copies through fp32: bit for bit only for float32.
    if (in.engine == Engine::Scalar && r.dtype != DType::Float32) continue;
    p.alias[static_cast<size_t>(in.id)] = 1;
  }
  p.group_of.assign(k.instructions().size(), -1);
  const std::vector<std::vector<InstId>> users = tensor_users(k);
  planning::plan_scan_pre(k, users, aliased, p);
  planning::plan_scan_post(k, users, aliased, p);
  plan_strips(k, users, aliased, p);
  return p;
}

} // namespace nki::sim
