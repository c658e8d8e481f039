"""Memory regions (``nl.sbuf``, ``nl.psum``, ``nl.hbm`` = private HBM, ``nl.shared_hbm``)."""
from enum import Enum

from . import _core


class MemoryRegion(Enum):
    """Memory region constants for NKI tensors."""
    sbuf = "sbuf"
    psum = "psum"
    private_hbm = "private_hbm"
    shared_hbm = "shared_hbm"


sbuf = MemoryRegion.sbuf
psum = MemoryRegion.psum
private_hbm = MemoryRegion.private_hbm
shared_hbm = MemoryRegion.shared_hbm
hbm = private_hbm  # "Alias of private_hbm"


def name(buffer):
    """The core's buffer name of ``buffer`` (a MemoryRegion, or its name)."""
    value = getattr(buffer, "value", buffer)
    if value == "hbm":
        return "private_hbm"
    if value not in ("sbuf", "psum", "private_hbm", "shared_hbm"):
        _core.raise_diagnostic("err_unknown_buffer", str(value))
    return value


def region(core_name):
    """The MemoryRegion of a tensor the core reports ("hbm" is a kernel argument)."""
    return {"sbuf": sbuf, "psum": psum, "private_hbm": private_hbm, "shared_hbm": shared_hbm,
            "hbm": private_hbm}.get(core_name, core_name)


def is_hbm(buffer):
    return name(buffer) in ("private_hbm", "shared_hbm")


def is_on_chip(buffer):
    return name(buffer) in ("sbuf", "psum")


def is_psum(buffer):
    return name(buffer) == "psum"


def is_sbuf(buffer):
    return name(buffer) == "sbuf"
