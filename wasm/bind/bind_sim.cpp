// The simulator's door: a Simulation runs a finished Trace's kernel on bytes. Inputs and
// outputs cross as typed-array views over wasm memory (one call per tensor; the caller fetches
// a view right before using it, since memory growth detaches earlier ones).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <memory>

#include "bind_printer.h"
#include "guard.h"
#include "host/host.h"
#include "sim/simulator.h"
#include "util/json.h"

using emscripten::val;
using nki::bind::guard;

namespace {

class Simulation {
public:
  Simulation(std::shared_ptr<const nki::ir::Kernel> k, nki::sim::SimOptions o)
      : kernel_(k), sim_(std::move(k), o) {}

  int num_inputs() const { return static_cast<int>(sim_.num_inputs()); }
  int num_outputs() const { return static_cast<int>(sim_.num_outputs()); }

  /// Bytes of input `i`, writable (row-major, in the parameter's dtype).
  val input_view(int i) {
    Span s = guard([&] {
      return Span{sim_.input(static_cast<size_t>(i)),
                  static_cast<size_t>(sim_.input_nbytes(static_cast<size_t>(i)))};
    });
    return val(emscripten::typed_memory_view(s.n, s.p));
  }

  /// Runs every instance; the run's log as JSON (Simulator::log_json).
  std::string run() {
    return guard([&] {
      sim_.run();
      return sim_.log_json();
    });
  }

  /// {"name", "shape", "dtype", "param"?} of output `i`; "param" is the index of the kernel
  /// parameter the output is (a kernel that writes its results through its parameters), so
  /// the host writes it back without reading the IR.
  std::string output_info(int i) const {
    return guard([&] {
      const nki::ir::Tensor& t = sim_.output_tensor(static_cast<size_t>(i));
      nki::util::JsonWriter w;
      w.begin_object().key("name").value(t.name).key("shape").int_list(t.shape);
      w.key("dtype").value(nki::ir::dtype_name(t.dtype));
      const auto& params = kernel_->params();
      auto p = std::find(params.begin(), params.end(), kernel_->outputs().at(i));
      if (p != params.end()) w.key("param").value(static_cast<int64_t>(p - params.begin()));
      w.end_object();
      return w.take();
    });
  }

  val output_view(int i) {
    Span s = guard([&] {
      return Span{const_cast<uint8_t*>(sim_.output(static_cast<size_t>(i))),
                  static_cast<size_t>(sim_.output_nbytes(static_cast<size_t>(i)))};
    });
    return val(emscripten::typed_memory_view(s.n, s.p));
  }

private:
  // A view is built outside guard(): on an error guard returns an empty span (and the pending
  // error is thrown once the call returns).
  struct Span {
    uint8_t* p = nullptr;
    size_t n = 0;
  };

  std::shared_ptr<const nki::ir::Kernel> kernel_;
  nki::sim::Simulator sim_;
};

/// A simulation of `trace`'s kernel. opts: sim::options_from_json's
/// {"target": "trn1"|"trn2"|"trn3", "language"?, "precise_fp"?}.
std::shared_ptr<Simulation> new_simulation(const nki::bind::Trace& trace,
                                           const std::string& opts_json) {
  return guard([&] {
    return std::make_shared<Simulation>(trace.kernel(), nki::sim::options_from_json(opts_json));
  });
}

/// One host-array request (core/host/host.h): JSON in, JSON out.
std::string host_request(const std::string& json) {
  return guard([&] { return nki::host::request(json); });
}

/// The bytes of host array `id` as a Uint8Array over wasm memory (fetch right before use).
val host_view(int id) {
  struct Span {
    uint8_t* p = nullptr;
    size_t n = 0;
  };
  Span s = guard([&] {
    return Span{nki::host::data(id), static_cast<size_t>(nki::host::nbytes(id))};
  });
  return val(emscripten::typed_memory_view(s.n, s.p));
}

/// One element of host array `id` as a number; a store of one (scalar indexing from Python).
double host_get(int id, double index) {
  return guard([&] { return nki::host::get(id, static_cast<int64_t>(index)); });
}

void host_set(int id, double index, double v) {
  guard([&] {
    nki::host::set(id, static_cast<int64_t>(index), v);
    return 0;
  });
}

int host_live_arrays() {
  return static_cast<int>(nki::host::live_arrays());
}

} // namespace

EMSCRIPTEN_BINDINGS(nki_sim) {
  emscripten::function("host_request", &host_request);
  emscripten::function("host_view", &host_view);
  emscripten::function("host_live_arrays", &host_live_arrays);
  emscripten::function("host_get", &host_get);
  emscripten::function("host_set", &host_set);
  emscripten::class_<Simulation>("Simulation")
      .smart_ptr<std::shared_ptr<Simulation>>("Simulation")
      .function("num_inputs", &Simulation::num_inputs)
      .function("num_outputs", &Simulation::num_outputs)
      .function("input_view", &Simulation::input_view)
      .function("run", &Simulation::run)
      .function("output_info", &Simulation::output_info)
      .function("output_view", &Simulation::output_view);
  emscripten::function("new_simulation", &new_simulation);
}
