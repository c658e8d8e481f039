"""Every ``nki.isa`` instruction of NKI 0.6.0 with its exact signature and defaults (dst first,
no result, output dtype = dst's). The checks and the IR are the core's (core/isa/ops_*.cpp)."""
from .._rules import raise_isa_rule
from .._optokens import equal, maximum
from ._call import call, enum_arg
from ._enums import dge_mode, dma_engine, engine, matmul_perf_mode, oob_mode, reduce_cmd
# The enums again, for functions whose parameters shadow their names.
from ._enums import dge_mode as _dge, dma_engine as _de, oob_mode as _oob


def _engine(api, e):
    return enum_arg(api, "engine", e, engine) and e


def _rc(api, v):
    return enum_arg(api, "reduce_cmd", v, reduce_cmd)


# --- data movement ------------------------------------------------------------------------------

def dma_copy(dst, src, priority=None, oob_mode=oob_mode.error, dge_mode=dge_mode.unknown,
             engine=engine.unknown, name=None):
    if priority is not None and (isinstance(priority, bool) or priority not in (0, 1, 2, 3)):
        raise_isa_rule("dma_copy", f"priority is 0-3, got {priority!r}")
    return call("dma_copy", [("dst", dst), ("src", src)],
                {"priority": priority, "oob_mode": enum_arg("dma_copy", "oob_mode", oob_mode, _oob),
                 "dge_mode": enum_arg("dma_copy", "dge_mode", dge_mode, _dge),
                 "engine": _engine("dma_copy", engine)}, name)


def dma_transpose(dst, src, axes=None, priority=None, dge_mode=dge_mode.unknown,
                  oob_mode=oob_mode.error, name=None):
    return call("dma_transpose", [("dst", dst), ("src", src)],
                {"axes": list(axes) if axes is not None else None, "priority": priority,
                 "dge_mode": enum_arg("dma_transpose", "dge_mode", dge_mode, _dge),
                 "oob_mode": enum_arg("dma_transpose", "oob_mode", oob_mode, _oob)}, name)


def dma_compute(dst, srcs, reduce_op, scales=None, unique_indices=True, oob_mode=oob_mode.error,
                name=None):
    if not isinstance(srcs, (list, tuple)) or not srcs:
        raise_isa_rule("dma_compute", "srcs is a non-empty list of tensors")
    operands = [("dst", dst)] + [(f"src{i}", s) for i, s in enumerate(srcs)]
    return call("dma_compute", operands,
                {"reduce_op": reduce_op, "scales": list(scales) if scales is not None else None,
                 "unique_indices": bool(unique_indices), "count": len(srcs),
                 "oob_mode": enum_arg("dma_compute", "oob_mode", oob_mode, _oob)}, name)


def tensor_copy(dst, src, engine=engine.unknown, name=None):
    return call("tensor_copy", [("dst", dst), ("src", src)],
                {"engine": _engine("tensor_copy", engine)}, name)


def tensor_copy_predicated(dst, src, predicate, reverse_pred=False, name=None):
    return call("tensor_copy_predicated", [("dst", dst), ("src", src), ("predicate", predicate)],
                {"reverse_pred": bool(reverse_pred)}, name)


def memset(dst, value, engine=engine.unknown, name=None):
    return call("memset", [("dst", dst), ("value", value)],
                {"engine": _engine("memset", engine)}, name)


def _pattern(api, pattern):
    try:
        pairs = [[int(p[0]), int(p[1])] for p in pattern]
    except (TypeError, ValueError, IndexError):
        raise_isa_rule(api, f"pattern is a list of [step, num] pairs, got {pattern!r}")
    if not 0 < len(pairs) <= 4:
        raise_isa_rule(api, f"pattern has 1 to 4 [step, num] pairs, got {len(pairs)}")
    return [x for p in pairs for x in p]


def iota(dst, pattern, offset=0, channel_multiplier=0, name=None):
    return call("iota", [("dst", dst)],
                {"pattern": _pattern("iota", pattern), "offset": offset,
                 "channel_multiplier": channel_multiplier}, name)


def nc_transpose(dst, data, engine=engine.unknown, name=None):
    return call("nc_transpose", [("dst", dst), ("data", data)],
                {"engine": _engine("nc_transpose", engine)}, name)


