// Figures for the <nki-playground> embed, measured in Chromium against the built site
// (build/site/docs-demo/ and build/site/element/, from scripts/build-embed.mjs):
//   - bytes the demo page loads before the reader clicks Run (all, and runtime bytes: target 0);
//   - the element module's size (target ≤ 30 KiB gzip) and the lazily loaded parts';
//   - time from clicking Run to live IR: cold (fresh browser context: runtime downloaded and
//     booted) and warm (the runtime already up: another embed, and the same one again), with
//     the full playground page's cold load → Run → IR beside it, in the same run.
// `benchEmbed()` returns rows for a Markdown table; run alone it prints them:
//   node scripts/bench-browser-embed.mjs [--runs N]
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { SITE, launchChromium, serveSite } from "./chromium.mjs";

const RUNTIME_URL = /pyodide|\.wasm(\?|$)|nki-python\.json|worker[^/]*\.js|\/live\.js/;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const fmtKB = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const gz = (path) => gzipSync(readFileSync(path), { level: 9 }).length;

/** Clicks Run on embed i; resolves with ms until its IR pane shows a kernel. */
async function timeRunToIr(page, i) {
  const el = page.locator("nki-playground").nth(i);
  await el.scrollIntoViewIfNeeded();
  const before = await el.getAttribute("data-runs-done");
  const t0 = Date.now();
  await el.locator(".nkp-run").click();
  await page.waitForFunction(
    ([n, prev]) => {
      const e = document.querySelectorAll("nki-playground")[n];
      return e.dataset.runsDone !== prev && /kernel @/.test(e.querySelector(".nkp-panel-ir")?.textContent ?? "");
    },
    [i, before],
    { timeout: 120_000 },
  );
  return Date.now() - t0;
}

/** The full page: load → click Run at once → IR on screen (the run waits for the runtime). */
async function timePageColdToIr(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(url);
    await page.click("#run");
    await page.waitForFunction(
      () => /kernel @/.test((document.querySelector("#panel-ir") ?? document.querySelector("#ir"))?.textContent ?? ""),
      null,
      { timeout: 120_000 },
    );
    return Date.now() - t0;
  } finally {
    await context.close();
  }
}

/**
 * @param {{runs?: number}} [opts]
 * @returns {Promise<{rows: [string, string][], figures: object}>}
 */
export async function benchEmbed({ runs = 3 } = {}) {
  const server = await serveSite({ needs: ["docs-demo/index.html", "element/nki-playground.js"] });
  const { url } = server;
  const browser = await launchChromium();
  try {
    const demo = `${url}docs-demo/`;
    const cold = [];
    const warmOther = [];
    const warmSame = [];
    const pageCold = [];
    let before = null;
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      const responses = [];
      page.on("response", async (res) => {
        const length = Number(res.headers()["content-length"] ?? 0);
        responses.push({ url: res.url(), length });
      });
      await page.goto(demo);
      await page.waitForLoadState("networkidle");
      if (!before) {
        const total = responses.reduce((n, x) => n + x.length, 0);
        const runtime = responses.filter((x) => RUNTIME_URL.test(x.url)).reduce((n, x) => n + x.length, 0);
        const raw = responses.reduce((n, x) => {
          const path = join(SITE, decodeURIComponent(new URL(x.url).pathname));
          return n + statSync(statSync(path).isDirectory() ? join(path, "index.html") : path).size;
        }, 0);
        before = { requests: responses.length, total, raw, runtime };
      }
      cold.push(await timeRunToIr(page, 0));
      warmOther.push(await timeRunToIr(page, 1));
      warmSame.push(await timeRunToIr(page, 0));
      await context.close();
      pageCold.push(await timePageColdToIr(browser, url).catch((err) => (process.stderr.write(`full page: ${err.message.split("\n")[0]}\n`), NaN)));
    }
    const el = join(SITE, "element");
    const figures = {
      before,
      elementGzip: gz(join(el, "nki-playground.js")),
      elementRaw: statSync(join(el, "nki-playground.js")).size,
      liveGzip: gz(join(el, "live.js")) + (existsSync(join(el, "live.css")) ? gz(join(el, "live.css")) : 0),
      workerGzip: gz(join(el, "worker.js")),
      wasmGzip: gz(join(el, "nki_core.wasm")),
      coldMs: median(cold),
      warmOtherMs: median(warmOther),
      warmSameMs: median(warmSame),
      pageColdMs: median(pageCold),
    };
    const rows = [
      ["Demo page (6 examples) before Run: requests / bytes transferred (gzip, as scripts/serve.mjs sends) / file bytes",
        `${before.requests} / ${fmtKB(before.total)} / ${fmtKB(before.raw)}`],
      ["… of which runtime (Pyodide, wasm, Python bundle, worker, live part; target 0)", `${before.runtime} bytes`],
      ["`element/nki-playground.js` raw / gzip -9 (target ≤ 30 KiB gzip)",
        `${fmtKB(figures.elementRaw)} / ${fmtKB(figures.elementGzip)}`],
      ["Loaded on Run: `live.js` + `live.css` / `worker.js` / `nki_core.wasm`, gzip -9",
        `${fmtKB(figures.liveGzip)} / ${fmtKB(figures.workerGzip)} / ${fmtKB(figures.wasmGzip)} (+ Pyodide)`],
      [`Embed: click Run → live IR, cold (fresh context), median of ${runs}`, fmtMs(figures.coldMs)],
      [`Embed: click Run → live IR, warm (another embed, runtime up), median of ${runs}`, fmtMs(figures.warmOtherMs)],
      [`Embed: click Run → live IR, warm (same embed again), median of ${runs}`, fmtMs(figures.warmSameMs)],
      [`Full page: load → Run → IR, cold, median of ${runs}`, Number.isNaN(figures.pageColdMs) ? "n/a" : fmtMs(figures.pageColdMs)],
    ];
    return { rows, figures };
  } finally {
    await browser.close();
    await server.close();
  }
}

export function embedTable(rows) {
  return ["| measure | value |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--runs");
  const { rows } = await benchEmbed({ runs: i >= 0 ? Number(process.argv[i + 1]) : 3 });
  console.log(embedTable(rows));
}
