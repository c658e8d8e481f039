"""``neuronxcc.nki.compiler`` (ncc): compiler directives and direct allocation.

Direct-allocation buffers (``buffer=ncc.sbuf.mod_alloc(base_addr=0)``) are the memory name to
the creation APIs and are recorded as attributes of the allocating instruction
(docs/ops/movement.md). Kernel decorators are accepted and change nothing in the trace;
``no_reorder()`` and ``allocation_scope()`` open their IR regions.
"""
import itertools

from .. import _dtypes
from nki_playground import loc as _loc
from .backends.neuron.nki_ctx import nki_ctx

__all__ = ["sbuf", "psum", "skip_middle_end_transformations", "enable_stack_allocator",
           "force_auto_alloc", "multi_buffer", "no_reorder", "allocation_scope"]


class _Allocation(str):
    """A buffer placed by the programmer: the memory name plus how its tiles are placed."""

    def __new__(cls, memory, fields=None, func=None):
        self = super().__new__(cls, memory)
        self._fields = fields or {}
        self._func = func
        return self

    def __repr__(self):
        kind = self._fields.get("alloc_kind", "alloc")
        return f"ncc.{str(self)}.{kind}(...)"

    def _nki_allocation(self, dims, pdim, dtype):
        """The attributes recorded on the allocating instruction (flat, JSON-able)."""
        if self._func is None:
            return dict(self._fields)
        # alloc(func): the programmer's placement of every logical block (block index,
        # partitions, bytes per partition) -> (start_partition, byte_addr) for SBUF or
        # (bank, start_partition, byte_addr) for PSUM.
        blocks, pdim_size = dims[:pdim], dims[pdim]
        fdim_size = _dtypes.itemsize(dtype)
        for d in dims[pdim + 1:]:
            fdim_size *= d
        tiles = []
        for idx in itertools.product(*(range(b) for b in blocks)):
            tiles.extend(int(v) for v in self._func(tuple(idx), pdim_size, fdim_size))
        return {"alloc_kind": "alloc", "tiles": tiles}


class _Memory(str):
    """``ncc.sbuf`` / ``ncc.psum``: the automatically allocated buffer, and its allocators."""

    def __repr__(self):
        return f"ncc.{str(self)}"

    def auto_alloc(self):
        """The buffer allocated by the compiler (same as ``nl.sbuf`` / ``nl.psum``)."""
        return _Memory(str(self))

    def alloc(self, func):
        """Places each logical block where ``func(block_index, pdim_size, fdim_size)`` says."""
        if not callable(func):
            raise TypeError(f"ncc.{str(self)}.alloc expects a callable, got {func!r}")
        return _Allocation(str(self), func=func)


class _Sbuf(_Memory):
    def mod_alloc(self, *, base_addr, base_partition=0, num_par_tiles=(), num_free_tiles=()):
        """Modulo allocation of an SBUF tensor's blocks from ``base_addr`` (bytes)."""
        return _Allocation("sbuf", {"alloc_kind": "mod_alloc", "base_addr": int(base_addr),
                                    "base_partition": int(base_partition),
                                    "num_par_tiles": [int(n) for n in num_par_tiles],
                                    "num_free_tiles": [int(n) for n in num_free_tiles]})


class _Psum(_Memory):
    def mod_alloc(self, *, base_bank, base_addr=0, base_partition=0, num_bank_tiles=(),
                  num_par_tiles=(), num_free_tiles=()):
        """Modulo allocation of a PSUM tensor's blocks over banks from ``base_bank``."""
        return _Allocation("psum", {"alloc_kind": "mod_alloc", "base_bank": int(base_bank),
                                    "base_addr": int(base_addr),
                                    "base_partition": int(base_partition),
                                    "num_bank_tiles": [int(n) for n in num_bank_tiles],
                                    "num_par_tiles": [int(n) for n in num_par_tiles],
                                    "num_free_tiles": [int(n) for n in num_free_tiles]})


sbuf = _Sbuf("sbuf")
psum = _Psum("psum")


def _decorator(func, **_options):
    if func is None:
        return lambda f: f
    return func


def skip_middle_end_transformations(func=None):
    """Kernel decorator: the compiler skips its middle-end passes (no effect on the trace)."""
    return _decorator(func)


def enable_stack_allocator(func=None, log_level=50):
    """Kernel decorator: SBUF/PSUM tensors are stack-allocated (no effect on the trace)."""
    return _decorator(func)


def force_auto_alloc(func=None):
    """Kernel decorator: direct allocations are ignored by the compiler (no effect on the
    trace)."""
    return _decorator(func)


class multi_buffer:
    """Loop directive ``directives=ncc.multi_buffer(n)``: the allocator may rotate the loop's
    tensors through ``n`` buffers. Accepted by the loop iterators (not recorded in the IR)."""

    def __init__(self, factor=2):
        if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
            raise ValueError(f"multi_buffer factor must be a positive integer, got {factor!r}")
        self.factor = factor

    def __repr__(self):
        return f"ncc.multi_buffer({self.factor})"


def no_reorder():
    """``with ncc.no_reorder():`` keeps the enclosed instructions in program order (a
    ScopeRegion tagged no_reorder)."""
    loc = _loc.caller()
    return nki_ctx().no_reorder(loc=loc)


def allocation_scope():
    """``with ncc.allocation_scope():`` bounds the lifetime of the tensors created inside."""
    loc = _loc.caller()
    return nki_ctx().allocation_scope(loc=loc)
