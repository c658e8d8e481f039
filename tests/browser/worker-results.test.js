// The built site's worker (build/site) in Chromium, driven through the worker protocol only (not
// the page's UI): a run's `done` message carries diagnostics and simulations, tensor data arriving
// as Float32Array (posted with transfer lists), each trace posted as a `trace` message first.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";

import { serve } from "../../scripts/serve.mjs";

const SITE = fileURLToPath(new URL("../../build/site/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let server;
let url;
let context;
let profileDir;

beforeAll(async () => {
  if (!existsSync(join(SITE, "index.html"))) throw new Error(`${SITE} has no index.html; build the site first`);
  ({ server, url } = await serve({ root: SITE, port: 0 }));
  profileDir = mkdtempSync(join(tmpdir(), "nki-chromium-profile-"));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

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
  const page = await context.newPage();
  // Learn the worker's URL from the page's own `new Worker(...)`.
  await page.addInitScript(() => {
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(u, opts) {
        super(u, opts);
        window.__workerUrl = String(new URL(u, location.href));
        window.__workerOpts = opts;
      }
    };
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__workerUrl, null, { timeout: 30_000 });
  const done = await page.evaluate(async (source) => {
    const worker = new Worker(window.__workerUrl, window.__workerOpts);
    const streamed = []; // the `trace` messages, each with how many messages came before it
    let count = 0;
    const message = await new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => {
        count++;
        if (data.type === "trace") streamed.push({ id: data.id, text: data.trace.text, irJson: data.trace.irJson, at: count });
        if (data.type === "status" && data.state === "ready") worker.postMessage({ type: "run", id: 7, source, filename: "w.py" });
        if (data.type === "status" && data.state === "error") reject(new Error(data.message));
        if (data.type === "done" || data.type === "failed") resolve(data);
      };
    });
    worker.terminate();
    const sim = message.simulations?.[0];
    return {
      streamed: streamed.map((t) => ({ id: t.id, beforeDone: t.at < count })),
      streamedEqualsDone: streamed.length === message.traces?.length &&
        streamed.every((t, i) => t.text === message.traces[i].text && t.irJson === message.traces[i].irJson),
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
