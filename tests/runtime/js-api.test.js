// The JS API users' CI imports (docs/js-api.md): createRuntime() from node.mjs, trace() and
// simulate(), NkiScriptError — real Pyodide and the real wasm core.
import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, test } from "vitest";

import { createRuntime, NkiScriptError } from "../../runtime/node.mjs";
import { toHalf } from "../../runtime/simulate.mjs";

const kernel = (name) => readFileSync(new URL(`../../kernels/${name}.py`, import.meta.url), "utf8");

let runtime;
beforeAll(async () => {
  runtime = await createRuntime({ stdout: () => {}, stderr: () => {} });
});

/** Deterministic values in [-2, 2) (a small LCG; no Math.random in tests). */
function values(n, seed) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 4 - 2;
  }
  return out;
}

function softmaxRows(x, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = x.subarray(r * cols, (r + 1) * cols);
    const peak = Math.max(...row);
    let total = 0;
    for (let c = 0; c < cols; c++) total += Math.exp(row[c] - peak);
    for (let c = 0; c < cols; c++) out[r * cols + c] = Math.exp(row[c] - peak) / total;
  }
  return out;
}

function maxDiff(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

describe("trace", () => {
  test("returns every kernel the script traces", () => {
    const traces = runtime.trace(kernel("softmax"), { filename: "softmax.py" });
    expect(traces.map((t) => t.kernel)).toContain("softmax");
    expect(traces[0].text).toContain("KernelScope");
  });

  test("a failing script throws NkiScriptError with the rendered diagnostics", () => {
    const src = "import neuronxcc.nki.language as nl\n\nnl.load(1)\n";
    let error;
    try {
      runtime.trace(src, { filename: "bad.py" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NkiScriptError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(/^bad\.py:3:1: error: RuntimeError: calling NKI API outside of NKI kernels/);
    expect(error.diagnostics).toMatchObject([{ severity: "error", file: "bad.py", line: 3, col: 1 }]);
    expect(error.stderr).toBe(`${error.message}\n`);
  });
});

describe("simulate", () => {
  test("tensor_add with positional inputs over a grid equals a + b", () => {
    const a = values(256 * 512, 1);
    const b = values(256 * 512, 2);
    const r = runtime.simulate(kernel("tensor_add"), [{ data: a, shape: [256, 512] }, { data: b, shape: [256, 512] }], { grid: [2] });
    expect(r.outputs).toHaveLength(1);
    const [out] = r.outputs;
    expect(out).toMatchObject({ shape: [256, 512], dtype: "float32" });
    expect(out.data).toBeInstanceOf(Float32Array);
    const want = a.map((x, i) => x + b[i]);
    expect(maxDiff(out.data, want)).toBe(0);
    expect(r.traces.map((t) => t.kernel)).toEqual(["tensor_add"]);
  });

  test("inputs by parameter name; the script's __main__ block does not run", () => {
    const src = `${kernel("tensor_add")}\nif __name__ == "__main__":\n    raise SystemExit("main ran")\n`;
    const a = values(128 * 512, 3);
    const r = runtime.simulate(src, { b_input: { data: a, shape: [128, 512] }, a_input: { data: a, shape: [128, 512] } }, { grid: 1 });
    expect(maxDiff(r.outputs[0].data, a.map((x) => 2 * x))).toBe(0);
    expect(r.stdout).toBe("");
  });

  test("softmax on nested JS arrays and on a typed array matches a JS reference", () => {
    const rows = 200;
    const cols = 64;
    const x = values(rows * cols, 4);
    const r = runtime.simulate(kernel("softmax"), [{ data: x, shape: [rows, cols] }]);
    expect(maxDiff(r.outputs[0].data, softmaxRows(x, rows, cols))).toBeLessThan(1e-6);
    const nested = runtime.simulate(kernel("softmax"), [[[0, Math.log(3)], [1, 1]]]);
    expect([...nested.outputs[0].data].map((v) => +v.toFixed(6))).toEqual([0.25, 0.75, 0.5, 0.5]);
  });

  test("int32 in, int32 out; device_print comes back as prints", () => {
    const src = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def twice(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.multiply(nl.load(x), 2)
    nl.device_print("t", t)
    nl.store(out, value=t)
    return out
`;
    const r = runtime.simulate(src, [{ data: new Int32Array([1, 2, 3, 4]), shape: [2, 2] }]);
    expect(r.outputs[0].data).toBeInstanceOf(Int32Array);
    expect([...r.outputs[0].data]).toEqual([2, 4, 6, 8]);
    expect(r.prints).toEqual([{ text: "t [[2 4]\n [6 8]]", file: "kernel.py", line: 8, col: 5 }]);
    expect(r.stdout).toBe("t [[2 4]\n [6 8]]\n");
  });

  test("an unknown kernel name throws, listing the script's kernels", () => {
    expect(() => runtime.simulate(kernel("softmax"), [[[1]]], { kernel: "nope" })).toThrow(
      /no kernel named 'nope'; its @nki\.jit kernels: softmax/,
    );
    const two = `${kernel("softmax")}\n@nki.jit\ndef other(x):\n    return x\n`;
    expect(() => runtime.simulate(two, [[[1]]])).toThrow(/several @nki\.jit kernels \(other, softmax\)/);
  });

  test("a shape the kernel cannot take fails with NKI's own message at the kernel's line", () => {
    const a = new Float32Array(100 * 512);
    let error;
    try {
      runtime.simulate(kernel("tensor_add"), [{ data: a, shape: [100, 512] }, { data: a, shape: [100, 512] }], { grid: [1], filename: "tensor_add.py" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NkiScriptError);
    expect(error.message).toMatch(/^tensor_add\.py:\d+:\d+: error: IndexError: Out-of-bound access for tensor `a_input` on dimension 0/);
    expect(error.diagnostics[0]).toMatchObject({ severity: "error", class: "IndexError", file: "tensor_add.py" });
  });

  test("float16 inputs are rounded to nearest even; bfloat16 and float8 inputs are codes or values to round", () => {
    expect([1, -2, 65504, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -25, 1 + 2 ** -11, 1 + 3 * 2 ** -11, NaN].map(toHalf)).toEqual(
      [0x3c00, 0xc000, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x0002, 0x3c00, 0x3c02, 0x7e00],
    );
    const copy = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out
`;
    const r = runtime.simulate(copy, [{ data: [1.5, -2, 0.1, 1e-7], shape: [2, 2], dtype: "float16" }]);
    expect(r.outputs[0].dtype).toBe("float16");
    expect([...r.outputs[0].data]).toEqual([1.5, -2, 0.0999755859375, 1.1920928955078125e-7]);
    // Raw codes pass bit for bit; outputs carry their codes (bits) beside their values (data).
    const codes = runtime.simulate(copy, [{ data: new Uint16Array([0x3f80, 0x3f81, 0x7f80, 0xffc0]), shape: [2, 2], dtype: "bfloat16" }]);
    expect(codes.outputs[0].dtype).toBe("bfloat16");
    expect([...codes.outputs[0].bits]).toEqual([0x3f80, 0x3f81, 0x7f80, 0xffc0]);
    expect(codes.outputs[0].bits).toBeInstanceOf(Uint16Array);
    expect([...codes.outputs[0].data]).toEqual([1, 1.0078125, Infinity, NaN]);
    // Values are cast as ml_dtypes casts (expected codes from ml_dtypes 0.5.4).
    const values = runtime.simulate(copy, [{ data: [1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.4e38, -0.1], shape: [2, 2], dtype: "bfloat16" }]);
    expect([...values.outputs[0].bits]).toEqual([0x3f80, 0x3f82, 0x7f80, 0xbdcd]);
    const fp8 = runtime.simulate(copy, [{ data: Float32Array.from([0.1, 240, 250, -1e-3]), shape: [2, 2], dtype: "float8_e4m3" }]);
    expect(fp8.outputs[0].dtype).toBe("float8_e4m3");
    expect([...fp8.outputs[0].bits]).toEqual([29, 119, 120, 129]);
    expect([...fp8.outputs[0].data]).toEqual([0.1015625, 240, Infinity, -0.001953125]);
    expect(() => runtime.simulate(copy, [{ data: new Int32Array([1]), shape: [1, 1], dtype: "bfloat16" }])).toThrow(
      /bfloat16 data must be its raw codes \(a Uint16Array\) or values to round/,
    );
    expect(() => runtime.simulate(copy, [{ data: [1], shape: [1, 1], dtype: "tfloat32" }])).toThrow(/pass float32/);
    expect(() => runtime.simulate(copy, [{ data: new Uint8Array([0x38]), shape: [1, 1], dtype: "float8_e4m3fn" }])).toThrow(
      /parameter 'x' is a float8_e4m3fn array; NKI Beta 1 kernels take float8_e4m3/,
    );
  });

  test("inputs that are not tensors are a TypeError before anything runs", () => {
    expect(() => runtime.simulate(kernel("softmax"), [{ data: [1, 2, 3], shape: [2, 2] }])).toThrow(TypeError);
    expect(() => runtime.simulate(kernel("softmax"), [[[1, 2], [3]]])).toThrow(/ragged/);
    expect(() => runtime.simulate(kernel("softmax"), "x")).toThrow(/inputs must be an array/);
  });
});
