"""A run-time loop in NKI Beta 1: range(scalar(t)) over a trip count read from data.

Scales the first n rows of x by 2, 128 rows at a time, where n is data (a (1, 1) int32 tensor)
known only when the kernel runs. The kernel shifts n right by 7 on the Vector engine (n // 128
blocks) and loops over that many blocks in a dynamic LoopScope; the rows past n are copied
unchanged. kernels/dynamic_rows_nki.py is its port to the current language (nl.fori_loop).
"""
import numpy as np

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
from neuronxcc.nki.typing import scalar

BLOCK = 128


@nki.jit
def dynamic_rows(x, n):
    blocks = x.shape[0] // BLOCK
    cols = x.shape[1]
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(BLOCK)[:, None]
    i_f = nl.arange(cols)[None, :]
    for b in nl.affine_range(blocks):
        nl.store(out[b * BLOCK + i_p, i_f], value=nl.load(x[b * BLOCK + i_p, i_f]))

    n_tile = nl.load(n)
    n_blocks = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    n_blocks[...] = nl.right_shift(n_tile, 7)  # n // BLOCK
    for i in range(scalar(n_blocks)):
        tile = nl.load(x[i * BLOCK + i_p, i_f])
        nl.store(out[i * BLOCK + i_p, i_f], value=nl.multiply(tile, 2.0))
    return out


if __name__ == "__main__":
    ir = nki.trace_kernel(dynamic_rows, nt.tensor[[4 * BLOCK, 64], nl.float32],
                          nt.tensor[[1, 1], nl.int32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")

    # The same call simulated on seeded data, checked against NumPy.
    np.random.seed(0)
    x = np.random.standard_normal((4 * BLOCK, 64)).astype(np.float32)
    y = nki.simulate_kernel(dynamic_rows, x, np.array([[3 * BLOCK]], dtype=np.int32))
    expected = x.copy()
    expected[:3 * BLOCK] *= 2
    print("simulated dynamic_rows matches NumPy:", np.allclose(y, expected))
