#include "sim/simulator.h"

#include "ir/target.h"
#include "sema/sema.h"
#include "sim/capacity.h"
#include "sim/diagnostics.h"
#include "sim/liveness.h"
#include "sim/numerics.h"
#include "util/json.h"

namespace nki::sim {

using namespace nki::ir;

Simulator::Simulator(std::shared_ptr<const Kernel> kernel, SimOptions opts)
    : kernel_(std::move(kernel)), opts_(opts),
      storage_(*kernel_, MemoryOptions{opts.unwritten_int, opts.precise_fp, opts.float16_in_fp32}) {
}

uint8_t* Simulator::input(size_t i) {
  if (i >= num_inputs())
    err_simulate_input_mismatch("the kernel has " + std::to_string(num_inputs()) + " inputs");
  return storage_.buffer(kernel_->params()[i]).bytes();
}

int64_t Simulator::input_nbytes(size_t i) const {
  const Tensor& t = kernel_->tensor(kernel_->params().at(i));
  int64_t n = dtype_size(t.dtype);
  for (int64_t s : t.shape) n *= s;
  return n;
}

void Simulator::run() {
  if (ran_) throw sema::InternalError("a Simulator runs once");
  ran_ = true;
  if (kernel_->language().empty()) {
    check_capacity(*kernel_, opts_.sbuf_bytes);
  } else {
    for (const CapacityWarning& w : capacity_by_liveness(*kernel_, opts_.sbuf_bytes, opts_.target))
      log_.warnings.push_back(
          {w.warning.code.str(), w.warning.message, w.loc,
           (w.loc.known() ? w.loc.str() + ": " : "") + "warning: " + w.warning.message});
  }
  for (TensorId p : kernel_->params()) storage_.buffer(p); // created written
  Interpreter interp(*kernel_, storage_, log_, opts_);
  const std::vector<int64_t>& grid = kernel_->grid();
  int64_t total = 1;
  for (int64_t g : grid) total *= g;
  std::vector<int64_t> pid(grid.size(), 0);
  if (interp.cores_meet()) { // core_barrier / sendrecv: the two cores run side by side
    interp.run_cores_together();
    total = 0;
  }
  for (int64_t n = 0; n < total; ++n) {
    if (n > 0) storage_.reset_instance();
    interp.run_instance(pid);
    for (size_t k = grid.size(); k-- > 0;) {
      if (++pid[k] < grid[k]) break;
      pid[k] = 0;
    }
  }
  for (TensorId o : kernel_->outputs()) storage_.materialize(o);
}

const Tensor& Simulator::output_tensor(size_t i) const {
  return kernel_->tensor(kernel_->outputs().at(i));
}

const uint8_t* Simulator::output(size_t i) {
  Buffer& b = storage_.buffer(kernel_->outputs().at(i));
  const Tensor& t = output_tensor(i);
  if (b.dtype == t.dtype) return b.bytes();
  // precise_fp off: the tensor was computed in fp32; the host gets its declared dtype.
  if (converted_.size() <= i) converted_.resize(i + 1);
  std::vector<uint8_t>& out = converted_[i];
  if (out.empty()) {
    out.resize(static_cast<size_t>(output_nbytes(i)));
    encode_f32(t.dtype, out.data(), 1, b.elems, reinterpret_cast<const float*>(b.bytes()));
  }
  return out.data();
}

int64_t Simulator::output_nbytes(size_t i) const {
  const Tensor& t = output_tensor(i);
  int64_t n = dtype_size(t.dtype);
  for (int64_t s : t.shape) n *= s;
  return n;
}

SimOptions options_for_target(const std::string& target) {
  SimOptions o;
  const ir::Target& t = ir::target_or_trn1(target);
  o.sbuf_bytes = t.sbuf_partition_bytes;
  o.target = t.name;
  return o;
}

SimOptions options_from_json(const std::string& json) {
  util::Json j = util::Json::parse(json.empty() ? "{}" : json);
  SimOptions o = options_for_target(j.get_string("target", "trn1"));
  if (!j.get_string("language").empty()) {
    o.unwritten_int = 4;
    o.label_own_checks = true;
  } else {
    o.float16_in_fp32 = false;
  }
  if (j["precise_fp"].is_bool()) o.precise_fp = j["precise_fp"].boolean();
  if (j["plan"].is_bool()) o.plan = j["plan"].boolean();
  return o;
}

std::string Simulator::log_json() const {
  util::JsonWriter w;
  w.begin_object().key("warnings").begin_array();
  for (const RunWarning& rw : log_.warnings) {
    w.begin_object().key("code").value(rw.code).key("message").value(rw.message).key("file");
    if (rw.loc.known()) {
      w.value(rw.loc.file).key("line").value(rw.loc.line).key("col").value(rw.loc.col);
    } else {
      w.null().key("line").null().key("col").null();
    }
    w.key("text").value(rw.text).end_object();
  }
  w.end_array().key("prints").begin_array();
  for (const PrintRecord& p : log_.prints) {
    w.begin_object().key("prefix").value(p.prefix).key("shape").int_list(p.shape);
    w.key("dtype").value(dtype_name(p.dtype)).key("values").begin_array();
    for (double v : p.values) w.value(v);
    w.end_array().key("loc").value(p.loc.str()).key("instance").int_list(p.instance);
    w.end_object();
  }
  w.end_array().key("prints_dropped").value(log_.prints_dropped);
  w.key("warnings_dropped").value(log_.warnings_dropped);
  w.key("unwritten_reads").value(log_.unwritten_reads);
  w.key("instructions").value(log_.instructions);
  w.key("peak_bytes").value(peak_bytes()).end_object();
  return w.take();
}

} // namespace nki::sim
