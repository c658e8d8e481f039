// The numpy fallback's core-backed host arrays in Pyodide, against real NumPy: every expression
// of tests/sim/host_cases.py (seeded random draws, ufuncs with broadcasting, reductions,
// matmul, transposes and reshapes, creation, repeat, allclose, tolist) gives what NumPy gave
// (tests/sim/host_goldens; float64 1e-12, float32 1e-5 relative + 1e-6, float16 1e-3 + 1e-3,
// integers and booleans exact); large arrays live in the core and are freed with their arrays;
// .npy files round-trip.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GOLDENS = `${ROOT}tests/sim/host_goldens`;
const CASES = JSON.parse(readFileSync(`${GOLDENS}/cases.json`, "utf8"));

const h = pythonHarness("h.py");
const { py } = h;

beforeAll(() => {
  process.chdir(ROOT);
  const r = h.runtime.runFile("tests/sim/host_cases.py");
  expect(r.exitCode, h.err).toBe(0);
  py(`
import sys, json, math
sys.path.insert(0, ${JSON.stringify(`${ROOT}tests/sim`)})
import neuronxcc.nki  # installs the fallback as numpy
import numpy as np
import host_cases
_results = host_cases.evaluate_all(np)

def _compare(i, meta):
    got = _results[i]
    want = np.load(${JSON.stringify(GOLDENS)} + "/" + meta["file"])
    if tuple(got.shape) != tuple(want.shape) or str(got.dtype) != meta["dtype"]:
        return f"{meta['expr']}: got {got.dtype}{tuple(got.shape)}, want {meta['dtype']}{tuple(want.shape)}"
    rtol, atol = meta["tolerance"]
    g, w = got.reshape(-1).tolist(), want.reshape(-1).tolist()
    for k, (x, y) in enumerate(zip(g, w)):
        if isinstance(y, float) and (y != y or y in (math.inf, -math.inf)):
            ok = (x != x and y != y) or x == y
        else:
            ok = abs(x - y) <= atol + rtol * abs(y)
        if not ok:
            return f"{meta['expr']}: element {k}: got {x!r}, want {y!r}"
    return None
`);
});

describe("host arrays match real NumPy", () => {
  test.each(CASES.map((c, i) => [c.expr, i]))("%s", (expr, i) => {
    const problem = py("", `_compare(${i}, json.loads(${JSON.stringify(JSON.stringify(CASES[i]))}))`);
    expect(problem ?? null).toBeNull();
  });
});

describe("host array storage", () => {
  test("large arrays live in the core; small ones stay Python lists", () => {
    const kinds = py(
      "from numpy_standin._core_storage import CoreStorage",
      "[isinstance(np.zeros((64, 64))._store, CoreStorage), isinstance(np.zeros((4, 4))._store, CoreStorage)]",
    );
    expect(kinds).toEqual([true, false]);
  });

  test("core arrays are freed with their arrays", () => {
    const [before, during, after] = py(
      `
import gc, nki_core
gc.collect()
_b = nki_core.host_live_arrays()
_xs = [np.random.rand(100, 100) * 2 for _ in range(5)]
_d = nki_core.host_live_arrays()
del _xs
gc.collect()
_a = nki_core.host_live_arrays()`,
      "[_b, _d, _a]",
    );
    expect(during).toBeGreaterThanOrEqual(before + 5);
    expect(after).toBe(before);
  });

  test(".npy files round-trip through np.save / np.load", () => {
    const same = py(
      `
x = np.random.rand(50, 40).astype(np.float32)
np.save("/tmp/x.npy", x)
y = np.load("/tmp/x.npy")
s = np.arange(12, dtype=np.int16).reshape(3, 4)
np.save("/tmp/s", s)
t = np.load("/tmp/s.npy")`,
      "[y.dtype == x.dtype, y.shape == x.shape, bool((y == x).all()), t.tolist() == s.tolist(), str(t.dtype)]",
    );
    expect(same).toEqual([true, true, true, true, "int16"]);
  });

  test("unsupported numpy API still raises the fallback's clear error", () => {
    const msg = py(
      "try:\n    np.random.beta(1, 2)\n    _m = None\nexcept AttributeError as e:\n    _m = str(e)",
      "_m",
    );
    expect(msg).toContain("numpy.random.beta is not available in nki-playground's trace-time numpy fallback");
  });
});
