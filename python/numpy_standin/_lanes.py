"""Functions along one axis: ``sort``, ``argsort``, ``argmax``, ``argmin``, ``cumsum``,
``cumprod``, ``var``, ``std``, ``take``, ``take_along_axis``, ``apply_along_axis``, and the
index helpers ``nonzero``, ``flatnonzero``, ``argwhere``, ``triu_indices(_from)``,
``tril_indices(_from)``.

The core has no sort, arg-reduction or scan: ``sort``/``argsort`` sort each lane with
Python's ``sorted`` (NaN last, as NumPy; stable); ``argmax``/``argmin`` reduce in the core
(``max``/``min`` + ``equal``) and look up the first match per lane in the mask's bytes;
``cumsum``/``cumprod`` add one slice per step along the axis (whole-slice ufuncs, NumPy's
sequential order) when the lanes are many, else fold each lane in Python. ``var``/``std`` are
NumPy's formula in whole-array ufuncs.
"""

from . import _dtypes as D
from ._advanced import nonzero, nonzero_flat
from ._creation import arange, asarray, zeros
from ._errors import AxisError
from ._folds import _axes, _lanes, _split, into as _into, scan
from ._io import to_bytes
from ._ndarray import from_values
from ._reductions import max as amax, min as amin, sum as asum
from ._scalars import wrap
from ._shapes import _norm, moveaxis, stack
from ._ufuncs import UFUNCS as U


def _key(v):
    return (1, 0.0) if v != v else (0, v)


def sort(a, axis=-1, kind=None, order=None, stable=None):
    """Sorted copy along ``axis`` (flattened when None); NaN sorts last."""
    a = asarray(a)
    if a.ndim == 0 and axis is not None:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    lanes, ax = _lanes(a, axis)
    n = lanes.shape[-1] if lanes.ndim else 1
    vals = []
    for lane in _split(lanes._values(), n):
        vals.extend(sorted(lane, key=_key) if lanes.dtype._kind == "f" else sorted(lane))
    out = from_values(vals, lanes.shape, a.dtype)
    return out if axis is None else moveaxis(out, -1, ax).copy()


def argsort(a, axis=-1, kind=None, order=None, stable=None):
    """Indices that sort each lane (stable; NaN last)."""
    a = asarray(a)
    lanes, ax = _lanes(a, axis)
    n = lanes.shape[-1] if lanes.ndim else 1
    idx = []
    for lane in _split(lanes._values(), n):
        key = (lambda i: _key(lane[i])) if lanes.dtype._kind == "f" else lane.__getitem__
        idx.extend(sorted(range(n), key=key))
    out = from_values(idx, lanes.shape, D.INT64)
    return out if axis is None else moveaxis(out, -1, ax).copy()


def _arg(a, axis, keepdims, reducer, name):
    a = asarray(a)
    lanes, ax = _lanes(a, axis)
    n = lanes.shape[-1]
    if n == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    if lanes.dtype._kind == "b":
        lanes = lanes.astype(D.INT8)
    best = reducer(lanes, axis=-1, keepdims=True)
    hit = U["equal"](lanes, best)
    if lanes.dtype._kind == "f":  # NumPy: the first NaN wins
        hit = U["logical_or"](hit, U["isnan"](lanes))
    raw = bytes(to_bytes(hit.astype(D.BOOL)))
    idx = [raw.find(1, i, i + n) - i for i in range(0, len(raw), n)]
    shape = lanes.shape[:-1]
    if axis is None:
        return wrap(D.INT64, idx[0])
    out = from_values(idx, shape, D.INT64) if shape else wrap(D.INT64, idx[0])
    if keepdims:
        out = asarray(out).reshape(a.shape[:ax] + (1,) + a.shape[ax + 1:])
    return out


def argmax(a, axis=None, out=None, keepdims=False):
    """Index of the first maximum along ``axis`` (of the flattened array when None)."""
    return _into(out, _arg(a, axis, keepdims, amax, "argmax"))


def argmin(a, axis=None, out=None, keepdims=False):
    """Index of the first minimum along ``axis`` (of the flattened array when None)."""
    return _into(out, _arg(a, axis, keepdims, amin, "argmin"))


def cumsum(a, axis=None, dtype=None, out=None):
    """Running sums along ``axis`` (of the flattened array when None)."""
    return _into(out, scan(U["add"], a, axis, dtype))


