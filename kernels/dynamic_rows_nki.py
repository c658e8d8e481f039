"""A run-time loop in the current NKI language (import nki, NKI 0.6.0): nl.fori_loop.

Scales the first n rows of x by 2, 128 rows at a time, where n is data (a (1, 1) int32 tensor)
known only when the kernel runs: n is loaded into a register, nl.fori_loop traces its body once
into a dynamic LoopScope over it (step 128), and the induction register moves the access
pattern (.ap with scalar_offset, counted in rows of x). The rows past n are copied unchanged.
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

BLOCK = 128


@nki.jit
def dynamic_rows_nki(x, n):
    blocks = x.shape[0] // BLOCK
    cols = x.shape[1]
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    tile = nl.ndarray((BLOCK, cols), dtype=x.dtype, buffer=nl.sbuf)
    for b in range(blocks):
        nisa.dma_copy(dst=tile, src=x[nl.ds(b * BLOCK, BLOCK), :])
        nisa.dma_copy(dst=out[nl.ds(b * BLOCK, BLOCK), :], src=tile)

    n_tile = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=n_tile, src=n)
    n_rows = nisa.register_alloc()
    nisa.register_load(n_rows, n_tile)
    block = [[cols, BLOCK], [1, cols]]

    def scale_rows(i):
        nisa.dma_copy(dst=tile, src=x.ap(block, scalar_offset=i, indirect_dim=0))
        nisa.tensor_scalar(dst=tile, data=tile, op0=nl.multiply, operand0=2.0)
        nisa.dma_copy(dst=out.ap(block, scalar_offset=i, indirect_dim=0), src=tile)

    nl.fori_loop(0, n_rows, scale_rows, step=BLOCK)
    return out


if __name__ == "__main__":
    np.random.seed(0)
    x = np.random.standard_normal((4 * BLOCK, 64)).astype(np.float32)
    y = nki.simulate(dynamic_rows_nki)(x, np.array([[3 * BLOCK]], dtype=np.int32))
    expected = x.copy()
    expected[:3 * BLOCK] *= 2
    print("simulated dynamic_rows_nki matches NumPy:", np.allclose(y, expected))
