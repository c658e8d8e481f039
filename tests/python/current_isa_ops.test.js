// The current language's nisa instructions beyond the first ones (nc_stream_shuffle,
// local_gather, nc_n_gather, nonzero_with_count, topk, tensor_scalar_cumulative, dma_compute,
// activate2, rng / rand_set_state / rand_get_state, ...): each traced and simulated in real
// Pyodide on the real core and compared with what host NumPy computes from NKI 0.6.0's
// documented semantics (current_isa_oracle.py), plus their argument errors at the user's line.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

import { irLines, pythonHarness } from "./harness.js";

const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const ORACLE = JSON.parse(
  execFileSync(PYTHON, [fileURLToPath(new URL("./current_isa_oracle.py", import.meta.url))], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  }),
);

const h = pythonHarness("ops.py");

/** Runs a kernel script over a case's inputs (as `I.<name>` arrays); the script prints one
 * JSON object of outputs. Returns {r, got, ir}. */
function simulate(name, src) {
  const inputs = JSON.stringify(ORACLE.cases[name].inputs);
  const r = h.run(`import json
import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

class _In:
    def __init__(self, d):
        for k, (dt, v) in d.items():
            setattr(self, k, np.array(v, dtype=dt))

I = _In(json.loads(r'''${inputs}'''))
MASK = ${JSON.stringify(ORACLE.mask)}

def out(**arrays):
    print(json.dumps({k: np.asarray(v).astype(np.float64).tolist() for k, v in arrays.items()}))
${src}`);
  expect(r.exitCode, r.err).toBe(0);
  const last = r.traces.at(-1);
  return { r, got: JSON.parse(r.out.trim().split("\n").at(-1)), ir: last ? irLines(last.text) : [] };
}

function flat(x) {
  return Array.isArray(x) ? x.flatMap(flat) : [x];
}

/** Every element of `got` within atol + rtol * |want| of `want` (same shapes). */
function expectClose(got, want, { rtol = 1e-5, atol = 1e-5 } = {}) {
  const g = flat(got);
  const w = flat(want);
  expect(g.length).toBe(w.length);
  const bad = g.findIndex((v, i) => !(Math.abs(v - w[i]) <= atol + rtol * Math.abs(w[i])));
  expect(bad, bad < 0 ? "" : `element ${bad}: got ${g[bad]}, want ${w[bad]}`).toBe(-1);
}

/** The one error of a failed run, as "class: message @ line". */
function failure(src, head = "") {
  const r = h.run(`import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa
${head}
@nki.jit
def k(a):
    out = nl.ndarray((2, 2), dtype=nl.float32, buffer=nl.shared_hbm)
${src.replace(/^/gm, "    ")}
    return out

nki.simulate(k)(np.zeros((2, 2), np.float32))
`);
  expect(r.exitCode, r.err).toBe(1);
  const d = r.diagnostics.find((x) => x.severity === "error");
  return `${d.class}: ${d.message} @ ${d.line}`;
}

// The line of the last statement of `failure`'s src: the kernel starts at line 6 + head lines.
const line = (src, head = "") => 9 + (head ? head.split("\n").length : 1) - 1 + src.split("\n").length - 1;

