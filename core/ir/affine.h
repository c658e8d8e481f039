#pragma once
/// Affine index expressions and predicates over loop induction variables, program ids and the
/// axes of the tile an access produces.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nki::ir {

/// A symbol an index expression may mention.
///  - LoopIv: the induction variable of the loop axis `id` (Kernel::loop_axes()).
///  - ProgramId: `nl.program_id(id)`.
///  - TileAxis: position along axis `id` of the tile produced by the access (0 = partition).
///  - LoopIvMod: `(iv + off) % mod` of loop axis `id` (double buffers: `buf[i % 2]`).
///  - LoopIvDiv: `(iv + off) // mod` (floor division; `mod` holds the divisor).
///  - Register: the run-time value of register `id` (Kernel::registers(); the current
///    language's dynamic offsets: `t.ap(..., scalar_offset=reg)`, `nl.ds(reg, n)`).
enum class VarKind : uint8_t { LoopIv, ProgramId, TileAxis, LoopIvMod, LoopIvDiv, Register };

struct Var {
  VarKind kind;
  int id;
  int mod = 0; ///< LoopIvMod: (iv + off) % mod
  int off = 0;
  bool operator==(const Var& o) const {
    return kind == o.kind && id == o.id && mod == o.mod && off == o.off;
  }
  bool operator<(const Var& o) const {
    if (kind != o.kind) return kind < o.kind;
    if (id != o.id) return id < o.id;
    return mod != o.mod ? mod < o.mod : off < o.off;
  }
};

/// constant + Σ coeff·var, terms sorted by var with non-zero coefficients.
class AffineExpr {
public:
  AffineExpr() = default;
  explicit AffineExpr(int64_t c) : constant_(c) {}
  static AffineExpr var(Var v, int64_t coeff = 1);

  int64_t constant() const { return constant_; }
  const std::vector<std::pair<Var, int64_t>>& terms() const { return terms_; }
  bool is_constant() const { return terms_.empty(); }
  int64_t coeff_of(Var v) const;
  bool mentions(VarKind k) const;

  AffineExpr operator+(const AffineExpr& o) const;
  AffineExpr operator-(const AffineExpr& o) const;
  AffineExpr operator*(int64_t k) const;
  AffineExpr operator+(int64_t k) const { return *this + AffineExpr(k); }
  bool operator==(const AffineExpr& o) const {
    return constant_ == o.constant_ && terms_ == o.terms_;
  }

  /// Replaces every TileAxis(k) by subst[k] (used to compose a view of a view).
  AffineExpr substitute_tile_axes(const std::vector<AffineExpr>& subst) const;

private:
  void add_term(Var v, int64_t coeff);
  int64_t constant_ = 0;
  std::vector<std::pair<Var, int64_t>> terms_;
};

enum class CmpOp : uint8_t { Lt, Le, Gt, Ge, Eq, Ne };
const char* cmp_name(CmpOp op); // "<", "<=", ...

/// lhs <op> rhs, both affine.
struct Comparison {
  AffineExpr lhs;
  CmpOp op;
  AffineExpr rhs;
};

/// A conjunction of comparisons (NKI masks and if/while conditions are AND-folded).
struct Predicate {
  std::vector<Comparison> terms;
  bool empty() const { return terms.empty(); }
};

} // namespace nki::ir
