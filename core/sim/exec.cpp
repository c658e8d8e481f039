#include "sim/exec.h"

#include <algorithm>
#include <limits>

#include "sema/sema.h"
#include "sim/diagnostics.h"
#include "sim/interpreter.h"

namespace nki::sim {

using namespace nki::ir;

void Exec::start_instance() {
  std::fill(accumulator[0], accumulator[0] + ir::kPmax, 0.0f);
  std::fill(accumulator[1], accumulator[1] + ir::kPmax, -std::numeric_limits<float>::infinity());
  rng = 0x9e3779b97f4a7c15ull;
  seed_xorwow(*this);
}

const Operand* Exec::find(const Instruction& in, const char* role) const {
  for (const Operand& o : in.operands)
    if (o.role == role) return &o;
  return nullptr;
}

const Operand& Exec::need(const Instruction& in, const char* role) const {
  const Operand* o = find(in, role);
  if (!o)
    throw sema::InternalError("instruction '" + in.opcode + "' has no '" + role + "' operand");
  return *o;
}

const std::vector<int64_t>& Exec::out_shape(const Instruction& in) const {
  if (in.result != kNone) return k.tensor(in.result).shape;
  return need(in, "dst").ap.tile_shape;
}

View Exec::tensor_view(TensorId id, const Domain& dom) {
  const Tensor& t = k.tensor(id);
  AccessPattern ap;
  ap.tensor = t.id;
  ap.tile_shape = t.shape;
  for (size_t d = 0; d < t.shape.size(); ++d)
    ap.index.push_back(AffineExpr::var({VarKind::TileAxis, static_cast<int>(d)}));
  return resolve(storage, k, ap, dom, env, cur ? cur->loc : no_loc(), pool);
}

View Exec::output(const Instruction& in, const Domain& dom, bool covers) {
  if (in.result == kNone) return view(need(in, "dst"), dom);
  View v = tensor_view(in.result, dom);
  count_bytes(v, dom);
  if (dom.masked() || !covers)
    storage.allocate(in.result);
  else
    note_write_coverage(v, dom);
  return v;
}

View Exec::view(const Operand& o, const Domain& dom) {
  const SourceLoc& loc = cur ? cur->loc : no_loc();
  View v = resolve(storage, k, o.ap, dom, env, loc, pool);
  if (!v.linear) {
    count_bytes(v, dom);
    return v;
  }
  // A tile of another shape read in row-major order: copied, in its own order, into a
  // contiguous temporary that is then read with the domain's row-major strides.
  Domain own(o.ap.tile_shape, {}, env);
  View src = resolve(storage, k, o.ap, own, env, loc, pool);
  temps.emplace_back();
  Buffer& t = temps.back();
  t.dtype = src.dtype;
  t.elems = 1;
  for (int64_t e : o.ap.tile_shape) t.elems *= e;
  t.words.reset(new uint64_t[static_cast<size_t>((t.elems * elem_size(t.dtype) + 7) / 8 + 1)]);
  t.written.reset(t.elems);
  View tv = src;
  tv.buf = &t;
  tv.data = t.bytes();
  tv.ind = nullptr;
  tv.origin = 0;
  int64_t s = 1;
  for (int a = own.rank(); a-- > 0;) tv.stride[a] = s, s *= own.extent(a);
  own.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk)
      copy_bits(tv, src, pos, lo + c, std::min(kChunk, n - c), *this);
  });
  View out = tv;
  out.rank = dom.rank();
  s = 1;
  for (int a = dom.rank(); a-- > 0;) out.stride[a] = s, s *= dom.extent(a);
  count_bytes(out, dom);
  return out;
}

void Exec::count_bytes(const View& v, const Domain& dom) {
  int64_t n = 1;
  if (dom.masked()) {
    n = dom.count();
  } else {
    for (int a = 0; a < dom.rank(); ++a)
      if (v.stride[a] != 0 || v.ind)
        n *= a == 0 && dom.rank() > 1 ? dom.row_hi() - dom.row_lo() : dom.extent(a);
  }
  log.bytes_moved += n * v.esize;
}

