"""Causal flash-attention forward, one head, for the simulator's benchmark.

q and k arrive as [d, seq] (d on partitions: the contraction axis of Q K^T), v as [seq, d]; the
result is [seq, d]. Each tile of 128 queries walks the blocks of 512 keys that start at or
before its last query (an `if` on the loop variables skips the rest) and keeps, in SBUF, the
running row maximum m, the running sum l and the unnormalised output acc:

    s = q_i^T k_j, keys after their query masked to a large negative value
    m' = max(m, rowmax(s));  p = exp(scale * (s - m'));  alpha = exp(scale * (m - m'))
    l = l * alpha + rowsum(p);  acc = acc * alpha + p @ v_j;  m = m'
    out_i = acc / l
"""
import math

import numpy as np

import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

BQ = 128  # queries per tile: the partitions
BK = 512  # keys per block: one PSUM bank of fp32 scores
BV = 128  # keys per P @ V matmul (the contraction over partitions)


@nki.jit
def flash_fwd_causal(q, k, v):
    d, seq = q.shape
    out = nl.ndarray((seq, d), dtype=q.dtype, buffer=nl.shared_hbm)
    scale = 1.0 / math.sqrt(d)

    i_q = nl.arange(BQ)[:, None]
    i_k = nl.arange(BK)[None, :]
    i_dp = nl.arange(d)[:, None]
    i_df = nl.arange(d)[None, :]
    i_qf = nl.arange(BQ)[None, :]
    i_vp = nl.arange(BV)[:, None]
    i_vf = nl.arange(BV)[None, :]

    for i in nl.affine_range(seq // BQ):
        q_t = nl.load(q[i_dp, i * BQ + i_qf])  # [d, BQ]
        m = nl.full((BQ, 1), -1.0e30, dtype=nl.float32, buffer=nl.sbuf)
        l = nl.zeros((BQ, 1), dtype=nl.float32, buffer=nl.sbuf)
        acc = nl.zeros((BQ, d), dtype=nl.float32, buffer=nl.sbuf)
        row_sum = nl.ndarray((BQ, 1), dtype=nl.float32, buffer=nl.sbuf)
        for j in nl.sequential_range(seq // BK):
            if j * BK < (i + 1) * BQ:
                k_t = nl.load(k[i_dp, j * BK + i_k])  # [d, BK]
                s_psum = nisa.nc_matmul(q_t, k_t)  # [BQ, BK] fp32 in PSUM
                s = nisa.affine_select(i * BQ + i_q - j * BK - i_k >= 0, s_psum, -9984.0)
                block_max = nisa.tensor_reduce(np.max, s, axis=[1], keepdims=True)
                m_new = nl.maximum(m, block_max)
                bias = nl.multiply(m_new, -scale)
                p = nisa.activation_reduce(op=nl.exp, data=s, reduce_op=np.add,
                                           reduce_res=row_sum, bias=bias, scale=scale)
                alpha = nisa.activation(op=nl.exp, data=m, bias=bias, scale=scale)
                l[...] = nisa.scalar_tensor_tensor(data=l, op0=np.multiply, operand0=alpha,
                                                   op1=np.add, operand1=row_sum)
                m[...] = m_new
                pv = nl.zeros((BQ, d), dtype=nl.float32, buffer=nl.psum)
                for c in nl.affine_range(BK // BV):
                    p_t = nl.copy(nisa.nc_transpose(p[i_q, c * BV + i_vf]))  # [BV keys, BQ]
                    v_t = nl.load(v[j * BK + c * BV + i_vp, i_df])  # [BV keys, d]
                    pv += nisa.nc_matmul(p_t, v_t)
                acc[...] = nisa.scalar_tensor_tensor(data=acc, op0=np.multiply, operand0=alpha,
                                                     op1=np.add, operand1=pv)
        result = nl.divide(acc, l)
        nl.store(out[i * BQ + i_q, i_df], value=result)
    return out


def _reference(q, k, v):
    """Plain NumPy causal attention (the whole score matrix)."""
    d, seq = q.shape
    s = (q.T @ k) * np.float32(1.0 / math.sqrt(d))
    s[np.triu_indices(seq, 1)] = -np.inf
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


if __name__ == "__main__":
    d, seq = 128, 1024
    ir = nki.trace_kernel(flash_fwd_causal, nt.tensor[[d, seq], nl.float32],
                          nt.tensor[[d, seq], nl.float32], nt.tensor[[seq, d], nl.float32])
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")
    np.random.seed(0)
    q = np.random.standard_normal((d, seq)).astype(np.float32)
    k = np.random.standard_normal((d, seq)).astype(np.float32)
    v = np.random.standard_normal((seq, d)).astype(np.float32)
    got = nki.simulate_kernel(flash_fwd_causal, q, k, v)
    want = _reference(q, k, v)
    print("simulated flash_fwd_causal matches NumPy:", np.allclose(got, want, atol=1e-4),
          float(np.abs(got - want).max()))
