"""NumPy scalar types: ``np.float32``, ``np.int32``, ``np.bool_`` and their abstract bases.

Calling a type converts a value the way NumPy does (``np.float32(1.1)`` rounds to single
precision, ``np.float16`` to half; ``np.int8(300)`` raises OverflowError as NumPy ≥ 2 does).
Deliberate difference: the float types subclass ``float`` (in NumPy only float64 does), so
float scalars work wherever Python floats do; integer scalars are int-like via ``__index__``.
Arithmetic goes through the fallback's ufuncs, so ``np.float32(1) + 1.0`` stays float32
(NEP 50).
"""
from . import _dtypes, _format
from ._errors import out_of_bounds


class generic:
    """Base of all NumPy scalar types."""

    __slots__ = ()
    _fallback_dtype = None

    @property
    def dtype(self):
        return type(self)._fallback_dtype

    @property
    def itemsize(self):
        return self.dtype.itemsize

    nbytes = itemsize
    shape = ()
    ndim = 0
    size = 1

    def item(self):
        """The value as a Python bool, int or float."""
        return self._raw()

    tolist = item

    def astype(self, dtype):
        dt = _dtypes.dtype(dtype)
        return dt.type._wrap(_dtypes.cast_value(dt, self._raw()))

    def __repr__(self):
        return f"np.{type(self).__name__}({_format.scalar_str(self.dtype, self._raw())})"

    def __str__(self):
        return _format.scalar_str(self.dtype, self._raw())


class number(generic):
    __slots__ = ()


class integer(number):
    __slots__ = ()


class signedinteger(integer):
    __slots__ = ()


class unsignedinteger(integer):
    __slots__ = ()


class inexact(number):
    __slots__ = ()


class floating(inexact):
    __slots__ = ()


def _array_or_none(value, dt):
    """``np.float32([1, 2])`` builds an array, as NumPy's scalar types do for sequences."""
    if isinstance(value, (list, tuple)) or hasattr(value, "_store"):
        return generic._asarray(value, dtype=dt)  # np.asarray: attached by _methods
    return None


def _number_from(value):
    if isinstance(value, generic):
        return value._raw()
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            return float(text)
    if isinstance(value, (bool, int, float)):
        return value
    for conv in (getattr(value, "__index__", None), getattr(value, "__float__", None)):
        if conv is not None:
            return conv()
    raise TypeError(f"cannot convert {type(value).__name__} to a NumPy scalar")


class _FloatMixin(floating):
    __slots__ = ()

    def __new__(cls, value=0.0):
        arr = _array_or_none(value, cls._fallback_dtype)
        if arr is not None:
            return arr
        return float.__new__(cls, _dtypes.cast_value(cls._fallback_dtype, _number_from(value)))

    @classmethod
    def _wrap(cls, raw):
        return float.__new__(cls, raw)

    def _raw(self):
        return float(self)

    __hash__ = float.__hash__


class _IntMixin:
    """Integer scalars hold a Python int; they are int-like through ``__index__`` (so
    ``range(np.int32(3))`` and list indexing work) but, as in NumPy, not ``int`` subclasses:
    ``True + np.uint8(255)`` must reach ``uint8`` arithmetic, not Python's."""

    __slots__ = ("_v",)

    def __new__(cls, value=0):
        dt = cls._fallback_dtype
        arr = _array_or_none(value, dt)
        if arr is not None:
            return arr
        raw = _number_from(value)
        if isinstance(raw, int) and not isinstance(value, generic) and not isinstance(raw, bool):
            if not _dtypes.fits(dt, raw):
                raise out_of_bounds(raw, dt)
        return cls._wrap(_dtypes.cast_value(dt, raw))

    @classmethod
    def _wrap(cls, raw):
        obj = object.__new__(cls)
        obj._v = raw
        return obj

    def _raw(self):
        return self._v

    def __index__(self):
        return self._v

    __int__ = __index__

    def __float__(self):
        return float(self._v)

    def __bool__(self):
        return self._v != 0

    def __hash__(self):
        return hash(self._v)

    def __format__(self, spec):
        return format(self._v, spec)

    def __round__(self, ndigits=None):
        return round(self._v, ndigits)

    def __trunc__(self):
        return self._v

    __floor__ = __ceil__ = __trunc__


