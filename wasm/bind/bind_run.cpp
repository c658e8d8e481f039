// The run session's door (core/run/run_session.h): the JS runtime starts a run, is told of
// each new kernel as it is finished, and reads the run's kernels — straight from the core.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "guard.h"
#include "run/run_session.h"

using emscripten::val;
using nki::bind::guard;

namespace {

// listener: a JS function called with each new kernel's index (or undefined). It must not
// throw: the runtime's listener keeps any error for after the run (runtime/runtime.mjs).
void begin_run(val listener) {
  if (listener.typeOf().as<std::string>() != "function") {
    nki::run::session().begin_run();
    return;
  }
  nki::run::session().begin_run([listener](int i) { listener(i); });
}

void end_run() {
  nki::run::session().end_run();
}

int run_kernel_count() {
  return guard([] { return static_cast<int>(nki::run::session().kernels().size()); });
}

// {kernel, text, records, regions, ir, simulated}: records, regions and ir as the printer's JSON
// text.
val run_kernel(int i) {
  val out = val::object();
  guard([&] {
    const auto& ks = nki::run::session().kernels();
    if (i < 0 || static_cast<size_t>(i) >= ks.size())
      throw nki::sema::InternalError("run_kernel: no kernel " + std::to_string(i));
    const nki::run::KernelEntry& e = ks[static_cast<size_t>(i)];
    out.set("kernel", e.printed->kernel()->name());
    out.set("text", e.printed->text());
    out.set("records", e.printed->records_json());
    out.set("regions", e.printed->regions_json());
    out.set("ir", e.printed->json());
    out.set("simulated", e.simulated);
  });
  return out;
}

} // namespace

EMSCRIPTEN_BINDINGS(nki_run) {
  emscripten::function("begin_run", &begin_run);
  emscripten::function("end_run", &end_run);
  emscripten::function("run_kernel_count", &run_kernel_count);
  emscripten::function("run_kernel", &run_kernel);
}
