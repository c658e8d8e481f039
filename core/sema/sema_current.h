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

/// raise_by_name's names for the current language's diagnostics the Python package detects;
/// returns normally when `name` is not one of them.
void raise_current_by_name(const std::string& name, const std::vector<std::string>& args);

} // namespace nki::sema
