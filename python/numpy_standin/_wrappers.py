"""Wrappers around user code: ``vectorize`` (a Python function applied element by element with
broadcasting) and ``errstate`` (NumPy's floating-point error context; the stand-in never warns
on floating-point errors, so it only records the settings)."""

from . import _dtypes as D
from ._creation import asarray
from ._ndarray import broadcast_shapes, from_values
from ._scalars import wrap

_ERR = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_MODES = ("ignore", "warn", "raise", "call", "print", "log")


def geterr():
    return dict(_ERR)


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are treated; returns the old settings. The stand-in
    records them (no floating-point error is ever signalled here)."""
    old = geterr()
    new = {k: v for k, v in (("divide", divide), ("over", over), ("under", under),
                             ("invalid", invalid)) if v is not None}
    if all is not None:
        new = {**{k: all for k in _ERR}, **new}
    for v in new.values():
        if v not in _MODES:
            raise ValueError(f"invalid error mode {v!r}")
    _ERR.update(new)
    return old


class errstate:
    """``with np.errstate(divide='ignore'): ...`` (also a decorator)."""

    def __init__(self, *, call=None, **kwargs):
        self._kwargs = kwargs
        self._old = []

    def __enter__(self):
        self._old.append(seterr(**self._kwargs))
        return self

    def __exit__(self, *exc):
        _ERR.clear()
        _ERR.update(self._old.pop())
        return False

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def inner(*args, **kwargs):
            with errstate(**self._kwargs):
                return func(*args, **kwargs)
        return inner


class vectorize:
    """``pyfunc`` applied to each element of its (broadcast) arguments; the output dtype is
    ``otypes[0]`` or that of the first result."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if signature is not None:
            raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                      "vectorize(signature=...)")
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.excluded = set(excluded or ())
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        arrays = [asarray(a) for a in args]
        shape = broadcast_shapes(*(a.shape for a in arrays))
        lanes = [a._broadcast_values(shape) for a in arrays]
        wrapped = [[wrap(a.dtype, v) for v in lane] for a, lane in zip(arrays, lanes)]
        n = 1
        for s in shape:
            n *= s
        results = [self.pyfunc(*(w[i] for w in wrapped), **kwargs) for i in range(n)]
        if self.otypes:
            otypes = self.otypes
            dt = D.dtype(otypes[0] if not isinstance(otypes, str) else otypes[0])
        elif results:
            dt = asarray(results[0]).dtype
        else:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        values = [D.cast_value(dt, asarray(r).item()) for r in results]
        out = from_values(values, shape, dt)
        return out[()] if not shape else out


NAMES = ("vectorize", "errstate", "seterr", "geterr")
