"""NKI's dtypes, and normalisation of dtype spellings.

As in NKI, the standard types are NumPy's own (``nl.float32 is np.float32``, with the real numpy
or nki-playground's trace-time fallback), so harness code can write
``np.zeros(shape, dtype=nl.float32)``. bfloat16 and the float8 types are ml_dtypes' NumPy
dtypes (``np.dtype('bfloat16')``, as in NKI) when ml_dtypes imports — its stand-in does with
the NumPy stand-in — else ``DType`` objects, as tfloat32 always is. Any spelling — NumPy types
and dtypes, ``DType``, strings — is accepted wherever a dtype is.
"""
from nki_playground.arrays import dtype_name
from nki_playground.standins import ensure_numpy


class DType:
    __slots__ = ("name", "itemsize")

    def __init__(self, name, itemsize):
        self.name = name
        self.itemsize = itemsize

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        try:
            return name_of(other) == self.name
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.name)


_ALL = {}


def _make(name, itemsize):
    _ALL[name] = DType(name, itemsize)
    return _ALL[name]


bool_ = _make("bool_", 1)
uint8 = _make("uint8", 1)
int8 = _make("int8", 1)
uint16 = _make("uint16", 2)
int16 = _make("int16", 2)
uint32 = _make("uint32", 4)
int32 = _make("int32", 4)
float8_e4m3 = _make("float8_e4m3", 1)
float8_e5m2 = _make("float8_e5m2", 1)
bfloat16 = _make("bfloat16", 2)
float16 = _make("float16", 2)
tfloat32 = _make("tfloat32", 4)
float32 = _make("float32", 4)



def name_of(dtype):
    """The NKI name of any dtype spelling; names the core does not know are passed through
    (the core raises NKI's unsupported-dtype error for them)."""
    if isinstance(dtype, DType):
        return dtype.name
    return dtype_name(dtype)  # strings, NumPy types and dtypes


def lookup(name):
    """The object ``nl.<name>`` is (a NumPy type for the standard dtypes)."""
    return _PUBLIC.get(name) or _ALL.get(name)


def _numpy_types():
    np = ensure_numpy()
    public = {}
    for name in ("uint8", "int8", "uint16", "int16", "uint32", "int32", "float16", "float32",
                 "bool_"):
        t = getattr(np, name, None)
        if t is not None:
            public[name] = t
    try:  # as in NKI: nl.bfloat16 is np.dtype('bfloat16') once ml_dtypes is imported
        import ml_dtypes  # noqa: F401 - registers its names with NumPy
        for name in ("bfloat16", "float8_e4m3", "float8_e5m2"):
            public[name] = np.dtype(name)
    except (ImportError, TypeError):
        pass
    return public


_PUBLIC = _numpy_types()
bool_ = _PUBLIC.get("bool_", bool_)
uint8 = _PUBLIC.get("uint8", uint8)
int8 = _PUBLIC.get("int8", int8)
uint16 = _PUBLIC.get("uint16", uint16)
int16 = _PUBLIC.get("int16", int16)
uint32 = _PUBLIC.get("uint32", uint32)
int32 = _PUBLIC.get("int32", int32)
float16 = _PUBLIC.get("float16", float16)
float32 = _PUBLIC.get("float32", float32)
bfloat16 = _PUBLIC.get("bfloat16", bfloat16)
float8_e4m3 = _PUBLIC.get("float8_e4m3", float8_e4m3)
float8_e5m2 = _PUBLIC.get("float8_e5m2", float8_e5m2)


def itemsize(dtype):
    """Bytes per element of any dtype spelling."""
    if isinstance(dtype, DType):
        return dtype.itemsize
    d = _ALL.get(name_of(dtype))
    if d is None:
        raise TypeError(f"unknown dtype {dtype!r}")
    return d.itemsize
