"""nki.language's element-wise operators: op tokens for ``nki.isa`` (``op=nl.add``) and, since
NKI 0.3.0, experimental wrappers returning a new SBUF tile, written over ``nki.isa`` with the
wrappers' documented limits (no broadcasting between two tiles; a tile and a scalar use
tensor_scalar, functions the Scalar engine's activation)."""
from .. import _dtypes, _optokens, isa as nisa
from .._optokens import TOKENS, add, fmod, install, mod, multiply, subtract
from .._rules import view_rule
from .._tensor import NkiTensor
from ._creation import ndarray


def _tile(x):
    return isinstance(x, NkiTensor)


def _new_tile(api, shape, dtype):
    return ndarray(shape, dtype, name=api)


def _dtype(dtype, x):
    return _dtypes.name_of(dtype) if dtype is not None else x.dtype


def _binary(api, op, x, y, dtype):
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
    if not _tile(x):
        view_rule(f"nl.{api}", "x must be a tile")
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.tensor_scalar(dst, x, op, 0)
    return dst


def _activation(api, fn, x, dtype):
    if not _tile(x):
        view_rule(f"nl.{api}", "x must be a tile")
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.activation(dst, fn, x)
    return dst


install("binary", _binary)
install("unary_alu", _unary_alu)
install("activation", _activation)
BINARY, UNARY_ALU, ACTIVATIONS = _optokens.BINARY, _optokens.UNARY_ALU, _optokens.ACTIVATIONS
globals().update(TOKENS)


def abs(x, dtype=None):  # noqa: A001 - NKI's name
    """|x|, element-wise (Vector engine)."""
    return _unary_alu("abs", abs, x, dtype)


def copy(x, dtype=None):
    """A copy of x in a new SBUF tile (Vector engine ``tensor_copy``; bit-accurate for equal
    dtypes). Stable since NKI 0.6.0."""
    if not _tile(x):
        view_rule("nl.copy", "x must be a tile")
    dst = _new_tile("copy", x.shape, _dtype(dtype, x))
    nisa.tensor_copy(dst, x, engine=nisa.engine.vector)
    return dst


def negative(x, dtype=None):
    """-x, element-wise."""
    dst = _new_tile("negative", x.shape, _dtype(dtype, x))
    nisa.tensor_scalar(dst, x, multiply, -1.0)
    return dst


def _rounding(api, x, dtype, sign, use_fmod):
    """floor / ceil / trunc: x - frac, frac = x mod 1 (floor), -((-x) mod 1) (ceil), fmod (trunc)."""
    frac = _new_tile(f"{api}_frac", x.shape, "float32")
    if sign < 0:
        nisa.tensor_scalar(frac, x, multiply, -1.0, op1=mod, operand1=1.0)
        dst = _new_tile(api, x.shape, _dtype(dtype, x))
        nisa.tensor_tensor(dst, x, frac, add)
        return dst
    nisa.tensor_scalar(frac, x, fmod if use_fmod else mod, 1.0)
    dst = _new_tile(api, x.shape, _dtype(dtype, x))
    nisa.tensor_tensor(dst, x, frac, subtract)
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

