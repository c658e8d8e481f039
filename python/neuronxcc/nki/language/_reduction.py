"""Reductions and normalisations of nki.language (re-exported by ``_math``).

``axis`` is an int or a list of free axes; a 2-D tile reduced over its free axis gives the
(P, 1) column NKI's tutorials broadcast back against the tile. The core lowers each call
(docs/ops/math.md); these wrappers only forward their arguments.
"""
from .. import _ops

__all__ = ["sum", "max", "min", "mean", "prod", "all", "var", "softmax", "rms_norm",
           "loop_reduce", "all_reduce"]


def _reduce(api, x, axis, dtype, mask, keepdims):
    return _ops.call(api, [("x", x)], attrs={"axis": axis, "keepdims": keepdims}, dtype=dtype,
                     mask=mask)


def sum(x, axis, *, dtype=None, mask=None, keepdims=False, **kwargs):  # noqa: A001
    """Sum of elements along ``axis`` (free axes only).

    Args:
      x: a tile.
      axis: int or list of ints, free dimensions of ``x``.
      dtype: the result's dtype (default: ``x``'s).
      mask: a compile-time predicate selecting the elements computed.
      keepdims: keep reduced axes as size-1 dimensions.
    Returns:
      the reduced tile (vector.tensor_reduce, op add).
    """
    return _reduce("sum", x, axis, dtype, mask, keepdims)


def max(x, axis, *, dtype=None, mask=None, keepdims=False, **kwargs):  # noqa: A001
    """Maximum along ``axis`` (vector.tensor_reduce, op maximum); see ``sum``."""
    return _reduce("max", x, axis, dtype, mask, keepdims)


def min(x, axis, *, dtype=None, mask=None, keepdims=False, **kwargs):  # noqa: A001
    """Minimum along ``axis`` (vector.tensor_reduce, op minimum); see ``sum``."""
    return _reduce("min", x, axis, dtype, mask, keepdims)


def prod(x, axis, *, dtype=None, mask=None, keepdims=False, **kwargs):
    """Product along ``axis`` (vector.tensor_reduce, op multiply); see ``sum``."""
    return _reduce("prod", x, axis, dtype, mask, keepdims)


def mean(x, axis, *, dtype=None, mask=None, keepdims=False, **kwargs):
    """Arithmetic mean along ``axis``: an fp32 sum scaled by 1/n (integer inputs give float32).
    See ``sum``."""
    return _reduce("mean", x, axis, dtype, mask, keepdims)


def all(x, axis, *, dtype=bool, mask=None, **kwargs):  # noqa: A001
    """Whether all elements along ``axis`` are true (vector.tensor_reduce, op logical_and).

    Args:
      x: a tile.
      axis: int or list of ints, free dimensions of ``x``.
      dtype: the result's dtype (default bool).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      a boolean tile with the reduced axes removed.
    """
    return _reduce("all", x, axis, dtype, mask, kwargs.get("keepdims", False))


def var(x, axis, *, dtype=None, mask=None, **kwargs):
    """Variance along ``axis`` (population variance: mean of squared deviations).

    Args:
      x: a tile.
      axis: int or list of ints, free dimensions of ``x``.
      dtype: the result's dtype (default: ``x``'s, float32 for integer input).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      the variance, with the reduced axes removed.
    """
    return _ops.call("var", [("x", x)], attrs={"axis": axis}, dtype=dtype, mask=mask)


def softmax(x, axis, *, dtype=None, compute_dtype=None, mask=None, **kwargs):
    """Softmax along ``axis``: ``exp(x - max) / sum(exp(x - max))``.

    Args:
      x: a tile.
      axis: int or list of ints, free dimensions of ``x``.
      dtype: compute and result dtype (default: ``x``'s).
      compute_dtype: same effect as ``dtype`` (as in NKI).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      a tile of ``x``'s shape.
    """
    return _ops.call("softmax", [("x", x)], attrs={"axis": axis, "compute_dtype": compute_dtype},
                     dtype=dtype, mask=mask)


def rms_norm(x, w, axis, n, epsilon=1e-06, *, dtype=None, compute_dtype=None, mask=None,
             **kwargs):
    """Root-mean-square normalisation: ``x / sqrt(sum(x**2, axis) / n + epsilon) * w``.

    Args:
      x: the input tile.
      w: the weight tile (same partitions as ``x``, broadcast along free dimensions).
      axis: the free axis (or axes) the RMS is taken over.
      n: the number of values the mean of squares divides by.
      epsilon: added to the mean of squares.
      dtype: compute and result dtype; compute_dtype: the same (as in NKI).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      a tile of ``x``'s shape.
    """
    return _ops.call("rms_norm", [("x", x), ("w", w)],
                     attrs={"axis": axis, "n": n, "epsilon": epsilon,
                            "compute_dtype": compute_dtype}, dtype=dtype, mask=mask)


def loop_reduce(x, op, loop_indices, *, dtype=None, mask=None, **kwargs):
    """Reduce ``x`` with ``op`` across the iterations of the loops in ``loop_indices``.

    Args:
      x: a tile.
      op: the ALU operator (``np.add``, ``nl.maximum``, ...).
      loop_indices: a loop variable or a list of them (or numbers, which name no loop).
      dtype: the result's dtype (default: ``x``'s).
      mask: a compile-time predicate selecting the elements computed.
    Returns:
      the accumulating tile (vector.loop_reduce).
    """
    if not isinstance(loop_indices, (list, tuple)):
        loop_indices = [loop_indices]
    return _ops.call("loop_reduce", [("x", x)], attrs={"op": op, "loop_indices": loop_indices},
                     dtype=dtype, mask=mask)


def all_reduce(x, op, program_axes, *, dtype=None, mask=None, parallel_reduce=True,
               asynchronous=False, **kwargs):
    """Reduce across SPMD programs (collective). Not supported in nki-playground yet."""
    return _ops.call("all_reduce", [("x", x)], attrs={"op": op}, dtype=dtype, mask=mask)
