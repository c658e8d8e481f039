// The errors page's wrong lines (docs/errors.md) raise the diagnostic of their section: each
// case is a section's "wrong" line in a kernel with the page's context (`a`, `b` float32 HBM
// parameters [128, 512], `out` a shared_hbm output, `t = nl.load(a)`), and must fail with that
// section's code in the "see:" line. Keep the cases in step with the page's snippets.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

import { HEAD, pythonHarness } from "./harness.js";

const h = pythonHarness("e.py");
const DOC = readFileSync(new URL("../../docs/errors.md", import.meta.url), "utf8");
const CONTEXT = `${HEAD}from neuronxcc.nki.typing import scalar
F = nt.tensor[[128, 512], nl.float32]
`;

/** [code, kernel-body lines] — a body runs between `t = nl.load(a)` and the store of `t`. */
const IN_KERNEL = [
  ["unsupported-memory", "y = nl.exp(a)"],
  ["1d-arange-not-supported", "i = nl.arange(128)\nx = nl.load(a[i, 0])"],
  ["unsupported-mixing-basic-advanced-tensor-indexing", "i = nl.arange(128)[:, None]\nx = nl.load(a[i, :])"],
  ["too-many-indices", "x = nl.load(a[0:128, 0:512, 0])"],
  ["tensor-access-out-of-bound", "for j in nl.affine_range(2):\n    x = nl.load(a[0:128, j * 512:(j + 1) * 512])"],
  ["slice-size-not-static", "for i in nl.affine_range(4):\n    x = nl.load(a[0:128, 0:(i + 1) * 64])"],
  ["slice-step-not-positive", "x = nl.load(a[0:128, 511:0:-1])"],
  ["failed-to-infer-tile-from-local-tensor", "buf = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.sbuf)\ny = nl.exp(buf)"],
  ["non-affine-index-expression", "for i in nl.affine_range(2):\n    for j in nl.affine_range(2):\n        x = nl.load(a[i * j, 0:512])"],
  ["symbolic-index-has-no-value", "for i in nl.affine_range(2):\n    n = int(i) * 64"],
  ["tensor-not-iterable", "for row in t:\n    pass"],
  ["num-partition-exceed-arch-limit", "x = nl.zeros((256, 512), dtype=nl.float32, buffer=nl.sbuf)"],
  ["insufficient-rank", "x = nl.zeros((128,), dtype=nl.float32, buffer=nl.sbuf)"],
  ["hbm-tensor-with-init-value-not-supported", "o2 = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)"],
  ["unsupported-dtype", "x = nl.zeros((128, 512), dtype=np.float64, buffer=nl.sbuf)"],
  ["unknown-buffer", "x = nl.ndarray((128, 512), dtype=nl.float32, buffer=\"sram\")"],
  ["psum-tile-exceeds-bank", "ps = nl.zeros((128, 1024), dtype=nl.float32, buffer=nl.psum)"],
  ["size-of-dimension-exceed-arch-limit", "y = nisa.nc_transpose(nl.load(a))"],
  ["store-dst-shape-smaller-than-other-shape", "small = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)\nsmall[...] = t"],
  ["tile-shape-mismatch", "t.assert_shape((128, 256))"],
  ["annotation-shape-mismatch", "x: nt.tensor[128, 256] = nl.load(a)"],
  ["tiled-offloaded-memcpy-same-shape", "o2 = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)\nnisa.dma_copy(dst=o2[0:128, 0:256], src=a)"],
  ["reshape", "y = a.reshape((128, 256))"],
  ["expand-dims-axis", "y = nl.expand_dims(t, 0)"],
  ["identity-matrix-size", "eye = nl.shared_identity_matrix(0)"],
  ["mask-not-equal-not-supported", "i_f = nl.arange(512)[None, :]\ny = nl.exp(t, mask=(i_f != 3))"],
  ["logic-or-not-supported", "i_f = nl.arange(512)[None, :]\ny = nl.exp(t, mask=(i_f < 8) | (i_f > 100))"],
  ["control-flow-condition-depending-on-arange", "i_f = nl.arange(512)[None, :]\nif i_f > 256:\n    y = nl.exp(t)"],
  ["dynamic-control-flow-not-supported", "if nl.load(a[0:1, 0:1]):\n    y = nl.exp(t)"],
  ["predicate-truth-value", "for i in nl.affine_range(4):\n    if not i > 0:\n        y = nl.exp(t)"],
  ["ambiguous-tensor-truth-value", "if not t:\n    pass"],
  ["while-loop-requires-unconditional-entry", "x = nl.load(a[0:1, 0:1])\nwhile scalar(x) > 1:\n    x[...] = nl.multiply(x, 0.5)"],
  ["do-while-condition", "x = nl.load(a[0:1, 0:1])\ncond = scalar(True)\nwhile cond:\n    x[...] = nl.multiply(x, 0.5)\n    cond = x < 10"],
  ["argument-cannot-be-none", "y = nisa.tensor_tensor(t, t, op=None)"],
  ["operand-must-be-tile", "y = nisa.tensor_tensor(t, 2.0, op=nl.add)"],
  ["needs-tile-operand", "y = nl.add(1.0, 2.0)"],
  ["num-partition-mismatch", "row = nl.load(a[0:1, 0:512])\ny = nisa.tensor_tensor(t, row, op=nl.add)"],
  ["broadcast-shapes", "x = nl.load(a[nl.arange(128)[:, None], nl.arange(64)[:, None]])"],
  ["param-shape-incompatible-with-numpy", "y = nl.add(t, nl.load(a[0:128, 0:256]))"],
  ["param-shape-mismatch", "y = nisa.tensor_tensor(t, t[:, 0:256], op=nl.add)"],
  ["instruction-unsupported-op", "y = nisa.tensor_reduce(nl.divide, t, axis=1)"],
  ["reduction-on-partition-axis", "y = nl.sum(t, axis=0)"],
  ["empty-axis", "y = nl.sum(t, axis=())"],
  ["axis-out-of-bounds", "y = nl.sum(t, axis=2)"],
  ["unknown-reduce-cmd", "y = nisa.activation(op=nl.exp, data=t, reduce_cmd=7)"],
  ["elements-per-partition", "s = nisa.bn_stats(t[:, 0:512])\ns2 = nisa.bn_stats(nl.load(b))\nz = nl.ndarray((128, 1024), dtype=nl.float32, buffer=nl.sbuf)\ns3 = nisa.bn_stats(z)"],
  ["operand-not-vector", "y = nisa.activation(op=nl.exp, data=t, bias=t)"],
  ["activation-scale-scalar-or-vector", "y = nisa.activation(op=nl.exp, data=t, scale=t)"],
  ["op1-operand1-both-or-none", "y = nisa.tensor_scalar(t, nl.multiply, 2.0, op1=nl.add)"],
  ["bitvec-operand-must-be-integer", "y = nl.bitwise_and(t, 0xff)"],
  ["reduce-bitvec-op-invalid-dtype", "y = nisa.tensor_reduce(nl.bitwise_or, t, axis=1)"],
  ["engine-cannot-run", "y = nisa.nc_transpose(t[:, 0:128], engine=nisa.gpsimd_engine)"],
  ["engine-not-allowed", "y = nisa.memset((128, 512), 0.0, dtype=nl.float32, engine=nisa.tensor_engine)"],
  ["op-engine", "y = nisa.tensor_scalar(t, nl.abs, 0.0, engine=nisa.scalar_engine)"],
  ["mask-rank", "i3 = nl.arange(4)[None, None, :]\ny = nl.exp(t, mask=i3 < 2)"],
  ["dma-transpose-axes", "y = nisa.dma_transpose(a[0:128, 0:128], axes=(0, 1))"],
  ["shared-hbm-must-in-kernel-level", "for i in nl.affine_range(4):\n    o3 = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)"],
  ["cannot-update-immutable-parameter", "nl.store(a, value=t)"],
  ["program-id-axis", "i = nl.program_id(1)"],
  ["loop-step-zero", "for i in nl.affine_range(0, 8, 0):\n    pass"],
  ["local-variable-used-out-of-scope", "for i in nl.affine_range(4):\n    acc = nl.load(a)\nt = acc"],
  ["psum-write-dtype", "ps = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.psum)\nps[...] = nisa.nc_matmul(t[:, 0:128], t)"],
  ["affine-select-single-predicate", "i_p = nl.arange(128)[:, None]\ni_f = nl.arange(512)[None, :]\ny = nisa.affine_select((i_p < i_f) & (i_f < 64), t, -1e9)"],
  ["view-dtype", "x3 = nl.ndarray((128, 3), dtype=nl.bfloat16, buffer=nl.sbuf)\ny = x3.view(nl.float32)"],
  ["matmul-pe-tile", "r = nisa.nc_matmul(t[:, 0:64], t[:, 0:64], tile_position=(16, 0), tile_size=(64, 64))"],
  ["exceed-max-supported-dimension", "x3d = nl.zeros((64, 32, 2), dtype=nl.float32, buffer=nl.sbuf)\ny = nl.transpose(x3d)"],
  ["reduce-unsupported-negate", "x = nl.copy(t, dtype=nl.int32)\ny = nisa.tensor_reduce(nl.bitwise_or, x, axis=1, negate=True)"],
  ["cannot-assign-to-index", "i_p, i_f = nl.mgrid[0:1, 0:8]\ni_f[0, 5] = 1"],
  ["expected-operator", "y = nisa.tensor_scalar(t, 3, 1.0)"],
  ["atomic-rmw-add-only", "idx = nl.load(b[0:128, 0:1]).view(nl.int32)\nnl.atomic_rmw(out[idx[nl.arange(128)[:, None], 0], nl.arange(512)[None, :]], value=t, op=nl.maximum)"],
  ["atomic-rmw-dynamic-index", "nl.atomic_rmw(out[0:128, 0:512], value=t, op=nl.add)"],
  ["cannot-assign-to-index", "_, x = nl.mgrid[0:1, 0:8]\nx[0, 5] = 1024"],
  ["shared-constant-values", "c = nl.shared_constant(3.0)"],
  ["par-reduce-unsupported-op", "y = nisa.tensor_partition_reduce(nl.multiply, t)"],
  ["activation-bias-invalid-type", "bb = nl.zeros((128, 1), dtype=nl.int8, buffer=nl.sbuf)\ny = nisa.activation(op=nl.exp, data=t, bias=bb)"],
  ["activation-scale-invalid-type", "s = nl.zeros((128, 1), dtype=nl.float16, buffer=nl.sbuf)\ny = nisa.activation(op=nl.exp, data=t, scale=s)"],
  ["supported-operand-dtype", "x = nl.copy(t[:, 0:128], dtype=nl.int32)\nr = nisa.nc_matmul(x, x)"],
  ["instruction-engine-unsupported-op-comb", "y = nisa.tensor_scalar(t, nl.power, 2.0, engine=nisa.scalar_engine)"],
  ["elements-per-partition-multiple", "m = nisa.bn_aggr(t[:, 0:4])"],
  ["output-not-hbm", "return nl.exp(t)"],
  ["indirect-indices-are-not-supported-with-nki-api", "idx = nl.load(b[0:128, 0:1]).view(nl.int32)\nx = nl.load_transpose2d(a[idx[nl.arange(128)[:, None], 0], nl.arange(128)[None, :]])"],
  ["unsupported-dtype", "x = nl.zeros((128, 512), dtype=np.int64, buffer=nl.sbuf)"],
  ["indirect-indices-sbuf", "i_p = nl.arange(128)[:, None]\ni_f = nl.arange(512)[None, :]\nx = nl.load(a[b[i_p, 0], i_f])"],
  ["indirect-indices-sbuf", "i_p = nl.arange(128)[:, None]\ni_f = nl.arange(512)[None, :]\nps = nl.zeros((128, 1), dtype=nl.int32, buffer=nl.psum)\nx = nl.load(a[ps[i_p, 0], i_f])"],
  ["instruction-supported-dtypes", "ids = nl.copy(t[0:1, :], dtype=nl.bfloat16)\nbb = nisa.sequence_bounds(segment_ids=ids)"],
  ["partition-size", "ids = nl.copy(t, dtype=nl.int32)\nbb = nisa.sequence_bounds(segment_ids=ids)"],
  ["expected-tile", "y = nisa.activation(op=nl.exp, data=1.0)"],
  ["ops-both-arith-or-bitvec", "x = nl.copy(t, dtype=nl.int32)\ny = nisa.tensor_scalar(x, nl.add, 1, op1=nl.bitwise_and, operand1=3)"],
  ["par-reduce-bitvec-op-invalid-dtype", "x = nl.copy(t, dtype=nl.int32)\ny = nisa.tensor_partition_reduce(nl.bitwise_or, x)"],
  ["activation-reciprocal-bias", "bb = nl.zeros((128, 1), dtype=nl.float32, buffer=nl.sbuf)\ny = nisa.activation(op=nl.reciprocal, data=t, bias=bb)"],
  ["min-arch-support-for-inst", "y = nisa.range_select(on_true_tile=t, comp_op0=nl.greater, comp_op1=nl.less, bound0=t[:, 0:1], bound1=t[:, 0:1])"],
  ["predicate-must-be-integer", "d = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)\nnisa.tensor_copy_predicated(src=t, dst=d, predicate=t)"],
  ["scalar-src-must-be-float", "d = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)\np = nl.copy(t, dtype=nl.uint8)\nnisa.tensor_copy_predicated(src=1, dst=d, predicate=p)"],
  ["reverse-pred-needs-scalar-src", "d = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)\np = nl.copy(t, dtype=nl.uint8)\nnisa.tensor_copy_predicated(src=t, dst=d, predicate=p, reverse_pred=True)"],
  ["src-dst-same-dtype-predicated", "d = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)\np = nl.copy(t, dtype=nl.uint8)\nnisa.tensor_copy_predicated(src=nl.copy(t, dtype=nl.bfloat16), dst=d, predicate=p)"],
  ["perf-mode-operand-shape", "r = nisa.nc_matmul(t[:, 0:128], t, perf_mode='double_row')"],
  ["indirect-indices-free-dim", "idx = nl.load(b[0:128, 0:1]).view(nl.int32)\nx = nl.load(a[nl.arange(128)[:, None], idx[nl.arange(128)[:, None], 0]])"],
  ["attribute-not-constant", "for i in nl.affine_range(2):\n    y = nl.sum(t, axis=i)"],
  ["stream-shuffle-arg", "nisa.nc_stream_shuffle(src=t, dst=t, shuffle_mask=[0] * 16)"],
  ["local-gather-arg", "ix = nl.zeros((128, 4), dtype=nl.uint16)\ng = nisa.local_gather(t, ix, 3)"],
  ["indirect-index-tile-shape", "idx = nl.load(b[0:128, 0:1]).view(nl.int32)\ni_p, i_f = nl.mgrid[0:128, 0:512]\nx = nl.load(a[idx[i_p, 0], i_f])"],
];

