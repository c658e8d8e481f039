"""nki.language's experimental wrappers (NKI 0.3.0+) written over ``nki.isa``, as NKI's
stdlib writes them, with their documented limits: ``load``/``store`` are DMA copies (``store``
not from PSUM), ``matmul`` only with ``transpose_x=True`` (its PSUM result takes x's dtype),
reductions over trailing free axes, ``where`` with a float 1.0 / 0.0 condition."""
from nki_playground import loc as _loc

from .. import _dtypes, isa
from ..isa._call import call
from .._rules import view_rule
from .._tensor import NkiTensor
from .. import _buffers
from . import _math
from ._creation import ndarray


def _isa():
    return isa


def _named(api):
    return _loc.bound_name(_loc.caller()) or api


def _need_tile(api, x, what="x"):
    if not isinstance(x, NkiTensor):
        view_rule(f"nl.{api}", f"{what} must be a tile, got {type(x).__name__}")


def load(src, dtype=None):
    """A new SBUF tile holding ``src`` (an HBM tensor): one DMA copy."""
    _need_tile("load", src, "src")
    if src._on_chip():
        view_rule("nl.load", f"src is an HBM tensor, got '{src.name}' in {src._st.buffer}")
    shape = src.shape if len(src.shape) >= 2 else (1,) + tuple(src.shape)
    dst = ndarray(shape, _dtypes.name_of(dtype) if dtype else src.dtype, _buffers.sbuf,
                  _named("load"))
    _isa().dma_copy(dst, src)
    return dst


def store(dst, value):
    """Writes the SBUF tile ``value`` into ``dst`` (an HBM tensor)."""
    _need_tile("store", dst, "dst")
    _need_tile("store", value, "value")
    if value._st.buffer == "psum":
        view_rule("nl.store", "value cannot be a PSUM tile (copy it to SBUF first: nl.copy)")
    _isa().dma_copy(dst, value)


def load_transpose2d(src, dtype=None):
    """src [A, B] in HBM as a new SBUF tile [B, A] (a DMA transpose)."""
    _need_tile("load_transpose2d", src, "src")
    if len(src.shape) != 2:
        view_rule("nl.load_transpose2d", f"src is 2-D, got shape {src.shape}")
    dst = ndarray((src.shape[1], src.shape[0]), _dtypes.name_of(dtype) if dtype else src.dtype,
                  _buffers.sbuf, _named("load_transpose2d"))
    _isa().dma_transpose(dst, src)
    return dst


def matmul(x, y, transpose_x=False):
    """x.T @ y on the Tensor engine into a new PSUM tile (x [K, M] stationary, y [K, N]
    moving). The wrapper supports ``transpose_x=True`` only."""
    _need_tile("matmul", x)
    _need_tile("matmul", y, "y")
    if not transpose_x:
        view_rule("nl.matmul", "only transpose_x=True is supported: pass x as [K, M] (the "
                  "contraction on the partition dimension), or transpose it with nl.transpose")
    dst = ndarray((x.shape[1], y.shape[1]), x.dtype, _buffers.psum, _named("matmul"))
    _isa().nc_matmul(dst, x, y)
    return dst


def transpose(x, dtype=None):
    """The 2-D transpose of x: a Vector-engine transpose into SBUF when both sides are at most
    32, else a Tensor-engine transpose into PSUM."""
    _need_tile("transpose", x)
    if len(x.shape) != 2:
        view_rule("nl.transpose", f"x is 2-D, got shape {x.shape}")
    small = x.shape[0] <= 32 and x.shape[1] <= 32
    isa = _isa()
    dst = ndarray((x.shape[1], x.shape[0]), _dtypes.name_of(dtype) if dtype else x.dtype,
                  _buffers.sbuf if small else _buffers.psum, _named("transpose"))
    isa.nc_transpose(dst, x, engine=isa.engine.vector if small else isa.engine.tensor)
    return dst


