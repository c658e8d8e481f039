"""Statistics over arrays: ``nanmean``/``nansum``/``nanmax``/``nanmin``, ``median``,
``percentile``/``quantile`` (NumPy's default 'linear' method), ``unique``, ``count_nonzero``.

NaN-aware reductions are NumPy's formulas in whole-array ufuncs (NaNs replaced, then counted);
``median``, ``percentile`` and ``unique`` sort (``_lanes.sort``: Python's ``sorted`` per lane).
"""
import math

from . import _dtypes as D
from ._creation import asarray, zeros
from ._functions import where
from ._lanes import sort
from ._ndarray import from_values
from ._reductions import _axes, REDUCERS as R
from ._shapes import stack
from ._ufuncs import UFUNCS as U


def _replace_nan(a, value):
    a = asarray(a)
    if a.dtype._kind != "f":
        return a, None
    mask = U["isnan"](a)
    return where(mask, value, a).astype(a.dtype), mask


def _unwrap(r):
    """A 0-d array as its scalar (what NumPy's reductions return)."""
    return r[()] if hasattr(r, "_store") and r.ndim == 0 else r


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    arr, _ = _replace_nan(a, 0)
    return R["sum"](arr, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    """Mean ignoring NaNs; an all-NaN slice gives NaN (NumPy also warns)."""
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return R["mean"](arr, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    cnt = R["sum"](U["logical_not"](mask), axis=axis, dtype=D.INT64, keepdims=keepdims)
    tot = R["sum"](arr, axis=axis, dtype=dtype, keepdims=keepdims)
    avg = U["divide"](tot, cnt)
    rdt = D.dtype(dtype) if dtype is not None else arr.dtype
    avg = asarray(avg).astype(rdt) if asarray(avg).dtype is not rdt else avg
    if out is not None:
        out._assign(asarray(avg))
        return out
    return _unwrap(avg)


def _nan_extreme(name, fill):
    def reduce(a, axis=None, out=None, keepdims=False):
        arr, mask = _replace_nan(a, fill)
        r = R[name](arr, axis=axis, out=out, keepdims=keepdims)
        if mask is None:
            return r
        all_nan = R["all"](mask, axis=axis, keepdims=keepdims)
        return _unwrap(where(all_nan, math.nan, r).astype(arr.dtype))
    reduce.__name__ = "nan" + name
    return reduce


nanmax = _nan_extreme("max", -math.inf)
nanmin = _nan_extreme("min", math.inf)


def count_nonzero(a, axis=None, *, keepdims=False):
    """How many elements are not zero (a Python int when ``axis`` is None)."""
    nz = U["not_equal"](asarray(a), 0)
    if axis is None and not keepdims:
        return int(R["sum"](nz))
    return R["sum"](nz, axis=axis, dtype=D.INT64, keepdims=keepdims)


def _quantile_lanes(a, axis):
    """(sorted lanes with the reduced axes last and flattened, the kept shape, axes)."""
    a = asarray(a)
    if axis is None:
        return sort(a.reshape(-1)), (), list(range(a.ndim))
    axes = list(_axes(axis, a.ndim))
    keep = [d for d in range(a.ndim) if d not in axes]
    moved = a.transpose(keep + axes).copy()
    kept_shape = tuple(a.shape[d] for d in keep)
    lanes = moved.reshape(kept_shape + (-1,))
    return sort(lanes, axis=-1), kept_shape, axes


def _keep(r, a, axes, keepdims):
    """``r`` (the kept axes' shape) with the reduced ``axes`` of ``a`` back as length 1."""
    if not keepdims:
        return r
    return r.reshape(tuple(1 if d in axes else n for d, n in enumerate(a.shape)))


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The middle value (the mean of the two middle ones) along ``axis``; NaN where a lane
    holds a NaN."""
    arr = asarray(a)
    lanes, kept, axes = _quantile_lanes(arr, axis)
    n = lanes.shape[-1]
    if n == 0:
        r = R["mean"](lanes, axis=-1)
    else:
        lo, hi = (n - 1) // 2, n // 2
        pair = lanes[..., lo:hi + 1]
        r = R["mean"](pair, axis=-1)
        if lanes.dtype._kind == "f":
            has_nan = U["isnan"](lanes[..., -1])  # NaN sorts last
            r = where(has_nan, math.nan, r).astype(asarray(r).dtype)
    r = _keep(asarray(r), arr, axes, keepdims)
    if out is not None:
        out._assign(r)
        return out
    return _unwrap(r)


def _lerp(a, b, t):
    """NumPy's interpolation: ``a + (b - a) * t``, from the upper end when ``t >= 0.5``."""
    d = U["subtract"](b, a)
    lo = U["add"](a, U["multiply"](d, t))
    hi = U["subtract"](b, U["multiply"](d, U["subtract"](1, t)))
    return where(U["greater_equal"](t, 0.5), hi, lo)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, interpolation=None):
    """The ``q``-th quantiles (``0 <= q <= 1``) along ``axis``, NumPy's 'linear' method:
    the virtual index ``q * (n - 1)`` interpolated between its neighbours."""
    if (interpolation or method) != "linear":
        raise NotImplementedError(f"not supported by nki-playground's numpy stand-in: "
                                  f"quantile(method={interpolation or method!r})")
    arr = asarray(a)
    qs = asarray(q, dtype=D.FLOAT64) if not hasattr(q, "dtype") or q.dtype._kind != "f" \
        else asarray(q)
    if not bool(R["all"](U["logical_and"](U["greater_equal"](qs, 0), U["less_equal"](qs, 1)))):
        raise ValueError("Quantiles must be in the range [0, 1]")
    lanes, kept, axes = _quantile_lanes(arr, axis)
    if lanes.dtype._kind != "f":
        lanes = lanes.astype(D.FLOAT64)
    n = lanes.shape[-1]
    flat_q = qs.reshape(-1).tolist()
    results = []
    for qv in flat_q:
        virtual = qv * (n - 1)
        below = min(max(math.floor(virtual), 0), n - 1)
        above = min(below + 1, n - 1)
        gamma = asarray(virtual - below, dtype=D.FLOAT64)
        r = _lerp(lanes[..., below], lanes[..., above], gamma)
        if lanes.dtype._kind == "f":
            r = where(U["isnan"](lanes[..., -1]), math.nan, r)
        results.append(asarray(r))
    r = stack(results).reshape(qs.shape + kept) if results else zeros(qs.shape + kept)
    if keepdims:
        shape = [1 if d in axes else s for d, s in enumerate(arr.shape)]
        r = r.reshape(qs.shape + tuple(shape))
    if out is not None:
        out._assign(r)
        return out
    return _unwrap(r)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, interpolation=None):
    """The ``q``-th percentiles (``0 <= q <= 100``): ``quantile(a, q / 100)``."""
    qs = U["divide"](asarray(q), 100)
    if not bool(R["all"](U["logical_and"](U["greater_equal"](qs, 0), U["less_equal"](qs, 1)))):
        raise ValueError("Percentiles must be in the range [0, 100]")
    return quantile(a, qs, axis, out, overwrite_input, method, keepdims,
                    interpolation=interpolation)


