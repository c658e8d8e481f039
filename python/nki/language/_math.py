"""nki.language's element-wise operators: op tokens for ``nki.isa`` (``op=nl.add``) and, since
NKI 0.3.0, experimental wrappers returning a new SBUF tile, written over ``nki.isa`` with the
wrappers' documented limits (no broadcasting between two tiles; a tile and a scalar use
tensor_scalar, functions the Scalar engine's activation)."""
import builtins

from .. import _dtypes
from .._rules import view_rule


def _tile(x):
    from .._tensor import NkiTensor
    return isinstance(x, NkiTensor)


def _new_tile(api, shape, dtype):
    from ._creation import ndarray
    return ndarray(shape, dtype, name=api)


def _dtype(dtype, x):
    return _dtypes.name_of(dtype) if dtype is not None else x.dtype


def _binary(api, op, x, y, dtype):
    from .. import isa as nisa
    if _tile(x) and _tile(y):
        if tuple(x.shape) != tuple(y.shape):
            view_rule(f"nl.{api}", f"no broadcasting between tiles: {x.name}{list(x.shape)} and "
                      f"{y.name}{list(y.shape)} (broadcast one explicitly: t.broadcast(dim, size))")
        dst = _new_tile(api, x.shape, _dtype(dtype, x))
        nisa.tensor_tensor(dst, x, y, op)
        return dst
    if _tile(x):
        dst = _new_tile(api, x.shape, _dtype(dtype, x))
        nisa.tensor_scalar(dst, x, op, y)
        return dst
    if _tile(y):
        dst = _new_tile(api, y.shape, _dtype(dtype, y))
        nisa.tensor_scalar(dst, y, op, x, reverse0=True)
        return dst
    view_rule(f"nl.{api}", "at least one of x, y must be a tile")


def _unary_alu(api, op, x, dtype):
    from .. import isa as nisa
    if not _tile(x):
        view_rule(f"nl.{api}", "x must be a tile")
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.tensor_scalar(dst, x, op, 0)
    return dst


def _activation(api, fn, x, dtype):
    from .. import isa as nisa
    if not _tile(x):
        view_rule(f"nl.{api}", "x must be a tile")
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.activation(dst, fn, x)
    return dst


def _make_binary(name):
    def op(x, y, dtype=None):
        return _binary(name, op, x, y, dtype)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}`` of x and y, element-wise (an op token and a wrapper)."
    return op


def _make_unary_alu(name):
    def op(x, dtype=None):
        return _unary_alu(name, op, x, dtype)
    op.__name__ = op.__qualname__ = name
    return op


def _make_activation(name):
    def op(x, dtype=None):
        return _activation(name, op, x, dtype)
    op.__name__ = op.__qualname__ = name
    return op


BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "abs_max", "abs_min",
          "power", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "logical_and",
          "logical_or", "logical_xor", "fmod", "mod")
UNARY_ALU = ("invert", "logical_not")
ACTIVATIONS = ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu",
               "gelu_apprx_sigmoid", "gelu_apprx_tanh", "gelu_dx", "gelu_apprx_sigmoid_dx", "silu",
               "silu_dx", "softplus", "mish", "erf", "erf_dx", "reciprocal", "sin", "cos", "tan",
               "arctan", "sign", "square")

for _n in BINARY:
    globals()[_n] = _make_binary(_n)
for _n in UNARY_ALU:
    globals()[_n] = _make_unary_alu(_n)
for _n in ACTIVATIONS:
    globals()[_n] = _make_activation(_n)


def abs(x, dtype=None):  # noqa: A001 - NKI's name
    """|x|, element-wise (Vector engine)."""
    return _unary_alu("abs", abs, x, dtype)


def copy(x, dtype=None):
    """A copy of x in a new SBUF tile (Vector engine ``tensor_copy``; bit-accurate for equal
    dtypes). Stable since NKI 0.6.0."""
    from .. import isa as nisa
    if not _tile(x):
        view_rule("nl.copy", "x must be a tile")
    dst = _new_tile("copy", x.shape, _dtype(dtype, x))
    nisa.tensor_copy(dst, x, engine=nisa.engine.vector)
    return dst


def negative(x, dtype=None):
    """-x, element-wise."""
    from .. import isa as nisa
    dst = _new_tile("negative", x.shape, _dtype(dtype, x))
    nisa.tensor_scalar(dst, x, multiply, -1.0)  # noqa: F821 - defined above
    return dst


def _rounding(api, x, dtype, sign, use_fmod):
    """floor / ceil / trunc: x - frac, frac = x mod 1 (floor), -((-x) mod 1) (ceil), fmod (trunc)."""
    from .. import isa as nisa
    frac = _new_tile(f"{api}_frac", x.shape, "float32")
    if sign < 0:
        nisa.tensor_scalar(frac, x, multiply, -1.0, op1=mod, operand1=1.0)  # noqa: F821
        dst = _new_tile(api, x.shape, _dtype(dtype, x))
        nisa.tensor_tensor(dst, x, frac, add)  # noqa: F821
        return dst
    nisa.tensor_scalar(frac, x, fmod if use_fmod else mod, 1.0)  # noqa: F821
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.tensor_tensor(dst, x, frac, subtract)  # noqa: F821
    return dst


def floor(x, dtype=None):
    return _rounding("floor", x, dtype, 1, False)


def ceil(x, dtype=None):
    return _rounding("ceil", x, dtype, -1, False)


def trunc(x, dtype=None):
    return _rounding("trunc", x, dtype, 1, True)


# Tokens that are only operands of nki.isa instructions.
class _Token:
    def __init__(self, name):
        self.__name__ = self.nki_op = name

    def __repr__(self):
        return f"nl.{self.__name__}"


average = _Token("average")
prelu = _Token("prelu")
bypass = _Token("bypass")

_ = builtins
