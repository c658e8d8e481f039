// The current NKI language's package surface (issue 12 items 1 and 4) in real Pyodide on the real
// core: nki.jit's forms, kernel[lnc], with_schedule, nki.typing, NKIObject configs, program_id,
// device_print, tile_size, the 0.6.0 dtypes, what is refused (collectives, removed Beta 1 APIs)
// with NKI's messages, and nki.isa instructions (dst first) simulated against NumPy, with the
// experimental nl.* wrappers' documented limits.
import { describe, expect, test } from "vitest";

import { locate, pythonHarness } from "./harness.js";

const h = pythonHarness("pkg.py");

const HEAD = `import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa
import nki.typing as nt
`;

const run = (src) => h.run(HEAD + src);

/** The one error diagnostic of a failed run, as "class: message @ line:col". */
function failure(r) {
  expect(r.exitCode, r.err).toBe(1);
  const d = r.diagnostics.find((x) => x.severity === "error");
  return `${d.class}: ${d.message} @ ${d.line}:${d.col}`;
}

/** A kernel `k(a)` copying a into SBUF tile t, running `body` (which sets r), storing r. */
const KERNEL = (body, outShape = "a.shape") => `
@nki.jit
def k(a):
    out = nl.ndarray(${outShape}, dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
${body}
    nisa.dma_copy(dst=out, src=r)
    return out

x = (np.arange(8 * 16, dtype=np.float32).reshape(8, 16) / 64.0) - 1.0
`;

