#include "run/run_session.h"

#include "printer/printer.h"

namespace nki::run {

RunSession& session() {
  static RunSession s;
  return s;
}

void PrintedKernel::print() {
  if (printed_) return;
  printer::RecordSink sink;
  printer::print_kernel(*kernel_, sink);
  text_ = printer::records_to_text(sink.records());
  records_json_ = printer::records_to_json(sink.records());
  regions_json_ = printer::regions_to_json(sink.regions());
  printed_ = true;
}

const std::string& PrintedKernel::text() {
  print();
  return text_;
}

const std::string& PrintedKernel::records_json() {
  print();
  return records_json_;
}

const std::string& PrintedKernel::regions_json() {
  print();
  return regions_json_;
}

const std::string& PrintedKernel::json() {
  if (json_.empty()) json_ = printer::to_json(*kernel_);
  return json_;
}

void RunSession::begin_run(std::function<void(int)> listener) {
  end_run();
  listener_ = std::move(listener);
}

void RunSession::end_run() {
  kernels_.clear();
  pending_.clear();
  listener_ = nullptr;
}

std::shared_ptr<PrintedKernel> RunSession::add_kernel(std::unique_ptr<ir::Kernel> k,
                                                      bool simulated) {
  auto p = std::make_shared<PrintedKernel>(std::move(k));
  pending_.push_back(KernelEntry{p, simulated});
  if (listener_) settle();
  return p;
}

const std::vector<KernelEntry>& RunSession::kernels() {
  settle();
  return kernels_;
}

void RunSession::settle() {
  std::vector<KernelEntry> added;
  added.swap(pending_);
  for (KernelEntry& a : added) {
    bool seen = false;
    for (KernelEntry& e : kernels_) {
      if (e.printed->text() == a.printed->text()) {
        e.simulated = e.simulated && a.simulated;
        seen = true;
        break;
      }
    }
    if (seen) continue;
    kernels_.push_back(a);
    if (listener_) listener_(static_cast<int>(kernels_.size()) - 1);
  }
}

} // namespace nki::run
