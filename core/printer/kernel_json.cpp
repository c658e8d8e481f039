#include "printer/kernel_json.h"

#include <map>
#include <stdexcept>

#include "ir/affine_json.h"
#include "util/json.h"

namespace nki::printer {

using namespace nki::ir;
using util::Json;

namespace {

SourceLoc loc_of(const Json& j) {
  SourceLoc l;
  if (!j.is_object()) return l;
  l.file = j["file"].is_string() ? j["file"].string() : "";
  l.line = static_cast<int>(j.get_int("line", 0));
  l.col = static_cast<int>(j.get_int("col", 0));
  return l;
}

AffineExpr expr_of(const Json& j) {
  return read_affine(j, ExprForm::Exchange);
}

AccessPattern access_of(const Json& j) {
  AccessPattern ap;
  ap.tensor = static_cast<TensorId>(j["tensor"].integer());
  for (const Json& e : j["index"].array()) ap.index.push_back(expr_of(e));
  ap.tile_shape = j["tile_shape"].int_list();
  if (j.has("indirect")) {
    ap.indirect_dim = static_cast<int>(j["indirect"]["dim"].integer());
    ap.indirect = std::make_shared<AccessPattern>(access_of(j["indirect"]["index"]));
    ap.indirect_scale = j["indirect"].get_int("scale", 1);
  }
  return ap;
}

CmpOp cmp_of(const std::string& s) {
  if (s == "<") return CmpOp::Lt;
  if (s == "<=") return CmpOp::Le;
  if (s == ">") return CmpOp::Gt;
  if (s == ">=") return CmpOp::Ge;
  if (s == "==") return CmpOp::Eq;
  return CmpOp::Ne;
}

Predicate predicate_of(const Json& j) {
  Predicate p;
  if (!j.is_array()) return p;
  for (const Json& c : j.array())
    p.terms.push_back({expr_of(c["lhs"]), cmp_of(c["op"].string()), expr_of(c["rhs"])});
  return p;
}

Engine engine_of(const std::string& s) {
  for (Engine e :
       {Engine::Dma, Engine::Tensor, Engine::Vector, Engine::Scalar, Engine::GpSimd, Engine::Sync})
    if (s == engine_name(e)) return e;
  return Engine::None;
}

RegionKind kind_of(const std::string& s) {
  for (RegionKind k : {RegionKind::KernelScope, RegionKind::FunctionScope, RegionKind::LoopScope,
                       RegionKind::IfScope, RegionKind::WhileScope, RegionKind::AllocationScope,
                       RegionKind::ScopeRegion})
    if (s == region_kind_name(k)) return k;
  throw std::invalid_argument("unknown region kind '" + s + "'");
}

AttrValue attr_of(const Json& j) {
  if (j.is_string()) return j.string();
  if (j.is_array()) return j.int_list();
  if (j.is_bool()) return int64_t{j.boolean() ? 1 : 0};
  double d = j.number();
  if (d == static_cast<double>(static_cast<int64_t>(d))) return static_cast<int64_t>(d);
  return d;
}

class Reader {
public:
  explicit Reader(const Json& doc) : doc_(doc), b_(*k_) {}

