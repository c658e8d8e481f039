#include "ir/affine.h"

#include <algorithm>

namespace nki::ir {

AffineExpr AffineExpr::var(Var v, int64_t coeff) {
  AffineExpr e;
  e.add_term(v, coeff);
  return e;
}

void AffineExpr::add_term(Var v, int64_t coeff) {
  if (coeff == 0) return;
  auto it = std::lower_bound(terms_.begin(), terms_.end(), v,
                             [](const auto& t, const Var& x) { return t.first < x; });
  if (it != terms_.end() && it->first == v) {
    it->second += coeff;
    if (it->second == 0) terms_.erase(it);
  } else {
    terms_.insert(it, {v, coeff});
  }
}

int64_t AffineExpr::coeff_of(Var v) const {
  for (const auto& [x, c] : terms_)
    if (x == v) return c;
  return 0;
}

bool AffineExpr::mentions(VarKind k) const {
  for (const auto& t : terms_)
    if (t.first.kind == k) return true;
  return false;
}

AffineExpr AffineExpr::operator+(const AffineExpr& o) const {
  AffineExpr r = *this;
  r.constant_ += o.constant_;
  for (const auto& [v, c] : o.terms_) r.add_term(v, c);
  return r;
}

AffineExpr AffineExpr::operator-(const AffineExpr& o) const {
  return *this + o * -1;
}

AffineExpr AffineExpr::operator*(int64_t k) const {
  AffineExpr r;
  if (k == 0) return r;
  r.constant_ = constant_ * k;
  for (const auto& [v, c] : terms_) r.terms_.push_back({v, c * k});
  return r;
}

AffineExpr AffineExpr::substitute_tile_axes(const std::vector<AffineExpr>& subst) const {
  AffineExpr r(constant_);
  for (const auto& [v, c] : terms_) {
    if (v.kind == VarKind::TileAxis && v.id < static_cast<int>(subst.size()))
      r = r + subst[v.id] * c;
    else
      r.add_term(v, c);
  }
  return r;
}

const char* cmp_name(CmpOp op) {
  switch (op) {
  case CmpOp::Lt:
    return "<";
  case CmpOp::Le:
    return "<=";
  case CmpOp::Gt:
    return ">";
  case CmpOp::Ge:
    return ">=";
  case CmpOp::Eq:
    return "==";
  case CmpOp::Ne:
    return "!=";
  }
  return "?";
}

} // namespace nki::ir
