"""The op tokens ``nki.language`` names (``nl.add``, ``nl.exp``, ...), a leaf: ``nki.isa`` takes them
as ``op=`` arguments and defaults, and since NKI 0.3.0 each is also an experimental wrapper
returning a new SBUF tile. The wrappers are written over ``nki.isa`` (nki.language._math), which
installs them here (``install``), so the isa layer does not build on the language layer.
"""
BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "abs_max", "abs_min",
          "power", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and",
          "logical_or", "logical_xor", "fmod", "mod")
UNARY_ALU = ("invert", "logical_not")
ACTIVATIONS = ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu",
               "gelu_apprx_sigmoid", "gelu_apprx_tanh", "gelu_dx", "gelu_apprx_sigmoid_dx", "silu",
               "silu_dx", "softplus", "mish", "erf", "erf_dx", "reciprocal", "sin", "cos", "tan",
               "arctan", "sign", "square")

#: kind ("binary", "unary_alu", "activation") -> fn(api, token, *args, dtype) (nki.language._math)
_impl = {}


def install(kind, fn):
    _impl[kind] = fn


def _make_binary(name):
    def op(x, y, dtype=None):
        return _impl["binary"](name, op, x, y, dtype)
    op.__doc__ = f"``{name}`` of x and y, element-wise (an op token and a wrapper)."
    return op


def _make_unary(kind, name):
    def op(x, dtype=None):
        return _impl[kind](name, op, x, dtype)
    op.__doc__ = f"``{name}`` of x, element-wise (an op token and a wrapper)."
    return op


TOKENS = {}
for _n in BINARY:
    TOKENS[_n] = _make_binary(_n)
for _n in UNARY_ALU:
    TOKENS[_n] = _make_unary("unary_alu", _n)
for _n in ACTIVATIONS:
    TOKENS[_n] = _make_unary("activation", _n)
for _n, _op in TOKENS.items():
    _op.__name__ = _op.__qualname__ = _n
    globals()[_n] = _op
