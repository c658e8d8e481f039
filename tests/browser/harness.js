// Shared set-up for the browser tests: the built site (build/site) served and Debian's Chromium
// launched by scripts/chromium.mjs (the benchmarks use the same), and the few page actions the
// tests need: record a page's problems, wait for the runtime, run, read the status, boot the
// built worker on its own.
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, expect } from "vitest";

import { SITE, VIEWS_TEST_SITE, launchChromium, launchProfile, serveSite } from "../../scripts/chromium.mjs";

export { SITE, VIEWS_TEST_SITE, launchChromium };
export const SCREENSHOTS = fileURLToPath(new URL("../../build/screenshots/", import.meta.url));

/** Serves build/site (or `root`) on a free port once `needs` are built: {url, server, close()}. */
export function startServer(options) {
  return serveSite(options);
}

/** A Chromium with its own fresh profile directory: {context, close()}. */
export function launchBrowser({ colorScheme = "light", viewport } = {}) {
  return launchProfile({ colorScheme, ...(viewport && { viewport }) });
}

/**
 * Collects what should never happen on our pages: console errors, uncaught page errors and
 * responses of 400 or more. Returns the (live) list; tests expect it to stay empty.
 */
export function recordProblems(page) {
  const problems = [];
  // Errors, and our own warnings (e.g. the compiled Python package not used), are problems.
  page.on("console", (msg) => {
    if (msg.type() === "error" || (msg.type() === "warning" && msg.text().startsWith("nki-playground:"))) {
      problems.push(`console: ${msg.text()}`);
    }
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err}`));
  page.on("response", (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
  return problems;
}

/** A new page that records its problems in `page.problems`, at `url` if given. */
export async function openPage(context, url) {
  const page = await context.newPage();
  page.problems = recordProblems(page);
  if (url) await page.goto(url);
  return page;
}

/**
 * The set-up of a test file on the playground page, as beforeAll/afterAll hooks: the site
 * served, a browser with a fresh profile and, unless `open` is false, the page opened with its
 * runtime ready. Returns {server, browser, page, launch()} (filled in once beforeAll has run);
 * `launch()` starts another fresh-profile browser, closed with the rest after the file.
 */
export function usePlayground({ open = true } = {}) {
  const browsers = [];
  const pg = {
    server: null,
    browser: null,
    page: null,
    async launch() {
      const browser = await launchBrowser();
      browsers.push(browser);
      return browser;
    },
  };
  beforeAll(async () => {
    pg.server = await startServer();
    pg.browser = await pg.launch();
    if (open) {
      pg.page = await openPage(pg.browser.context, pg.server.url);
      expect(await waitForRuntime(pg.page)).toBe("ready");
    }
  });
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await pg.server?.close();
  });
  return pg;
}

export const statusOf = (page) => page.$eval("#status", (el) => el.dataset.state);

/** Waits until the runtime worker has booted (or failed) and returns the status text. */
export async function waitForRuntime(page) {
  await page.waitForFunction(() => ["ready", "error"].includes(document.querySelector("#status").dataset.state), null, {
    timeout: 90_000,
  });
  return page.textContent("#status");
}

/** Replaces the editor's text (through the editor's own API: typing a whole kernel is slow). */
export async function setCode(page, code) {
  await page.evaluate((text) => window.nkiPlayground.editor.setText(text), code);
}

export const getCode = (page) => page.evaluate(() => window.nkiPlayground.editor.text());

/**
 * Clicks Run and waits for the run to end and its output to be drawn (a flood's backlog draws
 * over a few frames, `#output[data-pending]`); returns the status state.
 */
export async function runAndWait(page, { timeout = 60_000 } = {}) {
  await page.click("#run");
  await waitForRunEnd(page, { timeout });
  return statusOf(page);
}

/** Waits until the status leaves "running" and the Output pane has drawn what it received. */
export async function waitForRunEnd(page, { timeout = 60_000, polling = "raf" } = {}) {
  await page.waitForFunction(
    () => document.querySelector("#status").dataset.state !== "running" && !document.querySelector("#output").dataset.pending,
    null,
    { timeout, polling },
  );
}

/** build/screenshots/<name>.png; `options` go to page.screenshot (fullPage, …). */
export async function screenshot(page, name, options = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...options });
}

/**
 * Waits for the first lint mark of `severity` ("error", "warning") in the editor and returns
 * where it starts ({line, col}, 1-based, col as the CLI prints it) and its text.
 */
export async function lintMark(page, severity) {
  const marker = page.locator(`.cm-lintRange-${severity}`).first();
  await marker.waitFor();
  return marker.evaluate((el) => {
    const line = el.closest(".cm-line");
    const lines = [...el.closest(".cm-content").querySelectorAll(".cm-line")];
    const range = document.createRange();
    range.setStart(line, 0);
    range.setEndBefore(el);
    return { line: lines.indexOf(line) + 1, col: range.toString().length + 1, text: el.textContent };
  });
}

/** The element CodeMirror draws for a 1-based line number, when it is in view. */
export function editorLine(page, line) {
  return page.locator(".cm-content .cm-line").nth(line - 1);
}

