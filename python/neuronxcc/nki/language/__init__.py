"""``neuronxcc.nki.language`` (nl): the NKI language surface traced by nki-playground.

Every op fetches the active codegen context first (``nki_ctx()``), so calling one outside a
kernel raises NKI's outside-kernel error; dtypes, buffers and ``tile_size`` work anywhere.
"""

from .. import _dtypes
from nki_playground import loc as _loc
from nki_playground.door import facts
from .._dtypes import (bool_, uint8, int8, uint16, int16, uint32, int32, float8_e4m3,  # noqa: F401
                       float8_e5m2, bfloat16, float16, tfloat32, float32)
from .._index import IndexExpr, arange as _arange, mgrid, ds  # noqa: F401
from .._index import range_args as _range_args
from .._tensor import NkiTensor as tensor
from .. import _ops
from ..compiler.backends.neuron.nki_ctx import nki_ctx

# --- buffers -------------------------------------------------------------------------------


class _Buffer(str):
    """A memory placement for creation APIs (``buffer=nl.sbuf``)."""

    def __repr__(self):
        return f"nl.{self}"


shared_hbm = _Buffer("shared_hbm")
private_hbm = _Buffer("private_hbm")
hbm = _Buffer("private_hbm")
sbuf = _Buffer("sbuf")
psum = _Buffer("psum")


class _Limits(type):
    """The limits are the core's (core/ir/target.h), read on first use: this module imports
    before a core is attached."""

    def __getattr__(cls, name):
        limits = facts()["tile_size"]
        if name not in limits:
            raise AttributeError(f"type object 'tile_size' has no attribute {name!r}")
        return limits[name]

    def __dir__(cls):
        return sorted(set(super().__dir__()) | set(facts()["tile_size"]))


class tile_size(metaclass=_Limits):
    """Hardware tile limits (reference §1.2): ``pmax``, ``psum_fmax``, ``gemm_stationary_fmax``,
    ``gemm_moving_fmax``, ``bn_stats_fmax``, ``psum_min_align``, ``sbuf_min_align``,
    ``total_available_sbuf_size``."""


# --- creation --------------------------------------------------------------------------------


class par_dim(int):
    """Marks the partition dimension inside a shape: ``(n, nl.par_dim(128), 512)`` (the leading
    dimensions before it are block dimensions, deprecated in NKI but accepted)."""

    def __repr__(self):
        return f"par_dim({int(self)})"


def _shape(shape):
    """(dims, index of the partition dimension)."""
    if isinstance(shape, int):
        shape = (shape,)
    out, pdim = [], 0
    for i, s in enumerate(shape):
        if isinstance(s, IndexExpr) and not s.terms:
            s = s.c
        if isinstance(s, bool) or not isinstance(s, int):
            raise TypeError(f"tensor shapes must be compile-time integers, got {s!r}")
        if isinstance(s, par_dim):
            pdim = i
        out.append(int(s))
    return out, pdim


def _create(api, shape, dtype, buffer, name, init):
    ctx = nki_ctx()
    loc = _loc.caller()
    dims, pdim = _shape(shape)
    req = {"op": "ndarray", "api": api, "shape": dims, "dtype": _dtypes.name_of(dtype),
           "buffer": str(buffer) if buffer is not None else "sbuf", "par_dim": pdim,
           "name": name or _loc.bound_name(loc), "loc": loc}
    if init is not None:
        req["init"] = init
    t = tensor(ctx.builder.op(req))
    if hasattr(buffer, "_nki_allocation"):  # direct allocation: ncc.sbuf.mod_alloc(...) & co.
        from ._movement import record_allocation  # a family of this package, imported below
        record_allocation(t, buffer, dims, pdim, dtype)
    return t


def ndarray(shape, dtype, *, buffer=None, name="", **kwargs):
    """Creates an uninitialised tensor.

    Args:
      shape: the tensor's shape; dimension 0 is the partition dimension of SBUF/PSUM tiles.
      dtype: its element type.
      buffer: where it lives (``nl.sbuf`` by default, ``nl.shared_hbm`` for kernel outputs).
      name: an optional name for the IR.
    Returns:
      the new tensor.
    """
    return _create("ndarray", shape, dtype, buffer, name, None)


