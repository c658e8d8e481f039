"""Core-backed storage: large arrays keep their bytes in the C++ core (``core/host/*.cpp``)
and the heavy operations run there — one request per operation, bulk data through typed-array
views over wasm memory (fetched right before use: memory growth detaches earlier views).
This module is the storage (below the array type); arrays over it — a core copy, a view of a
core result, an assignment in the core — are ``_ndarray``'s (``on_core``, ``core_array``).

``ListStorage`` stays the reference for small arrays: every operation here must give what the
pure-Python path gives (the goldens in ``tests/sim/host_goldens`` check it against NumPy).
"""
import json
import struct

from nki_playground import door

#: Arrays of at least this many elements live in the core.
THRESHOLD = 1024

_CORE_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
               "float16", "float32", "float64")


def available():
    return door.has_host_arrays()


def request(obj):
    """One host-array request; the reply as Python (None for "null")."""
    return json.loads(door.host_request(json.dumps(obj)))


def _code(dt):
    """The struct code of one element (standard sizes: int64 is "q", not the native "l")."""
    return {"bool": "?", "float16": "e", "int64": "q", "uint64": "Q"}.get(dt.name, dt.char)


class CoreStorage:
    """``n`` elements of ``dtype`` in core host array ``id`` (freed with the storage)."""

    __slots__ = ("dtype", "id", "n", "_cache", "_reads", "__weakref__")

    #: Element reads in a row (no store between) after which ``read`` keeps a copy of the bytes:
    #: a Python loop over a result reads from that copy, a loop mixing stores does not recopy.
    CACHE_AFTER = 16

    def __init__(self, dtype, array_id, n):
        self.dtype, self.id, self.n = dtype, array_id, n
        self._cache, self._reads = None, 0

    def changed(self):
        """Drops the copy kept for element reads (every store into the array calls this)."""
        self._cache, self._reads = None, 0

    @classmethod
    def new(cls, dtype, n, fill=None):
        req = {"op": "new", "dtype": dtype.name, "n": n}
        if fill is not None:
            req.update(fill=float(fill) if dtype._kind == "f" else int(fill),
                       int=dtype._kind != "f")
        return cls(dtype, request(req)["id"], n)

    @classmethod
    def from_bytes(cls, dtype, raw, n):
        store = cls.new(dtype, n)
        if n:
            door.host_view(store.id).assign(raw)
        return store

    @classmethod
    def from_values(cls, dtype, values):
        n = len(values)
        return cls.from_bytes(dtype, struct.pack(f"<{n}{_code(dtype)}", *values), n)

    def __del__(self):
        if door.available() and self.id is not None:
            try:
                door.host_request(json.dumps({"op": "free", "id": self.id}))
            except Exception:  # interpreter teardown
                pass
            self.id = None

    def __len__(self):
        return self.n

    def bytes(self):
        """A copy of all the bytes."""
        return door.host_view(self.id).to_py() if self.n else memoryview(b"")

    def values(self):
        """All raw values, in storage order."""
        raw = bytes(self.bytes())
        vals = list(struct.unpack(f"<{self.n}{_code(self.dtype)}", raw))
        return vals

    def read(self, index):
        if self._cache is not None:
            raw, code = self._cache
            return struct.unpack_from(code, raw, index * self.dtype.itemsize)[0]
        self._reads += 1
        if self._reads >= self.CACHE_AFTER:
            self._cache = (bytes(self.bytes()), f"<{_code(self.dtype)}")
            return self.read(index)
        kind = self.dtype._kind
        if self.dtype.itemsize < 8 or kind == "f":  # a double holds it exactly
            v = door.host_get(self.id, index)
            return v if kind == "f" else (v != 0 if kind == "b" else int(v))
        s = self.dtype.itemsize
        raw = bytes(door.host_view(self.id).subarray(index * s, (index + 1) * s).to_py())
        return struct.unpack(f"<{_code(self.dtype)}", raw)[0]

    def gather(self, indices):
        if len(indices) <= 8:
            return [self.read(i) for i in indices]
        vals = self.values()
        return [vals[i] for i in indices]

    def scatter(self, indices, values):
        self.changed()
        s, code = self.dtype.itemsize, _code(self.dtype)
        if len(indices) <= 8 and (s < 8 or self.dtype._kind == "f"):
            for i, v in zip(indices, values):
                door.host_set(self.id, i, float(v))
            return
        view = door.host_view(self.id)
        if len(indices) <= 8:
            for i, v in zip(indices, values):
                view.subarray(i * s, (i + 1) * s).assign(struct.pack(f"<{code}", v))
            return
        buf = bytearray(bytes(view.to_py()))
        for i, v in zip(indices, values):
            struct.pack_into(f"<{code}", buf, i * s, v)
        door.host_view(self.id).assign(buf)


def eligible(dt):
    return available() and dt.name in _CORE_TYPES


def view_json(arr):
    """The core's description of ndarray view ``arr`` (its storage must be a CoreStorage, and
    ``arr`` must stay referenced until the request using it is done: the storage frees the
    core array when it is collected)."""
    return {"id": arr._store.id, "off": arr._offset, "shape": list(arr._shape),
            "strides": list(arr._strides)}