def _axes(api, x, axis):
    n = len(x.shape)
    axes = sorted({a + n if a < 0 else a for a in ([axis] if isinstance(axis, int) else axis)})
    if not axes:
        view_rule(f"nl.{api}", "axis is empty")
    if axes[0] <= 0 or axes[-1] >= n or axes != list(range(axes[0], n)):
        view_rule(f"nl.{api}", f"axis must be free dimensions ending at the last: [1], [1, 2], "
                  f"...; got {axis!r} for a tile of rank {n}")
    return axes


def _reduced_shape(x, axes, keepdims):
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)] if keepdims else \
        [s for i, s in enumerate(x.shape) if i not in axes]
    return tuple(shape) if len(shape) >= 2 else (x.shape[0], 1)


def _reduce(api, op, x, axis, dtype, keepdims):
    _need_tile(api, x)
    axes = _axes(api, x, axis)
    dst = ndarray(_reduced_shape(x, axes, keepdims),
                  _dtypes.name_of(dtype) if dtype else x.dtype, _buffers.sbuf, _named(api))
    _isa().tensor_reduce(dst, op, x, axes, keepdims=keepdims)
    return dst


def sum(x, axis, dtype=None, keepdims=False):  # noqa: A001 - NKI's names
    return _reduce("sum", _math.add, x, axis, dtype, keepdims)


def max(x, axis, dtype=None, keepdims=False):  # noqa: A001
    return _reduce("max", _math.maximum, x, axis, dtype, keepdims)


def min(x, axis, dtype=None, keepdims=False):  # noqa: A001
    return _reduce("min", _math.minimum, x, axis, dtype, keepdims)


def prod(x, axis, dtype=None, keepdims=False):
    return _reduce("prod", _math.multiply, x, axis, dtype, keepdims)


def all(x, axis, dtype=None):  # noqa: A001
    return _reduce("all", _math.logical_and, x, axis, dtype, False)


def _count(x, axes):
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def mean(x, axis, dtype=None, keepdims=False):
    """The mean over ``axis`` (float32 intermediates)."""
    s = _reduce("mean_sum", _math.add, x, axis, "float32", keepdims)
    out = ndarray(s.shape, _dtypes.name_of(dtype) if dtype else x.dtype, _buffers.sbuf,
                  _named("mean"))
    _isa().tensor_scalar(out, s, _math.multiply, 1.0 / _count(x, _axes("mean", x, axis)))
    return out


def var(x, axis, dtype=None, keepdims=False):
    """The population variance over ``axis`` (the result keeps the reduced dimensions)."""
    isa = _isa()
    axes = _axes("var", x, axis)
    m = mean(x, axis, "float32", keepdims=True)
    if len(x.shape) != 2:
        view_rule("nl.var", "var is implemented for 2-D tiles")
    d = ndarray(x.shape, "float32", _buffers.sbuf, "var_centered")
    isa.tensor_scalar(d, x, _math.subtract, m)
    isa.activation(d, _math.square, d)
    return mean(d, axes, dtype or x.dtype, keepdims=True)


def _columnwise(api, x, axis):
    if len(x.shape) != 2 or _axes(api, x, axis) != [1]:
        view_rule(f"nl.{api}", "implemented for 2-D tiles over axis 1 (the free dimension)")


def softmax(x, axis=-1, dtype=None):
    """exp(x - max) / sum(exp(x - max)) over the free dimension."""
    _need_tile("softmax", x)
    _columnwise("softmax", x, axis)
    isa = _isa()
    dt = _dtypes.name_of(dtype) if dtype else x.dtype
    neg_max = ndarray((x.shape[0], 1), "float32", _buffers.sbuf, "softmax_max")
    isa.tensor_reduce(neg_max, _math.maximum, x, [1], negate=True, keepdims=True)
    e = ndarray(x.shape, "float32", _buffers.sbuf, "softmax_exp")
    total = ndarray((x.shape[0], 1), "float32", _buffers.sbuf, "softmax_sum")
    isa.activation(e, _math.exp, x, bias=neg_max, reduce_op=_math.add, reduce_res=total,
                   reduce_cmd=isa.reduce_cmd.reset_reduce)
    out = ndarray(x.shape, dt, _buffers.sbuf, _named("softmax"))
    isa.tensor_scalar(out, e, _math.divide, total)
    return out


