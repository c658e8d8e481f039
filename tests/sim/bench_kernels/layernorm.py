"""Layer normalisation of wide rows for the simulator's benchmark: y = (x - mean) / sqrt(var +
eps) * gamma + beta over the last axis.

Each tile of 128 rows is summarised by bn_stats over 512-element chunks and bn_aggr; the
epilogue then runs over 2048-wide column blocks, so that its tiles fit in SBUF next to the row
tile and the partition-broadcast gamma and beta.
"""
import numpy as np

import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

WIDTH = 2048  # epilogue block width


@nki.jit
def layernorm(x, gamma, beta, eps=1e-5):
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    pmax = nl.tile_size.pmax
    chunk = nl.tile_size.bn_stats_fmax
    n_chunks = cols // chunk

    i_p = nl.arange(pmax)[:, None]
    i_f = nl.arange(cols)[None, :]
    i_c = nl.arange(chunk)[None, :]
    i_s = nl.arange(6)[None, :]
    i_w = nl.arange(WIDTH)[None, :]
    one = nl.arange(1)[:, None]

    g = nl.load(gamma.reshape((1, cols))[one, i_f]).broadcast_to((pmax, cols))
    b = nl.load(beta.reshape((1, cols))[one, i_f]).broadcast_to((pmax, cols))

    for t in nl.affine_range(rows // pmax):
        xt = nl.load(x[t * pmax + i_p, i_f])
        stats = nl.ndarray((pmax, 6 * n_chunks), dtype=nl.float32, buffer=nl.sbuf)
        for c in nl.affine_range(n_chunks):
            stats[i_p, c * 6 + i_s] = nisa.bn_stats(xt[i_p, c * chunk + i_c])
        mean_var = nisa.bn_aggr(stats)
        inv_std = nl.rsqrt(nl.add(mean_var[i_p, 1], eps))
        for w in nl.affine_range(cols // WIDTH):
            block = w * WIDTH + i_w
            normed = nisa.tensor_scalar(xt[i_p, block], op0=np.subtract, operand0=mean_var[i_p, 0],
                                        op1=np.multiply, operand1=inv_std)
            y = nl.add(nl.multiply(normed, g[i_p, block]), b[i_p, block])
            nl.store(out[t * pmax + i_p, block], value=y)
    return out


if __name__ == "__main__":
    rows, cols = 256, 4096
    ir = nki.trace_kernel(layernorm, nt.tensor[[rows, cols], nl.float32],
                          nt.tensor[[cols], nl.float32], nt.tensor[[cols], nl.float32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")
    np.random.seed(0)
    x = np.random.standard_normal((rows, cols)).astype(np.float32)
    gamma = np.random.uniform(0.5, 1.5, (cols,)).astype(np.float32)
    beta = np.random.standard_normal((cols,)).astype(np.float32)
    y = nki.simulate_kernel(layernorm, x, gamma, beta)
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-5) * gamma + beta
    print("simulated layernorm matches NumPy:", np.allclose(y, expected, atol=1e-4),
          float(np.abs(y - expected).max()))
