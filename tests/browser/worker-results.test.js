// The built site's worker (build/site) in Chromium, driven through the worker protocol only (not
// the page's UI): a run's `done` message carries diagnostics and simulations, tensor data arriving
// as Float32Array (posted with transfer lists), each trace posted as a `trace` message first.
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
      streamedEqualsDone: streamed.length === message.traces?.length &&
        streamed.every((t, i) => t.trace.text === message.traces[i].text && t.trace.irJson === message.traces[i].irJson),
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
