"""Reductions: ``ufunc.reduce`` and ``np.sum/prod/max/amax/min/amin/mean/all/any``.

Names follow NumPy ≥ 2: ``np.max.__name__ == 'max'`` and ``np.amax.__name__ == 'amax'`` (in
NumPy 1.x ``np.max`` was ``amax``). Float sums are exact (``math.fsum``) then rounded once to
the result dtype, which can differ from NumPy's pairwise float32 sums in the last bits.
"""
import math

from . import _dtypes as D
from ._apply import finalize
from ._ufuncs import UFUNCS


class AxisError(ValueError, IndexError):
    """``numpy.exceptions.AxisError``: an axis out of range for the array."""


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in items:
        if isinstance(a, float) or not hasattr(a, "__index__"):
            raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer")
        a = a.__index__()
        if not -ndim <= a < ndim:
            raise AxisError(f"axis {a} is out of bounds for array of dimension {ndim}")
        out.append(a + ndim if a < 0 else a)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(out)


#: Ufuncs whose reduction does not depend on the order of the elements (several axes allowed).
REORDERABLE = frozenset(("add", "multiply", "maximum", "minimum", "logical_and", "logical_or",
                         "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"))


def _groups(arr, axes):
    """(kept shape, list of value groups): one group of raw values per output element."""
    kept = [a for a in range(arr.ndim) if a not in axes]
    values = arr.transpose(kept + list(axes))._values()
    per = 1
    for a in axes:
        per *= arr.shape[a]
    outer = 1
    for a in kept:
        outer *= arr.shape[a]
    return [arr.shape[a] for a in kept], [values[i * per:(i + 1) * per] for i in range(outer)]


def _fold(uf, lp, od, group, initial):
    name = uf.__name__
    if initial is None and lp._fmt is not None and uf.identity is not None and group:
        initial = uf.identity  # NumPy starts an ml_dtypes reduction from the identity
    if initial is not None:
        group = [D.cast_value(lp, initial)] + group
    if not group:
        if uf.identity is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             f"identity")
        return D.cast_value(od, uf.identity)
    if name == "add" and lp._kind == "f" and lp._fmt is None:  # ml_dtypes: one add at a time
        try:
            total = math.fsum(group)
        except (OverflowError, ValueError):  # ±inf or intermediate overflow: IEEE order
            total = 0.0
            for v in group:
                total += v
        return finalize(od, total)
    kernel = uf._kernel
    if od is D.FLOAT16:  # NumPy reduces half precision in a float32 accumulator
        acc = group[0]
        for v in group[1:]:
            acc = D.round_float(D.FLOAT32, float(kernel(lp, acc, v)))
        return D.round_float(D.FLOAT16, acc)
    acc = finalize(od, group[0])
    for v in group[1:]:
        acc = finalize(od, kernel(lp, acc, v))
    return acc


def ufunc_reduce(uf, array, axis, dtype, out, keepdims, initial):
    """``uf.reduce(array, axis, dtype, out, keepdims, initial)``."""
    from ._creation import asarray
    from ._ndarray import from_values
    from ._scalars import wrap
    arr = asarray(array)
    name = uf.__name__
    if dtype is not None:
        lp = D.dtype(dtype)
        od = D.BOOL if name.startswith("logical") else lp
    else:
        d = arr.dtype
        if name in ("add", "multiply") and d._kind in "biu" and d.itemsize < 8:
            d = D.UINT64 if d._kind == "u" else D.INT64  # small ints accumulate in 64 bits
        lp, od = uf._resolve(name, d)
    if arr.ndim == 0 and axis is not None and axis != ():
        raise AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    axes = _axes(axis, arr.ndim)
    if len(axes) > 1 and name not in REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         f"axis may be specified")
    if arr.dtype is not lp:
        arr = arr.astype(lp)
    on_core = _core_reduce(name, arr, lp, od, axes, initial, keepdims)
    if on_core is not None:
        if out is not None:
            out._assign(on_core)
            return out
        if not on_core.shape:
            return wrap(od, on_core._values()[0])
        return on_core
    shape, groups = _groups(arr, axes)
    raw = [_fold(uf, lp, od, g, initial) for g in groups]
    if keepdims:
        shape = [1 if a in axes else n for a, n in enumerate(arr.shape)]
    shape = tuple(shape)
    if out is not None:
        out._assign(from_values(raw, shape, od))
        return out
    if not shape:
        return wrap(od, raw[0])
    return from_values(raw, shape, od)


def _core_reduce(name, arr, lp, od, axes, initial, keepdims):
    """The reduction by the core (large or core-backed arrays), or None for the Python fold."""
    from . import _core_storage as C
    if not C.available() or arr.size == 0 or not (
            arr.size >= C.THRESHOLD or isinstance(arr._store, C.CoreStorage)):
        return None
    if not (C.eligible(lp) and C.eligible(od)) or "uint64" in (lp.name, od.name):
        return None
    init = None if initial is None else D.cast_value(lp, initial)
    if init is not None:
        init = float(init) if lp._kind == "f" else int(init)
    src = C.on_core(arr)
    reply = C.request({"op": "reduce", "name": name, "lp": lp.name, "od": od.name,
                       "axes": list(axes), "initial": init, "in": C.view_json(src)})
    if reply.get("unsupported"):
        return None
    kept = [n for a, n in enumerate(arr.shape) if a not in axes]
    result = C.wrap(od, reply["id"], tuple(kept))
    if keepdims:
        result = result.reshape([1 if a in axes else n for a, n in enumerate(arr.shape)])
    return result


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
    from ._creation import asarray
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
    from ._creation import asarray
    return asarray(scalar)


REDUCERS = {f.__name__: f for f in (sum, prod, max, amax, min, amin, all, any, mean)}