describe("partition moves and gathers", () => {
  test("nc_stream_shuffle: each quadrant copies its mask's partitions, 255 keeps dst's", () => {
    const { got, ir } = simulate("stream_shuffle", `
@nki.jit
def k(src, old):
    res = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.shared_hbm)
    s = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.sbuf)
    d = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=src)
    nisa.dma_copy(dst=d, src=old)
    nisa.nc_stream_shuffle(d, s, MASK, name="shuf")
    nisa.dma_copy(dst=res, src=d)
    return res
out(out=nki.simulate(k)(I.src, I.old))
`);
    expectClose(got.out, ORACLE.cases.stream_shuffle.want.out, { atol: 0, rtol: 0 });
    expect(ir.find((l) => l.includes("nc_stream_shuffle"))).toMatch(/^vector\.nc_stream_shuffle %d, %s \{shuffle_mask = \[255,30,29,.*\], name = shuf\}$/);
  });

  test("local_gather: each 16-partition core gathers runs at its flattened indices", () => {
    const { got, ir } = simulate("local_gather", `
@nki.jit
def k(src, index):
    res = nl.ndarray((32, 80), dtype=src.dtype, buffer=nl.shared_hbm)
    s = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.sbuf)
    i = nl.ndarray(index.shape, dtype=nl.uint16, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=src)
    nisa.dma_copy(dst=i, src=index)
    g = nl.ndarray((32, 40, 2), dtype=src.dtype, buffer=nl.sbuf)
    nisa.local_gather(dst=g, src_buffer=s, index=i, num_elem_per_idx=2, num_valid_indices=40)
    nisa.dma_copy(dst=res, src=g)
    return res
out(out=nki.simulate(k)(I.src, I.index))
`);
    expectClose(got.out, ORACLE.cases.local_gather.want.out, { atol: 0, rtol: 0 });
    expect(ir).toContain("gpsimd.local_gather %g, %s, %i {num_elem_per_idx = 2, num_valid_indices = 40}");
  });

  test("nc_n_gather: per partition, the flattened free elements at its uint32 indices", () => {
    const { got, ir } = simulate("n_gather", `
@nki.jit
def k(data, indices):
    res = nl.ndarray(indices.shape, dtype=data.dtype, buffer=nl.shared_hbm)
    d = nl.ndarray(data.shape, dtype=data.dtype, buffer=nl.sbuf)
    i = nl.ndarray(indices.shape, dtype=nl.uint32, buffer=nl.sbuf)
    g = nl.ndarray(indices.shape, dtype=data.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=d, src=data)
    nisa.dma_copy(dst=i, src=indices)
    nisa.nc_n_gather(dst=g, data=d, indices=i)
    nisa.dma_copy(dst=res, src=g)
    return res
out(out=nki.simulate(k)(I.data, I.indices))
`);
    expectClose(got.out, ORACLE.cases.n_gather.want.out, { atol: 0, rtol: 0 });
    expect(ir).toContain("gpsimd.nc_n_gather %g, %d, %i");
  });

  test("nonzero_with_count: partitions 0, 16, ... get indices + offset, padding, count", () => {
    const { got, ir } = simulate("nonzero", `
@nki.jit
def k(src):
    res = nl.ndarray((32, 9), dtype=nl.int32, buffer=nl.shared_hbm)
    s = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.sbuf)
    d = nl.ndarray((32, 9), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=src)
    nisa.memset(dst=d, value=7)
    nisa.nonzero_with_count(dst=d, src=s, index_offset=16)
    nisa.dma_copy(dst=res, src=d)
    return res
out(out=nki.simulate(k)(I.src))
`);
    expect(got.out).toEqual(ORACLE.cases.nonzero.want.out);
    expect(ir).toContain("gpsimd.nonzero_with_count %d, %s {index_offset = 16, padding_val = -1}");
  });

  test("nonzero_with_count reads only partitions 0, 16, ...: the others may be unwritten", () => {
    const { r, got } = simulate("nonzero", `
@nki.jit
def k(src):
    res = nl.ndarray((1, 9), dtype=nl.int32, buffer=nl.shared_hbm)
    s = nl.ndarray((128, 8), dtype=src.dtype, buffer=nl.sbuf)
    d = nl.ndarray((128, 9), dtype=nl.int32, buffer=nl.sbuf)
    for p in range(0, 128, 16):
        nisa.dma_copy(dst=s[p, :], src=src[0:1, :])
    nisa.nonzero_with_count(dst=d, src=s, index_offset=16, padding_val=-1)
    nisa.dma_copy(dst=res[0, :], src=d[0, :])
    return res
out(out=nki.simulate(k)(I.src))
`);
    expect(r.err).toBe("");
    expect(got.out).toEqual([ORACLE.cases.nonzero.want.out[0]]);
  });

  test("topk: each 16-partition snake's K largest, ascending, as a snake with positions", () => {
    const { got, ir } = simulate("topk", `
@nki.jit
def k(src):
    vo = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    io = nl.ndarray((32, 8), dtype=nl.uint32, buffer=nl.shared_hbm)
    s = nl.ndarray(src.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    v = nl.ndarray((32, 8), dtype=nl.bfloat16, buffer=nl.sbuf)
    i = nl.ndarray((32, 8), dtype=nl.uint32, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=src)
    nisa.memset(dst=v, value=0.0)
    nisa.memset(dst=i, value=0)
    nisa.topk(val_dst=v, idx_dst=i, src=s, n=42)
    vf = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=vf, src=v)
    nisa.dma_copy(dst=vo, src=vf)
    nisa.dma_copy(dst=io, src=i)
    return vo, io
v, i = nki.simulate(k)(I.src)
out(val=v, idx=i)
`);
    expect(got.val).toEqual(ORACLE.cases.topk.want.val);
    expect(got.idx).toEqual(ORACLE.cases.topk.want.idx);
    expect(ir).toContain("gpsimd.topk %v, %i, %s {n = 42}");
  });
});

