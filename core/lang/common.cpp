#include "lang/common.h"

#include <algorithm>
#include <utility>

#include "printer/printer.h"
#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::lang {

using namespace nki::ir;

std::string mem_names(Mem m) {
  // Any set of spaces (dma_copy's destination is hbm|sbuf), spelled in NKI's order.
  std::string names;
  const std::pair<Mem, const char*> spaces[] = {
      {Mem::Hbm, "hbm"}, {Mem::Psum, "psum"}, {Mem::Sbuf, "sbuf"}};
  for (const auto& [bit, name] : spaces) {
    if (!(static_cast<int>(m) & static_cast<int>(bit))) continue;
    if (!names.empty()) names += "|";
    names += name;
  }
  return names;
}

AccessPattern identity_pattern(const Tensor& t) {
  AccessPattern ap;
  ap.tensor = t.id;
  ap.tile_shape = t.shape;
  for (size_t d = 0; d < t.shape.size(); ++d)
    ap.index.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(d)}));
  return ap;
}

const Tensor& tensor_of(const NeuronCodegen& cg, ValueId v) {
  return cg.kernel().tensor(cg.value(v).tensor);
}
const std::vector<int64_t>& shape_of(const NeuronCodegen& cg, ValueId v) {
  return cg.value(v).tile_shape;
}
DType dtype_of(const NeuronCodegen& cg, ValueId v) {
  return tensor_of(cg, v).dtype;
}

std::string described(const NeuronCodegen& cg, ValueId v) {
  return sema::describe(tensor_of(cg, v).name, cg.value(v).tile_shape);
}

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

int64_t free_size(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (size_t i = 1; i < shape.size(); ++i) n *= shape[i];
  return n;
}

void check_tile(const std::string& name, const std::vector<int64_t>& shape) {
  if (shape.size() < 2) sema::err_insufficient_rank(name, shape.size());
  if (shape[0] > kPmax) sema::err_num_partition_exceed_arch_limit(shape[0], kPmax);
}

void require_memory(const NeuronCodegen& cg, ValueId v, const std::string& operand,
                    const std::string& api, Mem allowed) {
  Memory m = tensor_of(cg, v).memory();
  int bit = m == Memory::HBM ? 1 : m == Memory::SBUF ? 2 : 4;
  if (!(static_cast<int>(allowed) & bit))
    sema::err_unsupported_memory(operand, api, mem_names(allowed), memory_name(m));
}

void require_same_partitions(const NeuronCodegen& cg, const std::string& api,
                             const std::vector<ValueId>& values) {
  if (values.size() < 2) return;
  int64_t p = shape_of(cg, values[0]).empty() ? 1 : shape_of(cg, values[0])[0];
  for (ValueId v : values) {
    int64_t q = shape_of(cg, v).empty() ? 1 : shape_of(cg, v)[0];
    if (q != p) {
      std::string params;
      for (size_t i = 0; i < values.size(); ++i) {
        if (i) params += ", ";
        params += described(cg, values[i]);
      }
      sema::err_num_partition_mismatch(params, api);
    }
  }
}

void require_visible(const NeuronCodegen& cg, ValueId v) {
  const Tensor& t = tensor_of(cg, v);
  if (t.role != TensorRole::Local || t.region == kNone) return;
  const Kernel& k = cg.kernel();
  // A helper's FunctionScope is transparent: what it returns lives in the caller's scope.
  RegionId home_id = t.region;
  while (home_id != kNone && k.region(home_id).kind == RegionKind::FunctionScope)
    home_id = k.region(home_id).parent;
  if (home_id == kNone) return;
  for (RegionId r = cg.cur_scope(); r != kNone; r = k.region(r).parent)
    if (r == home_id) return;
  // A loop body's AllocationScope is reported as its loop.
  if (k.region(home_id).kind == RegionKind::AllocationScope && k.region(home_id).parent != kNone &&
      k.region(k.region(home_id).parent).kind == RegionKind::LoopScope)
    home_id = k.region(home_id).parent;
  const Region& home = k.region(home_id);
  std::string where = std::string(region_kind_name(home.kind));
  if (home.loc.known()) where += " at " + home.loc.short_str();
  sema::err_local_variable_used_out_of_scope(t.name, where);
}

ValueId new_tile(NeuronCodegen& cg, const std::string& name, std::vector<int64_t> shape,
                 DType dtype, Buffer buffer) {
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.dtype = dtype;
  t.buffer = buffer;
  TensorId id = cg.builder.create_tensor(std::move(t));
  return cg.add_value(identity_pattern(cg.kernel().tensor(id)));
}

