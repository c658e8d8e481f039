"""Tiled tensor addition in the current NKI language (import nki, NKI 0.6.0).

The port of tensor_add.py: launched on two logical cores (kernel[2]) instead of an SPMD grid,
each core owns a band of 128 rows; a Python loop (unrolled: one region per iteration) walks the
columns 512 at a time, copying both operands into SBUF tiles, adding them with
nisa.tensor_tensor (dst first) and copying the sum back to HBM.
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

COLS_PER_TILE = 512


@nki.jit
def tensor_add_nki(a_input, b_input):
    rows, cols = a_input.shape
    out = nl.ndarray((rows, cols), dtype=a_input.dtype, buffer=nl.shared_hbm)

    pmax = nl.tile_size.pmax
    band = nl.program_id(0)
    for j in range(cols // COLS_PER_TILE):
        a_tile = nl.ndarray((pmax, COLS_PER_TILE), dtype=a_input.dtype, buffer=nl.sbuf)
        b_tile = nl.ndarray((pmax, COLS_PER_TILE), dtype=b_input.dtype, buffer=nl.sbuf)
        band_rows = nl.ds(band * pmax, pmax)
        band_cols = nl.ds(j * COLS_PER_TILE, COLS_PER_TILE)
        nisa.dma_copy(dst=a_tile, src=a_input[band_rows, band_cols])
        nisa.dma_copy(dst=b_tile, src=b_input[band_rows, band_cols])
        nisa.tensor_tensor(dst=a_tile, data1=a_tile, data2=b_tile, op=nl.add)
        nisa.dma_copy(dst=out[band_rows, band_cols], src=a_tile)
    return out


if __name__ == "__main__":
    # A plain call with NumPy arrays runs the kernel (here: on the simulator), checked
    # against NumPy.
    np.random.seed(0)
    a = np.random.standard_normal((256, 1024)).astype(np.float32)
    b = np.random.standard_normal((256, 1024)).astype(np.float32)
    total = tensor_add_nki[2](a, b)
    print("simulated tensor_add_nki matches a + b:", np.allclose(total, a + b))