describe("math", () => {
  test("tensor_scalar_cumulative: reset_reduce, load_reduce from imm1, reduce continues", () => {
    const { got, ir } = simulate("cumulative", `
@nki.jit
def k(x, col, init):
    o1 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o2 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o3 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    s = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    c = nl.ndarray(col.shape, dtype=x.dtype, buffer=nl.sbuf)
    z = nl.ndarray(col.shape, dtype=x.dtype, buffer=nl.sbuf)
    d = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=x)
    nisa.dma_copy(dst=c, src=col)
    nisa.dma_copy(dst=z, src=init)
    nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.multiply, op1=nl.add, imm0=2.0)
    nisa.dma_copy(dst=o1, src=d)
    nisa.tensor_scalar_cumulative(d, s, nl.add, nl.maximum, c, z, reduce_cmd=nisa.reduce_cmd.load_reduce)
    nisa.dma_copy(dst=o2, src=d)
    nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.add, imm0=0.0)
    nisa.tensor_scalar_cumulative(dst=d, src=s, op0=nl.add, op1=nl.add, imm0=0.0, reduce_cmd=nisa.reduce_cmd.reduce)
    nisa.dma_copy(dst=o3, src=d)
    return o1, o2, o3
a, b, c = nki.simulate(k)(I.x, I.col, I.init)
out(cum=a, max=b, chain=c)
`);
    const want = ORACLE.cases.cumulative.want;
    expectClose(got.cum, want.cum, { rtol: 1e-5, atol: 1e-4 });
    expectClose(got.max, want.max, { rtol: 0, atol: 0 });
    expectClose(got.chain, want.chain, { rtol: 1e-5, atol: 1e-4 });
    expect(ir).toContain("vector.tensor_scalar_cumulative %d, %s, 2.0 {op0 = multiply, op1 = add, reduce_cmd = reset_reduce}");
    expect(ir).toContain("vector.tensor_scalar_cumulative %d, %s, %c, %z {op0 = add, op1 = maximum, reduce_cmd = load_reduce}");
  });

  test("activate2 (trn3): (data op0 imm0) op1 imm1, the function, prelu's slope, the reduction", () => {
    const { got, ir } = simulate("activate2", `
@nki.jit
def k(x, col):
    o1 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o2 = nl.ndarray(col.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o3 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o4 = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    s = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    c = nl.ndarray(col.shape, dtype=x.dtype, buffer=nl.sbuf)
    d = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    r = nl.ndarray(col.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=x)
    nisa.dma_copy(dst=c, src=col)
    nisa.activate2(dst=d, op=nl.exp, data=s, imm0=0.5, imm1=-1.0, op0=nl.multiply, op1=nl.add,
                   reduce_op=nl.add, reduce_res=r, reduce_cmd=nisa.reduce_cmd.reset_reduce)
    nisa.dma_copy(dst=o1, src=d)
    nisa.dma_copy(dst=o2, src=r)
    nisa.activate2(d, nl.relu, s, c, 0.0, nl.subtract, nl.bypass, reverse0=True)
    nisa.dma_copy(dst=o3, src=d)
    nisa.activate2(d, nl.prelu, s, 3.0, 0.5, nl.multiply, nl.subtract, relu_param=0.1)
    nisa.dma_copy(dst=o4, src=d)
    return o1, o2, o3, o4
a, b, c, d = nki.simulate(k)(I.x, I.col)
out(exp=a, sum=b, relu=c, prelu=d)
`);
    const want = ORACLE.cases.activate2.want;
    expectClose(got.exp, want.exp, { rtol: 1e-5, atol: 1e-6 });
    expectClose(got.sum, want.sum, { rtol: 1e-5, atol: 1e-5 });
    expectClose(got.relu, want.relu, { rtol: 0, atol: 0 });
    expectClose(got.prelu, want.prelu, { rtol: 1e-6, atol: 1e-6 });
    expect(ir).toContain("scalar.activate2 %d, %s, 0.5, -1.0, %r {op = exp, op0 = multiply, op1 = add, reduce_op = add, reduce_cmd = reset_reduce}");
    expect(ir).toContain("scalar.activate2 %d, %s, %c {op = relu, op0 = subtract, reverse0 = 1}");
  });
});

