// What a run's traces cost on their way to the page, in Chromium against the built site
// (build/site), for the gallery's biggest kernel (selective_scan) and a generated kernel of
// about 3,000 instructions:
//   - worker → page: the messages the built worker posts for one run, through its protocol
//     only (one warm worker); bytes as V8's structured clone writes them (the messages are serialized again here
//     with node:v8, the same format; tensor data counted by its byteLength), how many carry a
//     trace's payload, and ms from posting the run to the first trace and to `done`;
//   - the page: ms from the Run click to the frame whose IR pane holds the kernel's header, and
//     to the run being done; medians of N runs.
//
//   node scripts/bench-trace-post.mjs [--runs N]    (after `npm run build`; prints Markdown)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";

import { SITE, launchProfile, serveSite } from "./chromium.mjs";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;

/** A kernel of `n` unrolled load / multiply / store steps (3n + a few instructions). */
export function bigKernel(n) {
  return `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def big(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.static_range(${n}):
        t = nl.load(a[i * 128:(i + 1) * 128, :])
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(t, 2.0))
    return out

nki.trace_kernel(big, nt.tensor[[${n} * 128, 64], nl.float32])
`;
}

const CASES = [
  { label: "selective_scan (gallery's biggest)", kernel: "selective_scan", source: readFileSync(new URL("../kernels/selective_scan.py", import.meta.url), "utf8") },
  { label: "generated, 1,000 unrolled steps", kernel: "big", source: bigKernel(1000) },
];

/**
 * In the page: `runs` runs of `source` in one fresh worker of the site (the first a warm-up, not
 * returned); each run's messages, with tensor data as byte counts and `at` ms from its post.
 */
function runInWorker({ workerUrl, source, runs }) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { type: "module" });
    const all = [];
    let got = [];
    let t0 = 0;
    const plain = (x) => {
      if (ArrayBuffer.isView(x)) return { typedBytes: x.byteLength };
      if (Array.isArray(x)) return x.map(plain);
      if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
      return x;
    };
    const post = () => {
      got = [];
      t0 = performance.now();
      worker.postMessage({ type: "run", id: all.length, source, filename: "k.py" });
    };
    worker.onmessage = ({ data }) => {
      if (data.type === "status") {
        if (data.state === "ready") post();
        return;
      }
      got.push({ at: performance.now() - t0, message: plain(data) });
      if (data.type !== "done" && data.type !== "failed") return;
      all.push(got);
      if (all.length <= runs) return post();
      worker.terminate();
      resolve(all.slice(1));
    };
    worker.onerror = (e) => reject(new Error(e.message));
  });
}

function cloneBytes(message) {
  let typed = 0;
  const strip = (x) => {
    if (x && typeof x === "object" && typeof x.typedBytes === "number" && Object.keys(x).length === 1) {
      typed += x.typedBytes;
      return null;
    }
    if (Array.isArray(x)) return x.map(strip);
    if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, strip(v)]));
    return x;
  };
  return serialize(strip(message)).length + typed;
}

/** How many trace payloads (an object with IR text, records or IR JSON) a message holds. */
function payloads(x) {
  if (Array.isArray(x)) return x.reduce((n, v) => n + payloads(v), 0);
  if (!x || typeof x !== "object") return 0;
  if ("records" in x || "irJson" in x) return 1;
  return Object.values(x).reduce((n, v) => n + payloads(v), 0);
}

/** In the page: ms from the Run click to the IR header's frame and to the run's end. */
async function pageRun(page, source, kernel) {
  await page.evaluate((text) => window.nkiPlayground.editor.setText(text), source);
  const timing = page.evaluate((header) => new Promise((resolve) => {
    const panel = document.querySelector("#panel-ir");
    const status = document.querySelector("#status");
    const times = {};
    let t0 = 0;
    const check = () => {
      if (times.ir === undefined && !panel.dataset.stale && panel.textContent.includes(header)) {
        times.ir = -1;
        requestAnimationFrame(() => (times.ir = performance.now() - t0));
      }
      if (status.dataset.state !== "running" && times.done === undefined && t0) {
        times.done = performance.now() - t0;
        observer.disconnect();
        const end = () => (times.ir === -1 ? requestAnimationFrame(end) : resolve({ ...times, state: status.dataset.state }));
        end();
      }
    };
    const observer = new MutationObserver(check);
    document.querySelector("#run").addEventListener("click", () => {
      t0 = performance.now();
      observer.observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });
      observer.observe(status, { attributes: true });
    }, { once: true, capture: true });
  }), `kernel @${kernel}(`);
  await page.click("#run");
  return timing;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = (x) => `${Math.round(x)} ms`;

const { server, url } = await serveSite({ needs: ["index.html"] });
const browser = await launchProfile();
try {
  const workerFile = readdirSync(join(SITE, "assets")).find((f) => /^worker-.*\.js$/.test(f));
  const wpage = await browser.context.newPage();
  await wpage.goto(`${url}nki-python.json`);
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#status").dataset.state === "ready", null, { timeout: 120_000 });
  console.log("| kernel | messages | trace payloads | bytes posted (trace / done / all) | worker: post → 1st trace, → done | page: Run → IR shown, → done |");
  console.log("|---|---|---|---|---|---|");
  for (const c of CASES) {
    const worker = await wpage.evaluate(runInWorker, { workerUrl: `/assets/${workerFile}`, source: c.source, runs: RUNS });
    const got = worker.at(-1);
    const bytes = (type) => got.filter((g) => g.message.type === type).reduce((n, g) => n + cloneBytes(g.message), 0);
    const firstTrace = median(worker.map((w) => w.find((g) => g.message.type === "trace")?.at ?? NaN));
    const done = median(worker.map((w) => w.at(-1).at));
    const runs = [];
    await pageRun(page, c.source, c.kernel); // warm-up
    for (let i = 0; i < RUNS; i++) runs.push(await pageRun(page, c.source, c.kernel));
    console.log(
      `| ${c.label} | ${got.length} | ${payloads(got.map((g) => g.message))} | ` +
        `${bytes("trace")} / ${bytes("done")} / ${got.reduce((n, g) => n + cloneBytes(g.message), 0)} | ` +
        `${ms(firstTrace)}, ${ms(done)} | ${ms(median(runs.map((r) => r.ir)))}, ${ms(median(runs.map((r) => r.done)))} |`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
