"""Element-wise math, comparisons, logical/bitwise ops, selects and reductions of nki.language.

Every function forwards its arguments to the core in one request (``_ops.call``); the core checks
them with NKI's messages and emits the instructions (docs/ops/math.md): tile ⊙ tile →
tensor_tensor, tile ⊙ (P, 1) column or scalar → tensor_scalar, transcendental functions →
activation on the Scalar engine. ``NkiTensor``'s operators delegate to ``tile_binary`` /
``tile_unary`` here.
"""
import struct as _struct

from .. import _dtypes, _ops
from ._reduction import (sum, max, min, mean, prod, all, var, softmax, rms_norm,  # noqa: F401,A004
                         loop_reduce, all_reduce)
from ._reduction import __all__ as _REDUCTIONS

_ARGS_DOC = """

  Args:
    x: a tile{or_scalar}.{y}
    dtype: the result's dtype (default: {default}).
    mask: a compile-time predicate selecting the elements computed.
  Returns:
    a tile of the broadcast shape of the inputs.
"""


def _doc(summary, binary, default, scalar_x=True):
    y = ("\n    y: a tile or a scalar; shapes broadcast along free dimensions (a (P, 1) column "
         "repeats along the row).") if binary else ""
    return summary + _ARGS_DOC.format(or_scalar=" or a scalar" if scalar_x and binary else "",
                                      y=y, default=default)


def _binary(name, summary, *, predicate=False, positional_dtype=False):
    if predicate:
        def op(x, y, *, dtype=bool, mask=None, **kwargs):
            return _ops.call(name, [("x", x), ("y", y)], dtype=dtype, mask=mask)
    elif positional_dtype:  # nl.mod / nl.fmod take dtype and mask positionally too
        def op(x, y, dtype=None, mask=None, **kwargs):
            return _ops.call(name, [("x", x), ("y", y)], dtype=dtype, mask=mask)
    else:
        def op(x, y, *, dtype=None, mask=None, **kwargs):
            return _ops.call(name, [("x", x), ("y", y)], dtype=dtype, mask=mask)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = _doc(summary, True, "bool" if predicate else "NKI type promotion of the inputs")
    return op


def _unary(name, summary, *, predicate=False):
    if predicate:
        def op(x, *, dtype=bool, mask=None, **kwargs):
            return _ops.call(name, [("x", x)], dtype=dtype, mask=mask)
    else:
        def op(x, *, dtype=None, mask=None, **kwargs):
            return _ops.call(name, [("x", x)], dtype=dtype, mask=mask)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = _doc(summary, False, "bool" if predicate else "x's dtype")
    return op


power = _binary("power", "Elements of x raised to the powers y (GpSimd engine).")
maximum = _binary("maximum", "Element-wise maximum of x and y.")
minimum = _binary("minimum", "Element-wise minimum of x and y.")
mod = _binary("mod", "x mod y, the sign of the divisor (Python's %).", positional_dtype=True)
fmod = _binary("fmod", "Remainder of x / y with the sign of the dividend (C fmod).",
               positional_dtype=True)
equal = _binary("equal", "x == y, element-wise.", predicate=True)
not_equal = _binary("not_equal", "x != y, element-wise.", predicate=True)
greater = _binary("greater", "x > y, element-wise.", predicate=True)
greater_equal = _binary("greater_equal", "x >= y, element-wise.", predicate=True)
less = _binary("less", "x < y, element-wise.", predicate=True)
less_equal = _binary("less_equal", "x <= y, element-wise.", predicate=True)
logical_and = _binary("logical_and", "x AND y, element-wise.", predicate=True)
logical_or = _binary("logical_or", "x OR y, element-wise.", predicate=True)
logical_xor = _binary("logical_xor", "x XOR y, element-wise.", predicate=True)
bitwise_and = _binary("bitwise_and", "Bitwise AND of integer tiles (operator &).")
bitwise_or = _binary("bitwise_or", "Bitwise OR of integer tiles (operator |).")
bitwise_xor = _binary("bitwise_xor", "Bitwise XOR of integer tiles (operator ^).")
left_shift = _binary("left_shift", "x shifted left by y bits (operator <<).")
right_shift = _binary("right_shift", "x shifted right by y bits, logically (operator >>).")

