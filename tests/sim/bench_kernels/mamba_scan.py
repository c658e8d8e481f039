"""A Mamba-style selective scan for the simulator's benchmark: for each channel c and state s,

    h_s[t] = exp(delta[c, t] * A[c, s]) * h_s[t-1] + delta[c, t] * u[c, t] * B[s, t]
    y[c, t] = sum_s C[s, t] * h_s[t]

Channels sit on partitions, time runs along the free axis in chunks of 512, and both the chunk
loop and the state loop are sequential: each chunk's scan starts from the state the previous
chunk ended with (kept per state in `carry`).
"""
import numpy as np

import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

CHUNK = 512


@nki.jit
def mamba_scan(delta, u, a, b, c):
    channels, seq = delta.shape
    states = a.shape[1]
    y = nl.ndarray((channels, seq), dtype=delta.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(channels)[:, None]
    i_t = nl.arange(CHUNK)[None, :]
    row = nl.arange(1)[:, None]
    col = nl.arange(1)[None, :]

    a_all = nl.load(a)
    carry = nl.zeros((channels, states), dtype=nl.float32, buffer=nl.sbuf)
    for t in nl.sequential_range(seq // CHUNK):
        cols = t * CHUNK + i_t
        d_t = nl.load(delta[i_p, cols])
        du = nl.multiply(d_t, nl.load(u[i_p, cols]))
        y_acc = nl.zeros((channels, CHUNK), dtype=nl.float32, buffer=nl.sbuf)
        for s in nl.sequential_range(states):
            b_t = nl.load(b[s + row, cols]).broadcast_to((channels, CHUNK))
            c_t = nl.load(c[s + row, cols]).broadcast_to((channels, CHUNK))
            decay = nisa.activation(op=nl.exp, data=d_t, scale=a_all[i_p, s + col])
            h = nisa.tensor_tensor_scan(decay, nl.multiply(du, b_t), initial=carry[i_p, s + col],
                                        op0=np.multiply, op1=np.add)
            carry[i_p, s + col] = h[i_p, CHUNK - 1 + col]
            y_acc += nl.multiply(h, c_t)
        nl.store(y[i_p, cols], value=y_acc)
    return y


if __name__ == "__main__":
    ch, seq, st = 128, 1024, 4
    ir = nki.trace_kernel(mamba_scan, nt.tensor[[ch, seq], nl.float32],
                          nt.tensor[[ch, seq], nl.float32], nt.tensor[[ch, st], nl.float32],
                          nt.tensor[[st, seq], nl.float32], nt.tensor[[st, seq], nl.float32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")
    np.random.seed(0)
    delta = np.random.uniform(0.0, 0.1, (ch, seq)).astype(np.float32)
    u = np.random.standard_normal((ch, seq)).astype(np.float32)
    a = np.random.uniform(-1.0, -0.1, (ch, st)).astype(np.float32)
    b = np.random.standard_normal((st, seq)).astype(np.float32)
    c = np.random.standard_normal((st, seq)).astype(np.float32)
    y = nki.simulate_kernel(mamba_scan, delta, u, a, b, c)
    h = np.zeros((ch, st), np.float32)
    expected = np.empty((ch, seq), np.float32)
    for t in range(seq):
        h = np.exp(delta[:, t:t + 1] * a) * h + (delta[:, t] * u[:, t])[:, None] * b[:, t]
        expected[:, t] = h @ c[:, t]
    print("simulated mamba_scan matches NumPy:", np.allclose(y, expected, atol=1e-4),
          float(np.abs(y - expected).max()))
