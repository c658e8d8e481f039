"""nki.isa reductions, scans, statistics, selections and search instructions. Thin wrappers: the core checks and lowers them (docs/ops/math.md)."""
from .. import _ops
from ..language._math import fp32
from ._target import get_nc_version, reduce_cmd as _reduce_cmd

__all__ = ["tensor_reduce", "tensor_partition_reduce", "tensor_tensor_scan", "bn_stats",
           "bn_aggr", "affine_select", "range_select", "select_reduce", "tensor_copy_predicated",
           "max8", "nc_find_index8", "nc_match_replace8", "sequence_bounds", "nc_stream_shuffle",
           "local_gather", "builtin_custom_op"]


def _np_amax(a, axis=None, **kwargs):
    """Stands in for ``np.amax``, the default ``reduce_op`` of the selects (without importing
    NumPy here)."""
    raise TypeError("nisa's default reduce_op is an operator name, not a function to call")


_np_amax.__name__ = _np_amax.__qualname__ = "amax"


def _target():
    return int(get_nc_version())


def tensor_reduce(op, data, axis, *, mask=None, dtype=None, negate=False, keepdims=False,
                  **kwargs):
    """Reduce ``data`` with ``op`` along the free ``axis`` (Vector engine, fp32 arithmetic).

    Args:
      op: a reduction operator (np.add, np.max, nl.maximum, bitwise_or, ...).
      data: the input tile.
      axis: int or list of free axes.
      negate: multiply the result by -1 (arithmetic operators only).
      keepdims: keep reduced axes as size-1 dimensions.
    Returns:
      the reduced tile (a 2-D input gives a (P, 1) column).
    """
    return _ops.call("tensor_reduce", [("data", data)],
                     attrs={"op": op, "axis": axis, "negate": negate, "keepdims": keepdims},
                     dtype=dtype, mask=mask)


def tensor_partition_reduce(op, data, *, mask=None, dtype=None, **kwargs):
    """Reduce across partitions with add, max, bitwise_or or bitwise_and (GpSimd): (1, F)."""
    return _ops.call("tensor_partition_reduce", [("data", data)], attrs={"op": op},
                     dtype=dtype, mask=mask)


def tensor_tensor_scan(data0, data1, initial, op0, op1, reverse0=False, reverse1=False, *,
                       dtype=None, mask=None, **kwargs):
    """Scan along the free axis: ``r[:, i] = op1(op0(data0[:, i], r[:, i-1]), data1[:, i])``
    with ``r[:, -1] = initial`` (a scalar or a (P, 1) tile)."""
    return _ops.call("tensor_tensor_scan", [("data0", data0), ("data1", data1),
                                            ("initial", initial)],
                     attrs={"op0": op0, "op1": op1, "reverse0": reverse0, "reverse1": reverse1},
                     dtype=dtype, mask=mask)


def bn_stats(data, *, mask=None, dtype=None, **kwargs):
    """Per-partition (count, mean, variance*count) of the even and of the odd elements of up
    to 512 elements: a (P, 6) tile for ``bn_aggr``."""
    return _ops.call("bn_stats", [("data", data)], dtype=dtype, mask=mask)


def bn_aggr(data, *, mask=None, dtype=None, **kwargs):
    """Mean and variance per partition, (P, 2), from concatenated ``bn_stats`` outputs."""
    return _ops.call("bn_aggr", [("data", data)], dtype=dtype, mask=mask)


def affine_select(pred, on_true_tile, on_false_value, *, mask=None, dtype=None, **kwargs):
    """``on_true_tile`` where the affine predicate ``pred`` (one comparison of ``nl.arange`` /
    loop-variable expressions) holds, ``on_false_value`` elsewhere (GpSimd)."""
    return _ops.call("affine_select", [("on_true_tile", on_true_tile),
                                       ("on_false_value", on_false_value)],
                     attrs={"pred": pred}, dtype=dtype, mask=mask)


def range_select(*, on_true_tile, comp_op0, comp_op1, bound0, bound1,
                 reduce_cmd=_reduce_cmd.idle, reduce_res=None, reduce_op=_np_amax, range_start=0,
                 on_false_value=fp32.min, mask=None, dtype=None, **kwargs):
    """Keep elements whose free index + ``range_start`` satisfies both bound comparisons;
    optionally max-reduce into ``reduce_res`` (Vector, NeuronCore-v3 and newer)."""
    return _ops.call("range_select", [("on_true_tile", on_true_tile), ("bound0", bound0),
                                      ("bound1", bound1), ("on_false_value", on_false_value),
                                      ("reduce_res", reduce_res)],
                     attrs={"comp_op0": comp_op0, "comp_op1": comp_op1, "reduce_cmd": reduce_cmd,
                            "reduce_op": reduce_op, "range_start": range_start,
                            "nc_version": _target()}, dtype=dtype, mask=mask)


