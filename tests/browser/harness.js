// Shared set-up for the browser tests: the built site (build/site) served by scripts/serve.mjs,
// Debian's Chromium through playwright-core with a throw-away profile, and the few page
// actions every test needs (wait for the runtime, run, read the status).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "../../scripts/serve.mjs";

export const SITE = fileURLToPath(new URL("../../build/site/", import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL("../../build/screenshots/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Serves build/site on a free port: {url, close()}. */
export async function startServer() {
  if (!existsSync(join(SITE, "index.html"))) {
    throw new Error(`${SITE} has no index.html; run \`npm run build\` first`);
  }
  const { server, url } = await serve({ root: SITE, port: 0 });
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A Chromium with its own fresh profile directory: {context, close()}. */
export async function launchBrowser({ colorScheme = "light" } = {}) {
  const profileDir = mkdtempSync(join(tmpdir(), "nki-chromium-profile-"));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    colorScheme,
    args: FLAGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/** A new page that records console errors, page errors and failed requests. */
export async function openPage(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));
  page.on("pageerror", (err) => problems.push(`pageerror: ${err}`));
  page.on("response", (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
  page.problems = problems;
  if (url) await page.goto(url);
  return page;
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

/** Clicks Run and waits for the run to end; returns the status state. */
export async function runAndWait(page, { timeout = 60_000 } = {}) {
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running", null, { timeout });
  return statusOf(page);
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The element CodeMirror draws for a 1-based line number, when it is in view. */
export function editorLine(page, line) {
  return page.locator(".cm-content .cm-line").nth(line - 1);
}
