"""``nki.typing`` (``import nki.typing as nt``): shape annotations for kernel parameters.

``nt.tensor[128, 512]`` (or ``nt.tensor[[128, 512], nl.float32]``) annotates a parameter's
expected shape; ``nt.mutable_tensor`` an argument the kernel writes in place. A ``TensorType``
also stands in for an array where a kernel is only traced (``nki.trace_kernel``-style use).
"""


class TensorType:
    """A tensor's expected shape (and dtype)."""

    def __init__(self, shape, dtype="float32", mutable=False):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        self.mutable = mutable

    def __repr__(self):
        kind = "mutable_tensor" if self.mutable else "tensor"
        return f"nt.{kind}[{list(self.shape)}, {self.dtype}]"


class _TensorFactory:
    def __init__(self, mutable):
        self.mutable = mutable

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        if key and isinstance(key[0], (list, tuple)):
            shape, dtype = key[0], key[1] if len(key) > 1 else "float32"
        else:
            shape, dtype = key, "float32"
        return TensorType(shape, dtype, self.mutable)

    def __call__(self, *args, **kwargs):
        return self


tensor = _TensorFactory(False)
mutable_tensor = _TensorFactory(True)