Source Exec::source(const Instruction& in, const char* role, const Domain& dom, float fallback) {
  Source s;
  const Operand* o = find(in, role);
  if (!o) {
    s.scalar = true;
    s.value = fallback;
  } else if (o->is_scalar) {
    s.scalar = true;
    s.value = static_cast<float>(o->scalar);
  } else {
    s.view = view(*o, dom);
  }
  return s;
}

void Exec::read(const Source& s, const int64_t* pos, int64_t lo, int64_t n, float* out) {
  if (s.scalar) {
    std::fill(out, out + n, s.value);
    return;
  }
  read_f32(s.view, pos, lo, n, out, *this);
}

bool Exec::has_attr(const Instruction& in, const std::string& key) const {
  for (const auto& [kk, v] : in.attrs)
    if (kk == key) return true;
  return false;
}

std::string Exec::attr_str(const Instruction& in, const std::string& key,
                           const std::string& fallback) const {
  for (const auto& [kk, v] : in.attrs)
    if (kk == key) {
      if (auto* s = std::get_if<std::string>(&v)) return *s;
    }
  return fallback;
}

double Exec::attr_num(const Instruction& in, const std::string& key, double fallback) const {
  for (const auto& [kk, v] : in.attrs)
    if (kk == key) {
      if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
      if (auto* d = std::get_if<double>(&v)) return *d;
    }
  return fallback;
}

std::vector<int64_t> Exec::attr_ints(const Instruction& in, const std::string& key) const {
  for (const auto& [kk, v] : in.attrs)
    if (kk == key) {
      if (auto* l = std::get_if<std::vector<int64_t>>(&v)) return *l;
      if (auto* i = std::get_if<int64_t>(&v)) return {*i};
    }
  return {};
}

void Exec::unwritten_read(const View& v, int64_t element) {
  if (reported_seq_ == seq) return; // one count per instruction execution
  reported_seq_ = seq;
  if (log.unwritten_reads++ > 0) return;
  std::vector<int64_t> index(v.tensor->shape.size());
  for (size_t d = index.size(); d-- > 0;) {
    int64_t s = v.tensor->shape[d];
    index[d] = s ? element % s : 0;
    element = s ? element / s : 0;
  }
  warn(warn_unwritten_read(v.tensor->name, index, cur ? cur->opcode : "?", v.buf->int_fill,
                           opts && opts->label_own_checks));
}

void Exec::warn(const sema::Warning& w, const SourceLoc* loc) {
  if (log.warnings.size() >= RunLog::kMaxWarnings) {
    ++log.warnings_dropped;
    return;
  }
  if (!loc && cur) loc = &cur->loc;
  std::string where = loc && loc->known() ? loc->str() + ": " : "";
  log.warnings.push_back({w.code.str(), w.message, loc && loc->known() ? *loc : SourceLoc{},
                          where + "warning: " + w.message});
}

void Exec::unsupported(const std::string& what) const {
  err_not_supported_in_simulator(what, cur ? cur->loc : no_loc());
}

ExecFn ExecTable::find(const std::string& opcode) const {
  auto it = table_.find(opcode);
  return it == table_.end() ? nullptr : it->second.first;
}

const OpFacts& ExecTable::facts(const std::string& opcode) const {
  static const OpFacts kNone;
  auto it = table_.find(opcode);
  return it == table_.end() ? kNone : it->second.second;
}

std::vector<std::string> ExecTable::opcodes() const {
  std::vector<std::string> out;
  for (const auto& e : table_) out.push_back(e.first);
  std::sort(out.begin(), out.end());
  return out;
}

const ExecTable& exec_table() {
  static const ExecTable t = [] {
    ExecTable t;
    register_creation_execs(t);
    register_movement_execs(t);
    register_elementwise_execs(t);
    register_select_execs(t);
    register_reduce_execs(t);
    register_scan_execs(t);
    register_matmul_execs(t);
    register_misc_execs(t);
    register_register_execs(t);
    register_partition_move_execs(t);
    register_gather_execs(t);
    register_mx_execs(t);
    return t;
  }();
  return t;
}

} // namespace nki::sim
