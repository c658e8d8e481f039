"""nki.isa instructions of the Vector, Scalar and GpSimd engines, and the enums they take.

Each function forwards its arguments to the core in one request (``_ops.call``); legality, NKI's
messages and the IR live there (docs/ops/math.md). Operators (``op=``, ``op0=``, ...) may be
``nl.*`` functions, NumPy ufuncs or their names.
"""
from enum import IntEnum

from .. import _ops
from ..language._math import fp32  # noqa: F401  (nisa.fp32.min)
from ._target import get_nc_version, nc_version, reduce_cmd  # noqa: F401


class engine(IntEnum):
    """NeuronCore engines (``engine=`` of tensor_tensor, tensor_scalar, memset, ...)."""

    tensor = 1
    vector = 5
    scalar = 2
    gpsimd = 3
    sync = 6
    unknown = 0


class _DmaEngine:
    """``nisa.dma_engine``: the DMA queues (not a member of ``engine`` in NKI 2.26)."""

    name = "dma"
    value = 4

    def __repr__(self):
        return "nisa.dma_engine"


tensor_engine = engine.tensor
vector_engine = engine.vector
scalar_engine = engine.scalar
gpsimd_engine = engine.gpsimd
unknown_engine = engine.unknown
dma_engine = _DmaEngine()


def _target():
    return int(get_nc_version())


def activation(op, data, *, bias=None, scale=1.0, reduce_op=None, reduce_res=None,
               reduce_cmd=reduce_cmd.idle, mask=None, dtype=None, **kwargs):
    """``op(data * scale + bias)`` on the Scalar engine, computed in fp32.

    Args:
      op: an activation function (``nl.exp``, ``np.tanh``, ``nl.copy``, ...).
      data: the input tile (SBUF or PSUM).
      bias: a (P, 1) vector of float32/float16/bfloat16 added after scaling.
      scale: a compile-time scalar or a (P, 1) float32 vector.
      reduce_op: reduction of the activated values along the free axes (add on trn1).
      reduce_res: a (P, 1) tile that receives the accumulator registers.
      reduce_cmd: ``nisa.reduce_cmd``: what to do with the registers.
      mask: a compile-time predicate selecting the elements computed.
      dtype: the output dtype (default: data's).
    Returns:
      the activated tile.
    """
    return _ops.call("activation", [("data", data), ("bias", bias), ("scale", scale),
                                    ("reduce_res", reduce_res)],
                     attrs={"op": op, "reduce_op": reduce_op, "reduce_cmd": reduce_cmd,
                            "nc_version": _target()}, dtype=dtype, mask=mask)


def activation_reduce(op, data, *, reduce_op, reduce_res, bias=None, scale=1.0, mask=None,
                      dtype=None, **kwargs):
    """``activation`` that also reduces along the free axes into ``reduce_res`` (the same as
    ``activation(..., reduce_cmd=reduce_cmd.reset_reduce, reduce_res=...)``)."""
    return _ops.call("activation_reduce", [("data", data), ("bias", bias), ("scale", scale),
                                           ("reduce_res", reduce_res)],
                     attrs={"op": op, "reduce_op": reduce_op, "nc_version": _target()},
                     dtype=dtype, mask=mask)


def tensor_tensor(data1, data2, op, *, dtype=None, mask=None, engine=engine.unknown, **kwargs):
    """``data1 <op> data2`` element-wise (Vector; power and integer add/subtract/multiply on
    GpSimd). Both tiles have the same partitions and elements per partition; not both in PSUM.

    Returns:
      a tile of data1's shape; dtype default: the higher-precision input's.
    """
    return _ops.call("tensor_tensor", [("data1", data1), ("data2", data2)],
                     attrs={"op": op, "engine": engine}, dtype=dtype, mask=mask)


def tensor_scalar(data, op0, operand0, reverse0=False, op1=None, operand1=None, reverse1=False,
                  *, dtype=None, mask=None, engine=engine.unknown, **kwargs):
    """``(data <op0> operand0) <op1> operand1``, operands broadcast along the free axes.

    Args:
      data: the input tile.
      op0, op1: ALU operators (both arithmetic or both bitvec; op1 optional).
      operand0, operand1: compile-time scalars or (P, 1) vectors.
      reverse0, reverse1: put the operand on the left of its operator.
      dtype: the output dtype (default: data's).
      mask: a compile-time predicate selecting the elements computed.
      engine: vector, scalar, gpsimd (rsqrt only) or unknown.
    Returns:
      a tile of data's shape.
    """
    return _ops.call("tensor_scalar", [("data", data), ("operand0", operand0),
                                       ("operand1", operand1)],
                     attrs={"op0": op0, "reverse0": reverse0, "op1": op1, "reverse1": reverse1,
                            "engine": engine, "nc_version": _target()}, dtype=dtype, mask=mask)


def scalar_tensor_tensor(*, data, op0, operand0, op1, operand1, reverse0=False, reverse1=False,
                         dtype=None, mask=None, **kwargs):
    """``(data <op0> operand0) <op1> operand1`` where operand0 is a scalar or (P, 1) vector and
    operand1 a tile of data's shape (Vector engine)."""
    return _ops.call("scalar_tensor_tensor", [("data", data), ("operand0", operand0),
                                              ("operand1", operand1)],
                     attrs={"op0": op0, "op1": op1, "reverse0": reverse0, "reverse1": reverse1},
                     dtype=dtype, mask=mask)


def tensor_scalar_reduce(*, data, op0, operand0, reduce_op, reduce_res, reverse0=False,
                         dtype=None, mask=None, **kwargs):
    """``data <op0> operand0``, also reduced with ``reduce_op`` along the free axes into
    ``reduce_res`` (a (P, 1) tile)."""
    return _ops.call("tensor_scalar_reduce", [("data", data), ("operand0", operand0),
                                              ("reduce_res", reduce_res)],
                     attrs={"op0": op0, "reduce_op": reduce_op, "reverse0": reverse0},
                     dtype=dtype, mask=mask)


def reciprocal(data, *, dtype=None, mask=None, **kwargs):
    """``1 / data`` on the Vector engine (more precise than the Scalar engine's)."""
    return _ops.call("reciprocal", [("data", data)], dtype=dtype, mask=mask)


def iota(expr, dtype, *, mask=None, **kwargs):
    """A tile holding the values of an affine index expression of ``nl.arange`` (and loop
    variables), computed in int32 on GpSimd and cast to ``dtype``."""
    return _ops.call("iota", [], attrs={"expr": expr}, dtype=dtype, mask=mask)


def memset(shape, value, dtype, *, mask=None, engine=engine.unknown, **kwargs):
    """A new tile of ``shape`` (dimension 0 is the partition dimension) filled with ``value``."""
    return _ops.call("memset", [], attrs={"shape": [int(s) for s in shape],
                                          "value": float(value), "engine": engine},
                     dtype=dtype, mask=mask)


def dropout(data, prob, *, mask=None, dtype=None, **kwargs):
    """Zero each element of ``data`` with probability ``prob`` (a scalar or a (P, 1) tile)."""
    return _ops.call("dropout", [("data", data), ("prob", prob)], dtype=dtype, mask=mask)


__all__ = ["engine", "tensor_engine", "vector_engine", "scalar_engine", "gpsimd_engine",
           "dma_engine", "unknown_engine", "reduce_cmd", "nc_version", "get_nc_version", "fp32",
           "activation", "activation_reduce", "tensor_tensor", "tensor_scalar",
           "scalar_tensor_tensor", "tensor_scalar_reduce", "reciprocal", "iota", "memset",
           "dropout"]
