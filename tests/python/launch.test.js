// The launch layer below both languages (python/nki_playground/launch.py) in real Pyodide on the
// real core: the same kernel written in NKI Beta 1 and in the current language, simulated through
// it, reports the same; and the defects the two copies it replaced had grown (issue 30).
import { describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const h = pythonHarness("kernel.py");

const BETA1 = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
`;

const CURRENT = `import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa
`;

/** One kernel: doubles a (2, 4) float32 tile, prints it, and divides an int tile by zero. */
const KERNELS = {
  beta1: `${BETA1}
@nki.jit(mode="simulation")
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    u = nl.multiply(t, 2.0)
    nl.device_print("u =", u)
    nl.store(out, value=u)
    return out
run = k
`,
  current: `${CURRENT}
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0)
    nl.device_print("u =", t)
    nisa.dma_copy(dst=out, src=t)
    return out
run = nki.simulate(k)
`,
};

const CALL = `
a = np.arange(8, dtype=np.float32).reshape(2, 4)
c = run(a)
print(type(c).__name__, c.dtype, c.tolist())
`;

describe("one launch layer for both languages", () => {
  test("the same kernel in Beta 1 and in the current language simulates, prints and records alike", () => {
    const seen = {};
    for (const [lang, src] of Object.entries(KERNELS)) {
      const r = h.run(src + CALL);
      expect(r.exitCode, r.err).toBe(0);
      const [sim] = r.simulations;
      seen[lang] = {
        out: r.out,
        kernel: sim.kernel,
        inputs: sim.inputs.map((t) => [t.name, t.shape, t.dtype, [...t.data]]),
        outputs: sim.outputs.map((t) => [t.shape, t.dtype, [...t.data]]),
        prints: sim.prints.map((p) => [p.text, p.file, p.col]),
        warnings: sim.warnings,
        dropped: [sim.prints_dropped, sim.warnings_dropped],
      };
    }
    expect(seen.beta1.out).toBe("u = [[ 0.  2.  4.  6.]\n [ 8. 10. 12. 14.]]\nndarray float32 [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0]]\n");
    expect(seen.current).toEqual(seen.beta1);
    expect(seen.current.prints).toEqual([["u = [[ 0.  2.  4.  6.]\n [ 8. 10. 12. 14.]]", "kernel.py", 5]]);
  });

  test("each language hands the launch layer its version as data: name, label, tag, defaults", () => {
    const got = h.py(
      `import os, sys
_cur, _b1 = sys.modules["nki._kernel"], sys.modules["neuronxcc.nki._simulate"]
def _facts(l):
    return [l.name, l.label, l.version, l.core_tag, l.target, l.precise_fp(), l.write_back]
os.environ.pop("NKI_PRECISE_FP", None)
_facts_seen = [_facts(_cur.LANGUAGE), _facts(_b1.LANGUAGE)]`,
      "_facts_seen",
    );
    expect(got).toEqual([
      ["nki", "NKI 0.6.0", "0.6.0", "nki 0.6.0", "trn3", true, "written"],
      ["beta1", "NKI Beta 1", "beta1", undefined, "trn1", false, "outputs"],
    ]);
  });

  test("NKI_PLAYGROUND_SIM_PLAN=off asks the core for its plain interpreter, with the same result", () => {
    const r = h.run(`import os
${KERNELS.current}
from nki_playground import launch
import nki._kernel as _cur
os.environ["NKI_PLAYGROUND_SIM_PLAN"] = " OFF "
print(launch.sim_options(_cur.LANGUAGE, "trn3"))
${CALL}
os.environ["NKI_PLAYGROUND_SIM_PLAN"] = "on"
print(launch.sim_options(_cur.LANGUAGE, "trn3"))
`);
    expect(r.exitCode, r.err).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toBe("{'target': 'trn3', 'precise_fp': True, 'language': 'nki 0.6.0', 'plan': False}");
    expect(lines[3]).toBe("ndarray float32 [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0]]");
    expect(lines[4]).toBe("{'target': 'trn3', 'precise_fp': True, 'language': 'nki 0.6.0'}");
  });
});

describe("the copies' drift, mended", () => {
  test("the current language counts the device_print outputs past the cap and says so", () => {
    const r = h.run(`${CURRENT}
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    for i in nl.sequential_range(1200):
        nl.device_print("t", t)
    nisa.dma_copy(dst=out, src=t)
    return out
