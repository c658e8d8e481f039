"""Basic indexing: ints, slices, ``None`` (newaxis) and ``...`` make a strided view.

Advanced indexing (integer arrays, lists, boolean masks) is ``_advanced``'s, which also holds
``arr[key]`` and ``arr[key] = value`` themselves (``index_get`` / ``index_set``: basic or
advanced).
"""
from . import _dtypes
from ._creation import asarray
from ._errors import out_of_bounds
from ._ndarray import make_view, ndarray
from ._scalars import bool_, generic

_ADVANCED = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
             "integer or boolean arrays are valid indices")


def _as_int(item):
    if isinstance(item, (bool, bool_)):
        raise IndexError(_ADVANCED)
    if isinstance(item, int):
        return int(item)
    if isinstance(item, generic) and item.dtype._kind in "iu":
        return int(item)
    index = getattr(item, "__index__", None)
    if index is not None and not isinstance(item, float) and not hasattr(item, "_store"):
        return index()
    if hasattr(item, "_store") and item.ndim == 0 and item.dtype._kind in "iu":
        return item.item()  # a 0-d integer array indexes like an integer
    return None


def resolve(arr, key):
    """Where ``arr[key]`` lives: ``(is_element, offset, shape, strides)``.

    ``is_element`` is True when every axis was picked by an integer (the result is a scalar).
    """
    if not isinstance(key, tuple):
        key = (key,)
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > arr.ndim:
        raise IndexError(f"too many indices for array: array is {arr.ndim}-dimensional, "
                         f"but {used} were indexed")
    if n_ellipsis:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (arr.ndim - used) + key[at + 1:]
    else:
        key = key + (slice(None),) * (arr.ndim - used)
    offset, shape, strides = arr._offset, [], []
    axis = 0
    all_ints = n_ellipsis == 0
    for item in key:
        if item is None:
            shape.append(1)
            strides.append(0)
            all_ints = False
            continue
        n, stride = arr._shape[axis], arr._strides[axis]
        if isinstance(item, slice):
            start, stop, step = item.indices(n)
            shape.append(len(range(start, stop, step)))
            strides.append(stride * step)
            offset += start * stride
            all_ints = False
        else:
            i = _as_int(item)
            if i is None:
                raise IndexError(_ADVANCED)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
            offset += (i + n if i < 0 else i) * stride
        axis += 1
    return all_ints, offset, tuple(shape), tuple(strides)


def is_advanced(key):
    """Whether index ``key`` holds an integer array, a list or a boolean mask."""
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if isinstance(k, list) or (isinstance(k, ndarray) and k.ndim > 0):
            return True
        if isinstance(k, ndarray) and k.dtype._kind == "b":
            return True
    return False


def set_basic(arr, key, value):
    """``arr[key] = value`` for a basic ``key``: the value is broadcast to the selection and
    cast to arr's dtype (float → int truncates, a Python int out of range raises OverflowError,
    as in NumPy ≥ 2)."""
    _, offset, shape, strides = resolve(arr, key)
    view = make_view(arr._store, offset, shape, strides)
    if isinstance(value, int) and not isinstance(value, bool) and arr.dtype._kind in "iu":
        if not _dtypes.fits(arr.dtype, value):
            raise out_of_bounds(value, arr.dtype)
    if arr.dtype._fmt is not None and not hasattr(value, "_store"):
        value = asarray(value, dtype=arr.dtype)  # Python floats convert directly (ml_dtypes)
    view._assign(asarray(value))
