#include "sema/sema_current.h"

#include "ir/target.h"
#include "sema/sema.h"
#include "sema/sema_api.h"

namespace nki::sema {

void err_ap_partition_step(const std::string& tensor, int64_t step, int64_t free) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "the partition step of an access pattern on `" + tensor +
                     "` must be its free size " + std::to_string(free) + ", got " +
                     std::to_string(step));
}

void err_ap_leaves_partition(const std::string& tensor, int64_t free) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "the free part of an access pattern on `" + tensor +
                     "` must stay inside one partition (" + std::to_string(free) + " elements)");
}

void err_access_pattern_out_of_bound(const std::string& tensor, int64_t lo, int64_t hi,
                                     int64_t total) {
  throw NkiError(Code::of(__func__), "IndexError",
                 "access pattern on `" + tensor + "` reaches elements [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "] outside its " + std::to_string(total) +
                     " elements");
}

void err_isa_layout_mismatch(const std::string& api, const std::string& a, const std::string& b) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "' needs " + a + " and " + b +
                     " to have the same number of partitions and of elements per partition");
}

void err_isa_element_count(const std::string& api, const std::string& a, const std::string& b) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "' needs " + a + " and " + b + " to have the same number of elements");
}

void err_isa_hwdge_cast(const std::string& src, const std::string& dst) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "dma_copy with dge_mode=hwdge does not convert dtypes: src is " + src +
                     ", dst is " + dst);
}

void err_isa_dynamic_needs_dge(const std::string& api) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api +
                     "' with a dynamic offset needs descriptor generation (dge_mode swdge or "
                     "hwdge), not dge_mode=none");
}

void err_isa_value_dtype(const std::string& api, const std::string& value,
                         const std::string& dtype) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "' value " + value + " does not match the " + dtype + " dtype of dst");
}

void err_isa_both_psum(const std::string& api, const std::string& a, const std::string& b) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "': " + a + " and " + b + " cannot both reside in PSUM");
}

void err_isa_unary_operand(const std::string& api, const std::string& op) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "'" + api + "': operand0 must be None or 0 when op0 is the unary operator " + op);
}

void err_register_frozen(const std::string& name) {
  throw NkiError(Code::of(__func__), "AssertionError",
                 "cannot write register '" + name +
                     "': the induction variable of a dynamic loop is frozen");
}

void err_view_rule(const std::string& method, const std::string& rule) {
  throw NkiError(Code::of(__func__), "ValueError", method + ": " + rule);
}

void err_view_index(const std::string& text, const std::string& detail) {
  throw NkiError(Code::of(__func__), "IndexError",
                 detail.empty() ? text : text + " (" + detail + ")");
}

void err_tensor_truth_value(const std::string& size) {
  throw NkiError(Code::of(__func__), "ValueError",
                 size == "0" ? "The truth value of an empty array is ambiguous"
                 : size == "1"
                     ? "The truth value of a tensor is not known while the kernel is traced: its "
                       "contents exist only on the device"
                     : "The truth value of an array with more than one element is ambiguous");
}

void err_tensor_operator(const std::string& op) {
  (void)op;
  throw NkiError(Code::of(__func__), "TypeError",
                 "binary operators on tensors not supported. Use nki.isa directly.");
}

void err_parser_rejects(const std::string& text) {
  throw NkiError(Code::of(__func__), "SyntaxError", text);
}

void err_register_in_python(const std::string& use) {
  throw NkiError(Code::of(__func__), "TypeError",
                 "a VirtualRegister's value exists only on the device: it cannot be used in " +
                     use +
                     " while the kernel is traced (use nl.fori_loop / nl.while_loop, or the "
                     "register as a dynamic offset)");
}

void err_removed_api(const std::string& api, const std::string& instead) {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 api + " is not part of NKI any more" + (instead.empty() ? "" : "; " + instead));
}

