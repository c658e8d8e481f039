// runSource()'s structured results: diagnostics (the error that ended the script, warnings it
// printed) and simulations (tensors as float32 with statistics, device_print, simulator
// warnings, comparisons against a reference) — real Pyodide and the real wasm core.
import { describe, expect, test } from "vitest";

import { maxAbsError, stats, toFloat32 } from "../../runtime/results.mjs";
import { pythonHarness } from "../python/harness.js";

const HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
`;

const py = pythonHarness("r.py");
const { run } = py;

describe("diagnostics", () => {
  test("the error that ended the script: position, class, message, the printed text", () => {
    const r = run(`${HEAD}x = 1\nnl.load(x)\n`);
    expect(r.exitCode).toBe(1);
    expect(r.diagnostics).toHaveLength(1);
    const [d] = r.diagnostics;
    expect(d).toMatchObject({ severity: "error", file: "r.py", line: 5, col: 1, end_line: 5, end_col: 11 });
    expect(d.class).toBe("RuntimeError");
    expect(d.message).toBe("calling NKI API outside of NKI kernels is not supported.");
    expect(d.rendered).toBe(py.err);
    expect(d).toHaveProperty("code");
  });

  test("a SyntaxError in the user's code is a diagnostic at its position", () => {
    const r = run("a = 1\nb = (2 +\n");
    expect(r.exitCode).toBe(1);
    expect(r.diagnostics).toMatchObject([{ severity: "error", class: "SyntaxError", file: "r.py", line: 2, col: 5 }]);
    expect(r.diagnostics[0].rendered).toBe(py.err);
    expect(r.traces).toEqual([]);
  });

  test("NKI's shadowing warning: printed as before and recorded with its column", () => {
    const src = `${HEAD}import warnings\nwarnings.simplefilter("always")\n@nki.jit\ndef k(a):\n    t = nl.zeros((128, 512), nl.float32)\n    for i in nl.affine_range(2):\n        t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])\n    return None\nimport neuronxcc.nki.typing as nt\nnki.trace_kernel(k, nt.tensor[[256, 512], nl.float32])\n`;
    const r = run(src);
    expect(r.exitCode).toBe(0);
    expect(r.diagnostics).toHaveLength(1);
    const [w] = r.diagnostics;
    expect(w).toMatchObject({ severity: "warning", class: "UserWarning", file: "r.py", line: 10, col: 13 });
    expect(w.message).toMatch(/^shadowing local tensor 'float32 t\[128, 512\]'/);
    expect(py.err).toContain(w.rendered);
  });

  test("a kernel run in a device mode: the one-time 'no Neuron device' notice is a warning", () => {
    const src = `${HEAD}@nki.jit(mode="baremetal")