# --- matmul ---------------------------------------------------------------------------------------

def nc_matmul(dst, stationary, moving, is_stationary_onezero=False, is_moving_onezero=False,
              is_transpose=False, accumulate=None, tile_position=(), tile_size=(),
              perf_mode=matmul_perf_mode.none, name=None):
    if accumulate is not None and not isinstance(accumulate, bool):
        raise_isa_rule("nc_matmul", f"accumulate is None, True or False, got {accumulate!r}")
    return call("nc_matmul", [("dst", dst), ("stationary", stationary), ("moving", moving)],
                {"is_stationary_onezero": bool(is_stationary_onezero),
                 "is_moving_onezero": bool(is_moving_onezero), "is_transpose": bool(is_transpose),
                 "accumulate": "auto" if accumulate is None else int(accumulate),
                 "tile_position": list(tile_position or ()), "tile_size": list(tile_size or ()),
                 "perf_mode": enum_arg("nc_matmul", "perf_mode", perf_mode, matmul_perf_mode)},
                name)


def nc_matmul_mx(dst, stationary, moving, stationary_scale, moving_scale, tile_position=None,
                 tile_size=None, accumulate=None, name=None):
    if accumulate is not None and not isinstance(accumulate, bool):
        raise_isa_rule("nc_matmul_mx", f"accumulate is None, True or False, got {accumulate!r}")
    return call("nc_matmul_mx", [("dst", dst), ("stationary", stationary), ("moving", moving),
                                 ("stationary_scale", stationary_scale),
                                 ("moving_scale", moving_scale)],
                {"accumulate": "auto" if accumulate is None else int(accumulate),
                 "tile_position": list(tile_position) if tile_position else None,
                 "tile_size": list(tile_size) if tile_size else None}, name)


def quantize_mx(dst, src, dst_scale, name=None):
    return call("quantize_mx", [("dst", dst), ("src", src), ("dst_scale", dst_scale)], {}, name)


# --- vector / scalar / gpsimd math ---------------------------------------------------------------

def tensor_tensor(dst, data1, data2, op, engine=engine.unknown, name=None):
    return call("tensor_tensor", [("dst", dst), ("data1", data1), ("data2", data2)],
                {"op": op, "engine": _engine("tensor_tensor", engine)}, name)


def tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None, operand1=None,
                  reverse1=False, engine=engine.unknown, name=None):
    return call("tensor_scalar", [("dst", dst), ("data", data), ("operand0", operand0),
                                  ("operand1", operand1)],
                {"op0": op0, "reverse0": bool(reverse0), "op1": op1, "reverse1": bool(reverse1),
                 "engine": _engine("tensor_scalar", engine)}, name)


def scalar_tensor_tensor(dst, data, op0, operand0, op1, operand1, reverse0=False, reverse1=False,
                         name=None):
    return call("scalar_tensor_tensor", [("dst", dst), ("data", data), ("operand0", operand0),
                                         ("operand1", operand1)],
                {"op0": op0, "op1": op1, "reverse0": bool(reverse0), "reverse1": bool(reverse1)},
                name)


def tensor_reduce(dst, op, data, axis, negate=False, keepdims=False, name=None):
    axes = [axis] if isinstance(axis, int) else list(axis)
    return call("tensor_reduce", [("dst", dst), ("data", data)],
                {"op": op, "axis": axes, "negate": bool(negate), "keepdims": bool(keepdims)}, name)


def tensor_partition_reduce(dst, op, data, name=None):
    return call("tensor_partition_reduce", [("dst", dst), ("data", data)], {"op": op}, name)


def tensor_scalar_reduce(dst, data, op0, operand0, reduce_op, reduce_res=None, reverse0=False,
                         reduce_cmd=reduce_cmd.reset_reduce, reduce_init=None,
                         reduce_res_negate=False, name=None):
    return call("tensor_scalar_reduce", [("dst", dst), ("data", data), ("operand0", operand0),
                                         ("reduce_res", reduce_res), ("reduce_init", reduce_init)],
                {"op0": op0, "reduce_op": reduce_op, "reverse0": bool(reverse0),
                 "reduce_cmd": _rc("tensor_scalar_reduce", reduce_cmd),
                 "reduce_res_negate": bool(reduce_res_negate)}, name)