void err_isa_rule(const std::string& api, const std::string& rule) {
  throw NkiError(Code::of(__func__), "ValueError", api + ": " + rule);
}

void err_not_simulable(const std::string& api) {
  throw NkiError(Code::of(__func__), "NotImplementedError",
                 api + " is not simulated (NKI's own simulator does not implement it either)");
}

void err_mixed_languages(const std::string& api) {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "beta-1 API (" + api +
                     ") used in kernel: APIs from neuronxcc may not be used in Beta-2 kernels");
}

void err_mixed_languages_current(const std::string& api) {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "current-language API (" + api +
                     ") used in a neuronxcc.nki (Beta 1) kernel: a kernel is written in one "
                     "language");
}

void err_kernel_rule(const std::string& rule) {
  throw NkiError(Code::of(__func__), "ValueError", rule);
}

void err_dynamic_in_no_reorder() {
  throw NkiError(Code::of(__func__), "RuntimeError",
                 "Dynamic control-flow cannot be nested with a no_reorder block");
}

void err_loop_step_not_static(const std::string& step) {
  throw NkiError(Code::of(__func__), "AssertionError",
                 "the step of a dynamic loop must be a compile-time positive int, got " + step);
}

void err_program_axis(const std::string& axis) {
  throw NkiError(Code::of(__func__), "ValueError",
                 "invalid program axis " + axis + " (must be zero)");
}

void err_unknown_target(const std::string& value) {
  // "trn1 (inf2, gen2), trn2 (gen3) or trn3 (gen4)": the targets of ir/target.h.
  std::string known;
  const auto& all = ir::targets();
  for (size_t i = 0; i < all.size(); ++i) {
    known += i == 0 ? "" : i + 1 == all.size() ? " or " : ", ";
    known += all[i].name;
    for (size_t k = 1; k < all[i].names.size(); ++k)
      known += std::string(k == 1 ? " (" : ", ") + all[i].names[k] +
               (k + 1 == all[i].names.size() ? ")" : "");
  }
  throw NkiError(Code::of(__func__), "ValueError",
                 "NEURON_PLATFORM_TARGET_OVERRIDE=" + value + " names no target: " + known);
}

void raise_current_by_name(const std::string& name, const std::vector<std::string>& a) {
  auto arg = [&](size_t i) { return i < a.size() ? a[i] : std::string(); };
  if (name == "err_view_rule") err_view_rule(arg(0), arg(1));
  if (name == "err_view_index") err_view_index(arg(0), arg(1));
  if (name == "err_tensor_truth_value") err_tensor_truth_value(arg(0));
  if (name == "err_tensor_operator") err_tensor_operator(arg(0));
  if (name == "err_parser_rejects") err_parser_rejects(arg(0));
  if (name == "err_register_in_python") err_register_in_python(arg(0));
  if (name == "err_removed_api") err_removed_api(arg(0), arg(1));
  if (name == "err_isa_rule") err_isa_rule(arg(0), arg(1));
  if (name == "err_not_simulable") err_not_simulable(arg(0));
  if (name == "err_mixed_languages") err_mixed_languages(arg(0));
  if (name == "err_register_frozen") err_register_frozen(arg(0));
  if (name == "err_unsupported_dtype") err_unsupported_dtype(arg(0));
  if (name == "err_mixed_languages_current") err_mixed_languages_current(arg(0));
  if (name == "err_kernel_rule") err_kernel_rule(arg(0));
  if (name == "err_dynamic_in_no_reorder") err_dynamic_in_no_reorder();
  if (name == "err_loop_step_not_static") err_loop_step_not_static(arg(0));
  if (name == "err_program_axis") err_program_axis(arg(0));
  if (name == "err_unknown_target") err_unknown_target(arg(0));
  if (name == "err_unknown_buffer") err_unknown_buffer(arg(0));
  if (name == "err_hbm_tensor_with_init_value_not_supported")
    err_hbm_tensor_with_init_value_not_supported();
}

} // namespace nki::sema
