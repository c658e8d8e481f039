// The current NKI language (`import nki`, NKI 0.6.0) everywhere the product runs headlessly: the
// language of a file is told by its imports alike in JS (render/language.js) and Python
// (nki_playground.languages); the JS API (trace, simulate) and the CLI (run, trace, check) take
// either language per file — real Pyodide, the real wasm core, the CLI as a child process.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { beforeAll, describe, expect, test } from "vitest";

import { detectLanguage, detectLanguages } from "../../render/language.js";
import { createRuntime, NkiScriptError } from "../../runtime/node.mjs";
import { ROOT, cli } from "./cli-harness.js";

const kernel = (name) => readFileSync(join(ROOT, "kernels", `${name}.py`), "utf8");

let runtime;
beforeAll(async () => {
  runtime = await createRuntime({ stdout: () => {}, stderr: () => {} });
});

/** Deterministic values in [-2, 2) (a small LCG). */
function values(n, seed) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 4 - 2;
  }
  return out;
}

const SOURCES = [
  ["import nki\nimport nki.language as nl\n", ["nki"]],
  ["import numpy as np\nfrom nki import isa as nisa\n", ["nki"]],
  ["import neuronxcc.nki as nki\n", ["beta1"]],
  ["from neuronxcc import nki\n", ["beta1"]],
  ["import os, nki.isa as nisa  # the current one\nimport neuronxcc.nki.language as bnl\n", ["nki", "beta1"]],
  ['"""import nki in a docstring is text"""\nx = 1\n', []],
  ["import nkipy\nimport neuronxcc_tools\n", []],
  ["def f():\n    import nki.language as nl\n", ["nki"]],
];

describe("a file's language, by its imports", () => {
  test.each(SOURCES)("%j", (source, want) => {
    expect(detectLanguages(source)).toEqual(want);
    const py = runtime.pyodide.runPython(
      `import json\nfrom nki_playground import languages\njson.dumps(languages.detect(${JSON.stringify(source)}))`,
    );
    expect(JSON.parse(py)).toEqual(want);
    expect(detectLanguage(source).id).toBe(want[0] ?? "beta1");
  });

  test("the docstring case is a real test: a bare import line is found", () => {
    expect(detectLanguages("x = 1\nimport nki\n")).toEqual(["nki"]);
  });
});

