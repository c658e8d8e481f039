"""A minimal ``scipy`` stand-in over the NumPy stand-in: ``scipy.special.softmax``,
``logsumexp``, ``expit`` and ``erf`` — what public NKI samples use for their goldens. Installed
by ``nki_playground.standins`` only when the NumPy stand-in is and ``import scipy`` fails (a
real SciPy always wins); every other ``scipy`` name raises the stand-in's clear error.
"""
import math
import sys

from . import _dtypes as D
from ._creation import asarray
from ._functions import where
from ._ndarray import from_values
from ._reductions import REDUCERS as R
from ._ufuncs import UFUNCS as U
from ._unsupported import PartialModule

__version__ = "0.0+nki-playground-standin"


def softmax(x, axis=None):
    """``exp(x) / sum(exp(x))`` along ``axis`` (all elements when None), shifted by the max."""
    x = asarray(x)
    shifted = U["exp"](U["subtract"](x, R["max"](x, axis=axis, keepdims=True)))
    return U["divide"](shifted, R["sum"](shifted, axis=axis, keepdims=True))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """``log(sum(exp(a)))`` along ``axis``, computed from the max (non-finite maxima as 0)."""
    if b is not None or return_sign:
        raise NotImplementedError("not supported by nki-playground's scipy stand-in: "
                                  "logsumexp(b=..., return_sign=True)")
    a = asarray(a)
    top = R["max"](a, axis=axis, keepdims=True)
    top = asarray(top)
    top = where(U["isfinite"](top), top, 0).astype(top.dtype)
    s = R["sum"](U["exp"](U["subtract"](a, top)), axis=axis, keepdims=keepdims)
    out = U["log"](s)
    if not keepdims:
        top = top.reshape(asarray(out).shape) if axis is not None else top.reshape(())
    out = U["add"](out, top)
    return out[()] if hasattr(out, "_store") and out.ndim == 0 else out


def expit(x):
    """The logistic sigmoid ``1 / (1 + exp(-x))`` (float32 stays float32)."""
    x = asarray(x)
    dt = _loop_dtype(x.dtype)
    if x.dtype is not dt:
        x = x.astype(dt)
    return U["divide"](1, U["add"](1, U["exp"](U["negative"](x))))


def _loop_dtype(dt):
    """SciPy's loops are float32 and float64: the first one ``dt`` casts to safely."""
    if dt._kind == "b" or (dt._kind in "iu" and dt.itemsize <= 2) or \
            (dt._kind == "f" and dt.itemsize <= 4):
        return D.FLOAT32
    return D.FLOAT64


def erf(x):
    """The error function, element by element (computed in double, rounded to the loop type)."""
    scalar = not hasattr(x, "_store")
    arr = asarray(x)
    dt = _loop_dtype(arr.dtype)
    out = from_values([D.cast_value(dt, math.erf(v)) for v in arr._values()], arr.shape, dt)
    if scalar and arr.ndim == 0:
        return out[()]
    return out


NAMES = ("softmax", "logsumexp", "expit", "erf")


def install():
    """Registers ``scipy`` and ``scipy.special`` in ``sys.modules``; returns ``scipy``."""
    top = PartialModule("scipy", __doc__)
    top.__version__ = __version__
    top.__path__ = []
    special = PartialModule("scipy.special", "scipy.special: " + ", ".join(NAMES))
    special.__path__ = []
    for name in NAMES:
        setattr(special, name, globals()[name])
    special._supported = ", ".join(NAMES)
    top.special = special
    top._supported = "special"
    sys.modules["scipy"] = top
    sys.modules["scipy.special"] = special
    return top
