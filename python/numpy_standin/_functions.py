"""Module-level helpers kernel harnesses reach for: dtype queries (``result_type``,
``can_cast``, ``promote_types``), shape helpers and comparisons (``allclose``, ...)."""
import math

from . import _apply
from . import _dtypes as D
from ._advanced import nonzero
from ._creation import asarray
from ._errors import AxisError
from ._ndarray import (broadcast_shapes, from_values, make_view,  # noqa: F401 - re-exported
                       ndarray)
from ._scalars import generic, wrap
from ._ufuncs import UFUNCS as U

#: ``on_compare(a, b, ok)`` after each comparison a script makes through the stand-in
#: (``allclose``, ``array_equal``, ``isclose`` and ``numpy.testing``'s asserts), so the runner
#: can show expected vs actual for simulated outputs; set by the runner through
#: ``_testing.on_compare`` (None outside a run).
on_compare = [None]


def report(a, b, ok):
    hook = on_compare[0]
    if hook is not None:
        hook(a, b, ok)
    return ok


def promote_types(type1, type2):
    """The smallest dtype both ``type1`` and ``type2`` cast to safely."""
    return D.promote(D.dtype(type1), D.dtype(type2))


def can_cast(from_, to, casting="safe"):
    """Whether dtype ``from_`` casts to ``to`` under ``casting``."""
    if isinstance(from_, (bool, int, float)) and not isinstance(from_, type):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because "
                        "the result used to depend on the value.")
    src = from_.dtype if isinstance(from_, (ndarray, generic)) else D.dtype(from_)
    return D.can_cast(src, D.dtype(to), casting)


def result_type(*arrays_and_dtypes):
    """The dtype a ufunc would compute in for these operands (Python scalars weak, NEP 50)."""
    ops = []
    for x in arrays_and_dtypes:
        if isinstance(x, (bool, int, float, ndarray, generic, list, tuple)):
            ops.append(_apply._operand(x, "result_type"))
        else:
            ops.append(_apply._Operand(dtype=D.dtype(x)))
    if not ops:
        raise ValueError("at least one array or dtype is required")
    return _apply.promote(ops)


def isscalar(element):
    return isinstance(element, (bool, int, float, complex, str, bytes, generic))


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a).ndim


def size(a, axis=None):
    arr = asarray(a)
    return arr.size if axis is None else arr.shape[axis]


def reshape(a, shape, order="C"):
    return asarray(a).reshape(shape, order=order)


def transpose(a, axes=None):
    return asarray(a).transpose(*(() if axes is None else (axes,)))


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def copy(a, order="K"):
    return asarray(a).copy()


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y`` (the 3-argument form)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    ops = [_apply._operand(v, "where") for v in (condition, x, y)]
    dt = _apply.promote(ops[1:])
    shp = broadcast_shapes(*(op.shape for op in ops))
    n = 1
    for s in shp:
        n *= s
    cond = _apply._column(ops[0], shp, n, D.BOOL, False)
    xs = _apply._column(ops[1], shp, n, dt, False)
    ys = _apply._column(ops[2], shp, n, dt, False)
    values = [a if c else b for c, a, b in zip(cond, xs, ys)]
    return wrap(dt, values[0]) if not shp else from_values(values, shp, dt)


def _close(a, b, rtol, atol, equal_nan):
    if a == b:
        return True
    if math.isnan(a) or math.isnan(b):
        return equal_nan and math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return False
    return abs(a - b) <= atol + rtol * abs(b)


def _isclose_bulk(x, y, rtol, atol, equal_nan):
    """``isclose`` of two large numeric arrays as whole-array ufuncs (which run in the core
    for core-backed arrays) instead of a Python loop per element; same answers as ``_close``."""
    if x.shape == y.shape and bool(U["equal"](x, y).all()):
        return U["equal"](x, x)  # all equal (no NaN): close everywhere — one pass, not ten
    x, y = x.astype(D.FLOAT64), y.astype(D.FLOAT64)
    diff = U["subtract"](x, y)
    bound = U["add"](float(atol), U["multiply"](float(rtol), U["absolute"](y)))
    close = U["less_equal"](U["absolute"](diff), bound)
    finite = U["isfinite"](diff)  # false exactly where x or y is NaN or infinite (or overflow)
    if finite.all():
        return close
    close = U["logical_and"](close, U["logical_and"](U["isfinite"](x), U["isfinite"](y)))
    close = U["logical_or"](close, U["equal"](x, y))  # equal infinities
    if equal_nan:
        close = U["logical_or"](close, U["logical_and"](U["isnan"](x), U["isnan"](y)))
    return close


#: Arrays from this many elements compare with whole-array ufuncs (``_isclose_bulk``).
_BULK = 1024


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|a - b| <= atol + rtol * |b|`` (infinities equal only to themselves)."""
    result = _isclose(a, b, rtol, atol, equal_nan)
    if on_compare[0] is not None:  # `np.isclose(out, ref).all()`: a comparison too
        report(a, b, bool(result.all()) if isinstance(result, ndarray) else bool(result))
    return result


def _isclose(a, b, rtol, atol, equal_nan):
    if isinstance(a, ndarray) and isinstance(b, ndarray) and max(a.size, b.size) >= _BULK \
            and a.dtype._kind in "biuf" and b.dtype._kind in "biuf":
        return _isclose_bulk(a, b, rtol, atol, equal_nan)
    ops = [_apply._operand(v, "isclose") for v in (a, b)]
    shp = broadcast_shapes(*(op.shape for op in ops))
    n = 1
    for s in shp:
        n *= s
    xs, ys = (_apply._column(op, shp, n, D.FLOAT64, False) for op in ops)
    values = [_close(p, q, rtol, atol, equal_nan) for p, q in zip(xs, ys)]
    return wrap(D.BOOL, values[0]) if not shp else from_values(values, shp, D.BOOL)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False, _report=True):
    """Whether every element of ``a`` is close to ``b`` (see ``isclose``); a Python bool."""
    result = _isclose(a, b, rtol, atol, equal_nan)
    ok = bool(result.all()) if isinstance(result, ndarray) else bool(result)
    return report(a, b, ok) if _report else ok


def array_equal(a1, a2, equal_nan=False):
    """Whether the two arrays have the same shape and elements; a Python bool."""
    x, y = asarray(a1), asarray(a2)
    ok = x.shape == y.shape
    if ok and x.size >= _BULK and x.dtype._kind in "biuf" and y.dtype._kind in "biuf":
        ok = bool(U["equal"](x, y).all()) or (
            equal_nan and bool(_isclose(x, y, 0.0, 0.0, True).all()))
    elif ok:
        for p, q in zip(x._values(), y._values()):
            if p != q and not (equal_nan and p != p and q != q):
                ok = False
                break
    return report(a1, a2, ok)


def repeat(a, repeats, axis=None):
    """``np.repeat`` with an integer ``repeats``: each element (along ``axis``, or of the
    flattened array) repeated."""
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise NotImplementedError("np.repeat with per-element repeats is not supported by "
                                  "nki-playground's trace-time numpy fallback")
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if not -a.ndim <= axis < a.ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    axis %= a.ndim
    # Each element read `repeats` times through a zero-stride axis after `axis`, then copied.
    shape = a.shape[:axis + 1] + (repeats,) + a.shape[axis + 1:]
    strides = a._strides[:axis + 1] + (0,) + a._strides[axis + 1:]
    out = make_view(a._store, a._offset, shape, strides).copy()
    return out.reshape(a.shape[:axis] + (a.shape[axis] * repeats,) + a.shape[axis + 1:])
