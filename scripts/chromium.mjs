// The one way this repository starts Chromium and serves the built site to it: the browser tests
// (tests/browser/harness.js) and the page benchmarks (bench-page, bench-views,
// bench-browser-embed) all come through here, so they drive the same browser with the same flags.
//
// Debian's Chromium through playwright-core (no bundled browser download). The flags keep a
// headless run quiet on the network (no QUIC, background fetches, component updates or sync):
// every request a test or a figure sees is one the page made.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "./serve.mjs";

export const SITE = fileURLToPath(new URL("../build/site/", import.meta.url));
/** The view components' test page (web/vite.views-test.config.js), not part of the site. */
export const VIEWS_TEST_SITE = fileURLToPath(new URL("../build/views-test/", import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium (playwright Browser); each `newContext()` starts from an empty profile. */
export function launchChromium(options = {}) {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, ...options });
}

/**
 * A Chromium on a fresh profile directory on disk (HTTP cache and storage last across reloads,
 * as a reader's do), removed on close: {context, close()}. `options` go to the context
 * (viewport, colorScheme, …).
 */
export async function launchProfile(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), "nki-chromium-profile-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves `root` (default build/site) on a free port with scripts/serve.mjs, after checking that
 * the files in `needs` are there (a missing build fails here, with what to run, not as a
 * timeout later): {url, server, close()}. `headers` go on every response.
 */
export async function serveSite({ root = SITE, needs = ["index.html"], headers } = {}) {
  const missing = needs.filter((name) => !existsSync(join(root, name)));
  if (missing.length) throw new Error(`${root} has no ${missing.join(", ")}; run \`npm run build\` first`);
  const { server, url } = await serve({ root, port: 0, headers });
  return { url, server, close: () => new Promise((resolve) => server.close(resolve)) };
}