def zeros(shape, dtype, *, buffer=None, name="", **kwargs):
    """Creates a tensor filled with zeros (see ``ndarray``)."""
    return _create("zeros", shape, dtype, buffer, name, 0.0)


def ones(shape, dtype, *, buffer=None, name="", **kwargs):
    """Creates a tensor filled with ones (see ``ndarray``)."""
    return _create("ones", shape, dtype, buffer, name, 1.0)


def full(shape, fill_value, dtype, *, buffer=None, name="", **kwargs):
    """Creates a tensor filled with ``fill_value`` (see ``ndarray``)."""
    return _create("full", shape, dtype, buffer, name, float(fill_value))


# --- indexing --------------------------------------------------------------------------------


def arange(*args):
    """An index along one axis: ``nl.arange(n)[:, None]`` (partitions) or ``[None, :]`` (free).

    Works outside kernels too (it is pure index algebra until used).
    """
    return _arange(*args)


def program_id(axis):
    """The index of this SPMD instance along launch-grid axis ``axis`` (the core checks it)."""
    ok = isinstance(axis, int) and not isinstance(axis, bool)
    reply = nki_ctx().builder.send({"op": "program_id", "axis": axis if ok else str(axis),
                                    "loc": _loc.caller()})
    return IndexExpr.from_core(reply)


class nc:
    """``nl.nc(n)``: a launch-grid dimension distributed over ``n`` physical NeuronCores
    (``kernel[nl.nc(2), 2]``); ``nl.nc(2) * 2`` is a dimension of 4 instances over 2 cores."""

    def __init__(self, n):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"nl.nc takes a positive number of NeuronCores, got {n!r}")
        self.n = n

    def __mul__(self, k):
        return spmd_dim(self, k)

    __rmul__ = __mul__

    def __repr__(self):
        return f"nl.nc({self.n})"


class spmd_dim:
    """``nl.spmd_dim(k, nl.nc(n))`` (or ``nl.spmd_dim(nl.nc(n), k)``, ``k * nl.nc(n)``): a
    launch-grid dimension of ``k * n`` instances, ``k`` on each of ``n`` NeuronCores (NKI's
    doc test: ``spmd_dim(2, nc(2))`` shards a grid dimension of 4 over two cores)."""

    def __init__(self, size, cores):
        per_core, shards = (cores, size) if isinstance(size, nc) else (size, cores)
        if not isinstance(shards, nc):
            raise TypeError("nl.spmd_dim(size, nl.nc(n)): one argument is nl.nc(n)")
        if isinstance(per_core, bool) or not isinstance(per_core, int) or per_core < 1:
            raise ValueError(f"spmd_dim size must be a positive integer, got {per_core!r}")
        self.args = (size, cores)
        self.size, self.cores = per_core * shards.n, shards

    def __repr__(self):
        return f"nl.spmd_dim({self.args[0]!r}, {self.args[1]!r})"


def _grid_dim(g):
    """(size, cores) of one launch-grid dimension."""
    if isinstance(g, nc):
        return g.n, g.n
    if isinstance(g, spmd_dim):
        return g.size, g.cores.n
    if isinstance(g, bool) or not isinstance(g, int) or g < 1:
        raise ValueError(f"SPMD grid dimensions must be positive integers, got {g!r}")
    return g, 1


def static_cast(input_data, dtype):
    """Casts a host scalar or array to ``dtype`` (a NumPy dtype, its name or an ``nl`` dtype),
    as NKI's host-side helper does: ``np.asarray(input_data).astype(dtype)``; a scalar stays a
    scalar."""
    import numpy as np
    target = np.dtype(_dtypes.name_of(dtype))
    if np.ndim(input_data) == 0 and not hasattr(input_data, "astype"):
        return target.type(input_data)
    return np.asarray(input_data).astype(target)


def num_programs(axes=None):
    """The number of SPMD instances along ``axes`` (all axes when None)."""
    grid = nki_ctx().opts.grid or (1,)
    if axes is None:
        axes = range(len(grid))
    elif isinstance(axes, int):
        axes = (axes,)
    n = 1
    for a in axes:
        n *= grid[a]
    return n


