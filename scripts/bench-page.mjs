// Page figures in Chromium against the built site (build/site), next to a bare Pyodide page
// served the same way in the same run:
//   - time to editor-usable and to runtime-ready, cold (fresh profile) and warm (reload),
//     medians of several loads;
//   - re-run latency for the tensor_add and attention examples, as a person meets it: a key
//     typed in the editor (a blank line at the top, so every IR location moves), Ctrl+Enter,
//     and the time, measured inside the page, from that keydown to the frame that shows the new
//     IR (the pane's IR streams in as soon as the kernel is traced) and to the whole run being
//     done (simulation included); p50 and p90;
//   - bytes the page needs before the runtime starts (HTML, CSS, the boot chunk and the worker,
//     which fetches Pyodide's loader at once), gzip as served; and before its bulk downloads,
//     which wait until the page chunk (the editor, panes) is loaded and the editor mounted.
//
//   node scripts/bench-page.mjs [--runs N]      (after `npm run build`; prints Markdown;
//                                                 N re-runs per example, default 20)
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { SITE, launchProfile, serveSite } from "./chromium.mjs";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 20;
const SNAPSHOT = "nki-snapshot.bin";
const LOADS = { cold: 3, warm: 7 };

// The bare page: Pyodide booted in a module worker from the same copy, nothing else.
const BARE_HTML = `<!doctype html><meta charset="utf-8"><title>bare</title><script type="module">
const w = new Worker("./bare-worker.js", { type: "module" });
w.onmessage = () => { document.documentElement.dataset.ready = String(performance.now()); };
</script>`;
const BARE_WORKER = `import { loadPyodide } from "./pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
self.postMessage("ready");`;

function bareSite() {
  const dir = mkdtempSync(join(tmpdir(), "nki-bare-site-"));
  symlinkSync(join(SITE, "pyodide"), join(dir, "pyodide"));
  writeFileSync(join(dir, "index.html"), BARE_HTML);
  writeFileSync(join(dir, "bare-worker.js"), BARE_WORKER);
  return dir;
}

/** The built site without its memory snapshot: the page boots as it did before there was one. */
function siteWithoutSnapshot() {
  const dir = mkdtempSync(join(tmpdir(), "nki-nosnap-site-"));
  for (const name of readdirSync(SITE)) if (name !== SNAPSHOT) symlinkSync(join(SITE, name), join(dir, name));
  return dir;
}

/**
 * What the runtime downloads once it starts (the worker's fetches and Pyodide's), raw and gzip
 * as served (scripts/serve.mjs compresses at level 6). The compiled package is fetched only by
 * a boot without the snapshot.
 */
function runtimeBytes() {
  const worker = readdirSync(join(SITE, "assets")).find((n) => /^worker-.*\.js$/.test(n));
  const files = [
    ["pyodide/pyodide.mjs"], ["pyodide/pyodide.asm.js"], ["pyodide/pyodide.asm.wasm"], ["pyodide/python_stdlib.zip"],
    ["pyodide/pyodide-lock.json"], [`assets/${worker}`], ...readdirSync(join(SITE, "assets")).filter((n) => n.endsWith(".wasm")).map((n) => [`assets/${n}`]),
    ["nki-python.json"], [SNAPSHOT, "from the snapshot only"], ["nki-python.pyc", "without the snapshot only"],
  ];
  return files.map(([name, note]) => {
    const bytes = readFileSync(join(SITE, name));
    return { name, note, raw: bytes.length, gzip: name.endsWith(".zip") ? bytes.length : gzipSync(bytes, { level: 6 }).length };
  });
}

async function withProfile(fn) {
  const browser = await launchProfile();
  try {
    return await fn(browser.context);
  } finally {
    await browser.close();
  }
}

/** ms from navigation start to the editor being usable and to the runtime being ready. */
async function loadPage(page, url) {
  await page.goto(url);
  await page.waitForSelector("html[data-editor-ready] .cm-content");
  await page.waitForFunction(() => document.querySelector("#status").dataset.state === "ready", null, { timeout: 120_000 });
  return page.evaluate(() => {
    const mark = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return { editor: mark("nki:editor-ready"), ready: mark("nki:runtime-ready") };
  });
}

async function loadBare(page, url) {
  await page.goto(url);
  await page.waitForSelector("html[data-ready]", { timeout: 120_000 });
  return Number(await page.getAttribute("html", "data-ready")); // ms since navigation start
}

/**
 * One edit → re-run, as keys: a blank line typed at the top of the editor, then Ctrl+Enter.
 * In the page, from the Ctrl+Enter keydown: `ir` to the animation frame in which the IR pane
 * holds new IR (not the previous run's dimmed copy), `done` to the status leaving "running".
 */