def rms_norm(x, w, axis, n, epsilon=1e-06, dtype=None, compute_dtype=None):
    """x / RMS(x) * w, RMS over ``axis`` with ``n`` values."""
    _need_tile("rms_norm", x)
    _columnwise("rms_norm", x, axis)
    isa = _isa()
    cdt = _dtypes.name_of(compute_dtype) if compute_dtype else "float32"
    sq = ndarray(x.shape, cdt, _buffers.sbuf, "rms_norm_square")
    ss = ndarray((x.shape[0], 1), "float32", _buffers.sbuf, "rms_norm_sum")
    isa.activation(sq, _math.square, x, reduce_op=_math.add, reduce_res=ss,
                   reduce_cmd=isa.reduce_cmd.reset_reduce)
    isa.tensor_scalar(ss, ss, _math.multiply, 1.0 / n, op1=_math.add, operand1=epsilon)
    isa.activation(ss, _math.rsqrt, ss)
    normed = ndarray(x.shape, cdt, _buffers.sbuf, "rms_norm_x")
    isa.tensor_scalar(normed, x, _math.multiply, ss)
    out = ndarray(x.shape, _dtypes.name_of(dtype) if dtype else x.dtype, _buffers.sbuf,
                  _named("rms_norm"))
    isa.tensor_tensor(out, normed, w, _math.multiply)
    return out


def where(condition, x, y, dtype=None):
    """x where ``condition`` (a float tile of 1.0 / 0.0) is 1, else y."""
    _need_tile("where", condition, "condition")
    isa = _isa()
    ref = x if isinstance(x, NkiTensor) else y if isinstance(y, NkiTensor) else condition
    dt = _dtypes.name_of(dtype) if dtype else ref.dtype
    pred = ndarray(condition.shape, "uint8", _buffers.sbuf, "where_pred")
    isa.tensor_copy(pred, condition)
    out = ndarray(condition.shape, dt, _buffers.sbuf, _named("where"))
    if isinstance(y, NkiTensor):
        isa.tensor_copy(out, y)
    else:
        isa.memset(out, y)
    isa.tensor_copy_predicated(out, x, pred)
    return out


def dropout(x, rate, dtype=None):
    _need_tile("dropout", x)
    out = ndarray(x.shape, _dtypes.name_of(dtype) if dtype else x.dtype, _buffers.sbuf,
                  _named("dropout"))
    _isa().dropout(out, x, rate)
    return out


def gather_flattened(data, indices, axis=0, dtype=None):
    _need_tile("gather_flattened", data, "data")
    out = ndarray(indices.shape, _dtypes.name_of(dtype) if dtype else data.dtype, _buffers.sbuf,
                  _named("gather_flattened"))
    call("gather_flattened", [("dst", out), ("data", data), ("indices", indices)], {})
    return out


def broadcast_to(x, shape, dtype=None):
    """A new tile of ``shape`` repeating x along its size-1 dimensions. Repeating partitions
    (a one-partition x) is a DMA copy from a stride-0 view; free dimensions a Vector copy."""
    _need_tile("broadcast_to", x)
    shape = tuple(shape)
    if len(shape) != len(x.shape) or any(a != b and a != 1 for a, b in zip(x.shape, shape)):
        view_rule("nl.broadcast_to", f"shape {shape} has x's rank and repeats only its size-1 "
                  f"dimensions ({x.shape})")
    strides = tuple(0 if a != b else s for a, b, s in zip(x.shape, shape, x.strides))
    v = x._new(shape, strides)
    out = ndarray(shape, _dtypes.name_of(dtype) if dtype else x.dtype, _buffers.sbuf,
                  _named("broadcast_to"))
    if shape[0] != x.shape[0]:
        _isa().dma_copy(out, v)
    else:
        _isa().tensor_copy(out, v)
    return out


def expand_dims(x, axis):
    """A view of x with a new size-1 dimension at ``axis`` (no instruction)."""
    return x.expand_dim(axis)
