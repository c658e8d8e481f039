"""Advanced indexing: integer arrays (or lists) and boolean masks in an index, get and set,
with NumPy's rules — the index arrays broadcast together; their shape replaces the indexed
axes in place when the advanced indices are adjacent, else it comes first; an integer next
to an index array counts as one; a boolean mask stands for its ``nonzero()``.

How: the slices (and ``None``) make a strided view with every advanced axis kept whole; the
index arrays pick one storage offset per broadcast position. Each picked block of the
remaining axes is then read or written whole: blocks of ``_BLOCK`` elements or more as one
view copy each (in the core for core-backed arrays), smaller ones through one gather or
scatter of storage offsets (a Python loop over the picked elements: the core has no gather).
"""
import itertools

from . import _dtypes as D
from ._creation import asarray, zeros
from ._errors import out_of_bounds
from ._indexing import _ADVANCED, _as_int, is_advanced, resolve, set_basic
from ._io import to_bytes
from ._ndarray import broadcast_shapes, from_values, make_view, ndarray
from ._scalars import wrap

#: Picked blocks at least this big are copied as views (one core assignment per block).
_BLOCK = 64


def nonzero_flat(arr):
    """Row-major positions of the true elements of ``arr`` (a list of ints)."""
    raw = arr.astype(D.BOOL)
    return list(itertools.compress(range(arr.size), to_bytes(raw)))


