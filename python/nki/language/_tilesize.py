"""``nl.tile_size``: hardware tile size constants (per target for the SBUF sizes)."""
from .. import _kernel

_SBUF_PER_PARTITION = {"trn1": 192 * 1024, "trn2": 224 * 1024, "trn3": 256 * 1024}


class _TileSize:
    """Hardware tile size constants (pmax, psum_bank_fmax, gemm_stationary_fmax, etc.)."""

    pmax = 128
    psum_fmax = 512  # deprecated 0.4.0: use psum_bank_fmax
    psum_bank_fmax = 512
    psum_bank_fmax_bytes = 2048
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512
    bn_stats_fmax = 512
    psum_min_align = 4
    sbuf_min_align = 1

    @property
    def psum_num_banks(self):
        return 8

    @property
    def sbuf_fmax_bytes(self):
        return _SBUF_PER_PARTITION[_kernel.target()]

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