/**
 * A page of the served site that runs no script of its own (the Python bundle's JSON, same
 * origin as the worker), with `window.runInBuiltWorker(runs)` defined in it: that boots the
 * site's one built worker asset through the worker protocol only (not the page's UI), posts
 * `runs` ([{source, filename, id?}]) one after the other once it is ready, and resolves with
 * {done, messages, times}: the runs' `done` messages, every message the worker sent in order, and
 * when each arrived (performance.now(), one per message); a
 * status error, a `failed` message or a worker error rejects.
 * Tests call it inside `page.evaluate`, so the messages are inspected as the page got them
 * (a Float32Array is still one there).
 */
export async function openWorkerPage(context, serverUrl) {
  const workers = readdirSync(join(SITE, "assets")).filter((f) => /^worker-.*\.js$/.test(f));
  expect(workers, "the built site has one worker asset").toHaveLength(1);
  const page = await context.newPage();
  // Not openPage: Chromium asks a JSON document for /favicon.ico, which the site does not have.
  await page.goto(`${serverUrl}nki-python.json`);
  await page.evaluate(defineRunInBuiltWorker, `/assets/${workers[0]}`);
  return page;
}

// Runs in the page (serialised by page.evaluate): no closure over this module.
function defineRunInBuiltWorker(workerUrl) {
  window.runInBuiltWorker = (runs) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(workerUrl, { type: "module" });
      const done = [];
      const messages = [];
      const times = [];
      const end = (settle, value) => {
        worker.terminate();
        settle(value);
      };
      const runNext = () => {
        if (done.length === runs.length) return end(resolve, { done, messages, times });
        const { source, filename, id = done.length } = runs[done.length];
        worker.postMessage({ type: "run", id, source, filename });
      };
      worker.onerror = (e) => end(reject, new Error(`worker error: ${e.message}`));
      worker.onmessage = ({ data }) => {
        messages.push(data);
        times.push(performance.now());
        if (data.type === "status" && data.state === "ready") runNext();
        else if (data.type === "status" && data.state === "error") end(reject, new Error(data.message));
        else if (data.type === "failed") end(reject, new Error(`failed: ${data.message}`));
        else if (data.type === "done") {
          done.push(data);
          runNext();
        }
      };
    });
}

// --- <nki-playground> embeds ----------------------------------------------------------------

/** Clicks Run on the page's embed `i` and waits for that run to end; returns its data-state. */
export async function runEmbed(page, i = 0) {
  // Wait for this run to finish, not for a state left by the last one (after Stop the element
  // already says "error" when Run is clicked).
  const runsDone = (n) => Number(document.querySelectorAll("nki-playground")[n].dataset.runsDone ?? 0);
  const before = await page.evaluate(runsDone, i);
  const el = page.locator("nki-playground").nth(i);
  await el.locator(".nkp-run").click();
  await page.waitForFunction(
    ([n, b]) => Number(document.querySelectorAll("nki-playground")[n].dataset.runsDone ?? 0) > b,
    [i, before],
    { timeout: 120_000 },
  );
  return el.getAttribute("data-state");
}

/**
 * Types `text` into the focused editor with CDP's Input.insertText until `arrived(arg)` (run in
 * the page) holds; returns whether it did, within 3 sends.
 *
 * Input.insertText goes through the browser's IME path, which drops the text when it arrives
 * before the browser process has learnt that the just-clicked element is editable: on a loaded
 * 2-core machine, 1 insert in ~20 vanished with the focus and the selection in place (measured:
 * the editor still held the old text 1.5 s later). Such an insert leaves nothing behind, so it
 * is sent again; an editor that really refuses input still fails. `before` runs ahead of each
 * send (e.g. select all).
 */
export async function insertUntil(page, text, arrived, arg, { before = async () => {} } = {}) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await before();
    await page.keyboard.insertText(text); // inserted as is: no auto-indent on the way in
    const ok = await page.waitForFunction(arrived, arg, { timeout: 2_000 }).then(() => true, () => false);
    if (ok) return true;
  }
  return false;
}

/** Records Content-Security-Policy violations of `page`'s documents in `window.__cspViolations`. */
export function recordCspViolations(page) {
  return page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

// --- responsiveness -------------------------------------------------------------------------

/**
 * Starts recording the page's animation frames; `stop()` returns the longest gap between two
 * frames (ms) since the start and the number of frames. A frame gap is what a person feels as
 * a frozen tab: a page busy on its main thread draws no frame.
 */
export async function recordFrames(page) {
  await page.evaluate(() => {
    const rec = { max: 0, frames: 0, last: performance.now(), on: true };
    const tick = (t) => {
      if (!rec.on) return;
      rec.max = Math.max(rec.max, t - rec.last);
      rec.last = t;
      rec.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.__nkiFrames = rec;
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const rec = window.__nkiFrames;
        rec.on = false;
        // The time since the last frame counts too: a page frozen right now has not drawn.
        return { maxGapMs: Math.max(rec.max, performance.now() - rec.last), frames: rec.frames };
      }),
  };
}

/** Sets the toolbar's time limit (seconds) as a person does: type, then leave the field. */
export async function setTimeLimit(page, seconds) {
  await page.fill("#time-limit", String(seconds));
  await page.dispatchEvent("#time-limit", "change");
}
