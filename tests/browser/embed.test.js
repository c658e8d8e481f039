// <nki-playground> on the demo docs page (build/site/docs-demo/, from scripts/build-embed.mjs)
// in Debian's Chromium: nothing of the runtime before Run, one worker for every element, live
// IR after Run, diagnostics of a failing example, a simulator warning marked in the source,
// "Open in playground" with the edited code, serving under a sub-path, and the static HTML with
// scripts off.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";

import {
  SITE,
  insertUntil,
  launchChromium,
  recordCspViolations,
  recordProblems,
  runEmbed,
  screenshot,
  startServer,
} from "./harness.js";

const DEMO = "docs-demo/";
/** What "runtime" means for the 0-bytes-before-Run rule. */
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:";
const AUTORUN_PAGE = `<!doctype html><meta charset="utf-8"><title>autorun</title>
<div style="height: 3000px">A long introduction.</div>
<nki-playground autorun filename="copy.py" panes="ir,output" height="200">
<pre>import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out

nki.trace_kernel(copy, nt.tensor[[128, 64], nl.float32])
</pre>
</nki-playground>
<script type="module" src="../element/nki-playground.js"></script>`;
// A kernel whose store reads SBUF rows nothing wrote (line 10, `nl.store`): a simulator warning.
const SIM_WARNING_PAGE = `<!doctype html><meta charset="utf-8"><title>simulator warning</title>
<nki-playground filename="half.py" panes="sim,output">
<pre>import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit(mode='simulation')
def half(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    buf[0:64, :] = nl.load(x[0:64, :])
    nl.store(out, value=buf)
    return out

y = half(np.ones((128, 2), dtype=np.float32))
</pre>
</nki-playground>
<script type="module" src="../element/nki-playground.js"></script>`;
// Two current-language examples: one recorded for a later NKI than this playground runs (a page
// published by a future docs build), one hand-written without a record.
const LANGUAGE_PAGE = `<!doctype html><meta charset="utf-8"><title>languages</title><link rel="icon" href="data:,">
<nki-playground filename="later.py" language="nki@0.7.0">
<pre>import nki
import nki.language as nl
</pre>
</nki-playground>
<nki-playground filename="plain.py">
<pre>import nki
</pre>
</nki-playground>
<script type="module" src="../element/nki-playground.js"></script>`;
const RUNTIME_URL = /pyodide|\.wasm(\?|$)|nki-python\.json|nki-snapshot\.bin|worker[^/]*\.js|\/live\.js/;

let browser;
let server;
let url;
let subServer;
let subRoot;

beforeAll(async () => {
  server = await startServer({ needs: [`${DEMO}index.html`, "element/nki-playground.js"] });
  url = server.url;
  // The same site under /sub/path/: a docs host that is not at the root of its origin.
  subRoot = mkdtempSync(join(tmpdir(), "nki-embed-subpath-"));
  mkdirSync(join(subRoot, "sub"));
  symlinkSync(SITE, join(subRoot, "sub/path"), "dir");
  // A host page with a strict Content-Security-Policy (no inline script or style, no eval):
  // the demo page without its own inline <style>, a <meta> policy, the site's files beside it.
  mkdirSync(join(subRoot, "csp/docs-demo"), { recursive: true });
  for (const name of ["element", "pyodide", "nki-python.json", "nki-python.pyc", "nki-snapshot.bin", "index.html", "assets", "docs"]) {
    symlinkSync(join(SITE, name), join(subRoot, "csp", name));
  }
  const demo = readFileSync(join(SITE, DEMO, "index.html"), "utf8").replace(/<style>[\s\S]*?<\/style>/, "");
  writeFileSync(join(subRoot, "csp/docs-demo/index.html"), demo.replace("<head>", `<head>\n<meta http-equiv="Content-Security-Policy" content="${CSP}">`));
  // autorun: one example below a screenful of text, written by hand (no pre-render).
  mkdirSync(join(subRoot, "auto/page"), { recursive: true });
  for (const name of ["element", "pyodide", "nki-python.json", "nki-python.pyc", "nki-snapshot.bin"]) symlinkSync(join(SITE, name), join(subRoot, "auto", name));
  writeFileSync(join(subRoot, "auto/page/index.html"), AUTORUN_PAGE);
  mkdirSync(join(subRoot, "simwarn/page"), { recursive: true });
  for (const name of ["element", "pyodide", "nki-python.json", "nki-python.pyc", "nki-snapshot.bin"]) symlinkSync(join(SITE, name), join(subRoot, "simwarn", name));
  writeFileSync(join(subRoot, "simwarn/page/index.html"), SIM_WARNING_PAGE);
  mkdirSync(join(subRoot, "lang/page"), { recursive: true });
  for (const name of ["element", "pyodide", "nki-python.json", "nki-python.pyc", "nki-snapshot.bin", "index.html", "assets", "docs"]) {
    symlinkSync(join(SITE, name), join(subRoot, "lang", name));
  }
  writeFileSync(join(subRoot, "lang/page/index.html"), LANGUAGE_PAGE);
  subServer = await startServer({ root: subRoot, needs: [] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await subServer?.close();
  if (subRoot) rmSync(subRoot, { recursive: true, force: true });
});

const contexts = []; // closed after each test

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/**
 * `base` + `path` (the demo page by default) in a fresh context, recording requests, workers,
 * errors and failed responses; the context is closed after the test.
 */
async function openDemo(base = url, contextOptions = {}, path = DEMO) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...contextOptions });
  contexts.push(context);
  const page = await context.newPage();
  const log = { requests: [], workers: [], problems: recordProblems(page) };
  await recordCspViolations(page);
  page.on("request", (req) => log.requests.push(req.url()));
  page.on("worker", (worker) => log.workers.push(worker.url()));
  await page.goto(base + path);
  return { context, page, log };
}