describe("the JS API", () => {
  test("simulate() runs the port of tensor_add on two logical cores: a + b", () => {
    const a = values(256 * 1024, 1);
    const b = values(256 * 1024, 2);
    const r = runtime.simulate(kernel("tensor_add_nki"), [{ data: a, shape: [256, 1024] }, { data: b, shape: [256, 1024] }], {
      grid: [2],
    });
    const [out] = r.outputs;
    expect(out).toMatchObject({ shape: [256, 1024], dtype: "float32" });
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(out.data[i] - Math.fround(a[i] + b[i])));
    expect(worst).toBe(0);
    expect(r.traces.map((t) => t.kernel)).toEqual(["tensor_add_nki"]);
    expect(r.traces[0].text).toMatch(/^kernel @tensor_add_nki\(.*\) -> \(%out\) nki 0\.6\.0 lnc 2 \{/);
  });

  test("simulate() of a run-time loop: int32 data sets the trip count", () => {
    const x = values(512 * 64, 3);
    const r = runtime.simulate(kernel("dynamic_rows_nki"), [{ data: x, shape: [512, 64] }, { data: new Int32Array([256]), shape: [1, 1] }]);
    const y = r.outputs[0].data;
    expect(y[0]).toBe(2 * x[0]);
    expect(y[256 * 64 - 1]).toBe(2 * x[256 * 64 - 1]);
    expect(y[256 * 64]).toBe(x[256 * 64]);
    expect(r.traces[0].text).toContain("LoopScope dynamic %i in [0, %n_rows) step 128 {");
  });

  test("a plain function becomes a kernel of its file's language", () => {
    const body = (head, copy) => `${head}
def double(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
${copy}
    return out
`;
    const current = body(
      "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n",
      "    t = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)\n    nisa.dma_copy(dst=t, src=x)\n" +
        "    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0)\n    nisa.dma_copy(dst=out, src=t)",
    );
    const beta1 = body("import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n", "    nl.store(out, value=nl.multiply(nl.load(x), 2.0))");
    for (const src of [current, beta1]) {
      const r = runtime.simulate(src, [[[1, 2], [3, 4]]], { kernel: "double" });
      expect([...r.outputs[0].data]).toEqual([2, 4, 6, 8]);
    }
    expect(runtime.simulate(current, [[[1]]], { kernel: "double" }).traces[0].text).toMatch(/nki 0\.6\.0 \{/);
    expect(runtime.simulate(beta1, [[[1]]], { kernel: "double" }).traces[0].text).not.toMatch(/nki 0\.6\.0/);
  });

  test("a multi-dimensional grid is NKI's error; the next call works", () => {
    const a = values(256 * 1024, 4);
    const input = { data: a, shape: [256, 1024] };
    let error;
    try {
      runtime.simulate(kernel("tensor_add_nki"), [input, input], { grid: [2, 1], filename: "tensor_add_nki.py" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NkiScriptError);
    expect(error.message).toMatch(/error: \w+Error: .*The bracket syntax must contain only one number/);
    expect(runtime.simulate(kernel("tensor_add_nki"), [input, input], { grid: [2] }).outputs[0].data[5]).toBe(2 * a[5]);
  });

  test("trace() of a kernel the parser front end rejects throws at the user's line", () => {
    const src = "import nki\nimport nki.language as nl\n\n@nki.jit\ndef k(a):\n    for i, j in ((1, 2),):\n        pass\n    return a\n\nk(None)\n";
    let error;
    try {
      runtime.trace(src, { filename: "tuple_for.py" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NkiScriptError);
    expect(error.message).toMatch(/^tuple_for\.py:6:9: error: SyntaxError: expecting simple variable/);
    expect(error.diagnostics.find((d) => d.severity === "error")).toMatchObject({ file: "tuple_for.py", line: 6, col: 9 });
    expect(error.message).not.toMatch(/\/nki\/python|_frontend|_kernel\.py/);
  });
});

describe("the CLI", () => {
  test("run --ir text: the script's output, then the current-language IR", async () => {
    const { code, stdout, stderr } = await cli(["run", "--ir", "text", "kernels/matmul_nki.py"]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^simulated matmul_nki matches NumPy: True\nkernel @matmul_nki\(%a_t: hbm f32\[256,128\], %b: hbm f32\[256,512\]\) -> \(%c\) nki 0\.6\.0 \{/);
    expect(stdout).toMatch(/tensor\.nc_matmul %acc, %lhs_t\.1, %rhs\.1 \{accumulate = auto\} +@ matmul_nki\.py:\d+:\d+/);
  });

  test("trace takes files of both languages in one runtime; JSON carries the language", async () => {
    const { code, stdout, stderr } = await cli(["trace", "--format", "json", "kernels/tensor_add.py", "kernels/tensor_add_nki.py"]);
    expect(code, stderr).toBe(0);
    const kernels = JSON.parse(stdout);
    expect(kernels.map((k) => k.kernel)).toEqual(["tensor_add", "tensor_add_nki"]);
    expect(kernels[0].language).toBeUndefined();
    expect(kernels.slice(1).map((k) => [k.language, k.lnc])).toEqual([["nki 0.6.0", 2]]);
  });

  test("a failing current-language script: file:line:col, the source line and a caret; exit 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-cur-"));
    const file = join(dir, "ops.py");
    writeFileSync(
      file,
      "import numpy as np\nimport nki\nimport nki.language as nl\n\n@nki.jit\ndef k(a):\n" +
        "    t = nl.ndarray((4, 4), dtype=nl.float32, buffer=nl.sbuf)\n    u = t * 2.0\n    return a\n\n" +
        "k(np.zeros((4, 4), np.float32))\n",
    );
    const { code, stderr } = await cli(["run", file]);
    expect(code).toBe(1);
    expect(stderr).toContain("ops.py:8:9: error: TypeError: binary operators on tensors not supported. Use nki.isa directly.");
    expect(stderr).toMatch(/\n {4}u = t \* 2\.0\n {4} {4}\^/);
    expect(stderr).not.toMatch(/\/nki\/python|_frontend|_kernel\.py/);
  });

  test("check runs a Markdown example written in the current language", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-cur-doc-"));
    const doc =
      "# A port\n\n```python nki-playground\nimport numpy as np\nimport nki\nimport nki.language as nl\nimport nki.isa as nisa\n\n" +
      "@nki.jit\ndef copy(a):\n    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n" +
      "    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)\n    nisa.dma_copy(dst=t, src=a)\n" +
      "    nisa.dma_copy(dst=out, src=t)\n    return out\n\nprint(copy(np.ones((2, 3), np.float32)).sum())\n```\n\n" +
      "```text nki-expect-output\n6.0\n```\n";
    writeFileSync(join(dir, "port.md"), doc);
    const { code, stdout } = await cli(["check", "port.md"], { cwd: dir });
    expect(stdout).toBe("check: 1 example(s) in 1 file(s): 1 passed\n");
    expect(code).toBe(0);
  });
});
