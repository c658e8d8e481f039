"""How a ufunc picks its loop: the loop resolvers (name, promoted input dtype) → (loop
dtype, output dtype), as NumPy ≥ 2's loop tables do (``exp`` of int8 computes in float16,
``divide`` of ints in float64, ``floor`` of ints is the identity as of NumPy 2.1, bool
``subtract`` is a TypeError), and the errors when there is none. Below ``_apply`` (which calls
a ufunc) and ``_ufuncs`` (the ufunc objects).
"""
from . import _dtypes as D


class UFuncTypeError(TypeError):
    """NumPy's ``numpy._core._exceptions._UFuncNoLoopError`` family (a TypeError)."""


def _no_loop(name, dts):
    types = ", ".join(repr(d) for d in dts)
    return UFuncTypeError(f"ufunc '{name}' not supported for the input types ({types}), and "
                          f"the inputs could not be safely coerced to any supported types "
                          f"according to the casting rule ''safe''")


def _arith(bool_ok=True):
    def resolve(name, p):
        if p._kind == "b" and not bool_ok:
            return D.INT8, D.INT8
        return p, p
    return resolve


def _bool_subtract(name, p):
    if p._kind == "b":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                        "bitwise_xor, the `^` operator, or the logical_xor function instead.")
    return p, p


def _bool_negative(name, p):
    if p._kind == "b":
        raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use "
                        "the `~` operator or the logical_not function instead.")
    return p, p


def _no_bool(name, p):
    if p._kind == "b":
        raise _no_loop(name, [p])
    return p, p


def _true_divide(name, p):
    lp = p if p._kind == "f" else D.FLOAT64
    return lp, lp


def _float(name, p, inputs=()):
    """Float-only ufuncs: the first of float16/32/64 every integer input casts to safely."""
    if p._kind == "f":
        return p, p
    lp = D.promote_all([D.float_for_int(d) for d in inputs] or [D.float_for_int(p)])
    return lp, lp


def _to_bool(name, p):
    return p, D.BOOL


def _integer_only(bool_ok):
    def resolve(name, p):
        if p._kind == "f":
            raise _no_loop(name, [p])
        if p._kind == "b" and not bool_ok:
            return D.INT8, D.INT8
        return p, p
    return resolve


def _same(name, p):
    return p, p


#: Ufuncs whose output is a comparison of the inputs: a weak Python int is compared exactly,
#: never cast (NumPy ≥ 2 answers ``uint8_array < 300`` without an OverflowError).
COMPARISONS = frozenset(("equal", "not_equal", "greater", "greater_equal", "less",
                         "less_equal"))