async function timedEdit(page) {
  await page.evaluate(() => {
    const panel = document.querySelector("#panel-ir");
    const status = document.querySelector("#status");
    window.__nkiEdit = new Promise((resolve) => {
      const times = {};
      let t0 = null;
      let before = null;
      const settle = () => {
        if (times.ir !== undefined && times.done !== undefined) {
          observer.disconnect();
          resolve({ ...times, state: status.dataset.state });
        }
      };
      const observer = new MutationObserver(() => {
        if (t0 === null) return;
        if (times.irSeen === undefined && !panel.dataset.stale && panel.textContent !== before) {
          times.irSeen = true;
          requestAnimationFrame(() => {
            times.ir = performance.now() - t0;
            settle();
          });
        }
        if (times.done === undefined && status.dataset.state !== "running") {
          times.done = performance.now() - t0;
          if (times.irSeen === undefined) times.ir = NaN; // the run showed no new IR
          settle();
        }
      });
      addEventListener(
        "keydown",
        function onKey(event) {
          if (event.key !== "Enter" || !event.ctrlKey) return;
          removeEventListener("keydown", onKey, { capture: true });
          t0 = performance.now();
          before = panel.textContent;
          observer.observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });
          observer.observe(status, { attributes: true });
        },
        { capture: true },
      );
    });
  });
  await page.focus(".cm-content");
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+Enter");
  return page.evaluate(() => window.__nkiEdit);
}

/** The q-quantile (nearest rank) of xs. */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
const f = (ms) => `${Math.round(ms)} ms`;

function pageBytes() {
  const html = readFileSync(join(SITE, "index.html"));
  const assets = readdirSync(join(SITE, "assets")).filter((n) => /\.(js|css)$/.test(n));
  const files = [["index.html", html], ...assets.map((n) => [n, readFileSync(join(SITE, "assets", n))])];
  return files.map(([name, bytes]) => ({ name, raw: bytes.length, gzip: gzipSync(bytes).length }));
}

const { server, url } = await serveSite({ needs: ["index.html", SNAPSHOT] });
const bareDir = bareSite();
const bare = await serveSite({ root: bareDir });
const plainDir = siteWithoutSnapshot();
const plain = await serveSite({ root: plainDir });
/**
 * Has each server compress the runtime's files once before any load is timed (it keeps them),
 * so no page's first cold load pays the server's gzip of ~30 MB.
 */