def select_reduce(*, dst, predicate, on_true, on_false, reduce_res=None,
                  reduce_cmd=_reduce_cmd.idle, reduce_op=_np_amax, reverse_pred=False, mask=None,
                  dtype=None, **kwargs):
    """Write ``where(predicate, on_true, on_false)`` into ``dst``, optionally max-reducing into
    ``reduce_res`` (Vector). Returns None."""
    _ops.call("select_reduce", [("dst", dst), ("predicate", predicate), ("on_true", on_true),
                                ("on_false", on_false), ("reduce_res", reduce_res)],
              attrs={"reduce_cmd": reduce_cmd, "reduce_op": reduce_op,
                     "reverse_pred": reverse_pred, "nc_version": _target()},
              dtype=dtype, mask=mask)


def tensor_copy_predicated(*, src, dst, predicate, reverse_pred=False, mask=None, dtype=None,
                           **kwargs):
    """Copy ``src`` (a tile or a scalar) into ``dst`` where ``predicate`` is true (Vector).
    Returns None."""
    _ops.call("tensor_copy_predicated", [("dst", dst), ("src", src), ("predicate", predicate)],
              attrs={"reverse_pred": reverse_pred}, dtype=dtype, mask=mask)


def max8(*, src, mask=None, dtype=None, **kwargs):
    """The 8 largest values of each partition, descending: a (P, 8) tile."""
    return _ops.call("max8", [("src", src)], dtype=dtype, mask=mask)


def nc_find_index8(*, data, vals, mask=None, dtype=None, **kwargs):
    """Index of the first occurrence in ``data`` of each of the 8 ``vals`` per partition."""
    return _ops.call("nc_find_index8", [("data", data), ("vals", vals)], dtype=dtype, mask=mask)


def nc_match_replace8(*, data, vals, imm, dst_idx=None, mask=None, dtype=None, **kwargs):
    """``data`` with the first occurrence of each of the 8 ``vals`` replaced by ``imm``; their
    indices go to ``dst_idx`` when given."""
    return _ops.call("nc_match_replace8", [("data", data), ("vals", vals), ("imm", imm),
                                           ("dst_idx", dst_idx)], dtype=dtype, mask=mask)


def sequence_bounds(*, segment_ids, dtype=None):
    """[start, end] of the segment of each element of a (1, N) tile: a (1, 2, N) tile."""
    return _ops.call("sequence_bounds", [("segment_ids", segment_ids)], dtype=dtype)


def nc_stream_shuffle(src, dst, shuffle_mask, *, dtype=None, mask=None, **kwargs):
    """Cross-partition moves within 32-partition quadrants (Vector): in every quadrant,
    partition ``i`` of ``dst`` receives partition ``shuffle_mask[i]`` of ``src`` (255: left
    unmodified). In place (``dst`` is ``src``) is allowed. Returns None.

    Args:
      src, dst: tiles in SBUF or PSUM of one dtype and as many elements per partition.
      shuffle_mask: 32 integers.
    """
    _ops.call("nc_stream_shuffle", [("src", src), ("dst", dst)],
              attrs={"shuffle_mask": list(shuffle_mask)
                     if isinstance(shuffle_mask, (list, tuple)) else shuffle_mask},
              dtype=dtype, mask=mask)


def local_gather(src_buffer, index, num_elem_per_idx=1, num_valid_indices=None, *, mask=None):
    """Gather within 16-partition groups (GpSimd): each group of 16 partitions flattens its
    slice of ``index`` (uint16 element offsets, partition first) and every partition of the
    group reads ``num_elem_per_idx`` contiguous elements of its own row of ``src_buffer`` at
    each of the first ``num_valid_indices`` offsets.

    Returns:
      the gathered tile, src_buffer's dtype: (P, n // 16, 16, num_elem_per_idx) for n valid
      indices a multiple of 16, else (P, n, num_elem_per_idx).
    """
    return _ops.call("local_gather", [("src_buffer", src_buffer), ("index", index)],
                     attrs={"num_elem_per_idx": num_elem_per_idx,
                            "num_valid_indices": num_valid_indices}, mask=mask)


def builtin_custom_op(function_name, lib_file_name, ulib_to_ucode_version, ulib_to_isa_version,
                      srcs, dsts, **kwargs):
    """A call into a precompiled custom-op library. Not supported in nki-playground yet."""
    return _ops.call("builtin_custom_op", [])
