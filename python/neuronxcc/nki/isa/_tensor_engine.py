"""nki.isa matmul/transpose (Tensor engine), on-chip copies and DMA instructions.

Thin wrappers over the core (core/lang/ops_matmul.cpp, ops_movement.cpp); the opcodes they
emit are documented in docs/ops/movement.md.
"""
import enum

from .. import _ops
from ..language._movement import split_operand

__all__ = ["nc_matmul", "nc_transpose", "tensor_copy", "tensor_copy_dynamic_src",
           "tensor_copy_dynamic_dst", "dma_copy", "dma_transpose", "dge_mode", "oob_mode"]


class dge_mode(enum.Enum):
    """Descriptor generation of a DMA: none, software (swdge), hardware (hwdge, NeuronCore-v3+)
    or chosen by the compiler (unknown)."""

    none = "none"
    swdge = "swdge"
    hwdge = "hwdge"
    unknown = "unknown"


class oob_mode(enum.Enum):
    """What an indirect DMA does with an out-of-bounds index: raise (error) or skip it."""

    error = "error"
    skip = "skip"


def nc_matmul(stationary, moving, *, is_stationary_onezero=False, is_moving_onezero=False,
              is_transpose=False, tile_position=(), tile_size=(), mask=None, **kwargs):
    """``stationary.T @ moving`` on the Tensor engine: SBUF ``[K, M]`` and ``[K, N]`` (K, M ≤ 128,
    N ≤ 512) into a float32 PSUM tile ``[M, N]``. ``psum += nisa.nc_matmul(...)`` accumulates in
    place (a PSUM accumulation group).

    Args:
      stationary, moving: SBUF tiles; either may carry an operand mask (``t[i_f < 64]``).
      is_stationary_onezero, is_moving_onezero, is_transpose: performance hints.
      tile_position, tile_size: PE-array tiling, (row, column) pairs in multiples of 32.
      mask: predicate on the result tile.
      perf_mode: (keyword) e.g. ``"double_row_gen3"`` for [K, 2, F] fp8 operands.
    Returns:
      the PSUM result tile.
    """
    stationary, s_mask = split_operand(stationary)
    moving, m_mask = split_operand(moving)
    return _ops.call("nc_matmul", [("stationary", stationary), ("moving", moving)],
                     attrs={"is_stationary_onezero": bool(is_stationary_onezero),
                            "is_moving_onezero": bool(is_moving_onezero),
                            "is_transpose": bool(is_transpose),
                            "tile_position": list(tile_position), "tile_size": list(tile_size),
                            "perf_mode": kwargs.get("perf_mode"), "stationary_mask": s_mask,
                            "moving_mask": m_mask}, mask=mask)


def nc_transpose(data, *, mask=None, dtype=None, engine=0, **kwargs):
    """PF-transpose of a tile (free axes collapsed): Tensor engine (≤ 128 x 128, SBUF → PSUM) or
    Vector engine (≤ 32 x 32, → SBUF); ``engine`` picks one, by default chosen by shape.
    A ``dtype`` different from the input's adds a cast copy."""
    return _ops.call("nc_transpose", [("data", data)], attrs={"engine": engine}, dtype=dtype,
                     mask=mask)


def tensor_copy(src, *, mask=None, dtype=None, engine=0, **kwargs):
    """Copies an SBUF/PSUM tile on the Vector, Scalar or GpSimd engine (GpSimd: SBUF only).
    The result is in SBUF unless assigned into a PSUM tensor."""
    return _ops.call("tensor_copy", [("src", src)], attrs={"engine": engine}, dtype=dtype,
                     mask=mask)


def tensor_copy_dynamic_src(src, *, mask=None, dtype=None, engine=0, **kwargs):
    """Copies an SBUF/PSUM tile read at a dynamic free-dimension offset (an index tile in the
    subscript: ``src[ix, idx_tile[0, b]]``)."""
    return _ops.call("tensor_copy_dynamic_src", [("src", src)], attrs={"engine": engine},
                     dtype=dtype, mask=mask)


def tensor_copy_dynamic_dst(*, dst, src, mask=None, dtype=None, engine=0, **kwargs):
    """Copies ``src`` into ``dst`` written at a dynamic offset. Returns None."""
    _ops.call("tensor_copy_dynamic_dst", [("dst", dst), ("src", src)], attrs={"engine": engine},
              dtype=dtype, mask=mask)


def dma_copy(*, dst, src, mask=None, dst_rmw_op=None, oob_mode=oob_mode.error,
             dge_mode=dge_mode.unknown, **kwargs):
    """DMA ``src`` → ``dst`` (HBM or SBUF each), casting when dtypes differ;
    ``dst_rmw_op=np.add`` accumulates into ``dst``. Returns None."""
    _ops.call("dma_copy", [("dst", dst), ("src", src)], mask=mask,
              attrs={"dst_rmw_op": dst_rmw_op,
                     "oob_mode": None if oob_mode is _oob_default else oob_mode,
                     "dge_mode": None if dge_mode is _dge_default else dge_mode})


def dma_transpose(src, *, axes=None, mask=None, dtype=None, dge_mode=dge_mode.unknown,
                  **kwargs):
    """Transposes an HBM or SBUF tile with the DMA engine into a new SBUF tile: axes (1, 0),
    (2, 1, 0) or (3, 1, 2, 0) for 2-, 3- and 4-d inputs."""
    return _ops.call("dma_transpose", [("src", src)], dtype=dtype, mask=mask,
                     attrs={"axes": None if axes is None else list(axes),
                            "dge_mode": None if dge_mode is _dge_default else dge_mode})


_oob_default = oob_mode.error
_dge_default = dge_mode.unknown