describe("data movement", () => {
  test("dma_compute: dst = the sum of srcs; a read-modify-write onto dst", () => {
    const { got, ir } = simulate("dma_compute", `
@nki.jit
def k(a, b, c):
    o1 = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    o2 = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nisa.dma_compute(o1, [a, b, c], nl.add)
    d = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_compute(dst=d, srcs=[a, b], reduce_op=nl.add, scales=[1.0, 1.0])
    nisa.dma_compute(dst=d, srcs=[d, c], reduce_op=nl.add)
    nisa.dma_copy(dst=o2, src=d)
    return o1, o2
x, y = nki.simulate(k)(I.a, I.b, I.c)
out(sum=x, rmw=y)
`);
    expectClose(got.sum, ORACLE.cases.dma_compute.want.sum);
    expectClose(got.rmw, ORACLE.cases.dma_compute.want.rmw);
    expect(ir).toContain("dma.dma_compute %o1, %a, %b, %c");
    expect(ir).toContain("dma.dma_compute %d, %d, %c");
  });
});

describe("random numbers", () => {
  test("rand_set_state seeds the lanes' XORWOW generators; rng draws; rand_get_state reads", () => {
    const { got, ir } = simulate("rng", `
@nki.jit
def k(seeds_g, seeds_v):
    o1 = nl.ndarray((4, 10), dtype=nl.uint32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((4, 6), dtype=nl.uint32, buffer=nl.shared_hbm)
    o3 = nl.ndarray((2, 8), dtype=nl.uint16, buffer=nl.shared_hbm)
    o4 = nl.ndarray((2, 24), dtype=nl.uint32, buffer=nl.shared_hbm)
    sg = nl.ndarray(seeds_g.shape, dtype=nl.uint32, buffer=nl.sbuf)
    sv = nl.ndarray(seeds_v.shape, dtype=nl.uint32, buffer=nl.sbuf)
    nisa.dma_copy(dst=sg, src=seeds_g)
    nisa.dma_copy(dst=sv, src=seeds_v)
    nisa.rand_set_state(sg)
    nisa.rand_set_state(src_seeds=sv, engine=nisa.engine.vector)
    r = nl.ndarray((4, 10), dtype=nl.uint32, buffer=nl.sbuf)
    nisa.rng(r, engine=nisa.engine.gpsimd)
    st = nl.ndarray((4, 6), dtype=nl.uint32, buffer=nl.sbuf)
    nisa.rand_get_state(st)
    r16 = nl.ndarray((2, 8), dtype=nl.uint16, buffer=nl.sbuf)
    nisa.rng(dst=r16)
    sv2 = nl.ndarray((2, 24), dtype=nl.uint32, buffer=nl.sbuf)
    nisa.rand_get_state(sv2, engine=nisa.engine.vector)
    nisa.dma_copy(dst=o1, src=r)
    nisa.dma_copy(dst=o2, src=st)
    nisa.dma_copy(dst=o3, src=r16)
    nisa.dma_copy(dst=o4, src=sv2)
    return o1, o2, o3, o4
a, b, c, d = nki.simulate(k)(I.seeds_g, I.seeds_v)
out(draws_g=a, state_g=b, draws_v=c, state_v=d)
`);
    const want = ORACLE.cases.rng.want;
    for (const key of ["draws_g", "state_g", "draws_v", "state_v"]) expect(got[key], key).toEqual(want[key]);
    expect(ir).toContain("gpsimd.rand_set_state %sg");
    expect(ir).toContain("vector.rand_set_state %sv");
    expect(ir).toContain("gpsimd.rng %r");
    expect(ir).toContain("vector.rng %r16");
  });
});

