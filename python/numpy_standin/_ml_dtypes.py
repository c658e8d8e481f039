"""A minimal ``ml_dtypes`` stand-in, installed with the NumPy stand-in when ``import
ml_dtypes`` fails: the types NKI uses — ``bfloat16``, ``float8_e4m3``, ``float8_e4m3fn``,
``float8_e5m2``, ``float8_e8m0fnu`` (``_scalars.ML_TYPES``, their formats
``nki_playground.dtype_values``) — and ``ml_dtypes.finfo``. Installing it makes their names NumPy
dtype names (``np.dtype('bfloat16')``), as importing the real ml_dtypes does.
"""
import sys

from . import _dtypes as D
from ._limits import finfo as np_finfo
from ._scalars import ML_TYPES
from ._unsupported import PartialModule

__version__ = "0.5.4+nki-playground-stand-in"  # the release whose behaviour it follows

# (precision, maxexp, minexp) per type, as ml_dtypes.finfo gives them.
_FINFO = {"bfloat16": (2, 128, -126), "float8_e4m3": (1, 8, -6), "float8_e4m3fn": (1, 9, -6),
          "float8_e5m2": (1, 16, -14), "float8_e8m0fnu": (1, 128, -127)}


class finfo:
    """``ml_dtypes.finfo``: the limits of one of ml_dtypes' types (values are scalars of it)."""

    def __init__(self, dtype):
        dt = D.dtype(dtype)
        if dt._fmt is None:
            self.__dict__.update(np_finfo(dt).__dict__)
            return
        fmt, s = dt._fmt, dt.type
        self.precision, self.maxexp, self.minexp = _FINFO[dt.name]
        self.dtype, self.bits = dt, fmt.bits
        self.nmant, self.nexp, self.iexp = fmt.man_bits, fmt.exp_bits, fmt.exp_bits
        self.machep, self.negep = -fmt.man_bits, -fmt.man_bits - 1
        self.eps, self.epsneg = s(2.0 ** -fmt.man_bits), s(2.0 ** (-fmt.man_bits - 1))
        self.max = s(fmt.max)
        self.min = s(-fmt.max if fmt.signed else fmt.tiny)
        self.tiny = self.smallest_normal = s(fmt.tiny)
        self.smallest_subnormal = s(2.0 ** (self.minexp - fmt.man_bits))
        self.resolution = s(10.0 ** -self.precision)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, "
                f"dtype={self.dtype.name})")


NAMES = tuple(ML_TYPES) + ("finfo",)


def install():
    """Registers ``ml_dtypes`` in ``sys.modules`` (and its names as NumPy dtype names)."""
    mod = PartialModule("ml_dtypes", __doc__)
    mod.__version__ = __version__
    for name, cls in ML_TYPES.items():
        setattr(mod, name, cls)
    mod.finfo = finfo
    mod._supported = ", ".join(NAMES)
    D.register_ml_dtypes()
    sys.modules["ml_dtypes"] = mod
    return mod
