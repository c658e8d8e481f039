"""Array constructors: ``array``, ``asarray``, ``zeros``, ``ones``, ``full``, ``empty``,
``identity``, ``eye``, ``arange``, ``linspace`` and the ``*_like`` family.

``empty`` returns zeros (NumPy leaves the contents unspecified). Element types are inferred as
NumPy does: Python bools → bool, ints → int64, floats → float64, NumPy scalars and arrays keep
their dtype, and a mix promotes.
"""
import math
from array import array as _carray

from . import _core_storage as C
from . import _dtypes as D
from ._errors import out_of_bounds, user_error
from ._ndarray import _contiguous_strides, from_values, make_view, ndarray, normalize_shape
from ._scalars import generic

_UNSUPPORTED_ELEMENT = ("nki-playground's trace-time numpy fallback holds only bool, integer "
                        "and float elements")


def _leaf_dtype(x):
    if isinstance(x, bool):
        return D.BOOL
    if isinstance(x, int):
        if D.fits(D.INT64, x):
            return D.INT64
        if D.fits(D.UINT64, x):
            return D.UINT64
        raise out_of_bounds(x, D.INT64)
    if isinstance(x, float):
        return D.FLOAT64
    raise TypeError(f"{type(x).__name__} elements are not supported: {_UNSUPPORTED_ELEMENT}")


def _flatten(obj):
    """(shape, raw values, dtypes seen) of a nested list/tuple of numbers, scalars and arrays."""
    if isinstance(obj, ndarray):
        return obj.shape, obj._values(), {obj.dtype}
    if isinstance(obj, generic):
        return (), [obj._raw()], {obj.dtype}
    if isinstance(obj, (list, tuple)):
        if not obj:
            return (0,), [], set()
        parts = [_flatten(x) for x in obj]
        inner = parts[0][0]
        if any(p[0] != inner for p in parts):
            raise ValueError("setting an array element with a sequence. The requested array "
                             "has an inhomogeneous shape")
        values, seen = [], set()
        for _, vals, dts in parts:
            values.extend(vals)
            seen |= dts
        return (len(obj),) + inner, values, seen
    if isinstance(obj, (str, bytes, complex)) or obj is None:
        raise TypeError(f"{type(obj).__name__} elements are not supported: "
                        f"{_UNSUPPORTED_ELEMENT}")
    for conv in ("__index__", "__float__"):
        if isinstance(obj, (bool, int, float)):
            break
        if hasattr(obj, conv) and not hasattr(obj, "shape"):
            obj = getattr(obj, conv)()
            break
    return (), [obj], {_leaf_dtype(obj)}


def _cast_leaves(obj, dt):
    """The elements of ``obj`` (in ``_flatten``'s order) converted to ml_dtypes type ``dt``:
    Python floats directly, NumPy scalars and arrays as casts (through float32)."""
    if isinstance(obj, ndarray):
        yield from (D.cast_value(dt, v) for v in obj._values())
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _cast_leaves(x, dt)
    elif isinstance(obj, generic):
        yield D.cast_value(dt, obj._raw())
    else:
        yield D.cast_python(dt, obj if isinstance(obj, (bool, int, float)) else float(obj))


def array(obj, dtype=None, copy=True, order=None, ndmin=0):
    """A new array from nested lists/tuples of numbers, NumPy scalars or arrays.

    Args:
        obj: the data.
        dtype: the element type; inferred from the data when None.
        ndmin: leading 1-sized axes are added up to this many dimensions.
    Returns:
        an ndarray (a copy unless ``copy=False`` and ``obj`` already fits).
    """
    if isinstance(obj, ndarray) and not copy and (dtype is None or D.dtype(dtype) is obj.dtype) \
            and obj.ndim >= ndmin:
        return obj
    shape, values, seen = _flatten(obj)
    if dtype is None:
        dt = D.promote_all(seen) if seen else D.DEFAULT_FLOAT
        values = [D.cast_value(dt, v) for v in values]
    else:
        dt = D.dtype(dtype)
        if dt._kind in "iu":
            for v in values:
                if type(v) is int and not D.fits(dt, v):
                    raise out_of_bounds(v, dt)
        if dt._fmt is not None and not isinstance(obj, ndarray):
            values = list(_cast_leaves(obj, dt))
        else:
            values = [D.cast_value(dt, v) for v in values]
    if len(shape) < ndmin:
        shape = (1,) * (ndmin - len(shape)) + shape
    return from_values(values, shape, dt)


def asarray(a, dtype=None, order=None):
    """``a`` itself when it is already an array of ``dtype``; otherwise ``array(a, dtype)``."""
    if isinstance(a, ndarray) and (dtype is None or D.dtype(dtype) is a.dtype):
        return a
    return array(a, dtype=dtype)


def full(shape, fill_value, dtype=None, order="C"):
    """An array of ``shape`` filled with ``fill_value`` (dtype inferred from it when None)."""
    shape = normalize_shape(shape)
    fill = array(fill_value, dtype=dtype)
    if _prod(shape) >= C.THRESHOLD and fill.ndim == 0 and C.eligible(fill.dtype):
        store = C.CoreStorage.new(fill.dtype, _prod(shape), fill.item())
        return make_view(store, 0, shape, _contiguous_strides(shape))
    out = from_values([D.cast_value(fill.dtype, 0)] * _prod(shape), shape, fill.dtype)
    out._assign(fill)
    return out