abs = _unary("abs", "Absolute value (Scalar engine activation).")  # noqa: A001
negative = _unary("negative", "Numerical negative, -x.")
sign = _unary("sign", "-1, 0 or 1 by the sign of x (activation).")
trunc = _unary("trunc", "x rounded toward zero.")
floor = _unary("floor", "The largest integer <= x.")
ceil = _unary("ceil", "The smallest integer >= x.")
exp = _unary("exp", "e to the power x (activation).")
log = _unary("log", "Natural logarithm (activation).")
cos = _unary("cos", "Cosine (activation).")
sin = _unary("sin", "Sine (activation).")
tan = _unary("tan", "Tangent (activation).")
tanh = _unary("tanh", "Hyperbolic tangent (activation).")
arctan = _unary("arctan", "Inverse tangent (activation).")
sqrt = _unary("sqrt", "Non-negative square root (activation).")
rsqrt = _unary("rsqrt", "1 / sqrt(x) (activation).")
reciprocal = _unary("reciprocal", "1 / x (activation).")
sigmoid = _unary("sigmoid", "Logistic sigmoid 1 / (1 + exp(-x)) (activation).")
relu = _unary("relu", "max(0, x) (activation).")
gelu = _unary("gelu", "Gaussian error linear unit (activation).")
gelu_dx = _unary("gelu_dx", "Derivative of gelu (activation).")
gelu_apprx_tanh = _unary("gelu_apprx_tanh", "gelu, tanh approximation (activation).")
gelu_apprx_sigmoid = _unary("gelu_apprx_sigmoid", "gelu, sigmoid approximation (activation).")
silu = _unary("silu", "Sigmoid linear unit x * sigmoid(x) (activation).")
silu_dx = _unary("silu_dx", "Derivative of silu (activation).")
erf = _unary("erf", "Error function (activation).")
erf_dx = _unary("erf_dx", "Derivative of erf (activation).")
softplus = _unary("softplus", "log(1 + exp(x)) (activation).")
mish = _unary("mish", "x * tanh(softplus(x)) (activation).")
square = _unary("square", "x * x (activation).")
invert = _unary("invert", "Bitwise NOT of an integer tile (operator ~).")
logical_not = _unary("logical_not", "NOT x, element-wise.", predicate=True)


def where(condition, x, y, *, dtype=None, mask=None, **kwargs):
    """Elements of ``x`` where ``condition`` holds, of ``y`` elsewhere (vector.select).

    Args:
      condition: a tile (non-zero is true).
      x: a tile with the values chosen where the condition holds.
      y: a tile or a scalar with the values chosen elsewhere.
      dtype: the result's dtype (default: NKI type promotion of x and y).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      a tile of the broadcast shape of the inputs.
    """
    return _ops.call("where", [("condition", condition), ("x", x), ("y", y)], dtype=dtype,
                     mask=mask)


def dropout(x, rate, *, dtype=None, mask=None, **kwargs):
    """Zero each element of ``x`` with probability ``rate`` (vector.dropout).

    Args:
      x: a tile.
      rate: a scalar, or a tile with one element (per partition, or one for all).
      dtype: the result's dtype (default: x's).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      a tile of x's shape.
    """
    return _ops.call("dropout", [("x", x), ("rate", rate)], dtype=dtype, mask=mask)


def rand(shape, dtype=_dtypes.float32, **kwargs):
    """A tile of ``shape`` with values drawn uniformly from [0, 1) (vector.rand)."""
    if isinstance(shape, int):
        shape = (shape,)
    return _ops.call("rand", [], attrs={"shape": list(shape)}, dtype=dtype)


