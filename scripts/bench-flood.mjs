// The page under a flood of output (issue 14, item 1), in Chromium against the built site:
//   - a script printing 10^6 lines: the run's time, the frames the page drew meanwhile (the
//     longest gap and its p99, wall clock; the most main-thread CPU between two frames, from a
//     trace: scripts/frame-trace.mjs), the renderer processes' peak memory (RSS, page and worker
//     together), the page's JS heap and the Output pane's size at the end;
//   - Stop during an endless flood: from the click's input event to the status saying stopped;
//   - nl.device_print in a loop of 10^5 and a warning in a loop of 2·10^4: the run's time.
//
//   node scripts/bench-flood.mjs [--runs N]     (after `npm run build`; prints Markdown;
//                                                 N Stop measurements, default 5)
import { readFileSync, readdirSync } from "node:fs";

import { launchProfile, serveSite } from "./chromium.mjs";
import { traceFrames } from "./frame-trace.mjs";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const MILLION = 'for i in range(1000000):\n    print("line", i)\nprint("end")\n';
const ENDLESS = "i = 0\nwhile True:\n    print('spam', i)\n    i += 1\n";
const PRINTS = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def chatty(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    for i in nl.affine_range(100000):
        nl.device_print("t =", t)
    nl.store(out, value=t)
    return out

chatty(np.ones((2, 2), dtype=np.float32))
`;
const WARNINGS = 'import warnings\nfor i in range(20000):\n    warnings.warn(f"careful {i}")\n';

/** Pids of `root` and all its descendants (from /proc). */
function descendants(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** Resident memory (bytes) of the renderer processes among `pids`. */
function rendererRss(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // ended
    }
  }
  return total;
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (v) => `${Math.round(v)} ms`;

async function setUp(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#status").dataset.state === "ready", null, { timeout: 120_000 });
  await page.waitForFunction(() => window.nkiPlayground.client.spareReady, null, { timeout: 120_000 });
  await page.fill("#time-limit", "600");
  await page.dispatchEvent("#time-limit", "change");
}

const runEnded = (page, timeout = 600_000) =>
  page.waitForFunction(
    () => document.querySelector("#status").dataset.state !== "running" && !document.querySelector("#output").dataset.pending,
    null,
    { timeout, polling: 500 },
  );

async function timedRun(page, code) {
  await page.evaluate((c) => window.nkiPlayground.editor.setText(c), code);
  const t0 = Date.now();
  await page.click("#run");
  await runEnded(page);
  return Date.now() - t0;
}

const { url, close } = await serveSite();
const browser = await launchProfile({ viewport: { width: 1440, height: 900 } });
try {
  const page = await browser.context.newPage();
  await setUp(page, url);
  // Chromium is our child process (playwright launched it): its renderers are our descendants.
  const rss = () => rendererRss(descendants(process.pid));

  // 10^6 lines.
  await page.evaluate((c) => window.nkiPlayground.editor.setText(c), MILLION);
  const before = rss();
  await page.evaluate(() => {
    const rec = { on: true };
    const tick = () => rec.on && requestAnimationFrame(tick);
    requestAnimationFrame(tick);
    window.__benchFrames = rec;
  });
  const trace = await traceFrames(page);
  let peak = before;
  const poll = setInterval(() => (peak = Math.max(peak, rss())), 200);
  const t0 = Date.now();
  await page.click("#run");
  await runEnded(page);
  const runMs = Date.now() - t0;
  clearInterval(poll);
  const frames = await trace.stop();
  await page.evaluate(() => (window.__benchFrames.on = false));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? NaN;
  const pane = await page.$eval("#output", (el) => ({ chars: el.textContent.length, elements: el.querySelectorAll("*").length }));

  console.log("| 10^6 printed lines | figure |\n|---|---|");
  console.log(`| run (click → output drawn) | ${(runMs / 1000).toFixed(1)} s |`);
  console.log(`| frames drawn | ${frames.frames} in ${(frames.spanMs / 1000).toFixed(1)} s |`);
  console.log(`| longest frame gap, wall (p99) | ${ms(frames.maxWallGapMs)} (${ms(frames.p99WallGapMs)}) |`);
  console.log(`| most main-thread CPU between two frames | ${ms(frames.maxCpuGapMs)} |`);
  console.log(`| main-thread CPU over the flood | ${ms(frames.busyCpuMs)} (${((100 * frames.busyCpuMs) / Math.max(1, frames.spanMs)).toFixed(0)} %) |`);
  console.log(`| renderer RSS (page + worker), before → peak | ${mb(before)} → ${mb(peak)} |`);
  console.log(`| page JS heap at the end | ${mb(heap)} |`);
  console.log(`| Output pane at the end | ${pane.chars.toLocaleString("en-US")} characters in ${pane.elements} elements |`);

  // Stop during an endless flood.
  const stops = [];
  for (let i = 0; i < RUNS; i++) {
    await page.waitForFunction(() => window.nkiPlayground.client.spareReady, null, { timeout: 120_000 });
    await page.evaluate((c) => window.nkiPlayground.editor.setText(c), ENDLESS);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#output").textContent.includes("spam 1000\n"));
    await page.waitForTimeout(1500);
    await page.evaluate(() => {
      const status = document.querySelector("#status");
      window.__benchStop = new Promise((resolve) => {
        let clicked = null;
        document.querySelector("#stop").addEventListener("pointerdown", (e) => (clicked = e.timeStamp), { once: true });
        const observer = new MutationObserver(() => {
          if (clicked === null || status.dataset.state === "running") return;
          observer.disconnect();
          resolve(performance.now() - clicked);
        });
        observer.observe(status, { attributes: true, childList: true });
      });
    });
    await page.click("#stop");
    stops.push(await page.evaluate(() => window.__benchStop));
    await runEnded(page);
  }
  stops.sort((a, b) => a - b);
  console.log(`\n| Stop during an endless flood (${RUNS} times) | p50 | max |\n|---|---|---|`);
  console.log(`| click → "stopped" | ${ms(stops[Math.floor(stops.length / 2)])} | ${ms(stops.at(-1))} |`);

  await page.waitForFunction(() => window.nkiPlayground.client.spareReady, null, { timeout: 120_000 });
  const printsMs = await timedRun(page, PRINTS);
  const warningsMs = await timedRun(page, WARNINGS);
  console.log("\n| loop | run (click → done) |\n|---|---|");
  console.log(`| nl.device_print × 10^5 (1,000 kept) | ${(printsMs / 1000).toFixed(1)} s |`);
  console.log(`| warnings.warn × 2·10^4 (100 listed) | ${(warningsMs / 1000).toFixed(1)} s |`);
} finally {
  await browser.close();
  await close();
}
