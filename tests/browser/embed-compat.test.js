// Pages published with an older <nki-playground> keep working with today's element: the frozen
// format-1 page (fixtures/embed-format1.html, never regenerated) is served beside the built
// site, the way a docs host that updated the element but not its pages would serve it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { PRERENDER_FORMAT } from "../../render/prerender.js";
import { SITE, launchChromium, recordProblems, runEmbed, startServer } from "./harness.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/embed-format1.html", import.meta.url));
const RUNTIME_URL = /pyodide|\.wasm(\?|$)|nki-python\.(json|pyc)|worker[^/]*\.js|\/live\.js/;

let root;
let server;
let browser;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "nkp-compat-"));
  for (const name of readdirSync(SITE)) symlinkSync(join(SITE, name), join(root, name));
  mkdirSync(join(root, "published"));
  symlinkSync(FIXTURE, join(root, "published/index.html"));
  server = await startServer({ root, needs: ["published/index.html", "element/nki-playground.js"] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function openPublished() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const log = { requests: [], problems: recordProblems(page) };
  page.on("request", (req) => log.requests.push(req.url()));
  await page.goto(`${server.url}published/`);
  await page.waitForSelector("nki-playground .nkp-bar .nkp-run");
  return { context, page, log };
}

describe("a page published with pre-render format 1", () => {
  test("is format 1, no newer than what the pre-render writes today", () => {
    const html = readFileSync(FIXTURE, "utf8");
    expect(html).toContain('<nki-playground filename="scale_rows.py" data-nkp-format="1">');
    expect(html).toContain('<template class="nkp-ir-json">');
    expect(PRERENDER_FORMAT).toBeGreaterThanOrEqual(1);
  });

  test("before Run: both elements get their toolbar, the static IR shows, nothing of the runtime loads", async () => {
    const { context, page, log } = await openPublished();
    await page.waitForLoadState("networkidle");
    const [pre, hand] = [0, 1].map((i) => page.locator("nki-playground").nth(i));
    expect(await pre.locator(".nkp-static .nkp-ir").first().isVisible()).toBe(true);
    expect(await pre.locator(".nkp-static .nkp-ir").first().textContent()).toContain("kernel @scale_rows(");
    expect(await pre.locator(".nkp-outline").first().textContent()).toContain("LoopScope");
    expect(await hand.locator(":scope > pre").textContent()).toContain("def copy_tile(a):");
    expect(await hand.locator(".nkp-filename").textContent()).toBe("copy_tile.py");
    expect(log.requests.filter((u) => RUNTIME_URL.test(u))).toEqual([]);
    expect(log.problems).toEqual([]);
    await context.close();
  });

  test("Run makes each live: traced, simulated, its output shown; the attributes still apply", async () => {
    const { context, page, log } = await openPublished();
    const [pre, hand] = [0, 1].map((i) => page.locator("nki-playground").nth(i));
    expect(await runEmbed(page, 0)).toBe("done");
    await expect.poll(() => pre.locator(".nkp-panel-ir").textContent()).toContain("kernel @scale_rows(");
    expect(await pre.locator(".nkp-panel-output").textContent()).toContain("max |error|: 0.0");
    expect(await pre.locator(".nkp-static").isVisible()).toBe(false);

    expect(await runEmbed(page, 1)).toBe("done");
    await expect.poll(() => hand.locator(".nkp-panel-ir").textContent()).toContain("kernel @copy_tile(");
    expect(await hand.locator(".nkp-panel-output").textContent()).toContain("copied <128 x 32>");
    // readonly, panes="ir,output", height="240"
    expect(await hand.locator(".nkp-editor .cm-content").getAttribute("contenteditable")).toBe("false");
    expect(await hand.locator(".nkp-panel-regions").count()).toBe(0);
    expect(await hand.locator(".nkp-panel-ir").evaluate((el) => el.getBoundingClientRect().height)).toBe(240);
    expect(log.problems).toEqual([]);
    await context.close();
  });

  test("Open in playground opens the full page with the published code", async () => {
    const { context, page } = await openPublished();
    const href = await page.locator("nki-playground").nth(0).locator(".nkp-open").getAttribute("href");
    expect(href).toMatch(new RegExp(`^${server.url}#v1/`));
    const playground = await context.newPage();
    const problems = recordProblems(playground);
    await playground.goto(href);
    await expect
      .poll(() => playground.evaluate(() => window.nkiPlayground?.editor?.text() ?? ""), { timeout: 30_000 })
      .toContain("def scale_rows(x, s):");
    expect(problems).toEqual([]);
    await context.close();
  });
});