def tensor_scalar_cumulative(dst, src, op0, op1, imm0, imm1=None,
                             reduce_cmd=reduce_cmd.reset_reduce, name=None):
    return call("tensor_scalar_cumulative", [("dst", dst), ("src", src), ("imm0", imm0),
                                             ("imm1", imm1)],
                {"op0": op0, "op1": op1, "reduce_cmd": _rc("tensor_scalar_cumulative", reduce_cmd)},
                name)


def tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0=False, reverse1=False,
                       name=None):
    return call("tensor_tensor_scan", [("dst", dst), ("data0", data0), ("data1", data1),
                                       ("initial", initial)],
                {"op0": op0, "op1": op1, "reverse0": bool(reverse0), "reverse1": bool(reverse1)},
                name)


def activation(dst, op, data, bias=None, scale=1.0, reduce_op=None, reduce_res=None,
               reduce_cmd=reduce_cmd.idle, name=None):
    return call("activation", [("dst", dst), ("data", data), ("bias", bias), ("scale", scale),
                               ("reduce_res", reduce_res)],
                {"op": op, "reduce_op": reduce_op, "reduce_cmd": _rc("activation", reduce_cmd)},
                name)


def activation_reduce(dst, op, data, reduce_op, reduce_res, bias=None, scale=1.0, name=None):
    return call("activation_reduce", [("dst", dst), ("data", data), ("bias", bias),
                                      ("scale", scale), ("reduce_res", reduce_res)],
                {"op": op, "reduce_op": reduce_op}, name)


def activate2(dst, op, data, imm0, imm1, op0, op1, relu_param=0.0, reverse0=False, reverse1=False,
              reduce_op=None, reduce_res=None, reduce_cmd=reduce_cmd.idle, name=None):
    return call("activate2", [("dst", dst), ("data", data), ("imm0", imm0), ("imm1", imm1),
                              ("relu_param", relu_param), ("reduce_res", reduce_res)],
                {"op": op, "op0": op0, "op1": op1, "reverse0": bool(reverse0),
                 "reverse1": bool(reverse1), "reduce_op": reduce_op,
                 "reduce_cmd": _rc("activate2", reduce_cmd)}, name)


def exponential(dst, src, max_value=0.0, reduce_res=None, reduce_cmd=reduce_cmd.idle,
                reduce_init=0.0, name=None):
    return call("exponential", [("dst", dst), ("src", src), ("max_value", max_value),
                                ("reduce_res", reduce_res), ("reduce_init", reduce_init)],
                {"reduce_cmd": _rc("exponential", reduce_cmd)}, name)


def reciprocal(dst, data, name=None):
    return call("reciprocal", [("dst", dst), ("data", data)], {}, name)


def bn_stats(dst, data, name=None):
    return call("bn_stats", [("dst", dst), ("data", data)], {}, name)


def bn_aggr(dst, data, name=None):
    return call("bn_aggr", [("dst", dst), ("data", data)], {}, name)


# --- selections and search ------------------------------------------------------------------------

def affine_select(dst, pattern, channel_multiplier, on_true_tile, on_false_value, cmp_op=equal,
                  offset=0, name=None):
    return call("affine_select", [("dst", dst), ("on_true_tile", on_true_tile),
                                  ("on_false_value", on_false_value)],
                {"pattern": _pattern("affine_select", pattern), "offset": offset,
                 "channel_multiplier": channel_multiplier,
                 "cmp_op": cmp_op}, name)


def range_select(dst, on_true_tile, comp_op0, comp_op1, bound0, bound1,
                 reduce_cmd=reduce_cmd.reset_reduce, reduce_res=None, reduce_op=maximum,
                 range_start=0, on_false_value=-3.4028235e+38, name=None):
    return call("range_select", [("dst", dst), ("on_true_tile", on_true_tile), ("bound0", bound0),
                                 ("bound1", bound1), ("on_false_value", on_false_value),
                                 ("reduce_res", reduce_res)],
                {"comp_op0": comp_op0, "comp_op1": comp_op1,
                 "reduce_cmd": _rc("range_select", reduce_cmd),
                 "reduce_op": reduce_op, "range_start": range_start}, name)


