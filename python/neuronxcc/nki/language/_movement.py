"""Data movement, matmul/transpose, views and constants of nki.language.

Thin wrappers: each forwards its arguments to the core (``_ops.call``), which checks them and
builds the IR (core/lang/ops_matmul.cpp, ops_movement.cpp, ops_tensor_views.cpp,
ops_constants.cpp; opcodes in docs/ops/movement.md). The ``tensor_*`` functions are what
``nki.tensor`` methods (``t.reshape``, ``t.broadcast_to``...) delegate to.
"""
from .. import _dtypes, _ops
from .._index import IndexExpr
from .._tensor import NkiTensor
from ..typing import TensorType

__all__ = ["matmul", "transpose", "copy", "load_transpose2d", "broadcast_to", "expand_dims",
           "atomic_rmw", "gather_flattened", "shared_constant", "shared_identity_matrix",
           "zeros_like", "empty_like"]


# --- operand masking ---------------------------------------------------------------------


class MaskedOperand:
    """``tile[predicate]``: a matmul operand carrying its own mask (NKI's "operand masking",
    ``nl.matmul(lhsT[i_lhs_f <= 64], rhs[i_rhs_f <= 256], transpose_x=True)``)."""

    __slots__ = ("tile", "mask")

    def __init__(self, tile, mask):
        self.tile = tile
        self.mask = mask

    def _refuse(self, *_args):
        raise TypeError("operand masking (`tile[predicate]`) is only supported for the operands "
                        "of nl.matmul and nisa.nc_matmul; pass mask= to other APIs")

    __float__ = __int__ = __index__ = __bool__ = _refuse
    dtype = shape = property(_refuse)

    def __repr__(self):
        return f"{self.tile!r}[{self.mask!r}]"


def masked_operand(tile, predicate):
    """What ``NkiTensor.__getitem__`` returns for a predicate subscript."""
    return MaskedOperand(tile, predicate)


def split_operand(x):
    """(tile, operand mask or None) of a matmul operand."""
    if isinstance(x, MaskedOperand):
        return x.tile, x.mask
    return x, None


# --- dynamic offsets ---------------------------------------------------------------------


class DynamicIndex:
    """``idx_tile[0, b] + iy``: the value an index tile holds at run time plus an index
    expression, usable in a subscript (``src[ix, idx_tile[0, b] + iy]``)."""

    __slots__ = ("tile", "offset")

    def __init__(self, tile, offset):
        self.tile = tile
        self.offset = offset

    @property
    def _nki_dynamic_index(self):
        return self.tile, self.offset

    def __add__(self, other):
        if isinstance(other, bool) or not isinstance(other, (int, IndexExpr)):
            return NotImplemented
        return DynamicIndex(self.tile, self.offset + other)

    __radd__ = __add__

    def __repr__(self):
        return f"{self.tile!r} + {self.offset!r}"


def dynamic_index(tile, offset):
    """What ``tile + index_expression`` gives (``NkiTensor.__add__``)."""
    return DynamicIndex(tile, offset)


# --- matmul and transposes ---------------------------------------------------------------


def matmul(x, y, *, transpose_x=False, mask=None, **kwargs):
    """``x @ y`` on the Tensor engine, result in PSUM (float32).

    Args:
      x: SBUF tile ``[M, K]`` (``[K, M]`` with ``transpose_x=True``); both dims ≤ 128.
      y: SBUF tile ``[K, N]``, N ≤ 512.
      transpose_x: x is given transposed; otherwise a transpose of x is inserted.
      mask: predicate on the result tile; operands may carry their own (``x[i_f < 64]``).
    Returns:
      the ``[M, N]`` float32 PSUM tile.
    """
    x, x_mask = split_operand(x)
    y, y_mask = split_operand(y)
    return _ops.call("matmul", [("x", x), ("y", y)],
                     attrs={"transpose_x": bool(transpose_x), "x_mask": x_mask,
                            "y_mask": y_mask}, mask=mask)


def transpose(x, *, dtype=None, mask=None, **kwargs):
    """Swaps the partition and free dimension of a 2-D tile (both ≤ 128).

    Returns:
      a new SBUF tile ``[F, P]``.
    """
    return _ops.call("transpose", [("x", x)], dtype=dtype, mask=mask)


# --- copies and DMA ----------------------------------------------------------------------


def copy(src, *, mask=None, dtype=None, **kwargs):
    """A copy of an SBUF/PSUM tile (the PSUM → SBUF eviction, with a cast when ``dtype`` is
    given). The new tile is in SBUF unless assigned into a PSUM tensor.

    Args:
      src: the SBUF or PSUM tile to copy.
    Returns:
      the new tile.
    """
    return _ops.call("copy", [("src", src)], dtype=dtype, mask=mask)


def load_transpose2d(src, *, mask=None, dtype=None, **kwargs):
    """Loads a 2-D HBM tensor ``[F, P]`` into a new SBUF tile ``[P, F]`` (DMA transpose)."""
    return _ops.call("load_transpose2d", [("src", src)], dtype=dtype, mask=mask)


def broadcast_to(src, *, shape, **kwargs):
    """Broadcasts a tile (e.g. ``(1, F)``) to ``shape`` following NumPy's rules, along the
    partition dimension too. Returns ``src`` itself when it already has that shape.

    Returns:
      a new SBUF tile of ``shape``.
    """
    return _ops.call("broadcast_to", [("src", src)], attrs={"shape": _ints(shape)})


