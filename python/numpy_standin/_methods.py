"""The array and scalar methods that need the layers above the types, attached here — the one
place methods are attached, as NumPy attaches its array methods from a module that imports only
downward. ``_ndarray`` and ``_scalars`` sit at the bottom and hold what needs nothing above
them; everything else an array or a scalar answers (operators, indexing, reductions, printing,
``@``, the methods that are calls of module functions) is a function of a higher module, bound
below. ``__init__`` imports this module before anything is used.
"""
from . import _arrayprint, _io, _lanes, _reductions
from . import _dtypes as D
from ._advanced import index_get, index_set
from ._arrange import clip
from ._creation import asarray
from ._functions import repeat
from ._matmul import dot, matmul
from ._ndarray import make_view, ndarray
from ._operators import operator_methods
from ._scalars import generic
from ._shapes import swapaxes
from ._ufuncs import is_operand


def _calling(fn):
    """A method that calls module function ``fn`` with the array first."""
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = fn.__name__
    return method


def _matmul_op(reflected):
    def op(self, other):
        if not is_operand(other):
            return NotImplemented
        return matmul(other, self) if reflected else matmul(self, other)
    return op


def _sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
    return _reductions.sum(self, axis, dtype, out, keepdims, **kw)


def _prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
    return _reductions.prod(self, axis, dtype, out, keepdims, **kw)


def _mean(self, axis=None, dtype=None, out=None, keepdims=False):
    return _reductions.mean(self, axis, dtype, out, keepdims)


def _max(self, axis=None, out=None, keepdims=False, **kw):
    return _reductions.max(self, axis, out, keepdims, **kw)


def _min(self, axis=None, out=None, keepdims=False, **kw):
    return _reductions.min(self, axis, out, keepdims, **kw)


def _all(self, axis=None, out=None, keepdims=False):
    return _reductions.all(self, axis, out, keepdims)


def _any(self, axis=None, out=None, keepdims=False):
    return _reductions.any(self, axis, out, keepdims)


def _view(self, dtype=None):
    """The same bytes read as ``dtype`` (the last axis rescaled when the item sizes differ).
    Deliberate difference: for another dtype the result is a copy, so writes to it do not
    reach this array (the same dtype gives a true view)."""
    if dtype is None or D.dtype(dtype) is self.dtype:
        return make_view(self._store, self._offset, self._shape, self._strides)
    dt = D.dtype(dtype)
    shape = self._shape
    if dt.itemsize != self.itemsize:
        if not shape or (shape[-1] * self.itemsize) % dt.itemsize:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor "
                             "of the size of original dtype" if shape else
                             "Changing the dtype of a 0d array is only supported if the "
                             "itemsize is unchanged")
        shape = shape[:-1] + (shape[-1] * self.itemsize // dt.itemsize,)
    return _io.frombuffer(_io.to_bytes(self), dt).reshape(shape)


def _tobytes(self, order="C"):
    return _io.tobytes(self, order)


def _fill(self, value):
    self._assign(asarray(value))


def _sort(self, axis=-1, kind=None, order=None, stable=None):
    self[...] = _lanes.sort(self, axis)  # in place, as ndarray.sort is


def _dot(self, other, out=None):
    return dot(self, other, out)


ARRAY_METHODS = {
    **operator_methods(inplace=True),
    "__matmul__": _matmul_op(False), "__rmatmul__": _matmul_op(True),
    "__getitem__": index_get, "__setitem__": index_set,
    "__repr__": _arrayprint.array_repr, "__str__": _arrayprint.array_str,
    "view": _view, "tobytes": _tobytes, "fill": _fill, "sort": _sort, "dot": _dot,
    "sum": _sum, "prod": _prod, "mean": _mean, "max": _max, "min": _min, "all": _all,
    "any": _any,
    **{fn.__name__: _calling(fn) for fn in (
        _lanes.argmax, _lanes.argmin, _lanes.argsort, _lanes.cumsum, _lanes.cumprod, _lanes.var,
        _lanes.std, clip, _lanes.take, _lanes.nonzero, swapaxes, repeat)},
}

SCALAR_METHODS = {
    **operator_methods(),
    "_asarray": staticmethod(asarray),  # np.float32([1, 2]) builds an array
}


def attach(cls, methods):
    """Sets ``methods`` (``{name: function}``) on ``cls``; the functions defined here take the
    method's name (tracebacks and TypeErrors say ``ndarray.sum``, as before)."""
    for name, fn in methods.items():
        if getattr(fn, "__module__", None) == __name__ and not name.startswith("__"):
            fn.__name__, fn.__qualname__ = name, f"{cls.__name__}.{name}"
        setattr(cls, name, fn)


attach(ndarray, ARRAY_METHODS)
attach(generic, SCALAR_METHODS)