def select_reduce(dst, predicate, on_true, on_false, reduce_res=None, reduce_cmd=reduce_cmd.idle,
                  reduce_op=maximum, reverse_pred=False, name=None):
    return call("select_reduce", [("dst", dst), ("predicate", predicate), ("on_true", on_true),
                                  ("on_false", on_false), ("reduce_res", reduce_res)],
                {"reduce_cmd": _rc("select_reduce", reduce_cmd),
                 "reduce_op": reduce_op, "reverse_pred": bool(reverse_pred)}, name)


def sequence_bounds(dst, segment_ids, name=None):
    return call("sequence_bounds", [("dst", dst), ("segment_ids", segment_ids)], {}, name)


def max8(dst, src, name=None):
    return call("max8", [("dst", dst), ("src", src)], {}, name)


def nc_find_index8(dst, data, vals, name=None):
    return call("nc_find_index8", [("dst", dst), ("data", data), ("vals", vals)], {}, name)


def nc_match_replace8(dst, data, vals, imm, dst_idx=None, name=None):
    return call("nc_match_replace8", [("dst", dst), ("data", data), ("vals", vals), ("imm", imm),
                                      ("dst_idx", dst_idx)], {}, name)


def nonzero_with_count(dst, src, index_offset=0, padding_val=-1, name=None):
    return call("nonzero_with_count", [("dst", dst), ("src", src)],
                {"index_offset": index_offset, "padding_val": padding_val}, name)


def topk(val_dst, idx_dst, src, n, name=None):
    return call("topk", [("val_dst", val_dst), ("idx_dst", idx_dst), ("src", src)], {"n": n}, name)


def local_gather(dst, src_buffer, index, num_elem_per_idx=1, num_valid_indices=None, name=None):
    return call("local_gather", [("dst", dst), ("src_buffer", src_buffer), ("index", index)],
                {"num_elem_per_idx": num_elem_per_idx, "num_valid_indices": num_valid_indices}, name)


def nc_n_gather(dst, data, indices, name=None):
    return call("nc_n_gather", [("dst", dst), ("data", data), ("indices", indices)], {}, name)


def nc_stream_shuffle(dst, src, shuffle_mask, name=None):
    return call("nc_stream_shuffle", [("dst", dst), ("src", src)],
                {"shuffle_mask": list(shuffle_mask)}, name)


# --- random numbers -----------------------------------------------------------------------------

def dropout(dst, data, prob, name=None):
    return call("dropout", [("dst", dst), ("data", data), ("prob", prob)], {}, name)


def rng(dst, engine=engine.vector, name=None):
    return call("rng", [("dst", dst)], {"engine": _engine("rng", engine)}, name)


def rand2(dst, min, max, name=None):  # noqa: A002 - NKI's parameter names
    return call("rand2", [("dst", dst), ("min", min), ("max", max)], {}, name)


def set_rng_seed(src_seeds, name=None):
    return call("set_rng_seed", [("src_seeds", src_seeds)], {}, name)


def rand_set_state(src_seeds, engine=engine.gpsimd, name=None):
    return call("rand_set_state", [("src_seeds", src_seeds)],
                {"engine": _engine("rand_set_state", engine)}, name)


def rand_get_state(dst, engine=engine.gpsimd, name=None):
    return call("rand_get_state", [("dst", dst)], {"engine": _engine("rand_get_state", engine)},
                name)


# --- LNC2 ---------------------------------------------------------------------------------------

def core_barrier(data, cores, engine=engine.gpsimd, name=None):
    return call("core_barrier", [("data", data)], {"cores": list(cores),
                                                   "engine": _engine("core_barrier", engine)}, name)


def sendrecv(src, dst, send_to_rank, recv_from_rank, pipe_id, dma_engine=dma_engine.dma,
             name=None):
    return call("sendrecv", [("src", src), ("dst", dst)],
                {"send_to_rank": send_to_rank, "recv_from_rank": recv_from_rank,
                 "pipe_id": pipe_id, "dma_engine": enum_arg("sendrecv", "dma_engine", dma_engine,
                                                            _de)}, name)
