// The printer's door: a finished kernel's text, line records and JSON form.
#include "bind_printer.h"

#include <emscripten/bind.h>

#include "printer/printer.h"

namespace nki::bind {

std::string Trace::name() const {
  return kernel_->name();
}
std::string Trace::text() const {
  return printer::to_text(*kernel_);
}
std::string Trace::records_json() const {
  printer::RecordSink sink;
  printer::print_kernel(*kernel_, sink);
  return printer::records_to_json(sink.records());
}
std::string Trace::to_json() const {
  return printer::to_json(*kernel_);
}
int Trace::instruction_count() const {
  return static_cast<int>(kernel_->instructions().size());
}
int Trace::region_count() const {
  return static_cast<int>(kernel_->regions().size());
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
      .function("instruction_count", &Trace::instruction_count)
      .function("region_count", &Trace::region_count);
}