nki.simulate(k)(np.ones((1, 2), dtype=np.int32))
`);
    expect(r.exitCode, r.err).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe("t [[1 1]]");
    expect(lines[1000]).toBe("nki-playground: 200 more device_print outputs were not kept (the first 1000 are above)");
    expect(r.simulations[0].prints).toHaveLength(1000);
    expect(r.simulations[0].prints_dropped).toBe(200);
  });

  test("the current language prints bf16 device_print values as floats", () => {
    const r = h.run(`${CURRENT}
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
    u = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=u, src=a)
    nl.device_print("u =", u)
    nisa.dma_copy(dst=out, src=u)
    return out
nki.simulate(k)(np.array([[0.5, 1.5, 2.25, -3.75]], dtype=np.float32))
`);
    expect(r.exitCode, r.err).toBe(0);
    expect(r.out).toBe("u = [[0.5 1.5 2.25 -3.75]]\n");
  });

  test("the current language's warnings carry their column", () => {
    const src = `${CURRENT}
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.dynamic_range(1):
        nisa.dma_copy(dst=out, src=a)
    return out
nki.simulate(k)(np.ones((128, 4), np.float32))
`;
    const r = h.run(src);
    expect(r.exitCode, r.err).toBe(0);
    const [w] = r.diagnostics.filter((d) => d.severity === "warning");
    expect(w.code).toBe("dynamic-range-deprecated");
    expect([w.file, w.line, w.col]).toEqual(["kernel.py", 9, 5]);
  });

  test("dma_copy's address-space message names the spaces it takes (no '?')", () => {
    const r = h.run(`${CURRENT}
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    y = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.psum)
    nisa.dma_copy(dst=y, src=a)
    return out
nki.simulate(k)(np.ones((128, 4), np.float32))
`);
    expect(r.exitCode).toBe(1);
    const d = r.diagnostics.find((x) => x.severity === "error");
    expect(d.message).toBe("Expected operand 'dst' of 'dma_copy' to be in address space 'hbm|sbuf', but got a tile in 'psum' instead.");
  });

  test.each([
    ["beta1", `${BETA1}
def copy_tile(u, t):
    return u

@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    u = copy_tile(t, t, scale=2.0)
    nl.store(out, value=u)
    return out
nki.simulate_kernel(k, np.ones((2, 4), np.float32))
`],
    ["current", `${CURRENT}
def copy_tile(u, t):
    return u

@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    u = copy_tile(t, t, scale=2.0)
    return out
nki.simulate(k)(np.ones((2, 4), np.float32))
`],
  ])("%s: a helper called with a wrong keyword is named as the user wrote it", (_lang, src) => {
    const r = h.run(src);
    expect(r.exitCode).toBe(1);
    const d = r.diagnostics.find((x) => x.severity === "error");
    expect(`${d.class}: ${d.message}`).toBe("TypeError: copy_tile() got an unexpected keyword argument 'scale'");
    expect(r.err).not.toContain("__nki_");
  });

  test("a ScopeRegion kept after the trace stays a readable value; its repr never raises", () => {
    const r = h.run(`${BETA1}
from neuronxcc.nki.compiler.backends.neuron.nki_ctx import get_cur_scope
kept = []

@nki.jit(mode="simulation")
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        kept.append(get_cur_scope())
    nl.store(out, value=nl.load(a))
    return out

@nki.jit(mode="simulation")
def bad(a):
    for i in nl.affine_range(2):
        kept.append(get_cur_scope())
        raise ValueError("stop")

k(np.ones((2, 4), np.float32))
try:
    bad(np.ones((2, 4), np.float32))
except ValueError:
    pass
for s in kept:
    chain = []
    p = s
    while p is not None:
        chain.append(p.kind)
        p = p.parent
    print(repr(s).split(" @ ")[0], s.axis["name"] if s.axis else None, s.loc[1], chain)
`);
    expect(r.exitCode, r.err).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(l).toMatch(/^<(LoopScope|AllocationScope) #\d+/);
      expect(l).toMatch(/ \['AllocationScope', 'LoopScope', 'KernelScope'\]$/);
    }
  });
});
