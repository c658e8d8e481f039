// Env (loop variables, program ids) and Domain (a tile's positions under a mask, as runs).
#include <algorithm>
#include <climits>

#include "sema/sema.h"
#include "sema/sema_api.h"
#include "sim/access.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

int64_t floor_div(int64_t x, int64_t y) {
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}
int64_t ceil_div(int64_t x, int64_t y) {
  return -floor_div(-x, y);
}

bool compare(int64_t v, CmpOp op) {
  switch (op) {
  case CmpOp::Lt:
    return v < 0;
  case CmpOp::Le:
    return v <= 0;
  case CmpOp::Gt:
    return v > 0;
  case CmpOp::Ge:
    return v >= 0;
  case CmpOp::Eq:
    return v == 0;
  case CmpOp::Ne:
    return v != 0;
  }
  return false;
}

} // namespace

int64_t Env::eval_symbols(const AffineExpr& e) const {
  int64_t v = e.constant();
  for (const auto& [var, c] : e.terms()) {
    if (var.kind == VarKind::LoopIv)
      v += c * iv.at(var.id);
    else if (var.kind == VarKind::LoopIvDiv) {
      int64_t x = iv.at(var.id) + var.off;
      v += c * (x >= 0 ? x / var.mod : -((-x + var.mod - 1) / var.mod));
    } else if (var.kind == VarKind::LoopIvMod)
      v += c * ((((iv.at(var.id) + var.off) % var.mod) + var.mod) % var.mod);
    else if (var.kind == VarKind::ProgramId)
      v += c * (var.id < static_cast<int>(pid.size()) ? pid[var.id] : 0);
    else if (var.kind == VarKind::Register)
      v += c * reg.at(static_cast<size_t>(var.id));
  }
  return v;
}

bool Env::holds(const Predicate& p) const {
  for (const Comparison& c : p.terms)
    if (!compare(eval_symbols(c.lhs) - eval_symbols(c.rhs), c.op)) return false;
  return true;
}

Domain::Domain(const std::vector<int64_t>& shape, const Predicate& mask, const Env& env) {
  rank_ = shape.empty() ? 1 : static_cast<int>(shape.size());
  if (rank_ > kMaxRank) sema::err_tile_rank_limit(kMaxRank);
  for (int k = 0; k < rank_; ++k) {
    shape_[k] = shape.empty() ? 1 : shape[k];
    if (shape_[k] <= 0) none_ = true;
  }
  row_hi_ = shape_[0];
  if (env.win_rows > 0 && rank_ > 1 && shape_[0] == env.win_rows) {
    row_lo_ = env.win_lo;
    row_hi_ = env.win_hi;
  }
  for (const Comparison& cmp : mask.terms) {
    AffineExpr d = cmp.lhs - cmp.rhs;
    Term t{env.eval_symbols(d), {0}, cmp.op};
    bool tile = false;
    for (const auto& [var, c] : d.terms()) {
      if (var.kind != VarKind::TileAxis) continue;
      if (var.id < rank_) t.a[var.id] += c, tile = tile || c != 0;
    }
    if (!tile) {
      if (!compare(t.c, t.op)) none_ = true;
      continue;
    }
    if (t.op == CmpOp::Ne) sema::err_mask_not_equal_not_supported();
    if (!env.keep_masks && holds_everywhere(t)) continue; // it masks nothing: unmasked paths
    terms_.push_back(t);
  }
}

bool Domain::holds_everywhere(const Term& t) const {
  // The term's least and greatest values over the visited box: axis 0 over the visited rows,
  // the others over their extents.
  int64_t lo = t.c, hi = t.c;
  for (int k = 0; k < rank_; ++k) {
    const int64_t first = k == 0 ? row_lo_ : 0, last = (k == 0 ? row_hi_ : shape_[k]) - 1;
    if (last < first) return false;
    const int64_t a = t.a[k];
    lo += a > 0 ? a * first : a * last;
    hi += a > 0 ? a * last : a * first;
  }
  // Below (at most) zero everywhere when its greatest value is; above, when its least is.
  if (t.op == CmpOp::Ne) return false;
  if (t.op == CmpOp::Eq) return lo == 0 && hi == 0;
  return compare(t.op == CmpOp::Lt || t.op == CmpOp::Le ? hi : lo, t.op);
}

bool Domain::inner_interval(const int64_t* pos, int64_t& lo, int64_t& hi) const {
  const int in = rank_ - 1;
  for (const Term& t : terms_) {
    int64_t c = t.c;
    for (int k = 0; k < in; ++k) c += t.a[k] * pos[k];
    int64_t a = t.a[in];
    if (a == 0) {
      if (!compare(c, t.op)) return false;
      continue;
    }
    // c + a*x <= b  and/or  c + a*x >= b
    auto le = [&](int64_t b) {
      if (a > 0)
        hi = std::min(hi, floor_div(b - c, a) + 1);
      else
        lo = std::max(lo, ceil_div(b - c, a));
    };
    auto ge = [&](int64_t b) {
      if (a > 0)
        lo = std::max(lo, ceil_div(b - c, a));
      else
        hi = std::min(hi, floor_div(b - c, a) + 1);
    };
    switch (t.op) {
    case CmpOp::Lt:
      le(-1);
      break;
    case CmpOp::Le:
      le(0);
      break;
    case CmpOp::Gt:
      ge(1);
      break;
    case CmpOp::Ge:
      ge(0);
      break;
    case CmpOp::Eq:
      le(0), ge(0);
      break;
    case CmpOp::Ne:
      break;
    }
    if (hi <= lo) return false;
  }
  return true;
}

bool Domain::bounds(int64_t* lo, int64_t* hi) const {
  if (none_) return false;
  if (terms_.empty()) {
    for (int k = 0; k < rank_; ++k) lo[k] = 0, hi[k] = shape_[k] - 1;
    if (rank_ > 1) {
      if (row_lo_ >= row_hi_) return false;
      lo[0] = row_lo_, hi[0] = row_hi_ - 1;
    }
    return true;
  }
  if (bounds_state_ == 0) {
    bounds_state_ = scan_bounds(blo_, bhi_) ? 1 : 2;
  }
  for (int k = 0; k < rank_; ++k) lo[k] = blo_[k], hi[k] = bhi_[k];
  return bounds_state_ == 1;
}

int64_t Domain::count() const {
  int64_t n = 0;
  if (!masked()) {
    n = rank_ > 1 ? row_hi_ - row_lo_ : 1;
    for (int k = rank_ > 1 ? 1 : 0; k < rank_; ++k) n *= shape_[k];
    return n;
  }
  for_each_run([&](const int64_t*, int64_t, int64_t m) { n += m; });
  return n;
}

bool Domain::scan_bounds(int64_t* lo, int64_t* hi) const {
  bool any = false;
  for (int k = 0; k < rank_; ++k) lo[k] = INT64_MAX, hi[k] = INT64_MIN;
  for_each_run([&](const int64_t* pos, int64_t l, int64_t n) {
    any = true;
    for (int k = 0; k < rank_ - 1; ++k)
      lo[k] = std::min(lo[k], pos[k]), hi[k] = std::max(hi[k], pos[k]);
    lo[rank_ - 1] = std::min(lo[rank_ - 1], l);
    hi[rank_ - 1] = std::max(hi[rank_ - 1], l + n - 1);
  });
  return any;
}

} // namespace nki::sim
