"""Element storage behind ``ndarray``: the one class an array's data lives in.

An ndarray is a strided view (offset, shape, strides in elements) over a storage; views share
it. Everything the ndarray does with its data goes through ``dtype``, ``read``, ``gather`` and
``scatter``, so a later storage backed by the C++ core's buffers only has to provide the same
members, and :func:`new_storage` (the one place storages are made) has to build it.
"""
import struct

from . import _core_storage as C


class ListStorage:
    """A flat, fixed-length run of raw values already cast to ``dtype`` (see ``_dtypes``)."""

    __slots__ = ("dtype", "_items")

    def __init__(self, dtype, items):
        self.dtype = dtype
        self._items = items

    def __len__(self):
        return len(self._items)

    def read(self, index):
        return self._items[index]

    def gather(self, indices):
        """The raw values at ``indices``, as a list."""
        items = self._items
        return [items[i] for i in indices]

    def scatter(self, indices, values):
        """Writes raw ``values`` (already cast to this storage's dtype) at ``indices``."""
        items = self._items
        for i, v in zip(indices, values):
            items[i] = v


def new_storage(dtype, values):
    """A storage of ``dtype`` holding ``values`` (a list of raw values already cast; taken over,
    not copied). Large arrays live in the core (``_core_storage``)."""
    if len(values) >= C.THRESHOLD:
        if C.eligible(dtype):
            return C.CoreStorage.from_values(dtype, values)
    return ListStorage(dtype, values)


def storage_from_bytes(dtype, raw, n):
    """A storage of ``n`` elements of ``dtype`` decoded from little-endian bytes ``raw``."""
    if n >= C.THRESHOLD:
        if C.eligible(dtype):
            return C.CoreStorage.from_bytes(dtype, raw, n)
    if dtype._fmt is not None:  # ml_dtypes' types: codes, decoded by their format
        return ListStorage(dtype, dtype._fmt.decode_bytes(raw))
    code = {"bool": "?", "float16": "e", "int64": "q", "uint64": "Q"}.get(dtype.name, dtype.char)
    return ListStorage(dtype, list(struct.unpack(f"<{n}{code}", raw)))