Predicate align_mask(const MaskSpec& mask, size_t tile_rank) {
  Predicate p;
  for (const MaskTerm& t : mask) {
    auto align = [&](const IndexExpr& e) {
      if (e.shape.size() > tile_rank) sema::err_mask_rank(e.shape.size(), tile_rank);
      std::vector<AffineExpr> remap;
      size_t off = tile_rank - e.shape.size();
      for (size_t k = 0; k < e.shape.size(); ++k)
        remap.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(off + k)}));
      return e.expr.substitute_tile_axes(remap);
    };
    if (t.op == CmpOp::Ne) sema::err_mask_not_equal_not_supported();
    p.terms.push_back({align(t.lhs), t.op, align(t.rhs)});
  }
  return p;
}

void check_bounds(const NeuronCodegen& cg, const AccessPattern& ap, const Predicate& mask) {
  const Tensor& t = cg.kernel().tensor(ap.tensor);
  for (size_t d = 0; d < ap.index.size(); ++d) {
    if (static_cast<int>(d) == ap.indirect_dim) continue; // checked at run time
    auto [lo, hi] = cg.range_of(ap.index[d], ap.tile_shape);
    // A mask term D <op> 0 (D = lhs - rhs = L + c) bounds an index of the form ±L + k.
    for (const Comparison& cmp : mask.terms) {
      AffineExpr D = cmp.lhs - cmp.rhs;
      int64_t c = D.constant();
      AffineExpr L = D - AffineExpr(c);
      if (L.is_constant()) continue;
      for (int sign : {1, -1}) {
        AffineExpr rest = ap.index[d] - L * sign;
        if (!rest.is_constant()) continue;
        int64_t k = rest.constant();
        // sign +1: index = D + (k - c);  sign -1: index = -D + (k + c)
        int64_t base = sign > 0 ? k - c : k + c;
        CmpOp op = cmp.op;
        if (sign < 0) { // index = -D + base: flip the comparison
          op = op == CmpOp::Lt   ? CmpOp::Gt
               : op == CmpOp::Le ? CmpOp::Ge
               : op == CmpOp::Gt ? CmpOp::Lt
               : op == CmpOp::Ge ? CmpOp::Le
                                 : op;
        }
        switch (op) {
        case CmpOp::Lt:
          hi = std::min(hi, base - 1);
          break;
        case CmpOp::Le:
          hi = std::min(hi, base);
          break;
        case CmpOp::Gt:
          lo = std::max(lo, base + 1);
          break;
        case CmpOp::Ge:
          lo = std::max(lo, base);
          break;
        case CmpOp::Eq:
          lo = std::max(lo, base);
          hi = std::min(hi, base);
          break;
        default:
          break;
        }
        break;
      }
    }
    if (lo > hi) continue; // the mask disables the whole access
    if (lo < 0 || hi >= t.shape[d])
      sema::err_tensor_access_out_of_bound(t.name, d, lo, hi, t.shape[d]);
  }
}

Instruction make_inst(const std::string& opcode, Engine engine) {
  Instruction in;
  in.opcode = opcode;
  in.engine = engine;
  return in;
}

void add_operand(const NeuronCodegen& cg, Instruction& in, const std::string& role, ValueId v) {
  require_visible(cg, v);
  Operand o;
  o.role = role;
  o.ap = cg.value(v);
  check_bounds(cg, o.ap, in.mask);
  in.operands.push_back(std::move(o));
}

void add_scalar(Instruction& in, const std::string& role, double value) {
  Operand o;
  o.role = role;
  o.is_scalar = true;
  o.scalar = value;
  in.operands.push_back(std::move(o));
}

ValueId emit_result(NeuronCodegen& cg, Instruction in, const std::string& name,
                    std::vector<int64_t> shape, DType dtype, Buffer buffer) {
  if (memory_of(buffer) != Memory::HBM) check_tile(name.empty() ? "t" : name, shape);
  ValueId out = new_tile(cg, name, std::move(shape), dtype, buffer);
  in.result = cg.value(out).tensor;
  cg.builder.create_inst(std::move(in));
  return out;
}

void emit_effect(NeuronCodegen& cg, Instruction in) {
  cg.builder.create_inst(std::move(in));
}

} // namespace nki::lang