def nonzero(a):
    """``np.nonzero``: one int64 array of coordinates per axis of ``a``."""
    arr = asarray(a)
    if arr.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d("
                         "scalar).nonzero() instead.")
    flat = nonzero_flat(arr)
    out = []
    step = arr.size
    for n in arr.shape:
        step //= n
        out.append(from_values([(p // step) % n for p in flat], (len(flat),), D.INT64))
    return tuple(out)


def _normalize(arr, key):
    """(items, adjacent): the key with lists as arrays, masks as their nonzero arrays, integers
    among index arrays as 0-d arrays, and the ellipsis expanded."""
    items = list(key) if isinstance(key, tuple) else [key]
    out = []
    for k in items:
        if isinstance(k, list):
            k = asarray(k)
            if k.size == 0:
                k = k.astype(D.INT64)
        if isinstance(k, ndarray):
            if k.dtype._kind == "b":
                if k.ndim == 0:
                    raise IndexError("not supported by nki-playground's numpy stand-in: a 0-d "
                                     "boolean index")
                out.append(("mask", k))
                continue
            if k.dtype._kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            out.append(("adv", k))
        elif k is None or k is Ellipsis or isinstance(k, slice):
            out.append(("basic", k))
        else:
            i = _as_int(k)
            if i is None:
                raise IndexError(_ADVANCED)
            out.append(("adv", asarray(i, dtype=D.INT64)))

    def dims(entry):
        kind, k = entry
        return k.ndim if kind == "mask" else int(kind == "adv" or isinstance(k, slice))
    used = sum(dims(e) for e in out)
    if sum(1 for kind, k in out if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if used > arr.ndim:
        raise IndexError(f"too many indices for array: array is {arr.ndim}-dimensional, but "
                         f"{used} were indexed")
    for i, (kind, k) in enumerate(out):
        if k is Ellipsis:
            out[i:i + 1] = [("basic", slice(None))] * (arr.ndim - used)
            break
    out += [("basic", slice(None))] * (arr.ndim - sum(dims(e) for e in out))
    expanded, axis = [], 0
    for kind, k in out:
        if kind == "mask":  # a mask stands for its coordinates, one index array per axis
            for d, n in enumerate(k.shape):
                if n != arr.shape[axis + d]:
                    raise IndexError(f"boolean index did not match indexed array along axis "
                                     f"{axis + d}; size of axis is {arr.shape[axis + d]} but "
                                     f"size of corresponding boolean axis is {n}")
            expanded.extend(("adv", c) for c in nonzero(k))
        else:
            expanded.append((kind, k))
        axis += dims((kind, k))
    adv = [i for i, (kind, _) in enumerate(expanded) if kind == "adv"]
    return expanded, adv == list(range(adv[0], adv[-1] + 1))


def _plan(arr, key):
    """Where ``arr[key]`` reads: ``(store, offsets, bshape, rest_shape, rest_strides, perm)``
    — one storage offset per broadcast position, the remaining block's shape and strides, and
    the axis order taking the (B + rest) result to NumPy's."""
    items, adjacent = _normalize(arr, key)
    basic = tuple(slice(None) if kind == "adv" else k for kind, k in items)
    _, offset, shape, strides = resolve(arr, basic)
    adv_axes, ax = [], 0
    for kind, k in items:
        if kind == "adv":
            adv_axes.append(ax)
        ax += 1
    arrays = [k for kind, k in items if kind == "adv"]
    bshape = broadcast_shapes(*(a.shape for a in arrays))
    nb = 1
    for n in bshape:
        nb *= n
    cols = []
    for a, axis in zip(arrays, adv_axes):
        n = shape[axis]
        vals = a._broadcast_values(bshape) if a.shape != bshape else a._values()
        fixed = []
        for v in vals:
            if not -n <= v < n:
                raise IndexError(f"index {v} is out of bounds for axis {axis} with size {n}")
            fixed.append((v + n if v < 0 else v) * strides[axis])
        cols.append(fixed)
    offsets = [offset + sum(c) for c in zip(*cols)] if cols else [offset]
    rest = [i for i in range(len(shape)) if i not in adv_axes]
    rshape = tuple(shape[i] for i in rest)
    rstrides = tuple(strides[i] for i in rest)
    nbd = len(bshape)
    if adjacent:
        c = sum(1 for i in rest if i < adv_axes[0])
        perm = [nbd + j for j in range(c)] + list(range(nbd)) + \
            [nbd + j for j in range(c, len(rest))]
    else:
        perm = list(range(nbd + len(rest)))
    return arr._store, offsets, bshape, rshape, rstrides, perm


def _rest_offsets(rshape, rstrides):
    idx = [0]
    for n, s in zip(rshape, rstrides):
        idx = [b + i * s for b in idx for i in range(n)]
    return idx


def index_get(arr, key):
    """``arr[key]``: a scalar (every axis picked by an integer), a view (a basic index) or a
    new array (an advanced one)."""
    if is_advanced(key):
        return getitem(arr, key)
    is_element, offset, shape, strides = resolve(arr, key)
    if is_element:
        return wrap(arr.dtype, arr._store.read(offset))
    return make_view(arr._store, offset, shape, strides)


def index_set(arr, key, value):
    """``arr[key] = value`` (basic or advanced ``key``)."""
    if is_advanced(key):
        setitem(arr, key, value)
    else:
        set_basic(arr, key, value)


def getitem(arr, key):
    store, offsets, bshape, rshape, rstrides, perm = _plan(arr, key)
    rsize = 1
    for n in rshape:
        rsize *= n
    if rsize >= _BLOCK and len(offsets) > 0:
        out = zeros((len(offsets),) + rshape, dtype=arr.dtype)
        for j, p in enumerate(offsets):
            out[j] = make_view(store, p, rshape, rstrides)
        result = out.reshape(bshape + rshape)
    else:
        rest = _rest_offsets(rshape, rstrides)
        flat = [p + r for p in offsets for r in rest]
        result = from_values(store.gather(flat), bshape + rshape, arr.dtype)
    return result.transpose(perm) if perm != sorted(perm) else result


def setitem(arr, key, value):
    store, offsets, bshape, rshape, rstrides, perm = _plan(arr, key)
    if isinstance(value, int) and not isinstance(value, bool) and arr.dtype._kind in "iu":
        if not D.fits(arr.dtype, value):
            raise out_of_bounds(value, arr.dtype)
    val = asarray(value)
    final = tuple((bshape + rshape)[i] for i in perm)
    if broadcast_shapes(val.shape, final) != final:
        raise ValueError(f"shape mismatch: value array of shape {val.shape} could not be "
                         f"broadcast to indexing result of shape {final}")
    lead = len(final) - val.ndim
    strides = [0] * lead + [0 if n == 1 else s for n, s in zip(val.shape, val._strides)]
    full = make_view(val._store, val._offset, final, strides)
    inverse = [perm.index(i) for i in range(len(perm))]
    ordered = full.transpose(inverse)  # B + rest order
    rsize = 1
    for n in rshape:
        rsize *= n
    if rsize >= _BLOCK:
        blocks = ordered.reshape((len(offsets),) + rshape)  # copies when not contiguous
        for j, p in enumerate(offsets):
            make_view(store, p, rshape, rstrides)._assign(blocks[j])
        return
    vals = ordered._values()
    if val.dtype is not arr.dtype:
        vals = [D.cast_value(arr.dtype, v) for v in vals]
    rest = _rest_offsets(rshape, rstrides)
    store.scatter([p + r for p in offsets for r in rest], vals)
