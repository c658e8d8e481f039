// The Beta 1 front end: how Python control flow in a kernel becomes scope regions.
import { describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const py = pythonHarness("cf.py");

const HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
from neuronxcc.nki.typing import scalar
A = nt.tensor[[512, 512], nl.float32]
`;

/** Traces `kernel k(a)` (given as source) and returns its IR text. */
function ir(body, { args = "A", sig = "def k(a):", prelude = "", grid = "" } = {}) {
  return py.irText(`${HEAD}${prelude}@nki.jit\n${sig}\n${body}\nnki.trace_kernel(k${grid}, ${args})\n`);
}

/** The region lines of an IR text, indentation kept, locations dropped. */
const regions = (text) =>
  text
    .split("\n")
    .filter((l) => /Scope|ScopeRegion/.test(l))
    .map((l) => l.replace(/\s+@ .*$/, ""));

const TILE = "a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]]";

describe("if", () => {
  test("a condition on loop variables traces both branches into IfScopes", () => {
    const text = ir(`    for i in nl.affine_range(4):
        t = nl.load(${TILE})
        if i < 2:
            u = nl.add(t, 1.0)
        elif i == 2:
            u = nl.add(t, 2.0)
        else:
            u = nl.add(t, 3.0)
    return None`);
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    LoopScope affine %i in [0, 4) trip 4 {",
      "      AllocationScope {",
      "        IfScope %i < 2 {",
      "        IfScope else {",
      "          IfScope %i == 2 {",
      "          IfScope else {",
    ]);
    expect(text.match(/tensor_scalar/g).length).toBe(3);
  });

  test("conditions combine with & and mix loop variables and program ids", () => {
    const text = ir(
      `    for i in nl.affine_range(2):
        for j in nl.sequential_range(2):
            if (i + j < 3) & (nl.program_id(0) > 0):
                t = nl.load(${TILE})
    return None`,
      { grid: "[2]" },
    );
    expect(text).toContain("IfScope (%i + %j < 3) & (%pid0 > 0) {");
  });

  test("long elif chains trace in linear time and branches may reuse names without warnings", () => {
    const chain = Array.from({ length: 30 }, (_, i) =>
      `    ${i ? "elif" : "if"} n == ${i}:\n        u = nl.add(t, ${i}.0)\n`).join("");
    const t0 = performance.now();
    const text = ir(`    t = nl.load(a[0:128, :])\n${chain}    else:\n        u = nl.add(t, -1.0)\n    return None`, {
      sig: "def k(a, n):",
      args: "A, 29",
    });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(text.match(/tensor_scalar/g).length).toBe(1);
    const branches = ir(`    for i in nl.affine_range(4):
        t = nl.load(${TILE})
        if i < 1:
            u = nl.add(t, 1.0)
        else:
            u = nl.add(t, 2.0)
    return None`);
    expect(branches).toContain("IfScope else {");
    expect(py.err).not.toContain("shadowing");
  });

  test("a condition on Python values is plain Python: no region", () => {
    const text = ir(
      `    if flag:
        t = nl.load(a[0:128, :])
    else:
        t = nl.load(a[128:256, :])
    return None`,
      { sig: "def k(a, flag):", args: "A, False" },
    );
    expect(text).not.toContain("IfScope");
    expect(text).toContain("%a[p + 128, f]");
  });
});

describe("loops", () => {
  test("Python range is a sequential loop; static_range and plain iterables unroll", () => {
    const text = ir(`    for i in range(2):
        t = nl.load(${TILE})
    for s in nl.static_range(2):
        u = nl.load(a[s * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])
    for s in [2, 3]:
        v = nl.load(a[s * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])
    return None`);
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    LoopScope sequential %i in [0, 2) trip 2 {",
      "      AllocationScope {",
    ]);
    for (const row of ["p + 128", "p + 256", "p + 384"]) expect(text).toContain(`%a[${row}, f]`);
  });

  test("range(scalar(t)) loops a run-time number of times (a DynamicAxis)", () => {
    const text = ir(
      `    n = nl.load(counts[0:1, 0:1])
    for _ in range(scalar(n)):
        t = nl.load(a[0:128, :])
    return None`,
      { sig: "def k(a, counts):", args: "A, nt.tensor[[1, 1], nl.int32]" },
    );
    expect(regions(text)).toContain("    LoopScope dynamic %_ trip %n {");
  });

  test("break and return leave traced loops closed", () => {
    const text = ir(`    out = nl.ndarray((128, 512), nl.float32, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(${TILE})
        nl.store(out, t)
        break
    for j in nl.affine_range(2):
        return out`);
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    LoopScope affine %i in [0, 4) trip 4 {",
      "      AllocationScope {",
      "    LoopScope affine %j in [0, 2) trip 2 {",
      "      AllocationScope {",
    ]);
  });
});

describe("while", () => {
  test("NKI's do-while form becomes a WhileScope with its continue condition", () => {
    const text = ir(
      `    t = nl.load(a[0:128, :])
    probe = nl.ndarray((1, 1), nl.float32, buffer=nl.sbuf)
    go = scalar(True)
    while go:
        t[...] = nl.multiply(t, 0.5)
        probe[...] = t[0:1, 0:1]
        go = scalar(probe) > 1.0
    return None`,
    );
    expect(regions(text)).toContain("    WhileScope continue_if %probe > 1.0 {");
  });

  test("a while over Python values loops as Python", () => {
    const text = ir(`    n = 0
    while n < 3:
        t = nl.load(a[n * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])
        n += 1
    return None`);
    expect(text).not.toContain("WhileScope");
    expect(text.match(/dma\.load/g).length).toBe(3);
  });
});

describe("calls", () => {
  test("helpers that emit get a FunctionScope; helpers that only compute do not", () => {
    const text = ir(
      `    n = tiles(a)
    for i in nl.affine_range(n):
        t = bump(nl.load(${TILE}))
    return None`,
      {
        prelude: `def tiles(x):
    return x.shape[0] // 128

def bump(t, by=1.0):
    return nl.add(t, by)

`,
      },
    );
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    LoopScope affine %i in [0, 4) trip 4 {",
      "      AllocationScope {",
      "        FunctionScope @bump {",
    ]);
  });

  test("a helper that calls itself gets a FunctionScope at every depth that emits", () => {
    const text = ir(
      `    t = nl.load(${TILE.replace("i * 128 + ", "")})
    t = scaled(t, 3)
    return None`,
      {
        prelude: `def scaled(t, n):
    if n == 0:
        return t
    return scaled(nl.multiply(t, 2.0), n - 1)

`,
      },
    );
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    FunctionScope @scaled {",
      "      FunctionScope @scaled {",
      "        FunctionScope @scaled {",
    ]);
    expect(text.match(/multiply/g)).toHaveLength(3);
  });

  test("a trace-mode kernel called inside a kernel is a FunctionScope with control flow of its own", () => {
    const text = ir(
      `    for i in nl.affine_range(2):
        t = nl.load(${TILE})
        u = inner(t, i)
    return None`,
      {
        prelude: `@nki.jit(mode="trace")
def inner(t, i):
    if i < 1:
        return nl.add(t, 1.0)
    return nl.add(t, 2.0)

`,
      },
    );
    expect(regions(text)).toEqual([
      "  KernelScope @k {",
      "    LoopScope affine %i in [0, 2) trip 2 {",
      "      AllocationScope {",
      "        FunctionScope @inner {",
      "          IfScope %i < 1 {",
    ]);
  });

  test("closures, defaults, keyword-only arguments and nested defs trace", () => {
    const text = ir(
      `    scale = 2.0
    def twice(t):
        return nl.multiply(t, scale)
    t = nl.load(a[0:rows, :])
    return None if twice(t) is None else None`,
      { sig: "def k(a, *, rows=64):" },
    );
    expect(text).toContain("FunctionScope @twice {");
    expect(text).toContain("%a[p, f]");
    expect(text).toContain("sbuf f32[64,512]");
  });
});

describe("statements", () => {
  test("every statement is its own StmtScope, even two on one line; ops keep their column", () => {
    const src = `${HEAD}@nki.jit\ndef k(a):\n    t = nl.load(a[0:128, :]); u = nl.add(t, 1.0)\n    return None\nnki.trace_kernel(k, A)\n`;
    const { exitCode, traces } = py.run(src, "st.py");
    expect(exitCode).toBe(0);
    const recs = traces[0].records.filter((r) => r.op_id >= 0);
    expect(recs.map((r) => `${r.loc.line}:${r.loc.col}`)).toEqual(["9:9", "9:35"]);
    const stmts = traces[0].ir.body.body.map((i) => i.stmt);
    expect(new Set(stmts).size).toBe(2);
  });
});

describe("rewritten kernels are cached per file", () => {
  test("the same kernel in two files, differing only in an annotation, traces each as written", () => {
    // Equal code objects (an annotation is not in a function's code) once shared one rewrite.
    const kernel = (cols) => `${HEAD}@nki.jit\ndef k(a):\n    t: nt.tensor[128, ${cols}] = nl.load(a[0:128, :])\n    return None\nnki.trace_kernel(k, A)\n`;
    const bad = py.run(kernel(513), "one.py");
    expect(bad.exitCode).toBe(1);
    expect(py.err).toContain("one.py:9:");
    const good = py.run(kernel(512), "two.py");
    expect(py.err).toBe("");
    expect(good.exitCode).toBe(0);
  });
});