describe("nki.jit and the Kernel", () => {
  test("a config object, program_id, device_print, names and a schedule; nki.jit() with options", () => {
    const r = run(`from dataclasses import dataclass

@dataclass
class Cfg(nl.NKIObject):
    scale: float = 2.0

@nki.jit
def k(a: nt.tensor[4, 8], cfg):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a, name="load")
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=cfg.scale, name="scale")
    print("grid", nl.program_id(0), nl.num_programs(0), nl.program_ndim())
    nl.device_print("t =", t[0:1, 0:2])
    nisa.dma_copy(dst=out, src=t)
    return out

a = np.ones((4, 8), np.float32)
print(nki.simulate(k)(a, Cfg()).sum())
print(k.with_schedule([("scale", "load")])(a, Cfg(3.0)).sum())
print(nki.jit(mode="simulation")(k.fn)(a, Cfg(0.5)).sum())
`);
    expect(r.exitCode, r.err).toBe(0);
    expect(r.out).toBe("grid 0 1 0\nt = [[2. 2.]]\n64.0\ngrid 0 1 0\nt = [[3. 3.]]\n96.0\ngrid 0 1 0\nt = [[0.5 0.5]]\n16.0\n");
    expect(r.traces[0].text).toMatch(/^kernel @k\(%a: hbm f32\[4,8\]\) -> \(%out\) nki 0\.6\.0 \{/);
    // A plain call simulates, and says so once per kernel.
    expect(r.err).toBe("nki-playground: no Neuron device here; 'k' runs on the simulator (nki.simulate)\n");
  });

  test("kernel[lnc] takes one number, 1 or 2; schedule edges are pairs of names", () => {
    const cases = [
      ["k[2, 1]", "ValueError: The bracket syntax must contain only one number"],
      ["k[3]", "ValueError: LNC degree 3: a kernel runs on 1 or 2 logical NeuronCores"],
      ['k.with_schedule([("a",)])', "ValueError: Schedule edge must be a pair"],
      ['k.with_schedule([("a", 1)])', "ValueError: Schedule edge name must be a string"],
      ["k()", "ValueError: kernel 'k' called with no arguments"],
      ["k(np.ones((2, 2), np.float32), bogus=1)", "TypeError: k(): got an unexpected keyword argument 'bogus'"],
    ];
    for (const [call, message] of cases) {
      const src = `@nki.jit\ndef k(a):\n    return None\n\n${call}\n`;
      expect(failure(run(src))).toMatch(new RegExp(`^${message.replace(/[[\]().*]/g, "\\$&")}.* @ ${locate(HEAD + src, call)}$`));
    }
  });

  test("tile_size, every 0.6.0 dtype, nki.typing; they work outside a kernel", () => {
    const r = run(`
print(nl.tile_size.pmax, nl.tile_size.psum_fmax, nl.tile_size.gemm_stationary_fmax, nl.tile_size.gemm_moving_fmax)
names = "bool_ int8 int16 int32 uint8 uint16 uint32 float16 float32 bfloat16 tfloat32 float8_e4m3 float8_e4m3fn float8_e5m2 float8_e5m2_x4 float8_e4m3fn_x4 float8_e8m0fnu float4_e2m1fn_x4".split()
print([getattr(nl, n) for n in names] == [n if n != "bool_" else "bool_" for n in names], nl.float32 == "float32")
print(nt.tensor[128, 512])
print(nl.is_hbm(nl.shared_hbm), nl.is_on_chip(nl.psum), nl.hbm == nl.private_hbm)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("128 512 128 512\nTrue True\nnt.tensor[[128, 512], float32]\nTrue True True\n");
  });

  test("nki.isa.constants holds nki.isa's enums, as kernels import them; nc_version is ordered", () => {
    const r = run(`from nki.isa.constants import dge_mode, oob_mode, matmul_perf_mode
import nki.isa.constants as c
print(dge_mode is nisa.dge_mode, oob_mode.skip is nisa.oob_mode.skip, matmul_perf_mode is nisa.matmul_perf_mode)
print(c.engine is nisa.engine, c.reduce_cmd is nisa.reduce_cmd, c.nc_version is nisa.nc_version, c.dma_engine is nisa.dma_engine)
v = nisa.get_nc_version()
print(v is nisa.nc_version.gen4, v >= nisa.nc_version.gen3, v >= 3, nisa.nc_version.gen2 < nisa.nc_version.gen3 <= 3)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True True True\nTrue True True True\nTrue True True True\n");
  });

  test("nki.dtype annotates dtype parameters (nki-library's idiom), evaluated when the def runs", () => {
    const r = run(`
@nki.jit
def k(a, dtype: nki.dtype = nl.bfloat16):
    t = nl.ndarray(a.shape, dtype=dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    out = nl.ndarray(a.shape, dtype=dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=t)
    return out

a = np.arange(6, dtype=np.float32).reshape(2, 3) + 0.1
print(nki.simulate(k)(a, nl.float32).tolist() == a.tolist(), isinstance(nl.float32, nki.dtype))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True True\n");
  });

  test("refused: collectives, removed Beta 1 APIs and parameters, with NKI's messages; the next run works", () => {
    const cases = [
      ["nki.baremetal", "RuntimeError: nki.baremetal is not part of NKI any more; call the kernel with NumPy arrays"],
      ["nki.simulate_kernel", "RuntimeError: nki.simulate_kernel is not part of NKI any more; use nki.simulate(kernel)(*arrays)"],
      ["nki.benchmark", "RuntimeError: nki.benchmark is not part of NKI any more"],
      ["nl.arange(4)", "AttributeError: module 'nki.language' has no attribute 'arange'"],
      ["nl.mgrid", "AttributeError: module 'nki.language' has no attribute 'mgrid'"],
      ["nl.affine_range(4, precise_schedule=True)", "TypeError: affine_range() got an unexpected keyword argument 'precise_schedule'"],
    ];
    for (const [expr, message] of cases) {
      const src = `x = ${expr}\n`;
      expect(failure(run(src))).toMatch(new RegExp(`^${message.replace(/[[\]().*]/g, "\\$&")}.* @ ${locate(HEAD + src, expr.split("(")[0])}$`));
    }
    const coll = `import nki.collectives as cc

@nki.jit
def k(a):
    cc.all_reduce([a], [a], nl.add)
    return None

k(np.ones((2, 2), np.float32))
`;
    expect(failure(run(coll))).toMatch(new RegExp(`^\\w+Error: nki\\.collectives\\.all_reduce .*not .*simulat.* @ ${locate(HEAD + coll, "cc.all_reduce")}$`));
    const mask = `@nki.jit
def k(a):
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a, mask=None)
    return None

k(np.ones((2, 2), np.float32))
`;
    expect(failure(run(mask))).toBe(`TypeError: dma_copy() got an unexpected keyword argument 'mask' @ ${locate(HEAD + mask, "nisa.dma_copy")}`);
    expect(run("print(nl.tile_size.pmax)\n").out).toBe("128\n");
  });
});

describe("nki.isa, dst first, simulated against NumPy", () => {
  test("activation with scale; tensor_reduce then tensor_scalar with a tile operand", () => {
    const r = run(`${KERNEL(`    r = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.activation(dst=r, op=nl.exp, data=t, scale=2.0)
    s = nl.ndarray((a.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=s, op=nl.add, data=r, axis=(1,))
    nisa.tensor_scalar(dst=r, data=r, op0=nl.subtract, operand0=s)`)}
print(np.allclose(nki.simulate(k)(x), np.exp(2 * x) - np.exp(2 * x).sum(1, keepdims=True), rtol=1e-5, atol=1e-5))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True\n");
    expect(r.traces[0].text).toContain("scalar.activation %r, %t, 2.0 {op = exp}");
    expect(r.traces[0].text).toContain("vector.tensor_reduce %s, %r {op = add, axis = [1]}");
    expect(r.traces[0].text).toContain("vector.tensor_scalar %r, %r, %s {op0 = subtract}");
  });

  test("iota with a channel multiplier, affine_select with a pattern, fp32 -> int32 rounding half to even", () => {
    const r = run(`${KERNEL(`    i = nl.ndarray(a.shape, dtype=nl.int32, buffer=nl.sbuf)
    nisa.iota(dst=i, pattern=[[1, 16]], offset=0, channel_multiplier=100)
    r = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=i)
    nisa.affine_select(dst=r, pattern=[[-1, 16]], channel_multiplier=1, on_true_tile=r, on_false_value=-9.0, cmp_op=nl.greater_equal)`)}
y = nki.simulate(k)(x)
print(y[2, :4].tolist(), y[5, 4:8].tolist())

@nki.jit
def rne(a):
    out = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    n = nl.ndarray(a.shape, dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.tensor_copy(dst=n, src=t)
    nisa.tensor_copy(dst=t, src=n)
    nisa.dma_copy(dst=out, src=t)
    return out

print(nki.simulate(rne)(np.array([[0.5, 1.5, 2.5, -0.5, -1.5, 3e10, -3e10]], np.float32)).tolist())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[200.0, 201.0, 202.0, -9.0] [504.0, 505.0, -9.0, -9.0]\n[[0.0, 2.0, 2.0, 0.0, -2.0, 2147483648.0, -2147483648.0]]\n");
  });

  test("nc_transpose into PSUM is the Tensor engine's, small SBUF ones the Vector engine's", () => {
    const r = run(`
@nki.jit
def k(a):
    out = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    p = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(dst=p, data=t)
    s = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=s, src=p)
    v = nl.ndarray((16, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_transpose(dst=v, data=t)
    nisa.tensor_tensor(dst=s, data1=s, data2=v, op=nl.add)
    nisa.dma_copy(dst=out, src=s)
    return out

x = np.arange(128, dtype=np.float32).reshape(8, 16)
print(np.array_equal(nki.simulate(k)(x), 2 * x.T))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True\n");
    expect(r.traces[0].text).toContain("tensor.nc_transpose %p, %t");
    expect(r.traces[0].text).toContain("vector.nc_transpose %v, %t");
  });

  test("dma_transpose: NKI 0.6.0's permutations by rank, [3, 1, 2, 0] for four axes; axes=; the dst's shape", () => {
    const kernel = (shape, dst, axes = "") => `
@nki.jit
def k(a):
    t = nl.ndarray(${dst}, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_transpose(dst=t, src=a${axes})
    out = nl.ndarray(${dst}, dtype=a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=t)
    return out

x = np.arange(${shape.reduce((a, b) => a * b)}, dtype=np.float32).reshape(${shape.join(", ")})
`;
    const r = run(`${kernel([2, 3, 4, 5], "(5, 3, 4, 2)")}
print(np.array_equal(nki.simulate(k)(x), x.transpose(3, 1, 2, 0)))
${kernel([2, 3, 4], "(4, 3, 2)")}
print(np.array_equal(nki.simulate(k)(x), x.transpose(2, 1, 0)))
${kernel([6, 5], "(5, 6)", ", axes=(1, 0)")}
print(np.array_equal(nki.simulate(k)(x), x.T))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True\nTrue\nTrue\n");
    expect(r.traces[0].text).toContain("{axes = [3,1,2,0]}");
    const bad = `${kernel([2, 3, 4, 5], "(5, 4, 3, 2)")}
nki.simulate(k)(x)
`;
    expect(failure(run(bad))).toBe(
      `ValueError: dma_transpose: dst[5, 4, 3, 2] must have the shape of src transposed[5, 3, 4, 2] (axes (3, 1, 2, 0)) @ ${locate(HEAD + bad, "nisa.dma_transpose(")}`,
    );
  });

  test("accumulate=True onto never-written PSUM warns, as NKI 0.6.0's simulator does", () => {
    const src = `
@nki.jit
def k(a):
    out = nl.ndarray((8, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    p = nl.ndarray((8, 8), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(dst=p, stationary=t, moving=t, accumulate=True)
    s = nl.ndarray((8, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=s, src=p)
    nisa.dma_copy(dst=out, src=s)
    return out

print(np.isnan(nki.simulate(k)(np.ones((8, 8), np.float32))).all())
`;
    const r = run(src);
    expect(r.out).toBe("True\n");
    expect(r.err).toContain(`pkg.py:${locate(HEAD + src, "nisa.nc_matmul")}: warning: nc_matmul with accumulate=True onto PSUM that no instruction wrote`);
  });

  test("the experimental nl.* wrappers compute over nisa, within their documented limits", () => {
    const ok = run(`${KERNEL("    r = nl.add(nl.exp(t), t)")}
print(np.allclose(nki.simulate(k)(x), np.exp(x) + x, rtol=1e-5))
`);
    expect(ok.err).toBe("");
    expect(ok.out).toBe("True\n");
    expect(ok.traces[0].text).toMatch(/scalar\.activation %exp, %t \{op = exp/);
    const limits = [
      ["    s = nl.ndarray((8, 1), dtype=nl.float32, buffer=nl.sbuf)\n    r = nl.add(t, s)", "nl.add(t, s)", "ValueError: nl.add: no broadcasting between tiles: t[8, 16] and s[8, 1]"],
      ["    r = nl.matmul(t, t)", "nl.matmul(t, t)", "ValueError: nl.matmul: only transpose_x=True is supported"],
      [
        "    r = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.psum)\n    nisa.memset(dst=r, value=0.0)\n    nl.store(out, r)",
        "nl.store(out, r)",
        "ValueError: nl.store: value cannot be a PSUM tile",
      ],
    ];
    for (const [body, fragment, message] of limits) {
      const src = `${KERNEL(body)}nki.simulate(k)(x)\n`;
      expect(failure(run(src))).toMatch(new RegExp(`^${message.replace(/[[\]().*]/g, "\\$&")}.* @ ${locate(HEAD + src, fragment)}$`));
    }
  });
});
