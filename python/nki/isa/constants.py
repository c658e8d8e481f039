"""``nki.isa.constants``: the module nki.isa's enums live in, as kernels import them
(``from nki.isa.constants import dge_mode, oob_mode``, nki-library). The same classes as
``nki.isa.dge_mode`` and the others."""
from ._enums import (dge_mode, dma_engine, engine, gpsimd_engine, matmul_perf_mode,  # noqa: F401
                     nc_version, oob_mode, reduce_cmd, scalar_engine, tensor_engine,
                     unknown_engine, vector_engine)