def zeros(shape, dtype=float, order="C"):
    dt = D.dtype(dtype)
    if dt._fmt is not None:  # zero bytes: float8_e8m0fnu's code 0 is 2**-127, not 0 (its NaN)
        return full(shape, dt._fmt.decode(0), dtype=dt)
    return full(shape, 0, dtype=dt)


def ones(shape, dtype=None, order="C"):
    return full(shape, 1, dtype=D.dtype(dtype))


def empty(shape, dtype=float, order="C"):
    """Like ``zeros``: the fallback has no uninitialised memory to show."""
    return zeros(shape, dtype)


def _like(a, dtype, shape):
    a = asarray(a)
    return (a.shape if shape is None else shape), (a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None):
    return zeros(*_like(a, dtype, shape))


def ones_like(a, dtype=None, order="K", subok=True, shape=None):
    return ones(*_like(a, dtype, shape))


def empty_like(a, dtype=None, order="K", subok=True, shape=None):
    return empty(*_like(a, dtype, shape))


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    shape, dtype = _like(a, dtype, shape)
    return full(shape, fill_value, dtype)


def eye(N, M=None, k=0, dtype=float, order="C"):
    """A 2-D array with ones on diagonal ``k`` and zeros elsewhere."""
    dt = D.dtype(dtype)
    M = N if M is None else M
    one, zero = D.cast_value(dt, 1), D.cast_value(dt, 0)
    values = [one if j - i == k else zero for i in range(N) for j in range(M)]
    return from_values(values, (N, M), dt)


def identity(n, dtype=None):
    """The ``n`` × ``n`` identity matrix (float64 unless ``dtype``)."""
    return eye(n, dtype=dtype)


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``: ``start + i * step``."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    if step == 0:
        raise user_error(ZeroDivisionError("division by zero"))
    args = [array(x) for x in (start, stop, step)]
    inferred = D.promote_all(a.dtype for a in args)
    if inferred._kind == "b":
        inferred = D.DEFAULT_INT
    dt = inferred if dtype is None else D.dtype(dtype)
    s0, s1, st = (a.item() for a in args)
    if inferred._kind in "iu":
        n = max(0, -((s0 - s1) // st))
    else:
        n = max(0, math.ceil((s1 - s0) / st))
    if dt._kind != "f":
        # NumPy writes the first two values through the dtype (a Python int that does not fit
        # raises, as in NumPy >= 2) and steps from there, wrapping.
        for v, python_int in ((s0, type(start) is int), (s0 + st, type(start) is int and
                                                          type(step) is int and n > 1)):
            if python_int and dt._kind in "iu" and not D.fits(dt, v):
                raise out_of_bounds(v, dt)
        if (dt._kind in "iu" and type(s0) is int and type(st) is int
                and D.fits(dt, s0) and D.fits(dt, s0 + (n - 1) * st)):
            # The values are a straight line inside the dtype: nothing wraps.
            return from_values(list(range(s0, s0 + n * st, st)), (n,), dt)
        values = [D.cast_value(dt, s0 + i * st) for i in range(n)]
        return from_values(values, (n,), dt)
    # NumPy fills float arrays from the first two values: v0 + i * (v1 - v0), in the dtype's
    # own arithmetic (float16 computes in float32).
    calc = D.FLOAT32 if dt is D.FLOAT16 or dt._fmt is not None else dt  # ml_dtypes: float32
    v0, v1 = D.cast_value(dt, s0), D.cast_value(dt, s0 + st)
    delta = D.round_float(calc, v1 - v0)
    values = _float_line(dt, v0, delta, n)
    if values is None:
        values = [D.round_computed(dt, v0 + D.round_float(calc, i * delta)) for i in range(n)]
    if n:
        values[0] = v0
    if n > 1 and dt._fmt is not None:
        values[1] = v1
    return from_values(values, (n,), dt)


def _float_line(dt, v0, delta, n):
    """``v0 + i * delta`` for float32 or float64 by C rounding (``array('f')`` rounds a double
    to the nearest float32, ties to even, as ``round_float`` does), or None where that could
    overflow or is another dtype. For float32 both steps are exact in double before their one
    rounding: i * delta has at most 48 significant bits (i < 2**24), and a sum of two float32
    values rounded twice (double, then float32) is the correctly rounded float32 sum."""
    if not (math.isfinite(v0) and math.isfinite(delta)):
        return None
    if dt is D.FLOAT64:
        return [v0 + i * delta for i in range(n)]
    if dt is not D.FLOAT32 or n >= 1 << 24 or abs(v0) + abs(delta) * n > 3.0e38:
        return None
    steps = _carray("f", [i * delta for i in range(n)])
    return _carray("f", [v0 + d for d in steps]).tolist()


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` (inclusive when ``endpoint``)."""
    if axis != 0:
        raise NotImplementedError("linspace(axis=) is not supported by nki-playground's "
                                  "trace-time numpy fallback")
    num = int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    start, stop = float(start), float(stop)
    step = (stop - start) / div if div > 0 else math.nan
    values = [start + i * step for i in range(num)] if div > 0 else [start] * num
    if endpoint and num > 1:
        values[-1] = stop
    dt = D.FLOAT64 if dtype is None else D.dtype(dtype)
    if dt._kind in "iu":  # NumPy floors toward -inf before the integer cast
        values = [math.floor(v) for v in values]
    result = from_values([D.cast_value(dt, v) for v in values], (num,), dt)
    return (result, step) if retstep else result
