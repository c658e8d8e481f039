// KernelPlan::scan_pre and scan_post: a tensor_tensor_scan that computes the multiply before
// it (its data1) or the accumulation after it (Y += h · c) as it runs. plan.h: what they are.
#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "sim/math_kernels.h"
#include "sim/plan_parts.h"

namespace nki::sim::planning {

using namespace nki::ir;
using namespace std::string_view_literals;

// KernelPlan::scan_pre: a tensor_tensor multiply M, unmasked, of two tile operands, right
// before a scan S in one body; M's result T an on-chip fp32 tile of S's shape that only M and
// S refer to, S only as its data1, through T's identity pattern. Nothing runs between M and S,
// so M's operands hold at S what they held at M.
// (`users`: tensor_users; `aliased`: by tensor, whether another tensor is a view of it.)
void plan_scan_pre(const Kernel& k, const std::vector<std::vector<InstId>>& users,
                   const std::vector<uint8_t>& aliased, KernelPlan& p) {
  p.scan_pre.assign(k.instructions().size(), -1);
  p.deferred.assign(k.instructions().size(), 0);
  for (const Region& r : k.regions())
    for (size_t i = 0; i + 1 < r.body.size(); ++i) {
      if (r.body[i].kind != Item::Kind::Inst || r.body[i + 1].kind != Item::Kind::Inst) continue;
      const Instruction &m = k.inst(r.body[i].id), &s = k.inst(r.body[i + 1].id);
      if (s.opcode != "tensor_tensor_scan"sv || m.opcode != "tensor_tensor"sv ||
          m.result == kNone || !m.mask.empty())
        continue;
      const AttrValue* op = find_attr(m, "op");
      const std::string* name = op ? std::get_if<std::string>(op) : nullptr;
      if (!name || parse_alu(*name) != Alu::Multiply) continue;
      const Tensor& t = k.tensor(m.result);
      if (t.role != TensorRole::Local || t.alias_of != kNone ||
          aliased[static_cast<size_t>(t.id)] || t.dtype != DType::Float32 ||
          (t.memory() != Memory::SBUF && t.memory() != Memory::PSUM) || !t.constant.empty() ||
          main_shape(k, s) != t.shape)
        continue;
      const Operand *x = find_operand(m, "x"), *y = find_operand(m, "y"),
                    *d1 = find_operand(s, "data1");
      if (!x || !y || x->is_scalar || y->is_scalar || x->ap.indirect || y->ap.indirect || !d1 ||
          d1->is_scalar || d1->ap.tensor != t.id || !identity(k, d1->ap))
        continue;
      const auto& u = users[static_cast<size_t>(t.id)];
      if (std::any_of(u.begin(), u.end(), [&](InstId id) { return id != m.id && id != s.id; }))
        continue;
      int refs = 0; // the scan's operands referring to T: data1 alone
      for (const Operand& o : s.operands)
        if (!o.is_scalar && o.ap.tensor != kNone &&
            (base_of(k, o.ap.tensor) == t.id ||
             (o.ap.indirect && base_of(k, o.ap.indirect->tensor) == t.id)))
          ++refs;
      if (refs != 1) continue;
      // (The scan's result is a new tile; a "dst" it writes must not be what M reads.)
      const Operand* dst = find_operand(s, "dst");
      if (dst && !dst->is_scalar && dst->ap.tensor != kNone &&
          (base_of(k, dst->ap.tensor) == base_of(k, x->ap.tensor) ||
           base_of(k, dst->ap.tensor) == base_of(k, y->ap.tensor)))
        continue;
      p.scan_pre[static_cast<size_t>(s.id)] = static_cast<int32_t>(m.id);
      p.deferred[static_cast<size_t>(m.id)] = 1;
    }
}

// KernelPlan::scan_post: after a scan S of h = a · h + x (op0 multiply, op1 add, unmasked, its
// result a tile h), at most six instructions, then M: T = h · c (an unmasked fp32
// tensor_tensor multiply, h through its identity pattern), then A: Y = Y + T (an unmasked
// in-place add, its dst and x one pattern of h's tile shape, T through its identity pattern).
// T is an on-chip fp32 tile of h's shape that only M and A refer to; Y an on-chip fp32 tensor,
// no view, read by S neither; c a tile operand of h's shape, neither h nor Y nor T. A view of
// one of them would make these checks miss an access. The instructions between that make c
// (and those making what they read) run before S: they touch neither Y, T nor h and share no
// tensor one of them writes with S or with the others they move ahead of. The others run
// after S as they did: they touch neither Y nor T and write neither h nor c.
// (`users`: tensor_users; `aliased`: by tensor, whether another tensor is a view of it.)
void plan_scan_post(const Kernel& k, const std::vector<std::vector<InstId>>& users,
                    const std::vector<uint8_t>& aliased, KernelPlan& p) {
  p.scan_post.assign(k.instructions().size(), {});
  p.folded.assign(k.instructions().size(), 0);
  auto alu_is = [](const Instruction& in, const char* key, Alu op) {
    const AttrValue* a = find_attr(in, key);
    const std::string* name = a ? std::get_if<std::string>(a) : nullptr;
    return name && parse_alu(*name) == op;
  };
  auto plain = [&](TensorId id) {
    const Tensor& t = k.tensor(id);
    return t.alias_of == kNone && !aliased[static_cast<size_t>(id)] && t.dtype == DType::Float32 &&
           (t.memory() == Memory::SBUF || t.memory() == Memory::PSUM) && t.constant.empty();
  };
  auto tile_operand = [](const Operand* o) { return o && !o->is_scalar && !o->ap.indirect; };
  // The base tensors an instruction accesses (its operands, their indirect indices, its
  // result) and those it writes (its result, its written operands).
  auto accessed = [&](const Instruction& in) {
    std::vector<TensorId> v;
    if (in.result != kNone) v.push_back(base_of(k, in.result));
    for (const Operand& o : in.operands)
      if (!o.is_scalar && o.ap.tensor != kNone) {
        v.push_back(base_of(k, o.ap.tensor));
        if (o.ap.indirect) v.push_back(base_of(k, o.ap.indirect->tensor));
      }
    return v;
  };
  auto written = [&](const Instruction& in) {
    std::vector<TensorId> v;
    if (in.result != kNone) v.push_back(base_of(k, in.result));
    for (const Operand& o : in.operands)
      if (!o.is_scalar && o.ap.tensor != kNone && !ir::role_reads_only(o.role))
        v.push_back(base_of(k, o.ap.tensor));
    return v;
  };
  auto has = [](const std::vector<TensorId>& v, TensorId t) {
    return std::find(v.begin(), v.end(), t) != v.end();
  };
  auto refers = [&](const Instruction& in, std::initializer_list<TensorId> bases) {
    const std::vector<TensorId> a = accessed(in);
    return std::any_of(bases.begin(), bases.end(), [&](TensorId b) { return has(a, b); });
  };
  // Whether one of the two writes a tensor the other accesses.
  auto conflict = [&](const Instruction& x, const Instruction& y) {
    const std::vector<TensorId> ax = accessed(x), ay = accessed(y);
    for (TensorId b : written(x))
      if (has(ay, b)) return true;
    for (TensorId b : written(y))
      if (has(ax, b)) return true;
    return false;
  };
  for (const Region& r : k.regions())
    for (size_t i = 0; i + 2 < r.body.size(); ++i) {
      if (r.body[i].kind != Item::Kind::Inst) continue;
      const Instruction& s = k.inst(r.body[i].id);
      if (s.opcode != "tensor_tensor_scan"sv || s.result == kNone || !s.mask.empty() ||
          !alu_is(s, "op0", Alu::Multiply) || !alu_is(s, "op1", Alu::Add) ||
          find_attr(s, "reverse0") || find_attr(s, "reverse1"))
        continue;
      const TensorId h = s.result;
      const std::vector<int64_t>& shape = k.tensor(h).shape;
      if (shape.size() != 2 || base_of(k, h) != h) continue;
      // M after at most six other instructions, A right after it.
      size_t j = i + 1;
      while (j < r.body.size() && j <= i + 7 && r.body[j].kind == Item::Kind::Inst &&
             k.inst(r.body[j].id).opcode != "tensor_tensor"sv)
        ++j;
      if (j + 1 >= r.body.size() || r.body[j].kind != Item::Kind::Inst ||
          r.body[j + 1].kind != Item::Kind::Inst)
        continue;
      const Instruction &m = k.inst(r.body[j].id), &a = k.inst(r.body[j + 1].id);
      if (m.opcode != "tensor_tensor"sv || a.opcode != "tensor_tensor"sv || !m.mask.empty() ||
          !a.mask.empty() || !alu_is(m, "op", Alu::Multiply) || !alu_is(a, "op", Alu::Add) ||
          m.result == kNone || a.result != kNone)
        continue;
      const Operand *mx = find_operand(m, "x"), *my = find_operand(m, "y");
      const Operand *ad = find_operand(a, "dst"), *ax = find_operand(a, "x"),
                    *ay = find_operand(a, "y");
      if (!tile_operand(mx) || !tile_operand(my) || !tile_operand(ad) || !tile_operand(ax) ||
          !tile_operand(ay) || mx->ap.tensor != h || !identity(k, mx->ap))
        continue;
      const TensorId t = m.result, y = ad->ap.tensor, c = base_of(k, my->ap.tensor);
      if (!plain(t) || k.tensor(t).shape != shape || k.tensor(t).role != TensorRole::Local ||
          !plain(y) || ax->ap.tensor != y || !(ax->ap.index == ad->ap.index) ||
          ad->ap.tile_shape != shape || ax->ap.tile_shape != shape || ay->ap.tensor != t ||
          !identity(k, ay->ap) || my->ap.tile_shape != shape)
        continue;
      if (y == h || y == t || c == h || c == y || c == t) continue;
      const auto& u = users[static_cast<size_t>(t)];
      if (std::any_of(u.begin(), u.end(), [&](InstId id) { return id != m.id && id != a.id; }))
        continue;
      // The scan (and the multiply it may compute its data1 with) reads neither Y nor T.
      const Instruction* pre = p.scan_pre[static_cast<size_t>(s.id)] >= 0
                                   ? &k.inst(p.scan_pre[static_cast<size_t>(s.id)])
                                   : nullptr;
      if (refers(s, {y, t}) || (pre && refers(*pre, {y, t}))) continue;
      // Between: the instructions making c, and what they read, from the last back.
      const size_t nb = j - i - 1;
      std::vector<uint8_t> early(nb, 0);
      std::vector<TensorId> needed = {c};
      for (size_t b = nb; b-- > 0;) {
        const Instruction& in = k.inst(r.body[i + 1 + b].id);
        const std::vector<TensorId> w = written(in);
        if (std::none_of(w.begin(), w.end(), [&](TensorId x) { return has(needed, x); })) continue;
        early[b] = 1;
        for (TensorId x : accessed(in))
          if (!has(w, x)) needed.push_back(x);
      }
      bool ok = true;
      for (size_t b = 0; ok && b < nb; ++b) {
        const Instruction& in = k.inst(r.body[i + 1 + b].id);
        const std::vector<TensorId> w = written(in);
        if (!early[b]) {
          ok = !refers(in, {y, t}) && !has(w, h) && !has(w, c);
          continue;
        }
        ok = !refers(in, {y, t, h}) && !p.deferred[static_cast<size_t>(in.id)] &&
             !conflict(in, s) && !(pre && conflict(in, *pre));
        for (size_t e = 0; ok && e < b; ++e)
          if (!early[e] && conflict(in, k.inst(r.body[i + 1 + e].id))) ok = false;
      }
      if (!ok) continue;
      KernelPlan::Post& post = p.scan_post[static_cast<size_t>(s.id)];
      post.mul = m.id;
      post.add = a.id;
      post.between = static_cast<int32_t>(nb);
      for (size_t b = 0; b < nb; ++b)
        if (early[b]) post.early |= static_cast<uint8_t>(1u << b);
      p.folded[static_cast<size_t>(m.id)] = p.folded[static_cast<size_t>(a.id)] = 1;
    }
}

} // namespace nki::sim::planning
