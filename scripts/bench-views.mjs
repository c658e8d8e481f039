// Figures for the view components in Chromium (issue 5: "scroll/render of a 20,000-line IR:
// time to first render ≤ 300 ms"). Needs build/views-test/ (`npm run build`).
//
//   node scripts/bench-views.mjs        prints a Markdown table
//
// The 20,000-line kernel is tests/browser/fixtures/big_ir.py, traced in Node. Measured in the
// page: setTraces of the IR, region and simulation panes plus two animation frames (first
// render), 300 scroll steps of one viewport each, one per frame (frame intervals; noisy on a
// loaded machine), and 300 synchronous jumps to far lines (the view's own cost per viewport).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../runtime/node.mjs";
import { VIEWS_TEST_SITE, launchProfile, serveSite } from "./chromium.mjs";

const BIG = fileURLToPath(new URL("../tests/browser/fixtures/big_ir.py", import.meta.url));
const RUNS = 7;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
const { traces } = runtime.runSource(readFileSync(BIG, "utf8"), { filename: "big_ir.py" });
const lineCount = traces.reduce((n, t) => n + t.records.length, 0);

const server = await serveSite({ root: VIEWS_TEST_SITE, needs: ["views-test.html"] });
const browser = await launchProfile({ viewport: { width: 1280, height: 1100 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}views-test.html`);
  await page.waitForFunction(() => document.documentElement.dataset.harness === "ready");
  await page.evaluate((json) => (window.__big = json), JSON.stringify(traces));
  const firstRender = [];
  for (let i = 0; i < RUNS; i++) {
    firstRender.push(
      await page.evaluate(async () => {
        const traces = JSON.parse(window.__big); // parsing is the transport's cost, not the view's
        const t0 = performance.now();
        window.__mount(traces, []);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t0;
      }),
    );
  }
  const frames = await page.evaluate(async () => {
    const el = document.querySelector("#ir .nkp-ir");
    const out = [];
    let last = performance.now();
    for (let k = 0; k < 300; k++) {
      el.scrollTop = (k * el.clientHeight) % (el.scrollHeight - el.clientHeight);
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      out.push(now - last);
      last = now;
    }
    return out;
  });
  // The view's own cost of a fresh viewport: scrollToLine renders synchronously; reading
  // offsetHeight forces style and layout, so the figure is script + layout of ~47 new rows.
  const jumps = await page.evaluate(() => {
    const el = document.querySelector("#ir .nkp-ir");
    const n = window.__index.lines.length;
    const out = [];
    for (let k = 0; k < 300; k++) {
      const t0 = performance.now();
      window.__views.ir.scrollToLine(Math.floor(((k * 7919) % 1000) / 1000 * n));
      void el.offsetHeight;
      out.push(performance.now() - t0);
    }
    return out;
  });
  const rows = await page.$$eval("#ir .nkp-ir-line", (e) => e.length);
  console.log(`| measure (${lineCount} IR lines, Chromium) | value |`);
  console.log("|---|---|");
  console.log(`| first render: setTraces of IR + regions + sim panes, to the 2nd frame, median of ${RUNS} | ${median(firstRender).toFixed(0)} ms |`);
  console.log(`| … fastest / slowest | ${Math.min(...firstRender).toFixed(0)} ms / ${Math.max(...firstRender).toFixed(0)} ms |`);
  console.log(`| scrolling one viewport per frame, 300 frames: interval p50 / p95 / max | ${median(frames).toFixed(1)} / ${pct(frames, 0.95).toFixed(1)} / ${Math.max(...frames).toFixed(1)} ms |`);
  console.log(`| jump to a far line (scrollToLine: new rows + style/layout), 300 jumps: p50 / p95 | ${median(jumps).toFixed(2)} / ${pct(jumps, 0.95).toFixed(2)} ms |`);
  console.log(`| rows in the DOM | ${rows} |`);
  console.log(`| machine load average (1 min) during the run | ${loadavg()[0].toFixed(1)} |`);
} finally {
  await browser.close();
  await server.close();
}
