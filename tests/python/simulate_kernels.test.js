// The example kernels end to end in Pyodide: each case of tests/sim/goldens/cases.json is traced
// by the Python surface, simulated by the wasm core on its .npy inputs (loaded by the numpy
// fallback) and compared with what real NumPy computed (tolerances per output dtype, stated in
// cases.json: float32 2e-5 relative + 1e-5, float16 2e-3 + 1e-3 (one ulp), integers exact).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CASES = JSON.parse(readFileSync(`${ROOT}tests/sim/goldens/cases.json`, "utf8"));

const h = pythonHarness("sim.py");

beforeAll(() => {
  process.chdir(ROOT);
  // Mounts the repository at its own path (as the CLI does for a script's folder).
  const r = h.runtime.runFile("tests/sim/sim_cases.py");
  expect(r.exitCode, h.err).toBe(0);
  h.runtime.pyodide.runPython(
    `import sys, json\nsys.path.insert(0, ${JSON.stringify(`${ROOT}tests/sim`)})\nimport sim_cases`,
  );
});

describe("example kernels match real NumPy on the simulator", () => {
  test.each(CASES.map((c, i) => [c.name, i]))("%s", (name, i) => {
    h.err = "";
    const report = JSON.parse(
      h.runtime.pyodide.runPython(`json.dumps(sim_cases.run(sim_cases.cases()[${i}]))`),
    );
    expect(report.name).toBe(name);
    for (const o of report.outputs) expect(o.first, `${name}: ${h.err}`).toBeNull();
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  test("the example kernels mask every step of their partial tiles: no never-written reads", () => {
    // (layernorm_bn still copies bn_stats' partial tile into its statistics buffer unmasked:
    // `dst[...] = op(...)` becomes op + copy rather than op writing dst.)
    for (const name of ["softmax", "rmsnorm"]) {
      h.err = "";
      const i = CASES.findIndex((c) => c.name === name);
      expect(i).toBeGreaterThanOrEqual(0);
      h.runtime.pyodide.runPython(`sim_cases.run(sim_cases.cases()[${i}])`);
      expect(h.err, name).not.toMatch(/never written/);
    }
  });
});
