// The simulator's plan switched off through the JS API (docs/js-api.md, `simPlan`): every example
// kernel of kernels/ whose script simulates runs both ways through the real runtime — its
// `__main__` block, as `nki-playground run` runs it — and must give the same outputs, bit for
// bit (an element NaN both ways may differ in its NaN's sign and payload: which operand's NaN an
// operation on two NaNs keeps is the compiler's choice, tests/core/sim_plan_off_test.cpp), the
// same prints, warnings and printed text. The bench kernels and the goldens run both ways
// natively (tests/core/sim_plan_off_test.cpp, `sim_bench --plan off`).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

import { createRuntime } from "../../runtime/node.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KERNELS = readdirSync(`${ROOT}kernels`).filter((f) => f.endsWith(".py")).sort();

let runtime;
beforeAll(async () => {
  runtime = await createRuntime({ stdout: () => {}, stderr: () => {} });
});

/** The first element where two float32 arrays differ (bits; two NaNs are equal), or -1. */
function firstUnequal(a, b) {
  if (a.length !== b.length) return 0;
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < a.length; i++) {
    if (ua[i] === ub[i] || (Number.isNaN(a[i]) && Number.isNaN(b[i]))) continue;
    return i;
  }
  return -1;
}

function run(name, simPlan) {
  const source = readFileSync(`${ROOT}kernels/${name}`, "utf8");
  const r = runtime.runSource(source, { filename: `kernels/${name}`, simPlan });
  expect(r.exitCode, `${name} (plan ${simPlan})`).toBe(0);
  return r;
}

function envPlan() {
  return runtime.pyodide.runPython(`import os\nos.environ.get("NKI_PLAYGROUND_SIM_PLAN")`);
}

describe("simPlan: \"off\" runs the plain interpreter with the same results", () => {
  const simulated = [];

  test.each(KERNELS)("%s", (name) => {
    const planned = run(name, "on");
    const plain = run(name, "off");
    expect(plain.simulations.length).toBe(planned.simulations.length);
    if (planned.simulations.length > 0) simulated.push(name);
    planned.simulations.forEach((s, i) => {
      const p = plain.simulations[i];
      expect(p.kernel).toBe(s.kernel);
      expect(p.executed).toBe(s.executed);
      expect(p.outputs.length).toBe(s.outputs.length);
      s.outputs.forEach((o, j) => {
        expect([p.outputs[j].shape, p.outputs[j].dtype]).toEqual([o.shape, o.dtype]);
        expect(o.data, `${name}: output ${o.name} too large to compare`).not.toBeNull();
        expect(firstUnequal(o.data, p.outputs[j].data), `${name}: output ${o.name}`).toBe(-1);
      });
      expect(p.prints).toEqual(s.prints);
      expect(p.warnings).toEqual(s.warnings);
      expect(p.comparisons).toEqual(s.comparisons);
    });
    // (The current language's "no Neuron device here" notice is given once per runtime.)
    const once = (d) => !d.message.startsWith("nki-playground: no Neuron device here");
    expect(plain.diagnostics.filter(once)).toEqual(planned.diagnostics.filter(once));
    expect(envPlan(), "the run's setting is put back").toBeUndefined();
  });

  test("the kernels that simulate: all but the trace-only ones", () => {
    // (Needs the cases above: vitest runs a file's tests in order.)
    expect(simulated.length, simulated.join(" ")).toBeGreaterThanOrEqual(12);
  });
});

describe("simPlan reaches the script's os.environ for that call only", () => {
  const source = `
import os
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def copy(a):
    print("plan:", os.environ.get("NKI_PLAYGROUND_SIM_PLAN"))
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, nl.load(a))
    return out
`;
  const x = { data: new Float32Array([1, 2, 3, 4]), shape: [2, 2] };

  test("simulate(source, inputs, {simPlan})", () => {
    const off = runtime.simulate(source, [x], { simPlan: "off" });
    expect(off.stdout).toContain("plan: off");
    expect(Array.from(off.outputs[0].data)).toEqual([1, 2, 3, 4]);
    expect(envPlan()).toBeUndefined();
    const on = runtime.simulate(source, [x]);
    expect(on.stdout).toContain("plan: None");
  });

  test("an unknown value is refused", () => {
    expect(() => runtime.simulate(source, [x], { simPlan: "fast" })).toThrow(TypeError);
    expect(() => runtime.runSource(source, { simPlan: false })).toThrow(/simPlan must be "on" or "off"/);
  });

  test("createRuntime({simPlan}) sets it for every run", async () => {
    const quiet = await createRuntime({ stdout: () => {}, stderr: () => {}, simPlan: "off" });
    expect(quiet.simulate(source, [x]).stdout).toContain("plan: off");
    expect(quiet.simulate(source, [x], { simPlan: "on" }).stdout).toContain("plan: on");
    expect(quiet.simulate(source, [x]).stdout).toContain("plan: off");
  });
});
