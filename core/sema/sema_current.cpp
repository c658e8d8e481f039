#include "sema/sema_current.h"

#include "sema/sema.h"

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

void raise_current_by_name(const std::string& name, const std::vector<std::string>& a) {
  (void)name;
  (void)a;
}

} // namespace nki::sema
