// The memory snapshot in Chromium: the page's worker and the <nki-playground> element's boot
// from nki-snapshot.bin (fetched when the runtime starts, the compiled package not fetched at
// all, no warning), and a site whose snapshot is cut short boots as without one, saying why
// once, and runs.
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { SITE, launchChromium, recordProblems, runAndWait, runEmbed, startServer, waitForRuntime } from "./harness.js";

const SNAPSHOT = "nki-snapshot.bin";

let browser;
let server;
let broken; // the site with its snapshot cut short
let brokenRoot;

beforeAll(async () => {
  server = await startServer({ needs: ["index.html", SNAPSHOT, "docs-demo/index.html"] });
  brokenRoot = mkdtempSync(join(tmpdir(), "nki-snapshot-cut-"));
  for (const name of readdirSync(SITE)) if (name !== SNAPSHOT) symlinkSync(join(SITE, name), join(brokenRoot, name));
  const bytes = readFileSync(join(SITE, SNAPSHOT));
  writeFileSync(join(brokenRoot, SNAPSHOT), bytes.subarray(0, bytes.length >> 1));
  broken = await startServer({ root: brokenRoot });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await broken?.close();
  if (brokenRoot) rmSync(brokenRoot, { recursive: true, force: true });
});

/** A fresh context's page at `url`, recording its request paths, problems and our warnings. */
async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const log = { paths: [], problems: recordProblems(page), warnings: [] };
  page.on("request", (req) => log.paths.push(new URL(req.url()).pathname));
  page.on("console", (msg) => msg.type() === "warning" && msg.text().startsWith("nki-playground:") && log.warnings.push(msg.text()));
  await page.goto(url);
  return { context, page, log };
}

describe("boots from the snapshot", () => {
  test("the page: the snapshot fetched once the runtime starts, the compiled package never; the example runs", async () => {
    const { context, page, log } = await open(server.url);
    try {
      expect(await waitForRuntime(page)).toBe("ready");
      expect(log.paths).toContain(`/${SNAPSHOT}`);
      expect(log.paths).not.toContain("/nki-python.pyc");
      expect(await runAndWait(page)).toBe("ready");
      expect(await page.locator("#panel-ir").textContent()).toContain("kernel @");
      expect(log.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the element: Run boots its worker from the snapshot", async () => {
    const { context, page, log } = await open(`${server.url}docs-demo/`);
    try {
      await page.waitForSelector("nki-playground .nkp-bar .nkp-run");
      expect(log.paths.filter((p) => p.endsWith(SNAPSHOT))).toEqual([]);
      expect(await runEmbed(page, 0)).toBe("done");
      await expect.poll(() => page.locator("nki-playground .nkp-panel-ir").first().textContent()).toContain("kernel @tensor_add");
      expect(log.paths).toContain(`/${SNAPSHOT}`);
      expect(log.paths).not.toContain("/nki-python.pyc");
      expect(log.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("a snapshot that does not fit", () => {
  test("cut short: one warning with the reason, the compiled package fetched instead, the example runs", async () => {
    const { context, page, log } = await open(broken.url);
    try {
      expect(await waitForRuntime(page)).toBe("ready");
      expect(log.warnings).toHaveLength(1);
      expect(log.warnings[0]).toMatch(/^nki-playground: nki-snapshot\.bin not used \(cut short \(\d+ of \d+ bytes\)\)/);
      expect(log.paths).toContain("/nki-python.pyc");
      expect(await runAndWait(page)).toBe("ready");
      expect(await page.locator("#panel-ir").textContent()).toContain("kernel @");
      // The warning is the only problem the recorder saw.
      expect(log.problems).toEqual([`console: ${log.warnings[0]}`]);
    } finally {
      await context.close();
    }
  });
});
