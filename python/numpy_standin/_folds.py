"""Folding a binary ufunc along axes: ``ufunc.reduce`` (``ufunc_reduce``) and
``ufunc.accumulate`` (``scan``), below the ufunc objects (``_ufuncs``) that call them and the
reductions (``np.sum`` & co., ``_reductions``) and lane functions (``np.cumsum`` & co.,
``_lanes``) built on them. The ufunc arrives as an argument: nothing here imports ``_ufuncs``.

Float sums are exact (``math.fsum``) then rounded once to the result dtype, which can differ
from NumPy's pairwise float32 sums in the last bits. Large or core-backed arrays reduce in the
core; a scan adds one slice per step along the axis (whole-slice ufuncs, NumPy's sequential
order) when the lanes are many, else folds each lane in Python.
"""
import math

from . import _core_storage as C
from . import _dtypes as D
from ._apply import finalize
from ._creation import asarray
from ._errors import AxisError
from ._ndarray import core_array, from_values, on_core
from ._scalars import wrap
from ._shapes import _norm, moveaxis


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
    in_core = _core_reduce(name, arr, lp, od, axes, initial, keepdims)
    if in_core is not None:
        if out is not None:
            out._assign(in_core)
            return out
        if not in_core.shape:
            return wrap(od, in_core._values()[0])
        return in_core
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
    if not C.available() or arr.size == 0 or not (
            arr.size >= C.THRESHOLD or isinstance(arr._store, C.CoreStorage)):
        return None
    if not (C.eligible(lp) and C.eligible(od)) or "uint64" in (lp.name, od.name):
        return None
    init = None if initial is None else D.cast_value(lp, initial)
    if init is not None:
        init = float(init) if lp._kind == "f" else int(init)
    src = on_core(arr)
    reply = C.request({"op": "reduce", "name": name, "lp": lp.name, "od": od.name,
                       "axes": list(axes), "initial": init, "in": C.view_json(src)})
    if reply.get("unsupported"):
        return None
    kept = [n for a, n in enumerate(arr.shape) if a not in axes]
    result = core_array(od, reply["id"], tuple(kept))
    if keepdims:
        result = result.reshape([1 if a in axes else n for a, n in enumerate(arr.shape)])
    return result


def _lanes(a, axis):
    """(array with ``axis`` last, axis) — ``axis`` None flattens."""
    a = asarray(a)
    if axis is None:
        return a.reshape(-1), 0
    ax = _norm(axis, a.ndim)
    return moveaxis(a, ax, -1), ax


def into(out, result):
    """``result`` written into ``out`` when given (NumPy's ``out=``), else ``result``."""
    if out is None:
        return result
    out._assign(asarray(result))
    return out


def _split(values, n):
    return [values[i:i + n] for i in range(0, len(values), n)] if n else []


def scan(uf, a, axis, dtype):
    """The running results of binary ufunc ``uf`` along ``axis`` (``uf.accumulate``; of the
    flattened array when ``axis`` is None)."""
    a = asarray(a)
    if dtype is not None:
        dt = D.dtype(dtype)
    elif a.dtype._kind in "bi" and a.dtype.itemsize < 8:
        dt = D.INT64
    elif a.dtype._kind == "u" and a.dtype.itemsize < 8:
        dt = D.UINT64
    else:
        dt = a.dtype
    lanes, ax = _lanes(a, axis)
    if lanes.ndim == 0:
        lanes = lanes.reshape(1)
    lanes = lanes.astype(dt)
    n = lanes.shape[-1]
    count = lanes.size // n if n else 0
    if count >= n:  # many lanes: one whole-slice ufunc per step
        out = lanes.copy()
        for k in range(1, n):
            uf(out[..., k - 1], out[..., k], out=out[..., k])
    else:
        vals = []
        kernel = uf._kernel
        for lane in _split(lanes._values(), n):
            acc = None
            for v in lane:
                acc = v if acc is None else finalize(dt, kernel(dt, acc, v))
                vals.append(acc)
        out = from_values(vals, lanes.shape, dt)
    return out if axis is None else moveaxis(out, -1, ax).copy()