def program_ndim():
    """The rank of the SPMD launch grid (0 for a plain call)."""
    return len(nki_ctx().opts.grid)


# --- loops -----------------------------------------------------------------------------------


class _Range:
    """A traced loop: iterating it opens a LoopScope (with its AllocationScope), yields one
    symbolic induction variable, and closes the scopes after the body (traced once)."""

    __slots__ = ("start", "stop", "step", "sequential", "loc", "name")

    def __init__(self, args, sequential):
        start, stop, step = _range_args(args, "", "loop")
        self.start, self.stop, self.step, self.sequential = start, stop, step, sequential
        self.loc = _loc.caller()
        self.name = _loc.bound_name(self.loc)

    def __iter__(self):
        ctx = nki_ctx()
        loop, alloc, iv = ctx.affine_range(self.start, self.stop, self.step, self.sequential,
                                           self.name, self.loc)
        if loop < 0 and self.stop == self.start:
            return  # zero trips: the body is never traced
        try:
            yield IndexExpr.from_core(iv)
        except GeneratorExit:  # `break` / `return` out of the body
            ctx.close_loop(loop, alloc)
            raise
        except BaseException:
            ctx.failed = True
            raise
        ctx.close_loop(loop, alloc)

    def __len__(self):
        return len(range(self.start, self.stop, self.step))


def affine_range(*args, **kwargs):
    """A parallel loop (no loop-carried dependency except associative accumulation).

    The body is traced once with a symbolic loop variable.
    """
    return _Range(args, sequential=False)


def sequential_range(*args, **kwargs):
    """A loop whose iterations run in order (loop-carried dependencies allowed)."""
    return _Range(args, sequential=True)


def static_range(*args):
    """A loop unrolled at trace time: the variable is a plain int."""
    return range(*args)


# --- memory ops ------------------------------------------------------------------------------


def load(src, *, mask=None, dtype=None, **kwargs):
    """Loads a tile from HBM into a new SBUF tile.

    Args:
      src: an HBM tensor, usually indexed (``a[i_p, i_f]``).
      mask: a predicate of the tile's indices; masked-off elements are not transferred.
      dtype: convert to this type while loading.
    Returns:
      the new SBUF tile.
    """
    return _ops.call("load", [("src", src)], dtype=dtype, mask=mask)


def store(dst, value, *, mask=None, **kwargs):
    """Stores a tile into an HBM tensor (usually indexed: ``out[i_p, i_f]``)."""
    _ops.call("store", [("dst", dst), ("value", value)], mask=mask)


# --- arithmetic ------------------------------------------------------------------------------


def add(x, y, *, dtype=None, mask=None, **kwargs):
    """Element-wise ``x + y`` of tiles (or a tile and a scalar), on the Vector engine."""
    return _ops.call("add", [("x", x), ("y", y)], dtype=dtype, mask=mask)


def subtract(x, y, *, dtype=None, mask=None, **kwargs):
    """Element-wise ``x - y``."""
    return _ops.call("subtract", [("x", x), ("y", y)], dtype=dtype, mask=mask)


def multiply(x, y, *, dtype=None, mask=None, **kwargs):
    """Element-wise ``x * y``."""
    return _ops.call("multiply", [("x", x), ("y", y)], dtype=dtype, mask=mask)


def divide(x, y, *, dtype=None, mask=None, **kwargs):
    """Element-wise ``x / y``."""
    return _ops.call("divide", [("x", x), ("y", y)], dtype=dtype, mask=mask)


# --- the rest of the surface, by family ------------------------------------------------------
from ._math import *  # noqa: E402,F401,F403
from ._movement import *  # noqa: E402,F401,F403
from ._debug import device_print  # noqa: E402,F401
from .. import _tensor as _tensor_module  # noqa: E402
from . import _math as _math_family, _movement as _movement_family  # noqa: E402

_tensor_module.install_language(_math_family, _movement_family)

# Unknown keywords are TypeErrors; the current language's names are told apart (_api.py).
from .. import _api  # noqa: E402

_api.guard(globals(), "language")
__getattr__ = _api.module_getattr("language")
