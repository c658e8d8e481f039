"""The target and the register commands, shared by the instruction families of ``nki.isa``."""
from enum import IntEnum

from nki_playground.door import facts

from ..compiler.backends.neuron.nki_ctx import nki_ctx_or_none


class reduce_cmd(IntEnum):
    """What an instruction does with its engine's accumulator registers."""

    idle = 0
    reset = 1
    reset_reduce = 3
    reduce = 2


class nc_version(IntEnum):
    """NeuronCore generation: gen2 is Trn1/Inf2, gen3 Trn2."""

    gen2 = 2
    gen3 = 3


def get_nc_version():
    """The ``nc_version`` of the current target: gen2 (trn1) unless the kernel's trace options
    name trn2 (``platform_target``)."""
    ctx = nki_ctx_or_none()
    target = getattr(getattr(ctx, "opts", None), "platform_target", None)
    if target is None:
        return nc_version.gen2
    # The targets' generations are the core's (core/ir/target.h); Beta 1 knows gen2 and gen3.
    version = next((t["nc_version"] for t in facts()["targets"] if target in t["names"]), 2)
    return nc_version.gen3 if version >= 3 else nc_version.gen2
