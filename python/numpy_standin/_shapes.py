"""Shape and joining functions: ``expand_dims``, ``squeeze``, ``concatenate``, ``stack``,
``vstack``, ``hstack``, ``tile``, ``swapaxes``, ``moveaxis``.

All are views or whole-array copies / ufuncs, so core-backed arrays stay in the core (a join
writes each input into its slice of the result with one assignment each).
"""
from . import _dtypes as D
from ._creation import asarray, zeros
from ._errors import check_axis as _norm
from ._ndarray import make_view


def expand_dims(a, axis):
    """``a`` with length-1 axes inserted at ``axis`` (an int or a tuple) of the result."""
    a = asarray(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = a.ndim + len(axes)
    axes = [_norm(x, nd) for x in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    it = iter(zip(a.shape, a._strides))
    shape, strides = [], []
    for i in range(nd):
        if i in axes:
            shape.append(1)
            strides.append(0)
        else:
            n, s = next(it)
            shape.append(n)
            strides.append(s)
    return make_view(a._store, a._offset, tuple(shape), tuple(strides))


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    order = list(range(a.ndim))
    i, j = _norm(axis1, a.ndim), _norm(axis2, a.ndim)
    order[i], order[j] = order[j], order[i]
    return a.transpose(order)


def moveaxis(a, source, destination):
    a = asarray(a)
    src = [_norm(s, a.ndim) for s in (source if isinstance(source, (tuple, list)) else [source])]
    dst = [_norm(s, a.ndim) for s in
           (destination if isinstance(destination, (tuple, list)) else [destination])]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


def concatenate(arrays, axis=0, out=None, dtype=None):
    """The arrays joined along an existing ``axis`` (flattened first when ``axis`` is None)."""
    arrs = [asarray(x) for x in arrays]
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrs, axis = [x.reshape(-1) for x in arrs], 0
    nd = arrs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _norm(axis, nd)
    for i, x in enumerate(arrs):
        if x.ndim != nd:
            raise ValueError(f"all the input array dimensions except for the concatenation axis "
                             f"must match exactly, but along dimension 0, the array at index 0 "
                             f"has {nd} dimension(s) and the array at index {i} has "
                             f"{x.ndim} dimension(s)")
        for d in range(nd):
            if d != ax and x.shape[d] != arrs[0].shape[d]:
                raise ValueError(f"all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array "
                                 f"at index 0 has size {arrs[0].shape[d]} and the array at "
                                 f"index {i} has size {x.shape[d]}")
    dt = D.dtype(dtype) if dtype is not None else D.promote_all([x.dtype for x in arrs])
    shape = list(arrs[0].shape)
    shape[ax] = sum(x.shape[ax] for x in arrs)
    result = zeros(tuple(shape), dtype=dt) if out is None else out
    at = 0
    for x in arrs:
        n = x.shape[ax]
        if n:
            key = (slice(None),) * ax + (slice(at, at + n),)
            result[key] = x
        at += n
    return result


def stack(arrays, axis=0, out=None, dtype=None):
    """The arrays (all of one shape) joined along a new ``axis``."""
    arrs = [asarray(x) for x in arrays]
    if not arrs:
        raise ValueError("need at least one array to stack")
    if any(x.shape != arrs[0].shape for x in arrs):
        raise ValueError("all input arrays must have the same shape")
    ax = _norm(axis, arrs[0].ndim + 1)
    return concatenate([expand_dims(x, ax) for x in arrs], ax, out, dtype)


def _atleast(x, n):
    x = asarray(x)
    if x.ndim >= n:
        return x
    if n == 2:
        return x.reshape(1, -1) if x.ndim == 1 else x.reshape(1, 1)
    return x.reshape(1)


def vstack(tup, dtype=None):
    return concatenate([_atleast(x, 2) for x in tup], 0, dtype=dtype)


def hstack(tup, dtype=None):
    arrs = [_atleast(x, 1) for x in tup]
    return concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype)


def tile(A, reps):
    """``A`` repeated ``reps`` times along each axis: a zero-stride view copied once."""
    a = asarray(A)
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    reps = tuple(int(r) for r in reps)
    d = max(len(reps), a.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - a.ndim) + a.shape
    strides = (0,) * (d - a.ndim) + tuple(a._strides)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    vshape, vstrides = [], []
    for r, n, s in zip(reps, shape, strides):
        vshape += [r, n]
        vstrides += [0, s]
    view = make_view(a._store, a._offset, tuple(vshape), tuple(vstrides))
    return view.copy().reshape(tuple(r * n for r, n in zip(reps, shape)))


def _fortran_reshape(a, shape):
    """``a.reshape(shape, order='F')``: reversed axes, a C reshape, reversed back."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    return a.T.reshape(tuple(reversed(shape))).T


NAMES = ("expand_dims", "squeeze", "swapaxes", "moveaxis", "concatenate", "stack", "vstack",
         "hstack", "tile")