describe("MX (trn3)", () => {
  test("quantize_mx: a scale per 8 partitions x 4 elements, fp8 lanes packed in x4 words", () => {
    const { got, ir } = simulate("quantize_mx", `
@nki.jit
def k(src):
    ow = nl.ndarray((32, 2), dtype=nl.uint32, buffer=nl.shared_hbm)
    os_ = nl.ndarray((4, 2), dtype=nl.uint8, buffer=nl.shared_hbm)
    s = nl.ndarray(src.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=src)
    q = nl.ndarray((32, 2), dtype=nl.float8_e4m3fn_x4, buffer=nl.sbuf)
    sc = nl.ndarray((32, 2), dtype=nl.uint8, buffer=nl.sbuf)
    nisa.quantize_mx(dst=q, src=s, dst_scale=sc)
    nisa.dma_copy(dst=ow, src=q.view(nl.uint32))
    nisa.dma_copy(dst=os_, src=sc[0:4, :])
    return ow, os_
w, c = nki.simulate(k)(I.src)
out(words=w, scale=c)
`);
    expect(got.scale).toEqual(ORACLE.cases.quantize_mx.want.scale);
    expect(got.words).toEqual(ORACLE.cases.quantize_mx.want.words);
    expect(ir).toContain("vector.quantize_mx %q, %s, %sc");
  });

  test("nc_matmul_mx: x4 operands dequantized by their e8m0 scales, multiplied into PSUM", () => {
    const { got, ir } = simulate("matmul_mx", `
@nki.jit
def k(st, mv, st_s, mv_s):
    o = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray(st.shape, dtype=nl.uint32, buffer=nl.sbuf)
    b = nl.ndarray(mv.shape, dtype=nl.uint32, buffer=nl.sbuf)
    sa = nl.ndarray(st_s.shape, dtype=nl.uint8, buffer=nl.sbuf)
    sb = nl.ndarray(mv_s.shape, dtype=nl.uint8, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=st)
    nisa.dma_copy(dst=b, src=mv)
    nisa.dma_copy(dst=sa, src=st_s)
    nisa.dma_copy(dst=sb, src=mv_s)
    p = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul_mx(p, a.view(nl.float8_e4m3fn_x4), b.view(nl.float8_e4m3fn_x4), sa, sb)
    r = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=p)
    nisa.dma_copy(dst=o, src=r)
    return o
out(out=nki.simulate(k)(I.st, I.mv, I.st_s, I.mv_s))
`);
    // fp32 products summed in fp32 (128 terms) against NumPy's float64 sum.
    expectClose(got.out, ORACLE.cases.matmul_mx.want.out, { rtol: 1e-4, atol: 1e-3 });
    expect(ir.find((l) => l.includes("nc_matmul_mx"))).toMatch(/^tensor\.nc_matmul_mx %p, %a_as_\w+, %b_as_\w+, %sa, %sb \{accumulate = auto\}$/);
  });
});

