"""Arrays as bytes: the raw row-major bytes of an array (``tobytes``, ``frombuffer``), the
bytes the simulator exchanges with kernels, and ``.npy`` files (``np.load`` / ``np.save``).
"""
import struct

from . import _core_storage as C
from . import _dtypes as D
from ._creation import asarray
from ._ndarray import core_copy, make_view
from ._storage import storage_from_bytes


def _code(dt):
    """The struct code of one element (standard sizes: int64 is "q", not the native "l")."""
    return {"bool": "?", "float16": "e", "int64": "q", "uint64": "Q"}.get(dt.name, dt.char)


def to_bytes(arr):
    """The array's elements, row-major, as little-endian bytes of its dtype (ml_dtypes' types:
    their codes)."""
    store = getattr(arr, "_store", None)
    if isinstance(store, C.CoreStorage):  # strided: copied in the core first
        whole = arr._is_contiguous() and arr._offset == 0 and arr.size == store.n
        return (store if whole else core_copy(arr, arr.dtype)._store).bytes()
    values = arr._values()
    if arr.dtype._fmt is not None:
        return arr.dtype._fmt.encode_values(values)
    return struct.pack(f"<{len(values)}{_code(arr.dtype)}", *values)


def from_bytes(raw, name, shape):
    """A new array of shape ``shape`` over ``raw`` holding elements of NKI or NumPy dtype
    ``name`` (bfloat16 and the float8 types: ml_dtypes' types; tfloat32: float32)."""
    name = {"bool_": "bool", "tfloat32": "float32"}.get(name, name)
    dt = D.ML_BY_NAME.get(name) or D.dtype(name)
    return frombuffer(bytes(raw), dt).reshape(shape)


def frombuffer(buffer, dtype=float, count=-1, offset=0):
    """``np.frombuffer``: a 1-D array over a bytes-like object (copied here)."""
    dt = D.dtype(dtype)
    raw = bytes(buffer)[offset:]
    n = len(raw) // dt.itemsize if count < 0 else count
    if n * dt.itemsize > len(raw) or (count < 0 and len(raw) % dt.itemsize):
        raise ValueError("buffer size must be a multiple of element size")
    store = storage_from_bytes(dt, raw[:n * dt.itemsize], n)
    return make_view(store, 0, (n,), (1,))


def tobytes(arr, order="C"):
    return bytes(to_bytes(arr))


# ---- .npy ------------------------------------------------------------------------------------

_MAGIC = b"\x93NUMPY"


def _descr(dt):
    if dt._kind == "b":
        return "|b1"
    if dt._fmt is not None:
        return dt.str  # what NumPy writes for ml_dtypes' types ('<V2', ...)
    return ("|" if dt.itemsize == 1 else "<") + dt._kind + str(dt.itemsize)


def save(file, arr, allow_pickle=True, fix_imports=True):
    """``np.save``: writes ``arr`` as a .npy file (format 1.0); adds ``.npy`` to a path
    without it."""
    arr = asarray(arr)
    header = (f"{{'descr': '{_descr(arr.dtype)}', 'fortran_order': False, "
              f"'shape': {tuple(arr.shape)!r}, }}")
    total = (10 + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - 10 - len(header) - 1) + "\n"
    data = _MAGIC + bytes([1, 0]) + struct.pack("<H", len(header)) + header.encode("latin1") + \
        bytes(to_bytes(arr))
    if isinstance(file, str):
        path = file if file.endswith(".npy") else file + ".npy"
        with open(path, "wb") as f:
            f.write(data)
    else:
        file.write(data)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII"):
    """``np.load`` of a .npy file (C order, little-endian numeric dtypes)."""
    if isinstance(file, str):
        with open(file, "rb") as f:
            data = f.read()
    else:
        data = file.read()
    if data[:6] != _MAGIC:
        if data[:2] == b"PK":
            raise ValueError(".npz archives are not supported by nki-playground's numpy "
                             "fallback; save arrays one per .npy file")
        raise ValueError("not a .npy file")
    major = data[6]
    if major == 1:
        hlen, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", data[8:12])[0], 12
    header = data[start:start + hlen].decode("latin1")
    meta = _parse_header(header)
    if meta["fortran_order"]:
        raise ValueError("Fortran-ordered .npy files are not supported by nki-playground's "
                         "numpy fallback")
    descr = meta["descr"]
    if descr[0] == ">" or descr[1] not in "biuf":
        raise ValueError(f"unsupported .npy dtype {descr!r} (little-endian numeric only)")
    dt = D.dtype(descr[1:] if descr[1] != "b" else "bool")
    shape = tuple(meta["shape"])
    n = 1
    for s in shape:
        n *= s
    body = data[start + hlen:start + hlen + n * dt.itemsize]
    return frombuffer(body, dt).reshape(shape)


def _parse_header(header):
    import ast
    meta = ast.literal_eval(header.strip())
    if not isinstance(meta, dict) or not {"descr", "fortran_order", "shape"} <= set(meta):
        raise ValueError("malformed .npy header")
    return meta


def fromfile(file, dtype=float, count=-1, sep="", offset=0, like=None):
    """``np.fromfile`` of raw binary data (``sep=''``): a 1-D array of ``dtype``."""
    if sep != "":
        raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                  "fromfile(sep=...) (text files)")
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "rb") as f:
            data = f.read()
    else:
        data = file.read()
    dt = D.dtype(dtype)
    data = data[offset:]
    usable = len(data) // dt.itemsize * dt.itemsize
    return frombuffer(data[:usable], dt, count)
