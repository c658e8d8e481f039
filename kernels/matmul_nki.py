"""Tiled matrix multiply C = A @ B in the current NKI language (import nki, NKI 0.6.0).

The port of matmul_tiled.py: A is given transposed (A_T is [K, M]). Each 128 x 512 output tile
is a PSUM tensor that nisa.nc_matmul writes K / 128 times with accumulate=None: the first write
to a PSUM location overwrites it, later ones add to it (no nl.zeros first, unlike Beta 1's
`acc += nl.matmul(...)`). nisa.tensor_copy evicts it to SBUF with a cast to C's dtype.
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

TILE_M = 128
TILE_K = 128
TILE_N = 512


@nki.jit
def matmul_nki(a_t, b):
    k_total, m_total = a_t.shape
    _, n_total = b.shape
    c = nl.ndarray((m_total, n_total), dtype=a_t.dtype, buffer=nl.shared_hbm)

    for m in range(m_total // TILE_M):
        for n in range(n_total // TILE_N):
            acc = nl.ndarray((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)
            for k in range(k_total // TILE_K):
                lhs_t = nl.ndarray((TILE_K, TILE_M), dtype=a_t.dtype, buffer=nl.sbuf)
                rhs = nl.ndarray((TILE_K, TILE_N), dtype=b.dtype, buffer=nl.sbuf)
                nisa.dma_copy(dst=lhs_t, src=a_t[nl.ds(k * TILE_K, TILE_K), nl.ds(m * TILE_M, TILE_M)])
                nisa.dma_copy(dst=rhs, src=b[nl.ds(k * TILE_K, TILE_K), nl.ds(n * TILE_N, TILE_N)])
                nisa.nc_matmul(dst=acc, stationary=lhs_t, moving=rhs)
            result = nl.ndarray((TILE_M, TILE_N), dtype=c.dtype, buffer=nl.sbuf)
            nisa.tensor_copy(dst=result, src=acc)
            nisa.dma_copy(dst=c[nl.ds(m * TILE_M, TILE_M), nl.ds(n * TILE_N, TILE_N)], src=result)
    return c


if __name__ == "__main__":
    np.random.seed(0)
    a_t = np.random.standard_normal((256, 128)).astype(np.float32)
    b = np.random.standard_normal((256, 512)).astype(np.float32)
    c = nki.simulate(matmul_nki)(a_t, b)
    print("simulated matmul_nki matches NumPy:", np.allclose(c, a_t.T @ b, atol=1e-3))
