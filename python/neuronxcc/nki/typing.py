"""``neuronxcc.nki.typing`` (nt): tensor type annotations and shape placeholders.

``nt.tensor[[128, 512], nl.float32]`` (or ``nt.tensor[128, 512]``) describes an HBM tensor; it
can annotate a parameter and stands in for an input array in ``nki.trace_kernel``.
``nt.mutable_tensor`` marks a parameter the kernel may write (and must return).
"""
from . import _dtypes


class TensorType:
    """A tensor's shape and dtype, without data."""

    __slots__ = ("shape", "dtype", "mutable")

    def __init__(self, shape, dtype=None, mutable=False):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.mutable = mutable

    def __repr__(self):
        d = f", {self.dtype}" if self.dtype is not None else ""
        return f"nt.tensor[{list(self.shape)}{d}]"


def _parse(key, mutable):
    if not isinstance(key, tuple):
        key = (key,)
    if key and isinstance(key[0], (list, tuple)):
        shape, rest = tuple(key[0]), key[1:]
    else:
        shape = tuple(k for k in key if isinstance(k, int) and not isinstance(k, bool))
        rest = key[len(shape):]
    dtype = rest[0] if rest else _dtypes.float32
    return TensorType(shape, dtype, mutable)


class _TensorFactory:
    def __init__(self, mutable):
        self._mutable = mutable

    def __getitem__(self, key):
        return _parse(key, self._mutable)

    def __repr__(self):
        return "nt.mutable_tensor" if self._mutable else "nt.tensor"


tensor = _TensorFactory(False)
mutable_tensor = _TensorFactory(True)


def is_mutable_annotation(ann):
    return ann is mutable_tensor or (isinstance(ann, TensorType) and ann.mutable)


from ._scalar import scalar  # noqa: E402,F401  (nt.scalar)