/** [code, whole script after the imports] for what needs more than a kernel body. */
const SCRIPTS = [
  ["nki-api-outside-of-nki-kernel", "x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)"],
  ["nki-param-not-hashable", `@nki.jit
def k(a, sizes):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out
nki.trace_kernel(k, F, sizes=[128, 512])`],
  ["nested-kernel-with-spmd-grid", `@nki.jit
def inner(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out
@nki.jit
def outer(a):
    return inner[2](a)
nki.trace_kernel(outer, F)`],
  ["mutable-parameter-not-returned", `@nki.jit
def k(a: nt.mutable_tensor, b):
    out = nl.ndarray(b.shape, dtype=b.dtype, buffer=nl.shared_hbm)
    t = nl.load(b)
    nl.store(a, value=t)
    nl.store(out, value=t)
    return out
nki.trace_kernel(k, nt.mutable_tensor[[128, 512], nl.float32], F)`],
  ["tensor-output-not-written-to", `@nki.jit
def k(a, other: nt.mutable_tensor):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(other, value=nl.load(a))
    return out, other
nki.trace_kernel(k, F, nt.mutable_tensor[[128, 512], nl.float32])`],
  ["sbuf-overflow", `@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        big = nl.ndarray((128, 80000), dtype=nl.float32, buffer=nl.sbuf)
    nl.store(out, value=nl.load(a))
    return out
nki.simulate_kernel(k, np.zeros((128, 512), np.float32))`],
  ["psum-overflow", `@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    accs = [nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum) for _ in range(9)]
    outs = [nl.copy(acc) for acc in accs]
    nl.store(out, value=nl.load(a))
    return out
nki.simulate_kernel(k, np.zeros((128, 512), np.float32))`],
  ["indirect-index-out-of-bounds", `@nki.jit
def k(a):
    out = nl.ndarray((64, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    ix, iy = nl.mgrid[0:64, 0:512]
    idx = nisa.iota(3 * nl.arange(64)[:, None], dtype=np.int32)
    t = nl.ndarray((64, 512), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t[ix, iy], src=a[idx, iy])
    nl.store(out, value=t)
    return out
nki.simulate_kernel(k, np.zeros((128, 512), np.float32))`],
  ["simulate-input-mismatch", `@nki.jit
def k(a):
    out = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out
nki.simulate_kernel(k, F)`],
];

function codeOf(src) {
  const r = h.run(src);
  const m = r.err.match(/\n {4}see: docs\/errors\.md#([a-z0-9-]+)\n/);
  return r.exitCode !== 0 && m ? m[1] : `exit ${r.exitCode}: ${r.err.split("\n")[0]}`;
}

describe("docs/errors.md wrong lines", () => {
  test.each(IN_KERNEL)("%s", (code, body) => {
    expect(DOC).toMatch(new RegExp(`^### ${code}$`, "m"));
    const indented = body.split("\n").map((l) => `    ${l}`).join("\n");
    const src = `${CONTEXT}@nki.jit
def k(a, b):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.load(a)
${indented}
    nl.store(out, value=t)
    return out
nki.trace_kernel(k, F, F)
`;
    expect(codeOf(src)).toBe(code);
  });

  test.each(SCRIPTS)("%s (script)", (code, body) => {
    expect(DOC).toMatch(new RegExp(`^### ${code}$`, "m"));
    expect(codeOf(`${CONTEXT}${body}\n`)).toBe(code);
  });
});
