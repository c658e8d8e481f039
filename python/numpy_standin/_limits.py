"""``np.finfo`` and ``np.iinfo``: machine limits of the float and integer dtypes.

Float limits are NumPy scalars of the dtype itself (``np.finfo(np.float32).max`` is a
``np.float32``), as in NumPy.
"""
from . import _dtypes as D

# (mantissa bits, exponent bits, decimal precision, resolution) per float dtype.
_FLOAT_PARAMS = {
    "float16": (10, 5, 3, 1e-3),
    "float32": (23, 8, 6, 1e-6),
    "float64": (52, 11, 15, 1e-15),
}


def _dtype_of(x):
    if isinstance(x, (int, float, bool)) and not isinstance(x, type):
        return D.dtype(type(x))
    try:
        return D.dtype(x)
    except TypeError:
        raise ValueError(f"data type {type(x)!r} not understood") from None


class finfo:
    """Limits of a float dtype: ``eps``, ``epsneg``, ``max``, ``min``, ``tiny`` (=
    ``smallest_normal``), ``smallest_subnormal``, ``resolution``, ``bits``, ``precision``,
    ``nmant``, ``nexp``, ``maxexp``, ``minexp``, ``dtype``."""

    _cache = {}

    def __new__(cls, dtype):
        dt = _dtype_of(dtype)
        if dt._kind != "f" or dt._fmt is not None:  # ml_dtypes' types: ml_dtypes.finfo
            raise ValueError(f"data type {dt.type!r} not inexact")
        if dt.name not in cls._cache:
            cls._cache[dt.name] = object.__new__(cls)._init(dt)
        return cls._cache[dt.name]

    def _init(self, dt):
        nmant, nexp, precision, resolution = _FLOAT_PARAMS[dt.name]
        bias = (1 << (nexp - 1)) - 1
        s = dt.type
        self.dtype = dt
        self.bits = dt.itemsize * 8
        self.nmant, self.nexp, self.precision = nmant, nexp, precision
        self.maxexp, self.minexp = bias + 1, 1 - bias
        self.eps = s(2.0 ** -nmant)
        self.epsneg = s(2.0 ** -(nmant + 1))
        self.max = s((2.0 - 2.0 ** -nmant) * 2.0 ** bias)
        self.min = s(-float(self.max))
        self.tiny = self.smallest_normal = s(2.0 ** (1 - bias))
        self.smallest_subnormal = s(2.0 ** (1 - bias - nmant))
        self.resolution = s(resolution)
        self.machep, self.negep = -nmant, -(nmant + 1)
        self.iexp = nexp
        return self

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, "
                f"dtype={self.dtype.name})")


class iinfo:
    """Limits of an integer dtype: ``min``, ``max``, ``bits``, ``dtype``, ``kind``."""

    def __init__(self, int_type):
        dt = _dtype_of(int_type)
        if dt._kind not in "iu":
            raise ValueError(f"Invalid integer data type '{dt._kind}'.")
        self.dtype = dt
        self.kind = dt._kind
        self.bits = dt.itemsize * 8
        self.min, self.max = D.int_limits(dt)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"
