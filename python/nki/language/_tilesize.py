"""``nl.tile_size``: hardware tile size constants, per target for the SBUF sizes. The values are
the core's (core/ir/target.h, read through ``door.facts()`` on first use: this module imports
before a core is attached); the names are NKI 0.6.0's."""
from nki_playground import door

from .. import _kernel


def _limit(name):
    return property(lambda self: door.facts()["tile_size"][name])


class _TileSize:
    """Hardware tile size constants (pmax, psum_bank_fmax, gemm_stationary_fmax, etc.)."""

    pmax = _limit("pmax")
    psum_fmax = _limit("psum_fmax")  # deprecated 0.4.0: use psum_bank_fmax
    psum_bank_fmax = _limit("psum_fmax")
    gemm_stationary_fmax = _limit("gemm_stationary_fmax")
    gemm_moving_fmax = _limit("gemm_moving_fmax")
    bn_stats_fmax = _limit("bn_stats_fmax")
    psum_min_align = _limit("psum_min_align")
    sbuf_min_align = _limit("sbuf_min_align")

    @property
    def psum_bank_fmax_bytes(self):
        return door.facts()["psum"]["bank_bytes"]

    @property
    def psum_num_banks(self):
        return door.facts()["psum"]["banks"]

    @property
    def sbuf_fmax_bytes(self):
        return _kernel.target_facts()["sbuf_partition_bytes"]

    @property
    def sbuf_fmax(self):
        return self.sbuf_fmax_bytes // 4

    @property
    def sbuf_size_bytes(self):
        return self.sbuf_fmax_bytes * self.pmax

    @property
    def total_available_sbuf_size(self):  # deprecated 0.4.0: it is per partition
        return self.sbuf_fmax_bytes


tile_size = _TileSize()