def _dedupe(values, is_float, equal_nan):
    """Indices (into sorted ``values``) where a new distinct value starts."""
    starts = []
    for i, v in enumerate(values):
        if i == 0:
            starts.append(0)
            continue
        prev = values[i - 1]
        same = v == prev or (is_float and equal_nan and v != v and prev != prev)
        if not same:
            starts.append(i)
    return starts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True):
    """The sorted distinct values of ``ar`` (flattened), optionally with the first index of
    each, the inverse map and the counts."""
    if axis is not None:
        raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                  "unique(axis=...)")
    arr = asarray(ar)
    flat = arr.reshape(-1)._values()
    is_float = arr.dtype._kind == "f"
    order = sorted(range(len(flat)), key=(lambda i: (1, 0.0, i) if flat[i] != flat[i]
                                          else (0, flat[i], i)))
    svals = [flat[i] for i in order]
    starts = _dedupe(svals, is_float, equal_nan)
    uniq = from_values([svals[s] for s in starts], (len(starts),), arr.dtype)
    if not (return_index or return_inverse or return_counts):
        return uniq
    out = [uniq]
    if return_index:
        out.append(from_values([order[s] for s in starts], (len(starts),), D.INT64))
    if return_inverse:
        inv = [0] * len(flat)
        group = -1
        bounds = set(starts)
        for k, i in enumerate(order):
            if k in bounds:
                group += 1
            inv[i] = group
        out.append(from_values(inv, arr.shape if arr.ndim > 1 else (len(flat),), D.INT64))
    if return_counts:
        ends = starts[1:] + [len(svals)]
        out.append(from_values([e - s for s, e in zip(starts, ends)], (len(starts),), D.INT64))
    return tuple(out)


NAMES = ("nansum", "nanmean", "nanmax", "nanmin", "count_nonzero", "median", "quantile",
         "percentile", "unique")
