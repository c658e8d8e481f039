"""NKI 0.6.0's dtypes: plain strings (``DType = str``; ``nl.float32 == "float32"``), their
sizes, and the names NumPy dtypes and spellings map to."""
from nki_playground import door

#: Every dtype of NKI 0.6.0 and its size in bytes (x4: four packed values per element).
SIZES = {
    "bool_": 1, "int8": 1, "int16": 2, "int32": 4, "uint8": 1, "uint16": 2, "uint32": 4,
    "float16": 2, "float32": 4, "bfloat16": 2, "tfloat32": 4,
    "float8_e4m3": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e8m0fnu": 1,
    "float8_e5m2_x4": 4, "float8_e4m3fn_x4": 4, "float4_e2m1fn_x4": 2,
}

FLOATS = frozenset(n for n in SIZES if n.startswith(("float", "bfloat", "tfloat")))

_ALIASES = {"bool": "bool_", "float8_e4m3fnuz": None, "float64": None, "int64": None,
            "uint64": None, "complex64": None, "complex128": None}


def name_of(x):
    """NKI's name of a dtype given as an nl dtype string, a NumPy dtype / scalar type, or a
    NumPy spelling; raises TypeError for anything else (the core refuses unsupported ones)."""
    if isinstance(x, str):
        name = x
    else:
        name = getattr(x, "name", None) if not isinstance(x, type) else None
        if name is None:
            name = getattr(x, "__name__", None)
        if name is None:
            raise TypeError(f"not a dtype: {x!r}")
    name = _ALIASES.get(name, name) or name
    return name


def size_of(name):
    """Bytes per element of an NKI dtype name; unknown names raise the core's error."""
    size = SIZES.get(name)
    if size is None:
        door.raise_diagnostic("err_unsupported_dtype", name)
    return size


def is_float(name):
    return name in FLOATS