describe("two cores (kernel[2])", () => {
  test("core_barrier: each core reads the half the other wrote before the barrier", () => {
    const { got } = simulate("lnc", `
@nki.jit
def k(x):
    buf = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    o = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    c = nl.program_id(0)
    t = nl.ndarray((4, 16), dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x[c * 4:(c + 1) * 4, :])
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=float(c + 1))
    nisa.dma_copy(dst=buf[c * 4:(c + 1) * 4, :], src=t)
    nisa.core_barrier(buf, (0, 1))
    other = 1 - c
    nisa.dma_copy(dst=t, src=buf[other * 4:(other + 1) * 4, :])
    nisa.dma_copy(dst=o[c * 4:(c + 1) * 4, :], src=t)
    return o
out(barrier=nki.simulate(k[2])(I.x))
`);
    expectClose(got.barrier, ORACLE.cases.lnc.want.barrier, { rtol: 0, atol: 0 });
  });

  test("sendrecv: each core's dst receives the other core's src", () => {
    const { got, ir } = simulate("lnc", `
@nki.jit
def k(x):
    o = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    c = nl.program_id(0)
    for i in range(2):
        mine = nl.ndarray((2, 16), dtype=x.dtype, buffer=nl.sbuf)
        got = nl.ndarray((2, 16), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=mine, src=x[c * 4 + 2 * i:c * 4 + 2 * i + 2, :])
        nisa.sendrecv(src=mine, dst=got, send_to_rank=1 - c, recv_from_rank=1 - c, pipe_id=0)
        nisa.dma_copy(dst=o[c * 4 + 2 * i:c * 4 + 2 * i + 2, :], src=got)
    return o
out(swap=nki.simulate(k[2])(I.x))
`);
    expectClose(got.swap, ORACLE.cases.lnc.want.swap, { rtol: 0, atol: 0 });
    expect(ir).toContain("dma.sendrecv %got, %mine {send_to_rank = 1, recv_from_rank = 1, pipe_id = 0}");
  });

  test("cores that do not meet alike are an error at the instruction; one core is NKI's rule", () => {
    const r = h.run(`import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

@nki.jit
def k(x):
    o = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    if nl.program_id(0) == 0:
        nisa.sendrecv(src=t, dst=t, send_to_rank=1, recv_from_rank=1, pipe_id=0)
    nisa.dma_copy(dst=o, src=t)
    return o

nki.simulate(k[2])(np.zeros((2, 2), np.float32))
`);
    expect(r.exitCode).toBe(1);
    const d = r.diagnostics.find((x) => x.severity === "error");
    expect(`${d.class}: ${d.message} @ ${d.line}`).toBe(
      "RuntimeError: the kernel's two cores do not meet alike (on hardware they would wait forever): core 0 waits at nisa.sendrecv but core 1 finished without reaching one @ 12");
    expect(failure(`nisa.core_barrier(out, (0, 1))`)).toBe(
      "ValueError: core_barrier: NKI allows it only when LNC (Logical NeuronCore) is enabled: launch the kernel on two cores, kernel[2](...) @ 9");
  });
});

