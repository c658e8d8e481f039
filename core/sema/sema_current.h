#pragma once
/// sema for the current NKI language (`import nki`, NKI 0.6.0): its diagnostics with their
/// exception classes. NKI's texts where its public material gives them (the KLR front end's
/// messages, the API docs' rules); the others are ours and say so in docs/errors.md.
#include <cstdint>
#include <string>
#include <vector>

namespace nki::sema {

/// ValueError (ours): an SBUF/PSUM access pattern whose partition step is not the storage's
/// free size (a multiple of it).
[[noreturn]] void err_ap_partition_step(const std::string& tensor, int64_t step, int64_t free);
/// ValueError (ours): an SBUF/PSUM access pattern whose free part leaves its partition.
[[noreturn]] void err_ap_leaves_partition(const std::string& tensor, int64_t free);
/// IndexError (ours): an access pattern reaching elements outside its storage.
[[noreturn]] void err_access_pattern_out_of_bound(const std::string& tensor, int64_t lo, int64_t hi,
                                                  int64_t total);
/// ValueError (ours): two tiles of an instruction that must have the same partition count and
/// the same number of elements per partition.
[[noreturn]] void err_isa_layout_mismatch(const std::string& api, const std::string& a,
                                          const std::string& b);
/// ValueError (ours): two tiles of an instruction with different element counts.
[[noreturn]] void err_isa_element_count(const std::string& api, const std::string& a,
                                        const std::string& b);
/// ValueError (ours): dge_mode=hwdge does not convert dtypes.
[[noreturn]] void err_isa_hwdge_cast(const std::string& src, const std::string& dst);
/// ValueError (ours): a dynamic (run-time) offset with dge_mode=none.
[[noreturn]] void err_isa_dynamic_needs_dge(const std::string& api);
/// ValueError (ours): memset's value must be representable in dst's dtype.
[[noreturn]] void err_isa_value_dtype(const std::string& api, const std::string& value,
                                      const std::string& dtype);
/// ValueError: both inputs in PSUM (the ISA docs: "cannot both reside in PSUM").
[[noreturn]] void err_isa_both_psum(const std::string& api, const std::string& a,
                                    const std::string& b);
/// ValueError: a unary op0 whose operand0 is not None or 0 (the tensor_scalar docs).
[[noreturn]] void err_isa_unary_operand(const std::string& api, const std::string& op);
/// AssertionError: writing the induction register of nl.dynamic_range (frozen since 0.4.0).
[[noreturn]] void err_register_frozen(const std::string& name);

// --- detected by the Python package (raise_by_name) -------------------------------------------

/// ValueError (ours): a view method's documented constraint, "<method>: <rule>".
[[noreturn]] void err_view_rule(const std::string& method, const std::string& rule);
/// IndexError: the parser front end's indexing texts ("index out of range of tensor
/// dimension", "too many indexes for shape", ...) with the values appended.
[[noreturn]] void err_view_index(const std::string& text, const std::string& detail);
/// ValueError: `if t:` / `bool(t)` on a tensor (its contents exist only on the device).
[[noreturn]] void err_tensor_truth_value(const std::string& size);
/// TypeError: "binary operators on tensors not supported. Use nki.isa directly."
[[noreturn]] void err_tensor_operator(const std::string& op);
/// SyntaxError: a construct NKI's parser front end rejects, with its text.
[[noreturn]] void err_parser_rejects(const std::string& text);
/// TypeError: a register in Python control flow, int() or range() (the tracer front end).
[[noreturn]] void err_register_in_python(const std::string& use);
/// RuntimeError (ours): an API NKI removed, and what replaces it.
[[noreturn]] void err_removed_api(const std::string& api, const std::string& instead);
/// ValueError (ours): an nki.isa argument rule checked before the request ("<api>: <rule>").
[[noreturn]] void err_isa_rule(const std::string& api, const std::string& rule);
/// NotImplementedError: an API NKI's simulator does not run either (nki.collectives).
[[noreturn]] void err_not_simulable(const std::string& api);
/// RuntimeError: "beta-1 API (<name>) used in kernel: APIs from neuronxcc may not be used in
/// Beta-2 kernels" — the parser front end's text for mixing the two languages.
[[noreturn]] void err_mixed_languages(const std::string& api);

/// RuntimeError (ours): the reverse mixing: an `nki` API inside a neuronxcc.nki kernel.
[[noreturn]] void err_mixed_languages_current(const std::string& api);
/// ValueError (ours): a rule of launching, calling or returning from a kernel, "<rule>".
[[noreturn]] void err_kernel_rule(const std::string& rule);
/// RuntimeError: "Dynamic control-flow cannot be nested with a no_reorder block" (NKI's text).
[[noreturn]] void err_dynamic_in_no_reorder();
/// AssertionError: a runtime loop's step that is not a compile-time positive int.
[[noreturn]] void err_loop_step_not_static(const std::string& step);
/// ValueError: "invalid program axis <axis> (must be zero)" (NKI's text).
[[noreturn]] void err_program_axis(const std::string& axis);
/// ValueError (ours): NEURON_PLATFORM_TARGET_OVERRIDE names no target.
[[noreturn]] void err_unknown_target(const std::string& value);

/// raise_by_name's names for the current language's diagnostics the Python package detects;
/// returns normally when `name` is not one of them.
void raise_current_by_name(const std::string& name, const std::vector<std::string>& args);

} // namespace nki::sema