  std::unique_ptr<Kernel> read() {
    b_.set_kernel_info(doc_["kernel"].string(), doc_["grid"].int_list(), loc_of(doc_["loc"]));
    if (doc_.has("language")) b_.set_language(doc_["language"].string(), doc_.get_int("lnc", 1));
    if (doc_["registers"].is_array()) {
      for (const Json& r : doc_["registers"].array()) {
        b_.set_loc(loc_of(r["loc"]));
        b_.create_register(r["name"].string(), r.has("frozen") && r["frozen"].boolean());
      }
    }
    for (const Json& a : doc_["loop_axes"].array()) {
      LoopAxis ax;
      ax.name = a["name"].string();
      const std::string& tag = a["tag"].string();
      ax.tag = tag == "DynamicAxis"    ? LoopAxis::Tag::DynamicAxis
               : tag == "UnrolledAxis" ? LoopAxis::Tag::UnrolledAxis
                                       : LoopAxis::Tag::AffineAxis;
      ax.axis_type = a["axis_type"].string() == "affine" ? AxisType::Affine : AxisType::Sequential;
      if (ax.tag == LoopAxis::Tag::AffineAxis) {
        ax.lb = a["lb"].integer();
        ax.ub = a["ub"].integer();
        ax.stride = a["stride"].integer();
        ax.trip_count = a["trip_count"].integer();
      } else if (ax.tag == LoopAxis::Tag::UnrolledAxis) {
        const std::string& it = a["iterates"].string();
        ax.unrolled_range = it == "range";
        ax.unrolled_while = it == "while";
        ax.lb = a.get_int("lb", 0);
        ax.ub = a.get_int("ub", 0);
        ax.stride = a.get_int("stride", 1);
        ax.trip_count = a["trip_count"].integer();
      } else if (a.has("iv_register")) {
        ax.iv_register = static_cast<RegisterId>(a["iv_register"].integer());
        ax.stride = a["stride"].integer();
        ax.lb_register = static_cast<RegisterId>(a.get_int("lb_register", kNone));
        ax.ub_register = static_cast<RegisterId>(a.get_int("ub_register", kNone));
        ax.lb = a.get_int("lb", 0);
        ax.ub = a.get_int("ub", 0);
      } else {
        ax.dynamic_trip = access_of(a["trip_count_from"]);
      }
      b_.create_loop_axis(std::move(ax));
    }
    if (!doc_["body"].is_null()) region(doc_["body"]);
    tensors_up_to(static_cast<TensorId>(doc_["tensors"].size()) - 1);
    for (const Json& p : doc_["params"].array()) b_.add_param(static_cast<TensorId>(p.integer()));
    std::vector<TensorId> outs;
    for (const Json& o : doc_["outputs"].array())
      outs.push_back(static_cast<TensorId>(o.integer()));
    b_.set_outputs(std::move(outs));
    return std::move(k_);
  }

private:
  // Creates the tensors with ids up to `last`, each in its allocating region.
  void tensors_up_to(TensorId last) {
    const auto& all = doc_["tensors"].array();
    while (next_tensor_ <= last && next_tensor_ < static_cast<TensorId>(all.size())) {
      const Json& j = all[static_cast<size_t>(next_tensor_)];
      Tensor t;
      t.name = j["name"].string();
      t.shape = j["shape"].int_list();
      auto dt = parse_dtype(j["dtype"].string());
      if (!dt) throw std::invalid_argument("unknown dtype " + j["dtype"].string());
      t.dtype = *dt;
      bool param = j["role"].string() == "param";
      t.role = param ? TensorRole::Param : TensorRole::Local;
      auto buf = parse_buffer(j["buffer"].string());
      t.buffer = param ? ir::Buffer::Input : buf ? *buf : ir::Buffer::Sbuf;
      if (j["buffer"].string() == "hbm" && !param) t.buffer = ir::Buffer::PrivateHbm;
      t.mutable_param = j.has("mutable") && j["mutable"].boolean();
      t.loc = loc_of(j["loc"]);
      t.alias_of = static_cast<TensorId>(j.get_int("alias_of", kNone));
      t.partition_dim = static_cast<int>(j.get_int("partition_dim", 0));
      if (j["constant"].is_array())
        for (const Json& v : j["constant"].array()) t.constant.push_back(v.number());
      RegionId saved = b_.insertion_region();
      SourceLoc saved_loc = b_.loc();
      int64_t r = j.get_int("region", kNone);
      auto it = regions_.find(static_cast<RegionId>(r));
      b_.set_insertion_region(it == regions_.end() ? kNone : it->second);
      b_.set_loc(t.loc);
      b_.create_tensor(std::move(t));
      b_.set_insertion_region(saved);
      b_.set_loc(saved_loc);
      ++next_tensor_;
    }
  }

  void region(const Json& j) {
    RegionPayload p;
    p.name = j.get_string("name");
    p.axis = static_cast<LoopAxisId>(j.get_int("axis", kNone));
    p.predicate = predicate_of(j["predicate"]);
    p.is_else = j.has("else") && j["else"].boolean();
    if (j.has("condition")) {
      const Json& c = j["condition"];
      p.condition.scalar = access_of(c["scalar"]);
      p.condition.op = cmp_of(c["op"].string());
      p.condition.rhs = c["rhs"].number();
    }
    p.condition.always = j.has("always") && j["always"].boolean();
    p.tag = j.get_string("tag");
    p.stage_id = j.get_int("stage_id", -1);
    p.execution_order = j.get_int("execution_order", -1);
    p.iteration = j.get_int("iteration", -1);
    p.core = j.get_int("core", -1);
    p.while_register = static_cast<RegisterId>(j.get_int("while_register", kNone));
    b_.set_loc(loc_of(j["loc"]));
    RegionId saved = b_.insertion_region();
    RegionId id = b_.create_region(kind_of(j["kind"].string()), p);
    regions_[static_cast<RegionId>(j["region"].integer())] = id;
    if (p.axis != kNone) b_.attach_axis(p.axis, id);
    b_.set_insertion_region(id);
    for (const Json& item : j["body"].array()) {
      if (item.has("region"))
        region(item);
      else
        instruction(item);
    }
    b_.set_insertion_region(saved);
  }

  void instruction(const Json& j) {
    Instruction in;
    in.opcode = j["opcode"].string();
    in.engine = engine_of(j["engine"].string());
    TensorId top = kNone;
    if (j.has("result")) in.result = top = static_cast<TensorId>(j["result"].integer());
    for (const Json& o : j["operands"].array()) {
      Operand op;
      op.role = o["role"].string();
      if (o.has("register")) {
        op.reg = static_cast<RegisterId>(o["register"].integer());
      } else if (o.has("scalar")) {
        op.is_scalar = true;
        op.scalar = o["scalar"].number();
      } else {
        op.ap = access_of(o["access"]);
        top = std::max(top, op.ap.tensor);
        if (op.ap.indirect) top = std::max(top, op.ap.indirect->tensor);
      }
      in.operands.push_back(std::move(op));
    }
    for (const auto& [key, v] : j["attrs"].members()) in.attrs.push_back({key, attr_of(v)});
    in.mask = predicate_of(j["mask"]);
    tensors_up_to(top);
    b_.set_loc(loc_of(j["loc"]));
    b_.set_stmt(static_cast<int>(j.get_int("stmt", kNone)));
    b_.create_inst(std::move(in));
  }

  const Json& doc_;
  std::unique_ptr<Kernel> k_ = std::make_unique<Kernel>();
  IRBuilder b_;
  std::map<RegionId, RegionId> regions_;
  TensorId next_tensor_ = 0;
};

} // namespace

std::unique_ptr<Kernel> kernel_from_json(std::string_view text) {
  Json doc = Json::parse(text);
  return Reader(doc).read();
}

} // namespace nki::printer