def cumprod(a, axis=None, dtype=None, out=None):
    """Running products along ``axis`` (of the flattened array when None)."""
    return _into(out, scan(U["multiply"], a, axis, dtype))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    """Variance: ``mean(abs(a - a.mean())**2)`` with ``n - ddof`` as the divisor; integer
    input computes in float64, float16 in float32 (returned as float16)."""
    a = asarray(a)
    if dtype is not None:
        calc = D.dtype(dtype)
    elif a.dtype._kind != "f":
        calc = D.FLOAT64
    else:
        calc = D.FLOAT32 if a.dtype is D.FLOAT16 else a.dtype
    result = D.dtype(dtype) if dtype is not None else (a.dtype if a.dtype._kind == "f"
                                                        else D.FLOAT64)
    x = a.astype(calc)
    count = 1
    for ax in _axes(axis, a.ndim):
        count *= a.shape[ax]
    mean = U["divide"](asum(x, axis=axis, keepdims=True), count).astype(calc)
    dev = U["subtract"](x, mean)
    total = asum(U["multiply"](dev, dev), axis=axis, keepdims=keepdims)
    res = U["divide"](total, max(count - ddof, 0))
    res = res.astype(result) if hasattr(res, "astype") else res
    if out is not None:
        out._assign(asarray(res))
        return out
    return res


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    """Standard deviation: the square root of ``var``."""
    root = U["sqrt"](var(a, axis, dtype, None, ddof, keepdims, where))
    if out is not None:
        out._assign(asarray(root))
        return out
    return root


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when None)."""
    if mode != "raise":
        raise NotImplementedError(f"not supported by nki-playground's numpy stand-in: "
                                  f"take(mode={mode!r})")
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    ax = _norm(axis, a.ndim)
    idx = asarray(indices)
    res = a[(slice(None),) * ax + (idx if idx.ndim else int(idx),)]
    if out is not None:
        out._assign(asarray(res))
        return out
    return res


def take_along_axis(arr, indices, axis):
    """``arr`` picked at ``indices`` along ``axis`` (the other axes broadcast, one by one)."""
    arr, idx = asarray(arr), asarray(indices)
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = _norm(axis, arr.ndim)
    key = []
    for d in range(arr.ndim):
        if d == ax:
            key.append(idx)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(arange(arr.shape[d]).reshape(shape))
    return arr[tuple(key)]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to each 1-D lane along ``axis``; its result's axes take the place
    of ``axis`` in the output."""
    import itertools
    arr = asarray(arr)
    ax = _norm(axis, arr.ndim)
    lanes = moveaxis(arr, ax, -1)
    outer = lanes.shape[:-1]
    results = [asarray(func1d(lanes[i], *args, **kwargs))
               for i in itertools.product(*(range(n) for n in outer))]
    if not results:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = stack(results).reshape(outer + results[0].shape)
    k = results[0].ndim
    order = list(range(ax)) + list(range(len(outer), len(outer) + k)) + \
        list(range(ax, len(outer)))
    return res.transpose(order).copy()


def flatnonzero(a):
    flat = nonzero_flat(asarray(a))
    return from_values(flat, (len(flat),), D.INT64)


def argwhere(a):
    a = asarray(a)
    if a.ndim == 0:
        a = a.reshape(1)
        return zeros((len(nonzero_flat(a)), 0), dtype=D.INT64)
    cols = nonzero(a)
    if not cols[0].size:
        return zeros((0, a.ndim), dtype=D.INT64)
    return stack(cols, axis=1)


def _tri_indices(n, k, m, upper):
    m = n if m is None else m
    rows, cols = [], []
    for i in range(n):
        js = range(max(i + k, 0), m) if upper else range(0, min(i + k + 1, m))
        rows.extend([i] * len(js))
        cols.extend(js)
    return (from_values(rows, (len(rows),), D.INT64), from_values(cols, (len(cols),), D.INT64))


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle (from diagonal ``k``) of an n × m array."""
    return _tri_indices(n, k, m, True)


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle (to diagonal ``k``) of an n × m array."""
    return _tri_indices(n, k, m, False)


def triu_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k, arr.shape[-1])


def tril_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k, arr.shape[-1])


NAMES = ("sort", "argsort", "argmax", "argmin", "cumsum", "cumprod", "var", "std", "take",
         "take_along_axis", "apply_along_axis", "nonzero", "flatnonzero", "argwhere",
         "triu_indices", "tril_indices", "triu_indices_from", "tril_indices_from")
