"""Host arrays (the real NumPy's or the stand-in's) as the bytes the core exchanges, and back;
shared by the front ends and the run's records (``results``).
"""
from . import dtype_values
from .standins import ensure_numpy, is_fallback, standin_io

_ALIASES = {"bool": "bool_", "float8_e4m3fn": "float8_e4m3", "float8_e5m2fn": "float8_e5m2"}
# The current language names ml_dtypes' types as they are: float8_e4m3fn is the OCP format.
_CURRENT_ALIASES = {"bool": "bool_"}


def dtype_name(dtype, current=False):
    """The NKI name of a NumPy dtype or type (``bool`` is ``bool_``, ml_dtypes' fp8 names are
    Beta 1's, or with ``current`` the current language's); strings pass through the same
    aliases."""
    aliases = _CURRENT_ALIASES if current else _ALIASES
    if isinstance(dtype, str):
        return aliases.get(dtype, dtype)
    name = getattr(dtype, "__name__", None) if isinstance(dtype, type) else getattr(dtype, "name", None)
    if isinstance(name, str):
        return aliases.get(name, name)
    raise TypeError(f"not a dtype: {dtype!r}")


def numpy_dtype(np, name):
    """NumPy's dtype for NKI dtype ``name``, or None when NumPy has none."""
    return _numpy_dtype(np, name)


def _numpy_dtype(np, name):
    try:
        return np.dtype("bool" if name == "bool_" else name)
    except TypeError:
        return None


def to_bytes(arr, name):
    """The bytes of array ``arr`` (row-major) for a parameter of NKI dtype ``name``."""
    np = ensure_numpy()
    if is_fallback(np):
        return standin_io().to_bytes(arr)
    a = np.ascontiguousarray(arr)
    return memoryview(a.reshape(-1).view(np.uint8))


def from_bytes(raw, name, shape):
    """An array of NKI dtype ``name`` and ``shape`` over the bytes ``raw`` (copied)."""
    np = ensure_numpy()
    if is_fallback(np):
        return standin_io().from_bytes(raw, name, shape)
    dt = _numpy_dtype(np, "float32" if name == "tfloat32" else name)
    if dt is None:
        return np.array(dtype_values.decode(raw, name), dtype=np.float32).reshape(shape)
    return np.frombuffer(bytes(raw), dtype=dt).reshape(shape).copy()
