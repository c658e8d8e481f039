"""Reductions: ``np.sum/prod/max/amax/min/amin/mean/all/any`` (``ufunc.reduce`` itself is
``_folds``').

Names follow NumPy ≥ 2: ``np.max.__name__ == 'max'`` and ``np.amax.__name__ == 'amax'`` (in
NumPy 1.x ``np.max`` was ``amax``). Float sums are exact (``math.fsum``) then rounded once to
the result dtype, which can differ from NumPy's pairwise float32 sums in the last bits.
"""
from . import _dtypes as D
from ._creation import asarray
from ._errors import AxisError  # noqa: F401 - numpy.exceptions.AxisError (__init__)
from ._folds import _axes, ufunc_reduce
from ._ufuncs import UFUNCS


def _numpy_name(name):
    def deco(fn):
        fn.__name__ = fn.__qualname__ = name
        fn.__module__ = "numpy"
        return fn
    return deco


def _reduce_with(ufunc_name, a, axis, dtype, out, keepdims, initial=None, where=True):
    if where is not True:
        raise TypeError(f"{ufunc_name} reduction: 'where' is not supported by "
                        f"nki-playground's trace-time numpy fallback")
    return ufunc_reduce(UFUNCS[ufunc_name], a, axis, dtype, out, keepdims, initial)


@_numpy_name("sum")
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of the elements over ``axis`` (all axes when None)."""
    return _reduce_with("add", a, axis, dtype, out, keepdims, initial, where)


@_numpy_name("prod")
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of the elements over ``axis`` (all axes when None)."""
    return _reduce_with("multiply", a, axis, dtype, out, keepdims, initial, where)


@_numpy_name("max")
def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum over ``axis`` (all axes when None); NaN propagates."""
    return _reduce_with("maximum", a, axis, None, out, keepdims, initial, where)


@_numpy_name("amax")
def amax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Alias of ``max`` (its own function object with its own name, as in NumPy ≥ 2)."""
    return _reduce_with("maximum", a, axis, None, out, keepdims, initial, where)


@_numpy_name("min")
def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum over ``axis`` (all axes when None); NaN propagates."""
    return _reduce_with("minimum", a, axis, None, out, keepdims, initial, where)


@_numpy_name("amin")
def amin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Alias of ``min`` (its own function object with its own name, as in NumPy ≥ 2)."""
    return _reduce_with("minimum", a, axis, None, out, keepdims, initial, where)


@_numpy_name("all")
def all(a, axis=None, out=None, keepdims=False, where=True):
    """Whether every element over ``axis`` is true."""
    return _reduce_with("logical_and", a, axis, None, out, keepdims, None, where)


@_numpy_name("any")
def any(a, axis=None, out=None, keepdims=False, where=True):
    """Whether any element over ``axis`` is true."""
    return _reduce_with("logical_or", a, axis, None, out, keepdims, None, where)


@_numpy_name("mean")
def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    """Arithmetic mean over ``axis``: float64 for integer input; float16 input is summed in
    float32 and the result returned as float16, as NumPy does."""
    arr = asarray(a)
    d = arr.dtype
    if dtype is not None:
        acc = result = D.dtype(dtype)
    elif d._kind != "f":
        acc = result = D.FLOAT64
    else:
        acc, result = (D.FLOAT32 if d is D.FLOAT16 else d), d
    total = _reduce_with("add", arr, axis, acc, None, keepdims, None, where)
    count = arr.size // (total.size if hasattr(total, "size") else 1) if arr.size else 0
    if arr.size == 0:
        count = 1
        for ax in _axes(axis, arr.ndim):
            count *= arr.shape[ax]
    quotient = UFUNCS["divide"](total, count)
    if out is not None:
        out._assign(quotient if hasattr(quotient, "_store") else _wrap0(quotient))
        return out
    return quotient.astype(result) if quotient.dtype is not result else quotient


def _wrap0(scalar):
    return asarray(scalar)


REDUCERS = {f.__name__: f for f in (sum, prod, max, amax, min, amin, all, any, mean)}