const embed = (page, i) => page.locator("nki-playground").nth(i);

/** Replaces embed `el`'s code with `text` as a reader would (click, select all, type). */
async function typeOver(page, el, text) {
  await el.locator(".nkp-editor .cm-content").click();
  const i = await indexOf(el);
  const same = ([n, t]) => document.querySelectorAll("nki-playground")[n].source === t;
  if (await insertUntil(page, text, same, [i, text], { before: () => page.keyboard.press("Control+A") })) return;
  expect(await el.evaluate((e) => e.source), "the editor never took the typed text").toBe(text);
}

/** The index of embed `el` among the page's <nki-playground> elements. */
function indexOf(el) {
  return el.evaluate((e) => [...document.querySelectorAll("nki-playground")].indexOf(e));
}

describe("<nki-playground> on the demo page", () => {
  test("the element module is small, one file, and element/ holds only stable names", () => {
    const bytes = readFileSync(join(SITE, "element/nki-playground.js"));
    expect(gzipSync(bytes).length).toBeLessThanOrEqual(30 * 1024);
    // All of the element before Run: no static import of another chunk (a split entry is a
    // facade of a few bytes plus a second request).
    expect(bytes.toString()).not.toMatch(/^import\b|\bimport\s*\{[^}]*\}\s*from\s*["']\.\//m);
    expect(bytes.length).toBeGreaterThan(4 * 1024);
    expect(readdirSync(join(SITE, "element")).sort()).toEqual(["live.css", "live.js", "nki-playground.js", "nki_core.wasm", "runtime.js", "worker.js"]);
  });

  test("before Run: static code and IR, nothing of the runtime downloaded; Run makes it live; a second Run reuses the worker", async () => {
    const { page, log } = await openDemo();
    await page.waitForSelector("nki-playground .nkp-bar .nkp-run");
    await page.waitForLoadState("networkidle");
    expect(await page.locator("nki-playground").count()).toBeGreaterThanOrEqual(5);
    expect(await embed(page, 0).locator("pre.nkp-source").textContent()).toContain("def tensor_add");
    expect(await embed(page, 0).locator(".nkp-ir").first().textContent()).toContain("kernel @tensor_add");
    expect(log.requests.filter((u) => RUNTIME_URL.test(u))).toEqual([]);
    expect(log.workers).toEqual([]);
    await screenshot(page, "embed-before-run");

    expect(await runEmbed(page, 0)).toBe("done");
    const first = embed(page, 0);
    await expect.poll(() => first.locator(".nkp-panel-ir").textContent()).toContain("kernel @tensor_add");
    expect(await first.locator(".nkp-editor .cm-content").count()).toBe(1);
    expect(await first.locator("pre.nkp-source").isVisible()).toBe(false);
    expect(log.requests.some((u) => /pyodide/.test(u))).toBe(true);
    expect(log.workers).toHaveLength(1);
    await first.scrollIntoViewIfNeeded();
    await screenshot(page, "embed-live");

    // The second example (loops + IfScope) shares the runtime: no new worker, its own IR.
    expect(await runEmbed(page, 1)).toBe("done");
    const second = embed(page, 1);
    await second.locator('.nkp-tab[data-pane="ir"]').click();
    await expect.poll(() => second.locator(".nkp-panel-ir").textContent()).toContain("IfScope");
    expect(await second.locator(".nkp-panel-ir").textContent()).not.toContain("tensor_add");
    expect(log.workers).toHaveLength(1);

    // The simulation example: its Simulation tab draws heatmaps of the compared tensors.
    const sim = await page.$$eval("nki-playground", (els) => els.findIndex((e) => e.getAttribute("filename") === "scale_shift.py"));
    expect(await runEmbed(page, sim)).toBe("done");
    await expect.poll(() => embed(page, sim).locator(".nkp-panel-sim canvas").count()).toBeGreaterThan(0);
    expect(await embed(page, sim).locator(".nkp-panel-sim").textContent()).toContain("scale_shift");
    expect(log.workers).toHaveLength(1);
    expect(await page.evaluate(() => window.__nkpRuntime)).toMatchObject({ workersCreated: 1, runs: 3 });
    expect(log.problems).toEqual([]);
  });

  test("a failing example shows its diagnostic at the line, in the editor and in Output", async () => {
    const { page, log } = await openDemo();
    const index = await page.$$eval("nki-playground", (els) => els.findIndex((e) => e.getAttribute("filename") === "wrong_shape.py"));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(await runEmbed(page, index)).toBe("error");
    const el = embed(page, index);
    expect(await el.locator(".nkp-status").textContent()).toContain("line 10");
    expect(await el.locator(".nkp-panel-output").textContent()).toContain("ValueError");
    // CodeMirror's lint marker lies on the `nl.load(x)` call of line 10.
    const marked = el.locator(".cm-lintRange-error");
    await expect.poll(() => marked.count()).toBeGreaterThan(0);
    expect(await marked.first().textContent()).toContain("nl.load");
    await el.scrollIntoViewIfNeeded();
    await screenshot(page, "embed-error");
    expect(log.problems).toEqual([]);
  });

  test("Open in playground carries the edited code to the full page", async () => {
    const { context, page } = await openDemo();
    const el = embed(page, 0);
    expect(await runEmbed(page, 0)).toBe("done");
    await el.locator(".nkp-editor .cm-content").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n# edited in the embed <b>x</b>\n");
    const [playground] = await Promise.all([context.waitForEvent("page"), el.locator(".nkp-open").click()]);
    await playground.waitForLoadState();
    expect(new URL(playground.url()).pathname).toBe("/");
    await expect
      .poll(() => playground.evaluate(() => window.nkiPlayground?.editor?.text() ?? ""), { timeout: 30_000 })
      .toContain("# edited in the embed <b>x</b>");
    expect(await playground.evaluate(() => window.nkiPlayground.editor.text())).toContain("def tensor_add");
  });

  test("an example records the language it was written for; a later version is said, and carried to the playground", async () => {
    // The demo page's examples are pre-rendered: their tag records Beta 1, the chip shows it.
    const demo = await openDemo();
    expect(await embed(demo.page, 0).getAttribute("language")).toBe("beta1@beta1");
    expect(await embed(demo.page, 0).locator(".nkp-language").textContent()).toBe("NKI Beta 1");
    const { context, page, log } = await openDemo(subServer.url, {}, "lang/page/");
    const later = embed(page, 0);
    await later.locator(".nkp-bar").waitFor();
    expect(await later.locator(".nkp-language").textContent()).toBe("nki@0.7.0");
    expect(await later.locator(".nkp-status").textContent()).toBe(
      "This example was written for nki@0.7.0; this playground runs NKI 0.6.0 and NKI Beta 1.",
    );
    expect(await embed(page, 1).locator(".nkp-language").textContent()).toBe("NKI 0.6.0");
    expect(await embed(page, 1).locator(".nkp-status").textContent()).toBe("");
    await expect.poll(() => later.locator(".nkp-open").evaluate((a) => "stale" in a.dataset)).toBe(false);
    const [playground] = await Promise.all([context.waitForEvent("page"), later.locator(".nkp-open").click()]);
    await playground.waitForLoadState();
    await playground.waitForSelector("html[data-editor-ready]");
    expect(await playground.textContent("#notice-text")).toBe(
      "This link was written for nki@0.7.0; this playground runs NKI 0.6.0 and NKI Beta 1.",
    );
    expect(log.requests.filter((u) => RUNTIME_URL.test(u))).toEqual([]);
    expect(log.problems).toEqual([]);
  });

  test("served under a sub-path, the element finds its chunks, the worker, the wasm and Pyodide", async () => {
    const { page, log } = await openDemo(`${subServer.url}sub/path/`);
    expect(await runEmbed(page, 0)).toBe("done");
    await expect.poll(() => embed(page, 0).locator(".nkp-panel-ir").textContent()).toContain("kernel @tensor_add");
    const runtime = log.requests.filter((u) => RUNTIME_URL.test(u));
    expect(runtime.length).toBeGreaterThan(0);
    for (const u of runtime) expect(new URL(u).pathname).toMatch(/^\/sub\/path\//);
    expect(await embed(page, 0).locator(".nkp-open").getAttribute("href")).toMatch(
      new RegExp(`^${subServer.url}sub/path/#v1/`),
    );
    expect(log.problems).toEqual([]);
  });

  test("kernel output with HTML in it stays text", async () => {
    const { page } = await openDemo();
    const el = embed(page, 0);
    expect(await runEmbed(page, 0)).toBe("done");
    await typeOver(page, el, 'print("<img src=x onerror=window.__pwned=1><b>bold</b>")\n');
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(() => document.querySelector("nki-playground").dataset.runsDone === "2");
    expect(await el.locator(".nkp-panel-output").textContent()).toContain("<img src=x onerror=window.__pwned=1><b>bold</b>");
    expect(await el.locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  });

  test("a traced kernel's IR shows while the script still runs; Stop ends it and keeps that IR; the next run works on a fresh worker", async () => {
    const { page, log } = await openDemo();
    const el = embed(page, 0);
    expect(await runEmbed(page, 0)).toBe("done");
    await typeOver(page, el, `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def streamed(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out

nki.trace_kernel(streamed, nt.tensor[[128, 64], nl.float32])
while True: pass
`);
    await el.locator(".nkp-run").click();
    // The streamed trace is drawn while the loop still spins.
    await page.waitForFunction(() => {
      const host = document.querySelector("nki-playground");
      return host.dataset.state === "running" && host.querySelector(".nkp-panel-ir").textContent.includes("kernel @streamed(");
    }, null, { timeout: 30_000 });
    await el.locator(".nkp-stop").click();
    await page.waitForFunction(() => document.querySelector("nki-playground").dataset.runsDone === "2");
    expect(await el.getAttribute("data-state")).toBe("error");
    expect(await el.locator(".nkp-status").textContent()).toBe("stopped");
    expect(await el.locator(".nkp-stop").isHidden()).toBe(true);
    expect(await el.locator(".nkp-panel-ir").textContent()).toContain("kernel @streamed(");
    // The editor kept the code; a fixed script runs on the replacement worker.
    await typeOver(page, el, 'print("after stop")\n');
    const after = await runEmbed(page, 0);
    const why = `${await el.locator(".nkp-status").textContent()} | ${await el.locator(".nkp-panel-output").textContent()}`;
    expect(after, why).toBe("done");
    expect(await el.locator(".nkp-panel-output").textContent()).toContain("after stop");
    expect(log.workers).toHaveLength(2);
  });

  test("a host page with a strict Content-Security-Policy still runs its examples", async () => {
    const { page, log } = await openDemo(`${subServer.url}csp/`);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("nki-playground")).borderTopStyle)).toBe("solid");
    expect(await runEmbed(page, 0)).toBe("done");
    await expect.poll(() => embed(page, 0).locator(".nkp-panel-ir").textContent()).toContain("kernel @tensor_add");
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    expect(log.problems).toEqual([]);
  });

  test("a host sending a strict Content-Security-Policy header on every response (the worker's too): the embed and the full page run", async () => {
    // The header governs the worker as well, where Pyodide and the core compile WebAssembly
    // ('wasm-unsafe-eval'); no 'unsafe-eval', no 'unsafe-inline', nothing from elsewhere.
    // The demo page without its inline <style> (csp/), and the site's full page beside it.
    const strict = await startServer({ root: subRoot, needs: [], headers: { "Content-Security-Policy": CSP } });
    try {
      const { page, log } = await openDemo(`${strict.url}csp/`);
      expect(await runEmbed(page, 0)).toBe("done");
      await expect.poll(() => embed(page, 0).locator(".nkp-panel-ir").textContent()).toContain("kernel @tensor_add");
      expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
      expect(log.problems).toEqual([]);

      const full = await page.context().newPage();
      const problems = recordProblems(full);
      await recordCspViolations(full);
      await full.goto(`${strict.url}csp/`);
      await full.waitForFunction(() => document.querySelector("#status")?.dataset.state === "ready", null, { timeout: 120_000 });
      await full.click("#run");
      await expect.poll(() => full.locator("#panel-ir").textContent(), { timeout: 60_000 }).toContain("kernel @");
      // CodeMirror's styles reached the editor (adopted in its shadow root, not a blocked <style>).
      expect(await full.locator(".cm-editor").evaluate((e) => getComputedStyle(e).display)).toBe("flex");
      expect(await full.locator(".cm-gutters").evaluate((e) => getComputedStyle(e).borderRightStyle)).toBe("solid");
      expect(await full.evaluate(() => window.__cspViolations)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  test("a simulator warning is marked in the source as a warning; the run still succeeds", async () => {
    const { page } = await openDemo(subServer.url, { viewport: { width: 1000, height: 800 } }, "simwarn/page/");
    expect(await runEmbed(page, 0)).toBe("done");
    const el = embed(page, 0);
    const marked = el.locator(".cm-lintRange-warning");
    await expect.poll(() => marked.count()).toBe(1);
    expect(await marked.textContent()).toBe("nl.store");
    const line = await marked.evaluate((m) => [...m.closest(".cm-content").children].indexOf(m.closest(".cm-line")) + 1);
    expect(line).toBe(10);
    expect(await el.locator(".cm-lintRange-error").count()).toBe(0);
    expect(await el.locator(".nkp-panel-output").textContent()).toContain("half.py:10:5: warning: reading memory that was never written");
    // The simulation pane's warning links to its section of the site's errors page.
    const code = el.locator(".nkp-panel-sim a.nkp-sim-code");
    expect(await code.textContent()).toBe("unwritten-read");
    expect(await code.evaluate((a) => a.href)).toBe(`${subServer.url}simwarn/docs/errors.html#unwritten-read`);
  });

  test("autorun starts when the example scrolls into view, not before", async () => {
    const { page, log } = await openDemo(subServer.url, { viewport: { width: 1000, height: 700 } }, "auto/page/");
    const { workers } = log;
    await page.waitForSelector("nki-playground .nkp-run");
    await page.waitForLoadState("networkidle");
    expect(workers).toEqual([]);
    await page.locator("nki-playground").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector("nki-playground").dataset.state === "done", null, {
      timeout: 120_000,
    });
    expect(workers).toHaveLength(1);
    await expect.poll(() => page.locator("nki-playground .nkp-panel-ir").textContent()).toContain("kernel @copy");
    expect(await page.locator("nki-playground .nkp-panel-ir").evaluate((el) => el.getBoundingClientRect().height)).toBe(200);
  });

  test("theme: auto follows the reader's scheme and the host's color-scheme; theme=dark is pinned", async () => {
    const themes = (page) => page.$$eval("nki-playground", (els) => els.map((e) => e.dataset.nkpTheme));
    const dark = await openDemo(url, { colorScheme: "dark" });
    const light = await openDemo(url, { colorScheme: "light" });
    await dark.page.waitForSelector("nki-playground[data-nkp-theme]");
    await light.page.waitForSelector("nki-playground[data-nkp-theme]");
    // The demo page declares `color-scheme: light dark`: auto follows the reader.
    expect((await themes(dark.page)).slice(0, 5)).toEqual(Array(5).fill("dark"));
    expect((await themes(light.page)).slice(0, 5)).toEqual(Array(5).fill("light"));
    expect((await themes(light.page)).at(-1)).toBe("dark"); // theme="dark"
    // A host that pins one scheme wins over the reader's, also when it switches at run time.
    await dark.page.evaluate(() => document.documentElement.style.setProperty("color-scheme", "light"));
    await expect.poll(() => themes(dark.page)).toEqual([...Array(5).fill("light"), "dark"]);
    expect(await dark.page.evaluate(() => getComputedStyle(document.querySelector("nki-playground")).backgroundColor)).toBe("rgb(255, 255, 255)");
  });

  test("with scripts off, the code and the static IR stay readable", async () => {
    const { page, log } = await openDemo(url, { javaScriptEnabled: false });
    const el = embed(page, 0);
    expect(await el.locator("pre.nkp-source").isVisible()).toBe(true);
    expect(await el.locator("pre.nkp-source").textContent()).toContain("def tensor_add");
    expect(await el.locator(".nkp-ir").first().isVisible()).toBe(true);
    expect(await el.locator(".nkp-ir").first().textContent()).toContain("LoopScope affine %j");
    expect(await page.locator(".nkp-bar").count()).toBe(0);
    expect(log.requests.filter((u) => RUNTIME_URL.test(u))).toEqual([]);
    await screenshot(page, "embed-no-scripts");
  });
});
