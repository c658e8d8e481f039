"""Tiled matrix multiply C = A @ B with A given transposed (A_T is [K, M]).

Output tiles of 128 x 512 accumulate in PSUM over the contraction dimension, 128 rows of K at a
time, then are evicted to SBUF (with a cast) and stored.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

TILE_M = 128
TILE_K = 128
TILE_N = 512


@nki.jit
def matmul_tiled(a_t, b):
    k_total, m_total = a_t.shape
    _, n_total = b.shape
    c = nl.ndarray((m_total, n_total), dtype=a_t.dtype, buffer=nl.shared_hbm)

    for m in nl.affine_range(m_total // TILE_M):
        for n in nl.affine_range(n_total // TILE_N):
            acc = nl.zeros((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)
            for k in nl.affine_range(k_total // TILE_K):
                lhs = nl.load(a_t[k * TILE_K:(k + 1) * TILE_K, m * TILE_M:(m + 1) * TILE_M])
                rhs = nl.load(b[k * TILE_K:(k + 1) * TILE_K, n * TILE_N:(n + 1) * TILE_N])
                acc += nl.matmul(lhs, rhs, transpose_x=True)
            result = nl.copy(acc, dtype=c.dtype)
            nl.store(c[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N], value=result)
    return c


if __name__ == "__main__":
    ir = nki.trace_kernel(matmul_tiled, nt.tensor[[256, 256], nl.bfloat16],
                          nt.tensor[[256, 1024], nl.bfloat16])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")

    # Simulated in float32 (host arrays have no bfloat16) on smaller seeded data, checked
    # against NumPy.
    import numpy as np
    np.random.seed(0)
    a_t = np.random.standard_normal((256, 128)).astype(np.float32)
    b = np.random.standard_normal((256, 512)).astype(np.float32)
    c = nki.simulate_kernel(matmul_tiled, a_t, b)
    print("simulated matmul_tiled (float32) matches NumPy:", np.allclose(c, a_t.T @ b, atol=1e-3))
