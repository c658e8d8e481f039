// The current language's registers: register_alloc / register_move / register_load /
// register_store. A register holds a 32-bit integer (values wrap to int32); the loops over
// registers live in the interpreter.
#include <cstdint>

#include "sim/exec.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

int64_t wrap32(int64_t v) {
  return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v)));
}

int64_t& reg_of(Exec& ex, const Operand& o) {
  return ex.env.reg.at(static_cast<size_t>(o.reg));
}

// Element [0, ..., 0] of a (1, 1) tile, as an integer.
int64_t read_one(Exec& ex, const Operand& o) {
  Domain dom(o.ap.tile_shape, {}, ex.env);
  View v = ex.view(o, dom);
  int64_t pos[kMaxRank] = {0};
  int64_t x = 0;
  read_i64(v, pos, 0, 1, &x, ex);
  return x;
}

// The value of a "src" operand: a register, an immediate or a (1, 1) tile.
int64_t source_value(Exec& ex, const Operand& o) {
  if (o.reg != kNone) return reg_of(ex, o);
  if (o.is_scalar) return static_cast<int64_t>(o.scalar);
  return read_one(ex, o);
}

void exec_register_alloc(Exec& ex, const Instruction& in) {
  const Operand* src = ex.find(in, "src");
  reg_of(ex, ex.need(in, "dst")) = src ? wrap32(source_value(ex, *src)) : 0;
}

void exec_register_move(Exec& ex, const Instruction& in) {
  reg_of(ex, ex.need(in, "dst")) = wrap32(source_value(ex, ex.need(in, "src")));
}

void exec_register_load(Exec& ex, const Instruction& in) {
  reg_of(ex, ex.need(in, "dst")) = wrap32(read_one(ex, ex.need(in, "src")));
}

void exec_register_store(Exec& ex, const Instruction& in) {
  const Operand& d = ex.need(in, "dst");
  Domain dom(d.ap.tile_shape, {}, ex.env);
  View v = ex.view(d, dom);
  int64_t pos[kMaxRank] = {0};
  int64_t x = reg_of(ex, ex.need(in, "src"));
  write_i64(v, pos, 0, 1, &x);
}

} // namespace

void register_register_execs(ExecTable& t) {
  t.add("register_alloc", exec_register_alloc);
  t.add("register_move", exec_register_move);
  t.add("register_load", exec_register_load);
  t.add("register_store", exec_register_store);
}

} // namespace nki::sim
