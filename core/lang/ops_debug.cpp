// nl.device_print(prefix, x, mask=): a "device_print" instruction the simulator executes in
// program order (NKI prints only under simulation; on a device it has no effect).
#include "lang/call.h"
#include "lang/common.h"

namespace nki::lang {

using namespace nki::ir;

namespace {

// Operand `x`: any tensor or tile (SBUF, PSUM or HBM); attribute `prefix`; the mask is over
// x's tile.
ValueId handle_device_print(NeuronCodegen& cg, const OpCall& c) {
  ValueId x = c.tile("x");
  Instruction in = make_inst("device_print", Engine::None);
  in.mask = align_mask(c.mask, shape_of(cg, x).size());
  add_operand(cg, in, "x", x);
  in.attrs.push_back({"prefix", c.attr_string("prefix", "")});
  emit_effect(cg, std::move(in));
  return -1;
}

} // namespace

void register_debug_ops(OpRegistry& r) {
  r.add("device_print", handle_device_print);
}

} // namespace nki::lang
