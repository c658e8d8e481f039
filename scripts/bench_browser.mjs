// Browser figures for `npm run bench`: the built site (build/site) in Debian's Chromium, served
// by scripts/serve.mjs (gzip + ETags, as a static host would), measured in one run next to a bare
// Pyodide page on the same server.
//
// Every figure is a time or a byte count read inside the browser (performance.now(), the
// DevTools protocol's encoded byte counts), never a wall clock around playwright calls.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "./serve.mjs";

export const BROWSER_START = "<!-- bench:browser:start -->";
export const BROWSER_END = "<!-- bench:browser:end -->";

const SITE = fileURLToPath(new URL("../build/site/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// The floor: Pyodide alone, loaded from the same server and folder the page's worker uses.
const BARE_PAGE = `<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  await loadPyodide({ indexURL: new URL("../pyodide/", location.href).href });
  window.__readyMs = performance.now();
</script>`;

/** A fresh browser profile (nothing cached): a first visit. */
export async function freshContext(opts = {}) {
  const profile = mkdtempSync(join(tmpdir(), "nki-bench-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ARGS,
    ...opts,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Records the bytes on the wire (gzip as sent, headers excluded) of every response, via the
 * DevTools protocol, in order, with the worker's requests included.
 */
export async function recordBytes(page) {
  const entries = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const urls = new Map();
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.loadingFinished", (e) => {
    const url = urls.get(e.requestId);
    if (url) entries.push({ url, bytes: e.encodedDataLength, t: e.timestamp });
  });
  return entries;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Milliseconds from navigation start to Pyodide ready on the bare page. */
async function bareReady(page, url) {
  await page.goto(`${url}bench/bare-pyodide.html`);
  await page.waitForFunction(() => window.__readyMs !== undefined, null, { timeout: 120_000 });
  return page.evaluate(() => window.__readyMs);
}

/**
 * Runs `measure({context, url, cold})` for a cold visit (fresh profile) and a warm one (same
 * profile, second visit), `rounds` times, and returns the medians.
 */
export async function coldWarm(url, rounds, measure) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < rounds; i++) {
    const { context, close } = await freshContext();
    try {
      cold.push(await measure({ context, url, cold: true }));
      warm.push(await measure({ context, url, cold: false }));
    } finally {
      await close();
    }
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const keys = Object.keys(cold[0]);
  return {
    cold: Object.fromEntries(keys.map((k) => [k, pick(cold, k)])),
    warm: Object.fromEntries(keys.map((k) => [k, pick(warm, k)])),
  };
}

/** Starts the server on build/site with the bare Pyodide page written next to the site. */
export async function startSite() {
  mkdirSync(join(SITE, "bench"), { recursive: true });
  writeFileSync(join(SITE, "bench", "bare-pyodide.html"), BARE_PAGE);
  const { server, url } = await serve({ root: SITE, port: 0 });
  return {
    url,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(join(SITE, "bench"), { recursive: true, force: true });
    },
  };
}

export async function measureBare(url, rounds) {
  return coldWarm(url, rounds, async ({ context }) => {
    const page = await context.newPage();
    try {
      return { ready: await bareReady(page, url) };
    } finally {
      await page.close();
    }
  });
}

export function withBrowserSection(doc, section) {
  const block = `${BROWSER_START}\n${section}\n${BROWSER_END}`;
  if (doc.includes(BROWSER_START) && doc.includes(BROWSER_END)) {
    return doc.slice(0, doc.indexOf(BROWSER_START)) + block + doc.slice(doc.indexOf(BROWSER_END) + BROWSER_END.length);
  }
  return `${doc.trimEnd()}\n\n${block}\n`;
}
