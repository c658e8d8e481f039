"""``np.ndarray``: a strided view (offset, shape, strides counted in elements) over a storage
from ``_storage``. Slicing, ``.T``, ``transpose`` and contiguous ``reshape`` make views that
share the storage, as NumPy's do.

The bottom of the array layers, as in NumPy: this module imports only the dtypes, the
storages and the errors. It holds what an array is (layout, attributes, casts, copies, views, reshapes) and
the arrays over core storage (``on_core``, ``core_array``). The methods that need the layers
above it — indexing, arithmetic, reductions, printing, ... — are attached by ``_methods``.
"""
import types

from . import _core_storage as C
from . import _dtypes
from ._errors import check_axis as _norm_axis
from ._storage import new_storage


def _contiguous_strides(shape):
    if 0 in shape:
        return (0,) * len(shape)  # NumPy gives zero-size arrays all-zero strides
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def normalize_shape(shape):
    """A shape argument (an int or a sequence of ints) as a tuple of non-negative ints."""
    if isinstance(shape, ndarray):
        shape = shape.tolist()
    if not isinstance(shape, (list, tuple)):
        shape = (shape,)
    out = []
    for s in shape:
        if isinstance(s, float) or not hasattr(s, "__index__"):
            raise TypeError(f"'{type(s).__name__}' object cannot be interpreted as an integer")
        s = s.__index__()
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
        out.append(s)
    return tuple(out)


