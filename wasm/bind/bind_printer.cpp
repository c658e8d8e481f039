// The printer's door: a finished kernel's text, line records and JSON form, each printed once
// (run/run_session.h).
#include "bind_printer.h"

#include <emscripten/bind.h>

namespace nki::bind {

std::string Trace::name() const {
  return printed_->kernel()->name();
}
std::string Trace::text() const {
  return printed_->text();
}
std::string Trace::records_json() const {
  return printed_->records_json();
}
std::string Trace::to_json() const {
  return printed_->json();
}
int Trace::instruction_count() const {
  return static_cast<int>(printed_->kernel()->instructions().size());
}

} // namespace nki::bind

EMSCRIPTEN_BINDINGS(nki_printer) {
  using nki::bind::Trace;
  emscripten::class_<Trace>("Trace")
      .smart_ptr<std::shared_ptr<Trace>>("Trace")
      .function("name", &Trace::name)
      .function("text", &Trace::text)
      .function("records_json", &Trace::records_json)
      .function("to_json", &Trace::to_json)
      .function("instruction_count", &Trace::instruction_count);
}