describe("argument errors at the user's line", () => {
  const cases = [
    ["nc_stream_shuffle", `s = nl.ndarray((32, 4), dtype=nl.float32, buffer=nl.sbuf)
nisa.nc_stream_shuffle(s, s, [0] * 31)`, /^ValueError: .*shuffle_mask must be a list of 32 integers/],
    ["local_gather", `s = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.sbuf)
i = nl.ndarray((16, 1), dtype=nl.uint16, buffer=nl.sbuf)
g = nl.ndarray((16, 15), dtype=nl.float32, buffer=nl.sbuf)
nisa.local_gather(g, s, i)`, /^ValueError: local_gather: dst holds num_valid_indices \* num_elem_per_idx = 16 elements per partition, dst\[16, 15\]/],
    ["nc_n_gather", `d = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
i = nl.ndarray((4, 2), dtype=nl.int32, buffer=nl.sbuf)
nisa.nc_n_gather(d[:, 0:2], d, i)`, /^TypeError: 'indices' of 'nc_n_gather' has dtype 'int32', expected one of the following dtypes: uint32/],
    ["nonzero_with_count", `s = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.sbuf)
d = nl.ndarray((16, 8), dtype=nl.int32, buffer=nl.sbuf)
nisa.nonzero_with_count(d, s)`, /^ValueError: nonzero_with_count: dst must have exactly one more element per partition than src/],
    ["topk", `s = nl.ndarray((16, 4), dtype=nl.float32, buffer=nl.sbuf)
v = nl.ndarray((16, 8), dtype=nl.bfloat16, buffer=nl.sbuf)
i = nl.ndarray((16, 8), dtype=nl.uint32, buffer=nl.sbuf)
nisa.topk(v, i, s, 64)`, /^TypeError: 'src' of 'topk' has dtype 'float32', expected one of the following dtypes: bfloat16/],
    ["topk n", `s = nl.ndarray((16, 4), dtype=nl.bfloat16, buffer=nl.sbuf)
v = nl.ndarray((16, 8), dtype=nl.bfloat16, buffer=nl.sbuf)
i = nl.ndarray((16, 8), dtype=nl.uint32, buffer=nl.sbuf)
nisa.topk(v, i, s, 65)`, /^ValueError: topk: src's free size must be at least ceil\(n \/ 16\) = 5/],
    ["tensor_scalar_cumulative", `s = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
nisa.tensor_scalar_cumulative(s, s, nl.add, nl.add, 1.0, reduce_cmd=nisa.reduce_cmd.idle)`, /^ValueError: tensor_scalar_cumulative: reduce_cmd must be reset_reduce, reduce or load_reduce, got idle/],
    ["tensor_scalar_cumulative op1", `s = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
nisa.tensor_scalar_cumulative(s, s, nl.add, nl.divide, 1.0)`, /^\w+Error: .*divide.*tensor_scalar_cumulative/],
    ["dma_compute", `s = nl.ndarray((2, 2), dtype=nl.float32, buffer=nl.sbuf)
nisa.dma_compute(out, [a, s], nl.add, scales=[1.0, 2.0])`, /^ValueError: dma_compute: every scale must be 1\.0/],
    ["activate2", `s = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
nisa.activate2(s, nl.exp, s, 1.0, 2.0, nl.add, nl.multiply)`, /^ValueError: activate2: \(op0, op1\) must be one of .*; got \(add, multiply\)/],
    ["rng", `r = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
nisa.rng(r)`, /^TypeError: 'dst' of 'rng' has dtype 'float32', expected one of the following dtypes: int8/],
    ["rand_set_state", `s = nl.ndarray((4, 8), dtype=nl.uint32, buffer=nl.sbuf)
nisa.rand_set_state(s)`, /^ValueError: rand_set_state: the XORWOW state is 6 uint32 words per partition on the gpsimd engine/],
    ["rand_get_state", `s = nl.ndarray((4, 6), dtype=nl.int32, buffer=nl.sbuf)
nisa.rand_get_state(s)`, /^TypeError: 'dst' of 'rand_get_state' has dtype 'int32', expected one of the following dtypes: uint32/],
  ];
  test.each(cases)("%s", (_name, src, want) => {
    const msg = failure(src);
    expect(msg).toMatch(want);
    expect(msg.endsWith(`@ ${line(src)}`), msg).toBe(true);
  });

  test("per-target: nonzero_with_count needs trn2, activate2 trn3, rng on GpSimd trn2", () => {
    const head = `import os
os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"] = "trn1"`;
    try {
      for (const [src, want] of [
        [`s = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.sbuf)
d = nl.ndarray((16, 9), dtype=nl.int32, buffer=nl.sbuf)
nisa.nonzero_with_count(d, s)`, /nonzero_with_count.*trn2/],
        [`s = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
nisa.activate2(s, nl.exp, s, 1.0, 2.0, nl.multiply, nl.add)`, /activate2.*trn3/],
        [`r = nl.ndarray((4, 8), dtype=nl.uint32, buffer=nl.sbuf)
nisa.rng(r, engine=nisa.engine.gpsimd)`, /rng\(engine=gpsimd\).*trn2/],
      ]) {
        const msg = failure(src, head);
        expect(msg).toMatch(want);
        expect(msg.endsWith(`@ ${line(src, head)}`), msg).toBe(true);
      }
    } finally {
      h.py(`import os\nos.environ.pop("NEURON_PLATFORM_TARGET_OVERRIDE", None)`);
    }
  });
});
