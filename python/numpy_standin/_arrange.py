"""Rearranging and building arrays from others: ``flip``, ``broadcast_to``,
``ascontiguousarray``, ``pad``, ``tril``/``triu``, ``outer``, ``kron``, ``split``/
``array_split``, ``indices``, ``fromfunction``, ``put_along_axis``, ``round``/``around``,
``diff``, ``clip``.

Views where NumPy gives views (``flip``, ``broadcast_to``, ``split``); everything else is
whole-array ufuncs, joins and assignments, so core-backed arrays stay in the core.
"""
import operator

from . import _dtypes as D
from ._creation import arange, asarray, full, zeros
from ._functions import where
from ._lanes import take
from ._ndarray import make_view, ndarray
from ._scalars import generic
from ._shapes import _norm, concatenate, stack
from ._ufuncs import UFUNCS as U


def _axes_of(axis, ndim):
    if axis is None:
        return list(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return [_norm(a, ndim) for a in axes]


def flip(m, axis=None):
    """``m`` with the order of elements reversed along ``axis`` (all axes when None): a view."""
    m = asarray(m)
    offset, strides = m._offset, list(m._strides)
    for ax in _axes_of(axis, m.ndim):
        if m.shape[ax]:
            offset += (m.shape[ax] - 1) * strides[ax]
        strides[ax] = -strides[ax]
    return make_view(m._store, offset, m.shape, strides)


def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def _shape_text(shape):
    return "(" + ",".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def broadcast_to(array, shape, subok=False):
    """A read-only view of ``array`` broadcast to ``shape`` (zero strides, no copy)."""
    a = asarray(array)
    shape = (shape,) if isinstance(shape, int) or hasattr(shape, "__index__") else tuple(shape)
    shape = tuple(operator.index(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    lead = len(shape) - a.ndim
    ok = lead >= 0 and all(n == 1 or n == shape[lead + i] for i, n in enumerate(a.shape))
    if not ok:
        if not shape and a.ndim:
            raise ValueError("cannot broadcast a non-scalar to a scalar array")
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_shape_text(a.shape)}  and requested shape "
                         f"{_shape_text(shape)}")
    strides = [0] * lead + [0 if n == 1 and shape[lead + i] != 1 else s
                            for i, (n, s) in enumerate(zip(a.shape, a._strides))]
    return make_view(a._store, a._offset, shape, strides)


def ascontiguousarray(a, dtype=None, like=None):
    """``a`` as a C-contiguous array of at least one dimension (a copy only when needed)."""
    arr = asarray(a, dtype=dtype)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr._is_contiguous():
        return arr
    return arr.copy()


def _pairs(width, ndim, name):
    """``width`` (an int, a pair, or one pair per axis) as one (before, after) per axis."""
    w = asarray(width)
    vals = w.tolist() if w.ndim else [w.item()]
    if w.ndim == 0 or (w.ndim == 1 and len(vals) == 1):
        return [(vals[0], vals[0])] * ndim
    if w.ndim == 1 and len(vals) == 2:
        return [tuple(vals)] * ndim
    if w.ndim == 2 and w.shape[1] in (1, 2) and w.shape[0] in (1, ndim):
        rows = [tuple(r) * (2 // len(r)) for r in vals]
        return rows * ndim if len(rows) == 1 else rows
    raise ValueError(f"operands could not be broadcast together with remapped shapes "
                     f"[original->remapped]: {_shape_text(w.shape)}  and requested shape "
                     f"{_shape_text((ndim, 2))}")


def _pad_index(n, before, after, mode):
    """Source indices along one axis of length ``n`` for ``mode`` (edge, wrap, reflect,
    symmetric)."""
    out = []
    for i in range(-before, n + after):
        if mode == "edge":
            j = min(max(i, 0), n - 1)
        elif mode == "wrap":
            j = i % n
        else:
            period = 2 * n - 2 if mode == "reflect" else 2 * n
            if period == 0:
                j = 0
            else:
                j = i % period
                if mode == "reflect":
                    j = j if j < n else period - j
                else:
                    j = j if j < n else period - 1 - j
        out.append(j)
    return out


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded along every axis; modes ``constant`` (``constant_values``), ``edge``,
    ``wrap``, ``reflect`` and ``symmetric``. Axes are padded one after another, so corners
    take the later axis's padding, as NumPy's do."""
    a = asarray(array)
    widths = _pairs(pad_width, a.ndim, "pad_width")
    if any(int(b) < 0 or int(e) < 0 for b, e in widths):
        raise ValueError("index can't contain negative values")
    if mode == "constant":
        values = _pairs(kwargs.pop("constant_values", 0), a.ndim, "constant_values")
    elif mode not in ("edge", "wrap", "reflect", "symmetric"):
        if mode in ("linear_ramp", "maximum", "mean", "median", "minimum", "empty"):
            raise NotImplementedError(f"not supported by nki-playground's numpy stand-in: "
                                      f"pad(mode={mode!r})")
        raise ValueError(f"mode '{mode}' is not supported")
    if kwargs:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': "
                         f"{set(kwargs)}")
    out = a
    for ax, (before, after) in enumerate(widths):
        before, after = int(before), int(after)
        if not before and not after:
            continue
        if mode == "constant":
            parts = []
            for width, value in ((before, values[ax][0]), (after, values[ax][1])):
                shape = list(out.shape)
                shape[ax] = width
                parts.append(full(tuple(shape), value).astype(a.dtype) if width else None)
            out = concatenate([p for p in (parts[0], out, parts[1]) if p is not None], ax)
        else:
            n = out.shape[ax]
            if n == 0:
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 f"'constant' or 'empty'")
            out = take(out, asarray(_pad_index(n, before, after, mode), dtype=D.INT64), ax)
    return out.copy() if out is a else out


def _tri_mask(shape, k, lower):
    n, m = shape[-2], shape[-1]
    rows = arange(n).reshape(n, 1)
    cols = arange(m).reshape(1, m)
    return U["less_equal"](cols, rows + k) if lower else U["greater_equal"](cols, rows + k)


def _tri(m, k, lower):
    m = asarray(m)
    if m.ndim < 2:
        if m.ndim == 0:
            raise TypeError("tri() missing 1 required positional argument: 'N'")
        m = broadcast_to(m, (m.shape[0], m.shape[0]))
    return where(_tri_mask(m.shape, int(k), lower), m, zeros(1, dtype=m.dtype))


def tril(m, k=0):
    """The lower triangle of (the last two axes of) ``m``: elements above diagonal ``k`` are 0."""
    return _tri(m, k, True)


def triu(m, k=0):
    """The upper triangle of (the last two axes of) ``m``: elements below diagonal ``k`` are 0."""
    return _tri(m, k, False)


def tri(N, M=None, k=0, dtype=float):
    """An N × M array with ones at and below diagonal ``k``, zeros elsewhere."""
    mask = _tri_mask((N, N if M is None else M), int(k), True)
    return mask.astype(D.dtype(dtype))


def outer(a, b, out=None):
    """The outer product of ``a`` and ``b`` (both flattened)."""
    a, b = asarray(a).reshape(-1), asarray(b).reshape(-1)
    r = U["multiply"](a.reshape(a.size, 1), b.reshape(1, b.size))
    if out is not None:
        out._assign(r)
        return out
    return r


def kron(a, b):
    """The Kronecker product: blocks of ``b`` scaled by each element of ``a``."""
    a, b = asarray(a), asarray(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    inter_a, inter_b = [], []
    for x, y in zip(sa, sb):
        inter_a += [x, 1]
        inter_b += [1, y]
    r = U["multiply"](a.reshape(inter_a), b.reshape(inter_b))
    return r.reshape(tuple(x * y for x, y in zip(sa, sb)))


def array_split(ary, indices_or_sections, axis=0):
    """``ary`` cut into pieces along ``axis``: ``n`` near-equal sections (the first ones one
    longer), or at the given indices. The pieces are views."""
    a = asarray(ary)
    ax = _norm(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(indices_or_sections, (list, tuple, ndarray)):
        cuts = [int(i) for i in asarray(indices_or_sections).tolist()]
        bounds = [0] + cuts + [n]
    else:
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key = (slice(None),) * ax + (slice(lo, hi),)
        out.append(a[key])
    return out


def split(ary, indices_or_sections, axis=0):
    """Like ``array_split``, but ``n`` sections must divide the axis exactly."""
    if not isinstance(indices_or_sections, (list, tuple, ndarray)):
        a = asarray(ary)
        n = a.shape[_norm(axis, a.ndim)]
        if n % operator.index(indices_or_sections):
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def indices(dimensions, dtype=int, sparse=False):
    """One grid of coordinates per axis: ``indices((2, 3))[0][i, j] == i``."""
    dims = tuple(operator.index(d) for d in dimensions)
    dt = D.dtype(dtype)
    grids = []
    for ax, n in enumerate(dims):
        shape = [1] * len(dims)
        shape[ax] = n
        g = arange(n, dtype=dt).reshape(shape)
        grids.append(g if sparse else broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    if not dims:
        return zeros((0,), dtype=dt)
    return stack(grids)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function`` called once with one coordinate array per axis (of ``dtype``)."""
    grids = indices(shape, dtype=dtype)
    return function(*[grids[i] for i in range(len(tuple(shape)))], **kwargs)


def put_along_axis(arr, indices, values, axis):
    """Writes ``values`` into ``arr`` (in place) at ``indices`` along ``axis``."""
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis() needs an array to write into")
    idx = asarray(indices)
    target = arr
    if axis is None:
        if not arr._is_contiguous():
            raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                      "put_along_axis(axis=None) into a non-contiguous array")
        target, axis = arr.reshape(-1), 0
    if idx.ndim != target.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if idx.dtype._kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    ax = _norm(axis, target.ndim)
    key = []
    for d in range(target.ndim):
        if d == ax:
            key.append(idx)
        else:
            shape = [1] * target.ndim
            shape[d] = target.shape[d]
            key.append(arange(target.shape[d]).reshape(shape))
    target[tuple(key)] = values


def _scale(a, decimals):
    return 10.0 ** decimals if decimals >= 0 else 10.0 ** -decimals


def around(a, decimals=0, out=None):
    """Rounds half to even at ``decimals`` decimal places (NumPy's multiply, rint, divide)."""
    x = asarray(a)
    decimals = operator.index(decimals)
    if x.dtype._kind in "biu":
        if decimals >= 0:
            r = x.copy()
        else:
            f = 10 ** -decimals
            half = f // 2
            q = U["floor_divide"](U["add"](x, half), f)
            r = U["multiply"](q, f).astype(x.dtype)
            # ties: NumPy rounds the integer quotient half to even
            tie = U["equal"](U["remainder"](U["add"](x, half), f), 0)
            odd = U["equal"](U["remainder"](q, 2), 1)
            r = where(U["logical_and"](tie, odd), U["subtract"](r, f), r).astype(x.dtype)
    elif decimals == 0:
        r = U["rint"](x)
    elif decimals > 0:
        f = _scale(x, decimals)
        r = U["divide"](U["rint"](U["multiply"](x, f)), f)
    else:
        f = _scale(x, decimals)
        r = U["multiply"](U["rint"](U["divide"](x, f)), f)
    if out is not None:
        out._assign(asarray(r))
        return out
    if not isinstance(a, ndarray) and isinstance(r, ndarray) and r.ndim == 0:
        return r[()]
    if isinstance(a, generic) and isinstance(r, ndarray):
        return r[()]
    return r


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``n``-th discrete difference along ``axis`` (bool arrays: ``!=``, as NumPy does)."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    if n == 0:
        return a
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = _norm(axis, a.ndim)
    extra = []
    for side in (prepend, append):
        if side is None:
            extra.append(None)
            continue
        s = asarray(side)
        if s.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            s = make_view(s._store, s._offset, tuple(shape), (0,) * a.ndim)
        extra.append(s)
    if extra[0] is not None or extra[1] is not None:
        parts = [x for x in (extra[0], a, extra[1]) if x is not None]
        a = concatenate(parts, ax)
    op = U["not_equal"] if a.dtype._kind == "b" else U["subtract"]
    for _ in range(n):
        hi = (slice(None),) * ax + (slice(1, None),)
        lo = (slice(None),) * ax + (slice(None, -1),)
        a = op(a[hi], a[lo])
    return a


def clip(a, a_min=None, a_max=None, out=None, **kw):
    """Values limited to ``[a_min, a_max]`` (either may be None): ``minimum(maximum(a, lo),
    hi)``, so dtypes follow those ufuncs."""
    if "min" in kw or "max" in kw:
        a_min, a_max = kw.pop("min", a_min), kw.pop("max", a_max)
    if kw:
        raise TypeError(f"clip(): argument(s) {', '.join(sorted(kw))} not supported by "
                        f"nki-playground's numpy stand-in")
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")
    r = a if isinstance(a, ndarray) else asarray(a)
    if a_min is not None:
        r = U["maximum"](r, a_min)
    if a_max is not None:
        r = U["minimum"](r, a_max)
    if out is not None:
        out._assign(asarray(r))
        return out
    return r


NAMES = ("flip", "fliplr", "flipud", "broadcast_to", "ascontiguousarray", "pad", "tril",
         "triu", "tri", "outer", "kron", "array_split", "split", "indices", "fromfunction",
         "put_along_axis", "around", "diff", "clip")