def broadcast_shapes(*shapes):
    """``np.broadcast_shapes``: the shape all of ``shapes`` broadcast to."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(ndim):
        size = 1
        for s in shapes:
            k = axis - (ndim - len(s))
            if k < 0 or s[k] == 1:
                continue
            if size not in (1, s[k]):
                shown = " ".join(str(tuple(x)) for x in shapes)
                raise ValueError(f"operands could not be broadcast together with shapes {shown}")
            size = s[k]
        out.append(size)
    return tuple(out)


def make_view(store, offset, shape, strides):
    arr = object.__new__(ndarray)
    arr._store, arr._offset, arr._shape, arr._strides = store, offset, tuple(shape), \
        tuple(strides)
    return arr


def from_values(values, shape, dt):
    """A new contiguous array of dtype ``dt`` over ``values`` (raw, already cast; taken over)."""
    return make_view(new_storage(dt, values), 0, shape, _contiguous_strides(shape))


class ndarray:
    """An n-dimensional array of one dtype. ``np.ndarray(shape, dtype)`` gives zeros (NumPy
    leaves the contents unspecified)."""

    __module__ = "numpy"
    __slots__ = ("_store", "_offset", "_shape", "_strides", "__weakref__")
    __hash__ = None
    __class_getitem__ = classmethod(types.GenericAlias)  # numpy.typing's NDArray[...]

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if buffer is not None or strides is not None:
            raise TypeError("np.ndarray(buffer=, strides=) is not supported by "
                            "nki-playground's trace-time numpy fallback")
        shape = normalize_shape(shape)
        dt = _dtypes.dtype(dtype)
        zero = dt._fmt.decode(0) if dt._fmt is not None else _dtypes.cast_value(dt, 0)
        return from_values([zero] * _size(shape), shape, dt)

    # ---- layout ------------------------------------------------------------------------------

    def _indices(self):
        """Storage indices of the elements, row-major."""
        idx = [self._offset]
        for n, s in zip(self._shape, self._strides):
            idx = [b + i * s for b in idx for i in range(n)]
        return idx

    def _values(self):
        """The raw values, row-major."""
        if _on_core(self):
            if self._is_contiguous() and self._offset == 0 and self.size == len(self._store):
                return self._store.values()
            return core_copy(self, self.dtype)._store.values()
        return self._store.gather(self._indices())

    def _broadcast_values(self, shape):
        """The raw values broadcast to ``shape`` (which must be a broadcast of this shape)."""
        if shape == self._shape:
            return self._values()
        lead = len(shape) - self.ndim
        strides = [0] * lead + [0 if n == 1 else s for n, s in zip(self._shape, self._strides)]
        return make_view(self._store, self._offset, shape, strides)._values()

    def _is_contiguous(self):
        expect = _contiguous_strides(self._shape)
        return all(n == 1 or s == e for n, s, e in zip(self._shape, self._strides, expect))

    def _assign(self, src):
        """Writes array ``src`` (broadcast, cast to this dtype) into this array's elements."""
        if broadcast_shapes(src.shape, self._shape) != self._shape:
            raise ValueError(f"could not broadcast input array from shape {src.shape} into "
                             f"shape {self._shape}")
        if _on_core(self) and C.eligible(src.dtype) and self.size > 8:  # a few: element stores
            _core_assign(self, src)
            return
        values = src._broadcast_values(self._shape)
        dt = self.dtype
        if src.dtype is not dt:
            values = [_dtypes.cast_value(dt, v) for v in values]
        self._store.scatter(self._indices(), values)

    # ---- attributes --------------------------------------------------------------------------

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._store.dtype

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        return _size(self._shape)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        return tuple(s * self.itemsize for s in self._strides)

    @property
    def T(self):
        return self.transpose()

    # ---- conversion --------------------------------------------------------------------------

    def astype(self, dtype, copy=True):
        dt = _dtypes.dtype(dtype)
        if dt is self.dtype and not copy:
            return self
        _dtypes.check_cast_exists(self.dtype, dt)
        if (_on_core(self) or self.size >= C.THRESHOLD) and C.eligible(dt) and \
                C.eligible(self.dtype):
            return core_copy(self, dt)
        return from_values([_dtypes.cast_value(dt, v) for v in self._values()], self._shape, dt)

    def copy(self, order="C"):
        if _on_core(self):
            return core_copy(self, self.dtype)
        return from_values(self._values(), self._shape, self.dtype)

    def tolist(self):
        values = self._values()
        if not self._shape:
            return values[0]

        def nest(vals, shape):
            if len(shape) == 1:
                return list(vals)
            step = len(vals) // shape[0] if shape[0] else 0
            return [nest(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]
        return nest(values, self._shape)

    def item(self, *args):
        if not args:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self._values()[0]
        if len(args) == 1 and isinstance(args[0], int):
            return self.reshape(-1)._values()[args[0]]
        return self[args if len(args) > 1 else args[0]].item()

    # ---- shape manipulation ------------------------------------------------------------------

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        if order == "F":  # reversed axes, a C reshape, reversed back
            return self.T.reshape(tuple(reversed([int(s) for s in shape]))).T
        if order not in ("C", "A"):
            raise NotImplementedError(f"not supported by nki-playground's numpy stand-in: "
                                      f"reshape(order={order!r})")
        dims = [int(s) for s in shape]
        if dims.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in dims:
            known = _size([d for d in dims if d != -1])
            if known == 0 or self.size % known:
                raise ValueError(f"cannot reshape array of size {self.size} into shape "
                                 f"{tuple(shape)}")
            dims[dims.index(-1)] = self.size // known
        new = normalize_shape(dims)
        if _size(new) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {new}")
        if self._is_contiguous():
            return make_view(self._store, self._offset, new, _contiguous_strides(new))
        return self.copy().reshape(new)

    def flatten(self, order="C"):
        return (self.T if order == "F" else self).copy().reshape(-1)

    def ravel(self, order="C"):
        return self.reshape(-1, order=order)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        axes = [_norm_axis(a, self.ndim) for a in axes]
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError("axes don't match array")
        return make_view(self._store, self._offset, [self._shape[a] for a in axes],
                         [self._strides[a] for a in axes])

    def squeeze(self, axis=None):
        axes = range(self.ndim) if axis is None else \
            [_norm_axis(a, self.ndim) for a in (axis if isinstance(axis, tuple) else (axis,))]
        drop = {a for a in axes if self._shape[a] == 1}
        if axis is not None and len(drop) != len(list(axes)):
            raise ValueError("cannot select an axis to squeeze out which has size not equal "
                             "to one")
        keep = [a for a in range(self.ndim) if a not in drop]
        return make_view(self._store, self._offset, [self._shape[a] for a in keep],
                         [self._strides[a] for a in keep])

    # ---- Python protocols --------------------------------------------------------------------

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        for i in range(self._shape[0]):
            yield self[i]

    def __contains__(self, value):
        return bool((self == value).any())

    def __bool__(self):
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(self._values()[0])

    def _only_scalar(self, kind):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return kind(self._values()[0])

    def __float__(self):
        return self._only_scalar(float)

    def __int__(self):
        return self._only_scalar(int)

    def __index__(self):
        if self.ndim or self.dtype._kind not in "iu":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return self._values()[0]

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()


# ---- arrays over core storage ----------------------------------------------------------------

def _on_core(arr):
    return isinstance(arr._store, C.CoreStorage)


def on_core(arr):
    """``arr`` itself when core-backed, else a core copy of its values."""
    if isinstance(arr._store, C.CoreStorage):
        return arr
    store = C.CoreStorage.from_values(arr.dtype, arr._values())
    return make_view(store, 0, arr.shape, _contiguous_strides(arr.shape))


def core_array(dt, array_id, shape):
    """A new contiguous ndarray over core array ``array_id``."""
    return make_view(C.CoreStorage(dt, array_id, _size(shape)), 0, shape,
                     _contiguous_strides(shape))


def core_copy(arr, dt):
    """A contiguous core copy of ``arr`` converted to ``dt`` (NumPy's cast)."""
    src = on_core(arr)
    return core_array(dt, C.request({"op": "copy", "src": C.view_json(src),
                                     "dtype": dt.name})["id"], arr.shape)


def _core_assign(dst, src):
    """Writes ``src`` (broadcast, cast) into core-backed ``dst``'s elements."""
    src = on_core(src)  # a core copy made here must outlive the request
    dst._store.changed()
    C.request({"op": "assign", "dst": C.view_json(dst), "src": C.view_json(src)})
