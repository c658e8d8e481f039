"""``numpy.dtype``: the fallback's eleven-plus-one dtypes, ml_dtypes' low-precision floats
(``bfloat16``, ``float8_e4m3``, ``float8_e4m3fn``, ``float8_e5m2``, ``float8_e8m0fnu``: their
names resolve once ``ml_dtypes`` is imported, as with the real package), their spellings, value
casting and type promotion.

Raw element values are plain Python numbers already cast to their dtype: ``bool`` for bool,
``int`` (in range) for the integer types, ``float`` (exactly representable in the type) for the
float types, ml_dtypes' included (their formats: ``nki_playground.dtype_values``). Every cast goes
through :func:`cast_value`, so storage never holds a value its dtype could not.

Internally ml_dtypes' types are floats (``_kind`` 'f'); ``dtype.kind`` says what ml_dtypes says
('V', 'f' for float8_e5m2).
"""
import math
import struct
import types

from nki_playground import dtype_values as _floats


class dtype:
    """A NumPy data type. Builtin dtypes are singletons: ``np.dtype('f4') is np.dtype(np.float32)``.

    Args:
        obj: a dtype, a scalar type (``np.float32``), a Python type (``float``, ``int``,
            ``bool``), a name or type code (``'float32'``, ``'f4'``, ``'<f4'``, ``'f'``), or an
            object with a ``.dtype`` attribute.
    """

    __slots__ = ("name", "itemsize", "_kind", "char", "type", "_bits", "_fmt", "_pkind", "num")
    __class_getitem__ = classmethod(types.GenericAlias)  # numpy.typing's dtype[...]

    def __new__(cls, obj, align=False, copy=False):
        return _lookup(obj)

    @classmethod
    def _make(cls, name, kind, itemsize, char, num=None, fmt=None, public_kind=None):
        self = object.__new__(cls)
        self.name, self._kind, self.itemsize, self.char = name, kind, itemsize, char
        self._bits = itemsize * 8
        self.type = None  # set by _scalars when the scalar type is created
        self._fmt, self._pkind, self.num = fmt, public_kind, num
        return self

    @property
    def kind(self):
        return self._pkind or self._kind

    @property
    def str(self):
        if self._fmt is not None:  # ml_dtypes' types say '<' even for one byte
            return "<" + self.kind + str(self.itemsize)
        return ("|" if self.itemsize == 1 else "<") + self._kind + str(self.itemsize)

    @property
    def byteorder(self):
        return "|" if self.itemsize == 1 and self._fmt is None else "="

    @property
    def isbuiltin(self):
        return 2 if self._fmt is not None else 1

    @property
    def alignment(self):
        return self.itemsize

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    def __repr__(self):
        if self._fmt is not None:
            return f"dtype({self.name})"
        return f"dtype('{self.name}')"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        if isinstance(other, dtype):
            return other is self
        try:
            return _lookup(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("numpy-fallback-dtype", self.name))

    def __reduce__(self):
        return (dtype, (self.name,))


def _d(name, kind, itemsize, char):
    return dtype._make(name, kind, itemsize, char)


BOOL = _d("bool", "b", 1, "?")
INT8 = _d("int8", "i", 1, "b")
UINT8 = _d("uint8", "u", 1, "B")
INT16 = _d("int16", "i", 2, "h")
UINT16 = _d("uint16", "u", 2, "H")
INT32 = _d("int32", "i", 4, "i")
UINT32 = _d("uint32", "u", 4, "I")
INT64 = _d("int64", "i", 8, "l")
UINT64 = _d("uint64", "u", 8, "L")
FLOAT16 = _d("float16", "f", 2, "e")
FLOAT32 = _d("float32", "f", 4, "f")
FLOAT64 = _d("float64", "f", 8, "d")

ALL = (BOOL, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64, FLOAT16, FLOAT32, FLOAT64)


