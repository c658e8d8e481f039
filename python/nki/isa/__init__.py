"""``nki.isa`` (NKI 0.6.0): every instruction with ``dst`` first, the enums, registers.

Each function emits one instruction through the core (core/isa/): no result (the output dtype
is dst's), ``name=`` for scheduling, enum parameters as enum members.
"""
from .._registers import (VirtualRegister, register_alloc, register_load,  # noqa: F401
                          register_move, register_store)
from .. import _trace
from .._kernel import target_facts
from ._enums import (dge_mode, dma_engine, engine, gpsimd_engine, matmul_perf_mode,  # noqa: F401
                     nc_version, oob_mode, reduce_cmd, scalar_engine, tensor_engine,
                     unknown_engine, vector_engine)
from ._ops import *  # noqa: F401,F403
from . import constants  # noqa: F401,E402


class NkiValidationError(Exception):
    """Raised when hardware constraints are violated."""


class NkiInstruction:
    """An opaque handle to a traced instruction; ``depends_on`` adds scheduling edges
    (nki-playground's simulator runs in program order, so edges change no value)."""

    def __init__(self, handle):
        self._handle = handle

    def depends_on(self, *producers):
        return self


def get_nc_version():
    """The nc_version of the target (NEURON_PLATFORM_TARGET_OVERRIDE, default trn3)."""
    return nc_version(target_facts()["nc_version"])


def get_nc_sub_version():
    """The silicon revision within the nc_version (0: the first)."""
    return 0


del _trace