def expand_dims(data, axis):
    """A view of ``data`` with new unit axes after its last one (``axis`` int or list)."""
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    return _ops.call("expand_dims", [("data", data)], attrs={"axis": axes})


def atomic_rmw(dst, value, op, *, mask=None, **kwargs):
    """``dst = op(dst, value)`` atomically in HBM; ``dst`` must be indexed by an index tile and
    ``op`` is ``np.add`` / ``nl.add``. Returns None."""
    _ops.call("atomic_rmw", [("dst", dst), ("value", value)], attrs={"op": op}, mask=mask)


def gather_flattened(data, indices, *, mask=None, dtype=None, **kwargs):
    """Per partition, gathers ``data``'s flattened free elements at ``indices`` (uint32).

    Returns:
      a tile shaped like ``indices``.
    """
    return _ops.call("gather_flattened", [("data", data), ("indices", indices)], dtype=dtype,
                     mask=mask)


# --- constants and creation -------------------------------------------------------------


def shared_constant(constant, dtype=None, **kwargs):
    """A constant HBM tensor holding ``constant`` (a NumPy array or nested lists), e.g.
    ``nl.shared_constant(np.identity(128, dtype=np.int8), dtype=nl.bfloat16)``."""
    shape, values, source = _constant_data(constant)
    return _ops.call("shared_constant", [], dtype=dtype,
                     attrs={"shape": shape, "values": values, "source_dtype": source})


def shared_identity_matrix(n, dtype=_dtypes.uint8, **kwargs):
    """The ``n x n`` identity as a constant HBM tensor (one per size and dtype per kernel)."""
    return _ops.call("shared_identity_matrix", [], dtype=dtype, attrs={"n": int(n)})


def zeros_like(a, dtype=None, *, buffer=None, name="", **kwargs):
    """A new tensor of zeros with ``a``'s shape (and dtype unless given)."""
    return _like("zeros_like", a, dtype, buffer, name)


def empty_like(a, dtype=None, *, buffer=None, name="", **kwargs):
    """A new uninitialised tensor with ``a``'s shape (and dtype unless given)."""
    return _like("empty_like", a, dtype, buffer, name)


def _like(api, a, dtype, buffer, name):
    t = _ops.call(api, [("a", a)], dtype=dtype,
                  attrs={"buffer": None if buffer is None else str(buffer), "tensor_name": name})
    record_allocation(t, buffer, list(t.shape), 0, t.dtype)
    return t


def record_allocation(tensor, buffer, dims, pdim, dtype):
    """Direct allocation (``buffer=ncc.sbuf.mod_alloc(...)`` & co.): recorded on the tensor's
    allocating instruction."""
    describe = getattr(buffer, "_nki_allocation", None)
    if describe is not None:
        _ops.call("allocation", [("tensor", tensor)], attrs=describe(dims, pdim, dtype))


def _constant_data(c):
    """(shape, row-major values, dtype name) of an array or nested lists."""
    if isinstance(c, NkiTensor):
        raise TypeError("shared_constant takes a NumPy array or nested lists known at trace "
                        "time, not a traced tensor")
    if hasattr(c, "shape") and hasattr(c, "dtype"):
        shape = [int(s) for s in c.shape]
        flat = c.reshape(-1).tolist() if shape else [c.item()]
        return shape, [float(v) for v in flat], _dtypes.name_of(c.dtype)
    shape, flat = [], []

    def walk(x, depth):
        if isinstance(x, (list, tuple)):
            if len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                raise ValueError("shared_constant: nested lists must be rectangular")
            for y in x:
                walk(y, depth + 1)
        else:
            flat.append(x)

    walk(c, 0)
    kind = "float32" if any(isinstance(v, float) for v in flat) else (
        "bool_" if flat and all(isinstance(v, bool) for v in flat) else "int32")
    return shape, [float(v) for v in flat], kind


def _ints(shape):
    if isinstance(shape, int):
        return [shape]
    return [int(s) for s in shape]


# --- nki.tensor methods -------------------------------------------------------------------


def tensor_reshape(t, shape):
    """``t.reshape(shape)``: the same data (row-major) with another shape."""
    return _ops.call("reshape", [("x", t)], attrs={"shape": _ints(shape)})


def tensor_view(t, dtype):
    """``t.view(dtype)``: the same bytes read as ``dtype``."""
    return _ops.call("view", [("x", t)], dtype=dtype)


def tensor_astype(t, dtype):
    """``t.astype(dtype)``: a converted copy."""
    return _ops.call("astype", [("x", t)], dtype=dtype)


def tensor_broadcast_to(t, shape):
    """``t.broadcast_to(shape)``: see ``nl.broadcast_to``."""
    return _ops.call("broadcast_to", [("src", t)], attrs={"shape": _ints(shape)})


def tensor_expand_dims(t, axis):
    """``t.expand_dims(axis)``: see ``nl.expand_dims``."""
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    return _ops.call("expand_dims", [("data", t)], attrs={"axis": axes})


def tensor_assert_shape(t, shape):
    """``t.assert_shape(shape)``: checks the shape and returns ``t``."""
    _ops.call("assert_shape", [("x", t)], attrs={"shape": _ints(shape)})
    return t


def check_annotation(value, annotation):
    """``x: nt.tensor[128, 512] = ...``: NKI checks a tensor's shape against its annotation."""
    if isinstance(value, NkiTensor) and isinstance(annotation, TensorType):
        _ops.call("assert_shape", [("x", value)],
                  attrs={"shape": _ints(annotation.shape), "annotation": True})
    return value