async function warmServers() {
  const names = runtimeBytes().map((d) => d.name);
  for (const [base, only] of [[url, null], [plain.url, null], [bare.url, /^pyodide\//]]) {
    for (const name of names.filter((n) => !only || only.test(n))) {
      const r = await fetch(base + name, { headers: { "accept-encoding": "gzip" } });
      await r.arrayBuffer();
    }
  }
}

try {
  await warmServers();
  const rows = [];
  for (const [label, fn] of [
    ["playground", (page) => loadPage(page, url)],
    ["playground without the snapshot", (page) => loadPage(page, plain.url)],
    ["bare Pyodide", (page) => loadBare(page, bare.url).then((ready) => ({ editor: null, ready }))],
  ]) {
    // Cold: a fresh profile each time. Warm: reloads in the first profile (HTTP cache, ETag
    // revalidation, V8's code cache). Medians, since one load varies by ±15% here.
    const cold = [];
    const warm = [];
    for (let i = 0; i < LOADS.cold; i++) {
      await withProfile(async (context) => {
        const page = await context.newPage();
        cold.push(await fn(page));
        if (i === 0) for (let j = 0; j < LOADS.warm; j++) warm.push(await fn(page));
      });
    }
    rows.push([label, { cold, warm }]);
  }
  const med = (loads, key) => quantile(loads.map((l) => l[key]), 0.5);
  const min = (loads, key) => Math.min(...loads.map((l) => l[key]));
  console.log(
    "| page | editor usable (cold / warm) | runtime ready (cold / warm) | fastest warm ready | ready vs bare (cold / warm / fastest warm) |\n|---|---|---|---|---|",
  );
  const [, bareLoads] = rows.find(([label]) => label === "bare Pyodide");
  for (const [label, { cold, warm }] of rows) {
    const ed = cold[0].editor == null ? "—" : `${f(med(cold, "editor"))} / ${f(med(warm, "editor"))}`;
    const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
    const ratios = [
      ratio(med(cold, "ready"), med(bareLoads.cold, "ready")),
      ratio(med(warm, "ready"), med(bareLoads.warm, "ready")),
      ratio(min(warm, "ready"), min(bareLoads.warm, "ready")),
    ].join(" / ");
    console.log(`| ${label} | ${ed} | ${f(med(cold, "ready"))} / ${f(med(warm, "ready"))} | ${f(min(warm, "ready"))} | ${ratios} |`);
  }
  console.log(
    `\nMedians of ${LOADS.cold} cold loads (each in a fresh profile) and ${LOADS.warm} warm reloads; the bare page's ` +
      "warm reloads were bimodal in some runs (about 1.5 s or 2.2 s from one reload to the next; the playground's " +
      "stayed within ±0.1 s), so the fastest warm reload of each is compared too. The playground boots from the " +
      `memory snapshot (\`${SNAPSHOT}\`, target ≤ 0.8× bare Pyodide cold and warm); without it is the same site with ` +
      "that file removed, which boots as the page did before the snapshot (Python started, the package imported).",
  );

  await withProfile(async (context) => {
    const page = await context.newPage();
    await loadPage(page, url);
    console.log(
      `\n| example | edit → IR shown, p50 / p90 | edit → run done, p50 / p90 | runs | exit |\n|---|---|---|---|---|`,
    );
    for (const example of ["tensor_add", "attention"]) {
      await page.selectOption("#examples", example);
      await timedEdit(page); // first run of this example: imports, caches
      const ir = [];
      const done = [];
      let state;
      for (let i = 0; i < RUNS; i++) {
        const r = await timedEdit(page);
        ir.push(r.ir);
        done.push(r.done);
        state = r.state;
      }
      const pair = (xs) => `${f(quantile(xs, 0.5))} / ${f(quantile(xs, 0.9))}`;
      console.log(`| ${example} | ${pair(ir)} | ${pair(done)} | ${RUNS} | ${state} |`);
    }
    console.log(
      "\nRe-run: a blank line typed at the top of the editor, then Ctrl+Enter; timed in the page from " +
        "that keydown to the frame that shows the new IR (streamed as soon as the kernel is traced) " +
        "and to the end of the run (the example's simulation and NumPy check included).",
    );
  });

  const bytes = pageBytes();
  const total = (key, pick) => bytes.filter(pick).reduce((n, b) => n + b[key], 0);
  // What index.html loads itself (the boot chunk and its imports) and the worker script; the page
  // chunk (CodeMirror, panes) is imported next, and the worker's bulk downloads (Pyodide's wasm,
  // the snapshot, the core) start once the editor is mounted (web/src/boot-order.js).
  const html = readFileSync(join(SITE, "index.html"), "utf8");
  const booted = new Set([...html.matchAll(/assets\/([^"']+)/g)].map((m) => m[1]));
  const beforeRuntime = (b) => b.name === "index.html" || booted.has(b.name) || /^worker-/.test(b.name);
  const beforeBulk = (b) => beforeRuntime(b) || /^page-/.test(b.name);
  const kb = (key, pick) => `${(total(key, pick) / 1024).toFixed(1)} KB`;
  const names = (pick) => bytes.filter(pick).map((b) => b.name.replace(/-[\w-]{8}\./, "-*.")).join(", ");
  const pageChunk = (b) => beforeBulk(b) && !beforeRuntime(b);
  console.log("\n| page download | raw | gzip |\n|---|---|---|");
  console.log(`| before the runtime starts: ${names(beforeRuntime)} | ${kb("raw", beforeRuntime)} | ${kb("gzip", beforeRuntime)} |`);
  console.log(`| the page chunk (editor, panes): ${names(pageChunk)} | ${kb("raw", pageChunk)} | ${kb("gzip", pageChunk)} |`);
  console.log(`| **page before the runtime's bulk downloads** (the editor first) | ${kb("raw", beforeBulk)} | ${kb("gzip", beforeBulk)} |`);
  const downloads = runtimeBytes();
  console.log("\n| runtime download (once the runtime starts) | raw | gzip as served |\n|---|---|---|");
  for (const d of downloads) {
    const note = d.note ? ` (${d.note})` : "";
    console.log(`| ${d.name}${note} | ${(d.raw / 1024).toFixed(1)} KB | ${(d.gzip / 1024).toFixed(1)} KB |`);
  }
  const sum = (skip) => downloads.filter((d) => d.name !== skip);
  for (const [label, skip] of [["from the snapshot", "nki-python.pyc"], ["without the snapshot", SNAPSHOT]]) {
    const raw = sum(skip).reduce((n, d) => n + d.raw, 0);
    const gz = sum(skip).reduce((n, d) => n + d.gzip, 0);
    console.log(`| **runtime, ${label}** | ${(raw / 1024 / 1024).toFixed(1)} MB | ${(gz / 1024 / 1024).toFixed(1)} MB |`);
  }
} finally {
  server.close();
  bare.server.close();
  plain.server.close();
  rmSync(bareDir, { recursive: true, force: true });
  rmSync(plainDir, { recursive: true, force: true });
}