def random_seed(seed, *, mask=None, **kwargs):
    """Seeds the random number generator ``rand`` and ``dropout`` draw from.

    Args:
      seed: a 32-bit integer scalar, or a (1, 1) tile holding one.
      mask: a compile-time predicate.
    """
    _ops.call("random_seed", [("seed", seed)], mask=mask)


# --- the tile operators --------------------------------------------------------------------

_TILE_BINARY = {f.__name__: f for f in (
    power, maximum, minimum, mod, fmod, equal, not_equal, greater, greater_equal, less,
    less_equal, logical_and, logical_or, logical_xor, bitwise_and, bitwise_or, bitwise_xor,
    left_shift, right_shift)}
_TILE_UNARY = {f.__name__: f for f in (abs, negative, invert, logical_not)}


def tile_binary(name, x, y):
    """``x <op> y`` for NkiTensor's operators (``<``, ``&``, ``**``, ``%``, ...): nl.<name>."""
    fn = _TILE_BINARY.get(name)
    if fn is not None:
        return fn(x, y)
    return _ops.call(name, [("x", x), ("y", y)])


def tile_unary(name, x):
    """``-x``, ``abs(x)``, ``~x`` for NkiTensor: nl.<name>."""
    return _TILE_UNARY[name](x)


# --- constants -------------------------------------------------------------------------------


def _f32_bits(bits):
    return _struct.unpack("<f", _struct.pack("<I", bits))[0]


class fp32:
    """FP32 constants: ``min`` is the bit pattern 0xff7fffff (the most negative float32)."""

    min = _f32_bits(0xff7fffff)  # noqa: F811  (a class attribute, not nl.min)


class bfp16:
    """BFLOAT16 constants: ``min`` is the bit pattern 0xff80 NKI documents (read as a float, it
    is -inf: bf16 0xff80 has an all-ones exponent)."""

    min = _f32_bits(0xff800000)  # noqa: F811  (a class attribute, not nl.min)


class _FInfo:
    __slots__ = ("dtype", "bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution")

    def __init__(self, dtype, bits, mant, emax, emin, resolution, max_value=None):
        self.dtype = dtype
        self.bits = bits
        self.eps = 2.0 ** -mant
        self.max = max_value if max_value is not None else (2.0 - 2.0 ** -mant) * 2.0 ** emax
        self.min = -self.max
        self.tiny = self.smallest_normal = 2.0 ** emin
        self.resolution = resolution

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min:.6e}, max={self.max:.6e}, "
                f"dtype={self.dtype})")


_FINFO = {
    "float32": (32, 23, 127, -126, 1e-06, None),
    "tfloat32": (32, 10, 127, -126, 0.001, None),
    "float16": (16, 10, 15, -14, 0.001, None),
    "bfloat16": (16, 7, 127, -126, 0.01, None),
    "float8_e4m3": (8, 3, 7, -6, 0.1, 240.0),
    "float8_e5m2": (8, 2, 15, -14, 1.0, None),
}


def finfo(dtype):
    """Machine limits of a float dtype (bits, eps, max, min, tiny, resolution), like np.finfo."""
    name = _dtypes.name_of(dtype)
    spec = _FINFO.get(name)
    if spec is None:
        raise ValueError(f"data type {name!r} not inexact")
    return _FInfo(_dtypes.lookup(name), *spec)


__all__ = [n for n in (
    "power", "maximum", "minimum", "mod", "fmod", "equal", "not_equal", "greater",
    "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "abs", "negative",
    "sign", "trunc", "floor", "ceil", "exp", "log", "cos", "sin", "tan", "tanh", "arctan", "sqrt",
    "rsqrt", "reciprocal", "sigmoid", "relu", "gelu", "gelu_dx", "gelu_apprx_tanh",
    "gelu_apprx_sigmoid", "silu", "silu_dx", "erf", "erf_dx", "softplus", "mish", "square",
    "invert", "logical_not", "where", "dropout", "rand", "random_seed", "fp32", "bfp16",
    "finfo")] + list(_REDUCTIONS)