def _make_float(name, dt):
    cls = type(name, (_FloatMixin, float), {"__slots__": (), "_fallback_dtype": dt,
                                             "__module__": "numpy"})
    dt.type = cls
    return cls


def _make_int(name, dt, base):
    cls = type(name, (_IntMixin, base), {"__slots__": (), "_fallback_dtype": dt,
                                         "__module__": "numpy"})
    dt.type = cls
    return cls


class bool_(generic):
    """``np.bool_`` (named ``bool`` as in NumPy ≥ 2). ``np.True_`` and ``np.False_`` are its
    only instances."""

    __slots__ = ("_v",)
    _fallback_dtype = _dtypes.BOOL

    def __new__(cls, value=False):
        arr = _array_or_none(value, _dtypes.BOOL)
        if arr is not None:
            return arr
        return True_ if bool(value) else False_

    @classmethod
    def _wrap(cls, raw):
        return True_ if raw else False_

    def _raw(self):
        return self._v

    def __bool__(self):
        return self._v

    def __int__(self):
        return int(self._v)

    def __float__(self):
        return float(self._v)

    def __hash__(self):
        return hash(self._v)

    def __repr__(self):
        return "np.True_" if self._v else "np.False_"


def _new_bool(v):
    obj = object.__new__(bool_)
    obj._v = v
    return obj


True_ = _new_bool(True)
False_ = _new_bool(False)
bool_.__name__ = bool_.__qualname__ = "bool"
bool_.__module__ = "numpy"
_dtypes.BOOL.type = bool_

int8 = _make_int("int8", _dtypes.INT8, signedinteger)
int16 = _make_int("int16", _dtypes.INT16, signedinteger)
int32 = _make_int("int32", _dtypes.INT32, signedinteger)
int64 = _make_int("int64", _dtypes.INT64, signedinteger)
uint8 = _make_int("uint8", _dtypes.UINT8, unsignedinteger)
uint16 = _make_int("uint16", _dtypes.UINT16, unsignedinteger)
uint32 = _make_int("uint32", _dtypes.UINT32, unsignedinteger)
uint64 = _make_int("uint64", _dtypes.UINT64, unsignedinteger)
float16 = _make_float("float16", _dtypes.FLOAT16)
float32 = _make_float("float32", _dtypes.FLOAT32)
float64 = _make_float("float64", _dtypes.FLOAT64)



class _MLFloat(generic):
    """ml_dtypes' scalar types (``ml_dtypes.bfloat16``, ...): subclasses of ``np.generic`` only
    (not ``np.floating``), a value of their format. Deliberate difference, as for NumPy's floats
    here: they also subclass ``float``. A Python float converts directly (float8: one rounding;
    bfloat16 through float32), NumPy scalars and ints as an array cast does. Text: C++'s
    ``std::ostream`` form of the float32 value (``%g``, 6 digits; NaN without a sign)."""

    __slots__ = ()

    def __new__(cls, value=0.0):
        dt = cls._fallback_dtype
        arr = _array_or_none(value, dt)
        if arr is not None:
            return arr
        if type(value) is float:
            return float.__new__(cls, dt._fmt.round(value))
        return float.__new__(cls, _dtypes.cast_value(dt, _number_from(value)))

    @classmethod
    def _wrap(cls, raw):
        return float.__new__(cls, raw)

    def _raw(self):
        return float(self)

    def __repr__(self):
        return _format.ml_str(float(self))

    __str__ = __repr__
    __hash__ = float.__hash__

    def __int__(self):
        return int(float(self))


def _make_ml(dt):
    cls = type(dt.name, (_MLFloat, float), {"__slots__": (), "_fallback_dtype": dt,
                                             "__module__": "ml_dtypes"})
    dt.type = cls
    return cls


ML_TYPES = {dt.name: _make_ml(dt) for dt in _dtypes.ML}

for _cls in (generic, number, integer, signedinteger, unsignedinteger, inexact, floating):
    _cls.__module__ = "numpy"


def wrap(dt, raw):
    """The NumPy scalar of dtype ``dt`` holding raw value ``raw`` (already cast)."""
    return dt.type._wrap(raw)


def issubdtype(arg1, arg2):
    """``np.issubdtype``: whether ``arg1``'s scalar type is ``arg2`` or derives from it."""
    def as_type(x):
        if isinstance(x, type) and issubclass(x, generic):
            return x
        return _dtypes.dtype(x).type
    return issubclass(as_type(arg1), as_type(arg2))
