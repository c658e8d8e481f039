#include "sim/simulator.h"

#include "sema/sema.h"
#include "sim/capacity.h"
#include "sim/diagnostics.h"
#include "util/json.h"

namespace nki::sim {

using namespace nki::ir;

Simulator::Simulator(std::shared_ptr<const Kernel> kernel, SimOptions opts)
    : kernel_(std::move(kernel)), opts_(opts), storage_(*kernel_) {}

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
  check_capacity(*kernel_, opts_.sbuf_bytes);
  for (TensorId p : kernel_->params()) storage_.buffer(p); // created written
  Interpreter interp(*kernel_, storage_, log_, opts_);
  const std::vector<int64_t>& grid = kernel_->grid();
  int64_t total = 1;
  for (int64_t g : grid) total *= g;
  std::vector<int64_t> pid(grid.size(), 0);
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
  return storage_.buffer(kernel_->outputs().at(i)).bytes();
}

int64_t Simulator::output_nbytes(size_t i) const {
  const Tensor& t = output_tensor(i);
  int64_t n = dtype_size(t.dtype);
  for (int64_t s : t.shape) n *= s;
  return n;
}

SimOptions options_for_target(const std::string& target) {
  SimOptions o;
  if (target == "trn2" || target == "gen3") o.sbuf_bytes = 224 * 1024;
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
