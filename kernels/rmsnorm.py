"""RMS normalisation of each row, scaled by a weight vector: y = x / sqrt(mean(x^2) + eps) * g.

Rows go 128 to a tile; the last tile may be partial, so every access is masked.
"""
import math

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def rmsnorm(x, gamma, eps=1e-6):
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(nl.tile_size.pmax)[:, None]
    i_f = nl.arange(cols)[None, :]
    one_row = nl.arange(1)[:, None]

    g_row = nl.load(gamma.reshape((1, cols))[one_row, i_f])
    g_tile = g_row.broadcast_to((nl.tile_size.pmax, cols))

    for t in nl.affine_range(math.ceil(rows / nl.tile_size.pmax)):
        r = t * nl.tile_size.pmax + i_p
        valid = r < rows
        xt = nl.load(x[r, i_f], mask=valid)
        sq_sum = nl.sum(nl.square(xt, mask=valid), axis=[1], mask=valid)
        mean_sq = nl.add(nl.divide(sq_sum, cols, mask=valid), eps, mask=valid)
        inv_rms = nl.rsqrt(mean_sq, mask=valid)
        normed = nl.multiply(xt, inv_rms, mask=valid)
        y = nl.multiply(normed, g_tile, mask=valid)
        nl.store(out[r, i_f], value=y, mask=valid)
    return out


if __name__ == "__main__":
    ir = nki.trace_kernel(rmsnorm, nt.tensor[[250, 512], nl.float32], nt.tensor[[512], nl.float32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")

    # The same call simulated on seeded data, checked against NumPy.
    import numpy as np
    np.random.seed(0)
    x = np.random.standard_normal((250, 512)).astype(np.float32)
    gamma = np.random.uniform(0.5, 1.5, (512,)).astype(np.float32)
    y = nki.simulate_kernel(rmsnorm, x, gamma)
    expected = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * gamma
    print("simulated rmsnorm matches NumPy:", np.allclose(y, expected, atol=1e-5))
