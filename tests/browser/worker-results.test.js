// The built site's worker (build/site) in Chromium, driven through the worker protocol only (not
// the page's UI): a run's `done` message carries diagnostics and simulations, tensor data arriving
// as Float32Array (posted with transfer lists), each trace posted once, as a `trace` message
// first, which `done` refers to.
import { expect, test } from "vitest";

import { openWorkerPage, usePlayground } from "./harness.js";

const pg = usePlayground({ open: false });

const SCRIPT = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit(mode="simulation")
def inc(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.device_print("x", nl.load(x[0:1, 0:2]))
    nl.store(out, value=nl.add(nl.load(x), 1.0))
    return out

a = np.arange(4096, dtype=np.float32).reshape(64, 64)
y = inc(a)
np.testing.assert_allclose(y, a + 2)
`;

test("done carries diagnostics and simulations with Float32Array data", async () => {
  const page = await openWorkerPage(pg.browser.context, pg.server.url);
  const done = await page.evaluate(async (source) => {
    const { done: [message], messages } = await window.runInBuiltWorker([{ id: 7, source, filename: "w.py" }]);
    const streamed = messages.filter((m) => m.type === "trace");
    const doneAt = messages.indexOf(message);
    const sim = message.simulations?.[0];
    return {
      streamed: streamed.map((t) => ({ id: t.id, beforeDone: messages.indexOf(t) < doneAt })),
      // `done` refers to the streamed traces by index (each trace is posted once).
      streamedEqualsDone: streamed.length === message.traces?.length &&
        streamed.every((t, i) => message.traces[i].index === t.index && t.trace.ir.includes('"inc"')),
      type: message.type,
      id: message.id,
      exitCode: message.exitCode,
      traces: message.traces?.length,
      diagnostics: message.diagnostics,
      kernel: sim?.kernel,
      isF32: sim?.outputs[0].data instanceof Float32Array,
      last: sim?.outputs[0].data[4095],
      stats: sim && [sim.outputs[0].min, sim.outputs[0].max, sim.outputs[0].mean],
      prints: sim?.prints,
      comparison: sim && { ...sim.comparisons[0], expected: undefined, actual: undefined },
    };
  }, SCRIPT);
  expect(done).toMatchObject({ type: "done", id: 7, exitCode: 1, traces: 1, kernel: "inc", isF32: true, last: 4096 });
  // Each trace is posted as it is made, before `done`, and is what `done` lists.
  expect(done.streamed).toEqual([{ id: 7, beforeDone: true }]);
  expect(done.streamedEqualsDone).toBe(true);
  expect(done.stats).toEqual([1, 4096, 2048.5]);
  expect(done.prints).toEqual([{ text: "x [[0. 1.]]", file: "w.py", line: 8, col: 5 }]);
  expect(done.comparison).toMatchObject({ label: "np.testing.assert_allclose(y, a + 2)", ok: false, max_abs_err: 1, line: 14 });
  expect(done.diagnostics).toHaveLength(1);
  expect(done.diagnostics[0]).toMatchObject({ severity: "error", class: "AssertionError", file: "w.py", line: 14, col: 1 });
  expect(done.diagnostics[0].rendered).toMatch(/^w\.py:14:1: error: AssertionError: /);
});

// Two kernels, one traced and one simulated (its trace is made on the call): the run posts each
// kernel's trace once, in the core's printed form, and `done` holds references, not copies.
const TWO = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def double(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out, value=nl.add(t, t))
    return out

@nki.jit(mode="simulation")
def negate(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.negative(nl.load(a)))
    return out

nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
y = negate(np.ones((128, 32), dtype=np.float32))
print(float(y.sum()))
`;

test("each trace's payload is posted once per run", async () => {
  const page = await openWorkerPage(pg.browser.context, pg.server.url);
  const counted = await page.evaluate(async (source) => {
    const { done: [message], messages } = await window.runInBuiltWorker([{ id: 3, source, filename: "two.py" }]);
    // A trace's payload: an object carrying its line records or its IR JSON, wherever it sits.
    const payloads = (x) => {
      if (Array.isArray(x)) return x.reduce((n, v) => n + payloads(v), 0);
      if (!x || typeof x !== "object" || ArrayBuffer.isView(x)) return 0;
      if ("records" in x || "irJson" in x) return 1;
      return Object.values(x).reduce((n, v) => n + payloads(v), 0);
    };
    const run = messages.filter((m) => m.id === 3);
    return {
      exitCode: message.exitCode,
      traces: message.traces.length,
      payloads: run.map((m) => [m.type, payloads(m)]).filter(([, n]) => n > 0),
      forms: run.filter((m) => m.type === "trace").map((m) => typeof m.trace.records),
      refs: message.traces,
    };
  }, TWO);
  expect(counted.exitCode).toBe(0);
  expect(counted.traces).toBe(2);
  expect(counted.payloads).toEqual([
    ["trace", 1],
    ["trace", 1],
  ]);
  expect(counted.forms).toEqual(["string", "string"]);
  expect(counted.refs).toEqual([
    { index: 0, simulated: false },
    { index: 1, simulated: true },
  ]);
});