def device_only_once(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
device_only_once(np.zeros((2, 2), dtype=np.float32))
`;
    const r = run(src);
    expect(r.exitCode).toBe(0);
    expect(r.diagnostics).toMatchObject([{ severity: "warning", file: "r.py", line: 9, col: 1 }]);
    expect(r.diagnostics[0].message).toMatch(/^nki-playground: no Neuron device here; 'device_only_once' \(baremetal\)/);
    expect(py.err).toBe(r.diagnostics[0].rendered);
  });

  test("a clean run has no diagnostics and no simulations", () => {
    const r = run("print(1)\n");
    expect(r).toMatchObject({ exitCode: 0, diagnostics: [], simulations: [] });
  });
});

describe("simulations", () => {
  test("a simulated call: inputs and outputs as float32 data with statistics", () => {
    const r = run(`${HEAD}@nki.jit(mode="simulation")
def double(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.multiply(nl.load(x), 2))
    return out
y = double(np.arange(6, dtype=np.int32).reshape(2, 3))
`);
    expect(r.exitCode).toBe(0);
    expect(r.simulations).toHaveLength(1);
    const [sim] = r.simulations;
    expect(sim.kernel).toBe("double");
    const [x] = sim.inputs;
    expect(x).toMatchObject({ name: "x", shape: [2, 3], dtype: "int32", min: 0, max: 5, mean: 2.5 });
    expect(x.data).toBeInstanceOf(Float32Array);
    expect([...x.data]).toEqual([0, 1, 2, 3, 4, 5]);
    const [y] = sim.outputs;
    expect(y).toMatchObject({ shape: [2, 3], dtype: "int32", min: 0, max: 10, mean: 5 });
    expect([...y.data]).toEqual([0, 2, 4, 6, 8, 10]);
  });

  test("a large core-backed input (≥ 1024 elements) comes through whole", () => {
    const r = run(`${HEAD}@nki.jit(mode="simulation")
def copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
copy(np.arange(128 * 64, dtype=np.float32).reshape(128, 64))
`);
    const [sim] = r.simulations;
    expect(sim.inputs[0].data.length).toBe(8192);
    expect(sim.outputs[0].data[8191]).toBe(8191);
    expect(sim.outputs[0].mean).toBe(4095.5);
  });

  test("tensors above 4M elements carry no data (benchmark placeholders are not materialised)", () => {
    const r = run(`${HEAD}import neuronxcc.nki.typing as nt
@nki.benchmark
def big(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out[0:128, 0:4], value=nl.load(x[0:128, 0:4]))
    return out
big(nt.tensor[[2048, 2049], nl.float32])
`);
    expect(r.exitCode).toBe(0);
    const [sim] = r.simulations;
    for (const t of [sim.inputs[0], sim.outputs[0]]) {
      expect(t).toMatchObject({ shape: [2048, 2049], dtype: "float32", data: null, min: null, max: null, mean: null });
    }
  });

  test("device_print and never-written reads: printed as before, recorded with positions", () => {
    const r = run(`${HEAD}@nki.jit(mode="simulation")
def half(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    buf[0:64, :] = nl.load(x[0:64, :])
    nl.device_print("first", nl.load(x[0:1, 0:2]))
    nl.store(out, value=buf)
    return out
y = half(np.ones((128, 2), dtype=np.float32))
`);
    expect(r.exitCode).toBe(0);
    expect(py.out).toBe("first [[1. 1.]]\n");
    const [sim] = r.simulations;
    expect(sim.prints).toEqual([{ text: "first [[1. 1.]]", file: "r.py", line: 9, col: 5 }]);
    expect(sim.warnings).toHaveLength(1);
    expect(sim.warnings[0]).toMatchObject({ file: "r.py", line: 10, col: 5, code: "unwritten-read" });
    expect(sim.warnings[0].message).toMatch(/^reading memory that was never written: 'store' reads `buf\[64, 0\]`/);
    expect(py.err).toBe(`r.py:10:5: warning: ${sim.warnings[0].message}\n`);
    const [o] = sim.outputs;
    expect(o.nan_count).toBe(128);
    expect(o).toMatchObject({ min: 1, max: 1, mean: 1 });
  });

  test("a dynamic loop run with a trip count below one: its warning's code", () => {
    const r = run(`${HEAD}from neuronxcc.nki.typing import scalar
@nki.jit(mode="simulation")
def rep(x, n):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    acc = nl.load(x)
    for _ in range(scalar(nl.load(n))):
        acc[...] = nl.add(acc, 1.0)
    nl.store(out, value=acc)
    return out
y = rep(np.zeros((1, 2), dtype=np.float32), np.array([[0]], dtype=np.int32))
`);
    expect(r.exitCode).toBe(0);
    const [w] = r.simulations[0].warnings;
    expect(w).toMatchObject({ file: "r.py", line: 9, code: "dynamic-trip" });
    expect(w.message).toBe("dynamic loop trip count is 0; the loop runs once (On-chip while loop cannot scale to zero)");
    expect(py.err).toBe(`r.py:9:${w.col}: warning: ${w.message}\n`);
  });

  test("comparisons with a simulated output: allclose, array_equal, testing.*", () => {
    const r = run(`${HEAD}@nki.jit(mode="simulation")
def inc(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.add(nl.load(x), 1.0))
    return out
a = np.arange(4, dtype=np.float32).reshape(2, 2)
y = inc(a)
print(np.allclose(y, a + 1), np.array_equal(a, y))
np.testing.assert_array_equal(y[0:1], (a + 1)[0:1])
print(np.allclose(a, a), np.isclose(y, a + 1).all())
np.testing.assert_allclose(y, a + 1.5, atol=0.1)
`);
    expect(py.out).toBe("True False\nTrue True\n");
    expect(r.exitCode).toBe(1);
    const cs = r.simulations[0].comparisons;
    expect(cs.map((c) => [c.label, c.ok, c.max_abs_err, c.line])).toEqual([
      ["print(np.allclose(y, a + 1), np.array_equal(a, y))", true, 0, 11],
      ["print(np.allclose(y, a + 1), np.array_equal(a, y))", false, 1, 11],
      ["np.testing.assert_array_equal(y[0:1], (a + 1)[0:1])", true, 0, 12],
      ["print(np.allclose(a, a), np.isclose(y, a + 1).all())", true, 0, 13],
      ["np.testing.assert_allclose(y, a + 1.5, atol=0.1)", false, 0.5, 14],
    ]);
    expect([...cs[1].actual.data]).toEqual([1, 2, 3, 4]); // the output side is "actual"
    expect([...cs[1].expected.data]).toEqual([0, 1, 2, 3]);
    expect(r.diagnostics).toMatchObject([{ class: "AssertionError", line: 14, col: 1 }]);
    expect(r.diagnostics[0].message).toContain("Mismatched elements: 4 / 4");
  });
});

describe("comparisons see what was compared", () => {
  test("an output changed by the script after the simulation is compared as changed", () => {
    const r = run(`${HEAD}@nki.jit(mode="simulation")
def inc(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.add(nl.load(x), 1.0))
    return out
a = np.zeros((2, 2), dtype=np.float32)
y = inc(a)
y[0, 0] = 5.0
print(np.allclose(y, a + 1))
`);
    expect(py.out).toBe("False\n");
    const [c] = r.simulations[0].comparisons;
    expect([...c.actual.data]).toEqual([5, 1, 1, 1]);
    expect([...r.simulations[0].outputs[0].data]).toEqual([1, 1, 1, 1]); // as simulated
    expect(c.max_abs_err).toBe(4);
  });
});

describe("traces and comparisons of large arrays", () => {
  test("a kernel traced twice to the same IR is listed once; another shape is another trace", () => {
    const r = run(`${HEAD}import neuronxcc.nki.typing as nt
@nki.jit
def copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
nki.trace_kernel(copy, nt.tensor[[4, 8], nl.float32])
nki.simulate_kernel(copy, np.zeros((4, 8), dtype=np.float32))
nki.simulate_kernel(copy, np.zeros((2, 8), dtype=np.float32))
`);
    expect(r.exitCode).toBe(0);
    expect(r.traces).toHaveLength(2);
    expect(r.traces[0].text).toContain("f32[4,8]");
    expect(r.traces[1].text).toContain("f32[2,8]");
    // traced for display (and simulated to the same IR) vs traced only to simulate
    expect(r.traces.map((t) => t.simulated)).toEqual([false, true]);
    expect(r.simulations).toHaveLength(2);
  });

  test("isclose on ≥ 1024 elements (whole-array ufuncs) answers as the per-element path", () => {
    run(`import math
import numpy as np
import numpy_standin._functions as F
np.random.seed(1)
a = np.random.standard_normal((40, 64)).astype(np.float32)
b = a + np.random.standard_normal((40, 64)).astype(np.float32) * 1e-5
for i, (p, q) in enumerate([(math.nan, math.nan), (math.inf, math.inf), (math.inf, 1.0),
                            (1.0, math.inf), (math.nan, 1.0), (-math.inf, math.inf)]):
    a[0, i], b[0, i] = p, q
same = []
for equal_nan in (False, True):
    for rtol, atol in ((1e-5, 1e-8), (0, 0), (1e-3, 0)):
        for x in (a, a[0:1]):
            bulk = F.isclose(x, b, rtol, atol, equal_nan)
            F._BULK = 10 ** 9
            slow = F.isclose(x, b, rtol, atol, equal_nan)
            F._BULK = 1024
            same.append(bulk.tolist() == slow.tolist())
print(all(same), len(same), np.array_equal(a, a), np.array_equal(b, b + 1))
`);
    expect(py.err).toBe("");
    expect(py.out).toBe("True 12 False False\n"); // a holds NaNs: not equal to itself
  });
});

describe("decoding (results.mjs)", () => {
  test("dtype conversion to float32", () => {
    const u8 = (arr) => new Uint8Array(arr.buffer);
    expect([...toFloat32(u8(new Uint16Array([0x3f80, 0xc000])), "bfloat16", 2)]).toEqual([1, -2]);
    expect([...toFloat32(u8(new Uint16Array([0x3c00, 0x7c00, 0x0001])), "float16", 3)]).toEqual([1, Infinity, 2 ** -24]);
    expect([...toFloat32(new Uint8Array([0x38, 0xb8]), "float8_e4m3", 2)]).toEqual([1, -1]);
    expect([...toFloat32(u8(new BigInt64Array([-3n, 5n])), "int64", 2)]).toEqual([-3, 5]);
    expect([...toFloat32(new Uint8Array([1, 0]), "bool", 2)]).toEqual([1, 0]);
    expect(toFloat32(new Uint8Array(4), "complex64", 1)).toBe(null);
  });

  test("NaN-aware statistics and max error", () => {
    expect(stats(new Float32Array([1, NaN, 3]))).toEqual({ min: 1, max: 3, mean: 2, nan_count: 1 });
    expect(stats(new Float32Array([NaN]))).toEqual({ min: null, max: null, mean: null, nan_count: 1 });
    expect(maxAbsError(new Float32Array([1, NaN]), new Float32Array([1.5, NaN]))).toBe(0.5);
    expect(maxAbsError(new Float32Array([1, 2]), new Float32Array([1, NaN]))).toBe(Infinity);
    expect(maxAbsError(new Float32Array([2]), new Float32Array([1, 4]))).toBe(2);
    expect(maxAbsError(new Float32Array([1, 2]), new Float32Array([1, 2, 3]))).toBe(null);
  });
});
