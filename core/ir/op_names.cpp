#include "ir/op_names.h"

namespace nki::ir {

namespace {

struct AluEntry {
  const char* name;
  AluOp op;
  bool reduce;
};
constexpr AluEntry kAlu[] = {
    {"add", AluOp::Add, true},
    {"subtract", AluOp::Subtract, true},
    {"multiply", AluOp::Multiply, true},
    {"divide", AluOp::Divide, false},
    {"maximum", AluOp::Maximum, true},
    {"minimum", AluOp::Minimum, true},
    {"power", AluOp::Power, false},
    {"mod", AluOp::Mod, false},
    {"fmod", AluOp::Fmod, false},
    {"equal", AluOp::Equal, false},
    {"not_equal", AluOp::NotEqual, false},
    {"greater", AluOp::Greater, false},
    {"greater_equal", AluOp::GreaterEqual, false},
    {"less", AluOp::Less, false},
    {"less_equal", AluOp::LessEqual, false},
    {"logical_and", AluOp::LogicalAnd, true},
    {"logical_or", AluOp::LogicalOr, true},
    {"logical_xor", AluOp::LogicalXor, true},
    {"bitwise_and", AluOp::BitwiseAnd, true},
    {"bitwise_or", AluOp::BitwiseOr, true},
    {"bitwise_xor", AluOp::BitwiseXor, true},
    {"left_shift", AluOp::LeftShift, false},
    {"right_shift", AluOp::RightShift, false},
    {"invert", AluOp::Invert, false},
    {"logical_not", AluOp::LogicalNot, false},
    {"abs", AluOp::Abs, false},
    {"rsqrt", AluOp::Rsqrt, false},
    {"reciprocal", AluOp::Reciprocal, false},
    {"bypass", AluOp::Bypass, false},
};

struct ActEntry {
  const char* name;
  ActFn f;
};
constexpr ActEntry kAct[] = {
    {"copy", ActFn::Copy},
    {"square", ActFn::Square},
    {"sigmoid", ActFn::Sigmoid},
    {"relu", ActFn::Relu},
    {"gelu", ActFn::Gelu},
    {"gelu_dx", ActFn::GeluDx},
    {"gelu_apprx_tanh", ActFn::GeluApprxTanh},
    {"gelu_apprx_sigmoid", ActFn::GeluApprxSigmoid},
    {"silu", ActFn::Silu},
    {"silu_dx", ActFn::SiluDx},
    {"tanh", ActFn::Tanh},
    {"softplus", ActFn::Softplus},
    {"mish", ActFn::Mish},
    {"erf", ActFn::Erf},
    {"erf_dx", ActFn::ErfDx},
    {"exp", ActFn::Exp},
    {"log", ActFn::Log},
    {"sin", ActFn::Sin},
    {"cos", ActFn::Cos},
    {"tan", ActFn::Tan},
    {"arctan", ActFn::Arctan},
    {"sqrt", ActFn::Sqrt},
    {"rsqrt", ActFn::Rsqrt},
    {"reciprocal", ActFn::Reciprocal},
    {"sign", ActFn::Sign},
    {"abs", ActFn::Abs},
};

// NumPy's spellings (np.max, np.absolute, scipy's expit, ...) of the names above.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"max", "maximum"},
    {"amax", "maximum"},
    {"fmax", "maximum"},
    {"min", "minimum"},
    {"amin", "minimum"},
    {"fmin", "minimum"},
    {"true_divide", "divide"},
    {"absolute", "abs"},
    {"bitwise_not", "invert"},
    {"bitwise_invert", "invert"},
    {"bitwise_left_shift", "left_shift"},
    {"bitwise_right_shift", "right_shift"},
    {"remainder", "mod"},
    {"sum", "add"},
    {"prod", "multiply"},
    {"pow", "power"},
    {"expit", "sigmoid"},
    {"identity", "copy"},
};

} // namespace

std::string canonical_op(const std::string& name) {
  for (const auto& [from, to] : kAliases)
    if (name == from) return to;
  return name;
}

std::optional<AluOp> find_alu(const std::string& name) {
  for (const auto& e : kAlu)
    if (name == e.name) return e.op;
  return std::nullopt;
}

std::optional<ActFn> find_activation(const std::string& name) {
  for (const auto& e : kAct)
    if (name == e.name) return e.f;
  return std::nullopt;
}

const char* alu_name(AluOp op) {
  return kAlu[static_cast<size_t>(op)].name;
}

const char* activation_name(ActFn f) {
  return kAct[static_cast<size_t>(f)].name;
}

bool alu_is_unary(AluOp op) {
  return op >= AluOp::Invert;
}

bool alu_is_bitvec(AluOp op) {
  return (op >= AluOp::BitwiseAnd && op <= AluOp::RightShift) || op == AluOp::Invert;
}

bool alu_is_reduce(AluOp op) {
  return kAlu[static_cast<size_t>(op)].reduce;
}

std::vector<std::string> alu_names() {
  std::vector<std::string> out;
  for (const auto& e : kAlu) out.push_back(e.name);
  return out;
}

std::vector<std::string> activation_names() {
  std::vector<std::string> out;
  for (const auto& e : kAct) out.push_back(e.name);
  return out;
}

std::vector<std::pair<std::string, std::string>> op_aliases() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [from, to] : kAliases) out.emplace_back(from, to);
  return out;
}

} // namespace nki::ir
