"""A diagonal selective scan (the recurrence at the heart of Mamba), for each channel c:

    h_s[t] = exp(delta[t] * A[c, s]) * h_s[t-1] + delta[t] * u[t] * B[s, t]
    y[t]   = sum_s C[s, t] * h_s[t]

Channels sit on partitions and time runs along the free axis in chunks. The state each chunk
ends with seeds the next, so the chunk loop is sequential; the few states are unrolled.
"""
import numpy as np

import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

CHUNK = 512


@nki.jit
def selective_scan(delta, u, a, b, c):
    channels, seq = delta.shape
    states = a.shape[1]
    y = nl.ndarray((channels, seq), dtype=delta.dtype, buffer=nl.shared_hbm)

    i_p = nl.arange(channels)[:, None]
    i_t = nl.arange(CHUNK)[None, :]
    one = nl.arange(1)[None, :]

    a_all = nl.load(a)
    carry = nl.zeros((channels, states), dtype=nl.float32, buffer=nl.sbuf)
    for t in nl.sequential_range(seq // CHUNK):
        cols = t * CHUNK + i_t
        d_t = nl.load(delta[i_p, cols])
        du = d_t * nl.load(u[i_p, cols])
        y_acc = nl.zeros((channels, CHUNK), dtype=nl.float32, buffer=nl.sbuf)
        for s in nl.static_range(states):
            b_t = nl.load(b[s, cols]).broadcast_to((channels, CHUNK))
            c_t = nl.load(c[s, cols]).broadcast_to((channels, CHUNK))
            decay = nisa.activation(op=nl.exp, data=d_t, scale=a_all[i_p, s + one])
            h = nisa.tensor_tensor_scan(decay, du * b_t, initial=carry[i_p, s + one],
                                        op0=np.multiply, op1=np.add)
            carry[i_p, s + one] = h[i_p, CHUNK - 1 + one]
            y_acc += h * c_t
        nl.store(y[i_p, cols], value=y_acc)
    return y


if __name__ == "__main__":
    ch, seq, st = 128, 1024, 4
    ir = nki.trace_kernel(selective_scan, nt.tensor[[ch, seq], nl.float32],
                          nt.tensor[[ch, seq], nl.float32], nt.tensor[[ch, st], nl.float32],
                          nt.tensor[[st, seq], nl.float32], nt.tensor[[st, seq], nl.float32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")