def _ml(name, char, num, public_kind):
    fmt = _floats.get(name)
    return dtype._make(name, "f", fmt.bits // 8, char, num, fmt, public_kind)


#: ml_dtypes' types (type codes, numbers and kinds as ml_dtypes 0.5 registers them).
BFLOAT16 = _ml("bfloat16", "E", 256, "V")
FLOAT8_E4M3 = _ml("float8_e4m3", "7", 258, "V")
FLOAT8_E4M3FN = _ml("float8_e4m3fn", "4", 260, "V")
FLOAT8_E5M2 = _ml("float8_e5m2", "5", 262, "f")
FLOAT8_E8M0FNU = _ml("float8_e8m0fnu", "W", 267, "V")
ML = (BFLOAT16, FLOAT8_E4M3, FLOAT8_E4M3FN, FLOAT8_E5M2, FLOAT8_E8M0FNU)
ML_BY_NAME = {dt.name: dt for dt in ML}

#: NumPy's default integer and float (Linux x86-64 NumPy, which kernel authors run).
DEFAULT_INT = INT64
DEFAULT_FLOAT = FLOAT64

_NAMES = {}
for _dt in ALL:
    _NAMES[_dt.name] = _dt
    _NAMES[_dt.char] = _dt
    _NAMES[_dt._kind + str(_dt.itemsize)] = _dt
    _NAMES[_dt.str] = _dt
    _NAMES["=" + _dt._kind + str(_dt.itemsize)] = _dt
_NAMES.update({
    "bool_": BOOL, "b1": BOOL, "|b1": BOOL, "byte": INT8, "ubyte": UINT8, "short": INT16,
    "ushort": UINT16, "intc": INT32, "uintc": UINT32, "int": INT64, "int_": INT64,
    "intp": INT64, "long": INT64, "longlong": INT64, "q": INT64, "p": INT64, "uint": UINT64,
    "uintp": UINT64, "ulong": UINT64, "ulonglong": UINT64, "Q": UINT64, "P": UINT64,
    "half": FLOAT16, "single": FLOAT32, "float": FLOAT64, "double": FLOAT64,
})
_PY_TYPES = {bool: BOOL, int: DEFAULT_INT, float: DEFAULT_FLOAT}


def register_ml_dtypes():
    """``np.dtype('bfloat16')`` & co. resolve from now on (importing ml_dtypes does this)."""
    for dt in ML:
        _NAMES[dt.name] = dt


def _lookup(obj):
    if isinstance(obj, dtype):
        return obj
    if obj is None:
        return DEFAULT_FLOAT  # np.dtype(None) is float64
    if isinstance(obj, type):
        found = _PY_TYPES.get(obj) or getattr(obj, "_fallback_dtype", None)
        if found is not None:
            return found
        raise TypeError(f"Cannot interpret '{obj!r}' as a data type")
    if isinstance(obj, str):
        found = _NAMES.get(obj)
        if found is None:
            raise TypeError(f"data type {obj!r} not understood")
        return found
    if hasattr(obj, "_store"):
        raise TypeError("Cannot construct a dtype from an array")
    inner = getattr(obj, "dtype", None)
    if inner is not None and not isinstance(obj, type):
        return _lookup(inner)
    raise TypeError(f"Cannot interpret '{obj!r}' as a data type")


# ---- value casting -------------------------------------------------------------------------

def _limits(dt):
    bits = dt._bits
    if dt._kind == "u":
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def int_limits(dt):
    """(min, max) of an integer dtype."""
    return _limits(dt)


def round_float(dt, x):
    """``x`` (a Python float) rounded to the nearest value of float dtype ``dt`` (ties to even;
    overflow gives ±inf), as a Python float. Uses struct's IEEE half/single packing; ml_dtypes'
    types round as an array cast does (through float32, their format's rules)."""
    if dt._fmt is not None:
        return dt._fmt.round_cast(x)
    if dt is FLOAT64 or x != x or x in (math.inf, -math.inf):
        return x
    code = "e" if dt is FLOAT16 else "f"
    try:
        return struct.unpack(code, struct.pack(code, x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_computed(dt, x):
    """Rounds a result computed in double precision the way NumPy's loop for ``dt`` would:
    float16 loops compute in float32 and then round to half."""
    if dt is FLOAT16:
        return round_float(FLOAT16, round_float(FLOAT32, x))
    return round_float(dt, x)  # ml_dtypes' loops compute in float32 too: round_cast


def cast_python(dt, v):
    """A Python object's value converted to ``dt`` as an array's element (``np.array(list,
    dtype)``, item assignment): a Python float converts directly to a float8 type, as
    ml_dtypes' setitem does; everything else as :func:`cast_value`."""
    if dt._fmt is not None and type(v) is float:
        return dt._fmt.round(v)
    return cast_value(dt, v)


def wrap_int(dt, v):
    """Python int ``v`` wrapped modulo 2**bits into integer dtype ``dt`` (C cast semantics)."""
    bits = dt._bits
    v &= (1 << bits) - 1
    if dt._kind == "i" and v >> (bits - 1):
        v -= 1 << bits
    return v


def cast_value(dt, v):
    """A raw value (bool, int or float) converted to dtype ``dt``.

    Int→int casts wrap (as NumPy's C casts do). Float→int casts truncate toward zero; NaN, inf
    and out-of-range floats raise ValueError, where NumPy would produce an unspecified value.
    """
    kind = dt._kind
    if kind == "f":
        try:
            f = float(v)
        except OverflowError:  # a Python int beyond float64
            f = math.inf if v > 0 else -math.inf
        return round_float(dt, f)
    if kind == "b":
        return bool(v)
    if isinstance(v, float):
        if v != v or v in (math.inf, -math.inf):
            raise ValueError(f"cannot convert float {v} to {dt.name}")
        t = int(v)
        lo, hi = _limits(dt)
        if not lo <= t <= hi:
            raise ValueError(f"float {v!r} is out of range for {dt.name} (NumPy leaves the "
                             f"result unspecified; nki-playground's numpy fallback refuses)")
        return t
    return wrap_int(dt, int(v))


def fits(dt, v):
    """Whether Python int ``v`` is representable in integer dtype ``dt``."""
    lo, hi = _limits(dt)
    return lo <= v <= hi


# ---- promotion ---------------------------------------------------------------------------

_SIGNED = {1: INT8, 2: INT16, 4: INT32, 8: INT64}
_UNSIGNED = {1: UINT8, 2: UINT16, 4: UINT32, 8: UINT64}
_FLOATS = {2: FLOAT16, 4: FLOAT32, 8: FLOAT64}


def float_for_int(dt):
    """The smallest float dtype an integer (or bool) dtype casts to safely."""
    if dt._kind == "b" or dt.itemsize == 1:
        return FLOAT16
    if dt.itemsize == 2:
        return FLOAT32
    return FLOAT64


def promote(a, b):
    """``np.promote_types(a, b)`` for the fallback's dtypes."""
    if a is b:
        return a
    if a._fmt is not None or b._fmt is not None:
        return _ml_promote(a, b)
    if a._kind == "b":
        return b
    if b._kind == "b":
        return a
    if a._kind == "f" or b._kind == "f":
        fa = a if a._kind == "f" else float_for_int(a)
        fb = b if b._kind == "f" else float_for_int(b)
        return fa if fa.itemsize >= fb.itemsize else fb
    if a._kind == b._kind:
        return a if a.itemsize >= b.itemsize else b
    s, u = (a, b) if a._kind == "i" else (b, a)
    if s.itemsize > u.itemsize:
        return s
    if u.itemsize == 8:
        return FLOAT64  # no integer type holds both int64 and uint64
    return _SIGNED[u.itemsize * 2]


def promote_all(dts):
    out = None
    for d in dts:
        out = d if out is None else promote(out, d)
    return out


_KIND_ORDER = {"b": 0, "u": 1, "i": 2, "f": 3}


def can_cast(src, dst, casting="same_kind"):
    """``np.can_cast`` for dtypes under 'no', 'equiv', 'safe', 'same_kind' or 'unsafe'."""
    if casting == "unsafe" or src is dst:
        return True
    if casting in ("no", "equiv"):
        return False
    if src._fmt is not None or dst._fmt is not None:
        return _ml_can_cast(src, dst, casting)
    if casting == "safe":
        return promote(src, dst) is dst
    if casting == "same_kind":  # safe, or down within a kind (bool < uint < int < float)
        return promote(src, dst) is dst or _KIND_ORDER[src._kind] <= _KIND_ORDER[dst._kind]
    raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")


# ---- ml_dtypes' types: the casts it registers as safe, and NumPy's promotion over them -------

_ML_SAFE = {  # ml_dtypes type -> the types it casts to safely (beyond itself)
    "bfloat16": ("float32", "float64"),
    "float8_e4m3": ("float8_e4m3fn", "float32", "float64"),
    "float8_e4m3fn": ("float8_e4m3", "float32", "float64"),
    "float8_e5m2": ("float32", "float64"),
    "float8_e8m0fnu": ("float32", "float64"),
}
_ML_SAFE_FROM = ("bool", "int8", "uint8")  # NumPy types that cast safely to every ml_dtypes type
_ML_SAME_KIND = {  # ml_dtypes type -> the types it casts to under 'same_kind' (beyond safe)
    "bfloat16": ("float8_e4m3", "float8_e4m3fn", "float8_e8m0fnu"),
    "float8_e4m3": ("bfloat16",),
    "float8_e4m3fn": ("bfloat16",),
    "float8_e5m2": ("bfloat16", "float8_e4m3", "float8_e4m3fn", "float16"),
    "float8_e8m0fnu": ("bfloat16",),
}
#: float8_e5m2 (kind 'f' in ml_dtypes) also promotes with these, by NumPy's scalar-kind rule.
_E5M2_PROMOTE = {"int16": "float32", "uint16": "float32", "float16": "float32",
                 "int32": "float64", "uint32": "float64", "int64": "float64", "uint64": "float64"}


def _ml_can_cast(src, dst, casting):
    if casting not in ("safe", "same_kind"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         "'unsafe'")
    if src._fmt is None:  # a NumPy type to an ml_dtypes type
        return casting == "same_kind" or src.name in _ML_SAFE_FROM
    if dst.name in _ML_SAFE[src.name]:
        return True
    return casting == "same_kind" and dst.name in _ML_SAME_KIND[src.name]


def _ml_promote(a, b):
    """NumPy's promotion of legacy user dtypes: a type both cast to safely, else an error."""
    if can_cast(a, b, "safe") and can_cast(b, a, "safe"):
        return a if a.num is not None and (b.num is None or a.num < b.num) else b
    if can_cast(b, a, "safe"):
        return a
    if can_cast(a, b, "safe"):
        return b
    c, other = (a, b) if a._fmt is not None else (b, a)
    if c is FLOAT8_E5M2 and other.name in _E5M2_PROMOTE:
        return _NAMES[_E5M2_PROMOTE[other.name]]
    raise TypeError(f"The DTypes <class 'numpy.dtype[{b.name}]'> and <class "
                    f"'numpy.dtype[{a.name}]'> do not have a common DType. For example they "
                    f"cannot be stored in a single array unless the dtype is `object`.")


_NO_CAST = frozenset(("float8_e4m3", "float8_e4m3fn", "float8_e5m2"))  # none to/from e8m0


def check_cast_exists(src, dst):
    """Raises NumPy's TypeError for a cast ml_dtypes registers no function for (between
    float8_e8m0fnu and the other float8 types)."""
    names = {src.name, dst.name}
    if "float8_e8m0fnu" in names and names & _NO_CAST:
        raise TypeError(f"Cannot cast array data from {src!r} to {dst!r} according to the "
                        f"rule 'unsafe' (ml_dtypes has no such cast)")
