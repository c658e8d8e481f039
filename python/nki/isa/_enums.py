"""nki.isa's enums (NKI 0.6.0). Enum parameters take these members, not their values."""
from enum import Enum, IntEnum


class engine(Enum):
    """Neuron Device engines."""
    tensor = 1
    vector = 5
    scalar = 2
    gpsimd = 3
    dma = 4
    sync = 6
    unknown = 0


class reduce_cmd(Enum):
    """Engine register reduce commands."""
    idle = 0
    reset = 1
    reduce = 2
    reset_reduce = 3
    load_reduce = 4


class dge_mode(Enum):
    """Descriptor Generation Engine mode."""
    unknown = 0
    swdge = 1
    hwdge = 2
    none = 3


class oob_mode(Enum):
    """Out-of-bounds access mode."""
    error = 0
    skip = 1


class matmul_perf_mode(Enum):
    """Performance mode for matmul."""
    none = "none"
    double_row = "double_row"


class nc_version(IntEnum):
    """NeuronCore version; ordered, and comparable with ints, as kernels test it
    (``nisa.get_nc_version() >= nisa.nc_version.gen3``, ``... >= 3``: nki-library)."""
    gen2 = 2
    gen3 = 3
    gen4 = 4


class dma_engine(Enum):
    """DMA transfer engine."""
    dma = 1
    gpsimd_dma = 2


tensor_engine = engine.tensor
vector_engine = engine.vector
scalar_engine = engine.scalar
gpsimd_engine = engine.gpsimd
unknown_engine = engine.unknown
