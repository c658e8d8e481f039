// Kernels for tests/runtime/ir-schema.test.js that between them reach every region kind, every
// optional field of the IR's JSON form and every place a non-finite number can appear. Each is
// a script body run after SNIPPET_HEAD; it traces one kernel.

export const SNIPPET_HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt
import neuronxcc.nki.compiler as ncc
from neuronxcc.nki.typing import scalar
from neuronxcc.nki.compiler.backends.neuron.TraceContext import TraceContext
A = nt.tensor[[512, 512], nl.float32]
`;

export const SNIPPETS = {
  // IfScope / else (the else keeps the predicate it negates), a two-term predicate over loop ivs and a program id, `!=`, a grid
  if_else: `@nki.jit
def k(a):
    for i in nl.affine_range(4):
        for j in nl.affine_range(2):
            t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])
            if (i + j < 3) & (nl.program_id(0) > 0):
                u = nl.add(t, 1.0)
            elif i != 2:
                u = nl.add(t, 2.0)
            else:
                u = nl.add(t, 3.0)
    return None
nki.trace_kernel(k[2], A)
`,
  // WhileScope with a run-time condition whose rhs is +inf
  do_while: `@nki.jit
def k(a):
    t = nl.load(a[0:128, :])
    probe = nl.ndarray((1, 1), nl.float32, buffer=nl.sbuf)
    go = scalar(True)
    while go:
        t[...] = nl.multiply(t, 0.5)
        probe[...] = t[0:1, 0:1]
        go = scalar(probe) != float('inf')
    return None
nki.trace_kernel(k, A)
`,
  // a DynamicAxis loop (trip_count_from)
  dynamic: `@nki.jit
def k(a, counts):
    n = nl.load(counts[0:1, 0:1])
    for _ in range(scalar(n)):
        t = nl.load(a[0:128, :])
    return None
nki.trace_kernel(k, A, nt.tensor[[1, 1], nl.int32])
`,
  // masks; non-finite scalar operands, a non-finite and a fractional attribute
  mask_nonfinite: `@nki.jit
def k(a):
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    x = nl.load(a[i_p, i_f], mask=(i_p < 64))
    y = nl.add(x, float('inf'), mask=(i_p < 64) & (i_f >= 3))
    z = nisa.tensor_scalar(y, nl.maximum, -np.inf, op1=nl.minimum, operand1=float('nan'))
    w = nisa.activation(op=nl.exp, data=z, scale=float('-inf'))
    h = nl.full((128, 512), 0.25, dtype=nl.float32)
    m = nl.full((128, 512), float('nan'), dtype=nl.float32)
    return None
nki.trace_kernel(k, A)
`,
  // indirect gather and scatter
  indirect: `@nki.jit
def k(data, idx):
    out = nl.ndarray((64, 512), dtype=data.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(64)[:, None]
    i_f = nl.arange(512)[None, :]
    idx_tile = nl.load(idx[i_p])
    rows = nl.load(data[idx_tile[i_p, 0], i_f])
    nl.store(out[idx_tile, i_f], value=rows)
    return out
nki.trace_kernel(k, nt.tensor[[128, 512], nl.float32], nt.tensor[[64], nl.int32])
`,
  // stage regions (with and without execution_order), no_reorder, a FunctionScope, a mutable parameter,
  // integer and integer-list attributes
  stages: `def helper(t):
    return nl.add(t, 1.0)

@nki.jit
def k(a: nt.mutable_tensor):
    cg = TraceContext.global_ctx
    sb = nl.ndarray((2, nl.par_dim(128), 64), nl.float32,
                    buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    with cg.stage_scope(1, 2):
        t = nl.load(a[0:128, :])
        nl.store(a[0:128, :], value=t)
    with cg.pipeline_stage(3):
        u = helper(nl.load(a[0:128, :]))
        with ncc.no_reorder():
            nl.store(a[0:128, :], value=u)
    return a
nki.trace_kernel(k, nt.mutable_tensor[[512, 512], nl.float32])
`,
  // a constant with NaN and infinities, a reshape alias, partition_dim, loop_mod / loop_div, a sequential loop
  constants_aliases: `@nki.jit
def k(a):
    c = nl.shared_constant([[1.5, float('nan')], [float('inf'), -float('inf')]])
    r = a.reshape((256, 1024))
    t = nl.load(r[0:128, 0:512])
    bufs = nl.ndarray((2, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
    out = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.sequential_range(4):
        bufs[i % 2] = nl.load(a[i * 128:(i + 1) * 128, 0:512])
        bufs[i // 2] = nl.add(bufs[i % 2], 1.0)
        nl.store(out, value=bufs[(i + 2) % 2])
    return out
nki.trace_kernel(k, A)
`,
};
