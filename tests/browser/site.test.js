// The whole site served from a sub-path (/docs/playground/, as a project's docs host would):
// the page boots and runs there, "Open in playground" from the embed demo opens a working
// page there, the published docs pages (scripts/build-docs.mjs) have live examples and
// anchors, and every diagnostic link (the page's Problems list, an embed's status) lands on
// a section of docs/errors.html that exists.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { SITE, getCode, launchBrowser, openPage, runAndWait, screenshot, setCode, startServer, waitForRuntime } from "./harness.js";

const PREFIX = "docs/playground/";
// `nl.load` outside a kernel: an error with a code (nki-api-outside-of-nki-kernel).
const ERROR_SOURCE = "import neuronxcc.nki.language as nl\n\nnl.load(None)\n";

let server;
let root;
let base; // http://127.0.0.1:port/docs/playground/
let browser;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "nki-site-subpath-"));
  mkdirSync(join(root, "docs"));
  symlinkSync(SITE, join(root, PREFIX.replace(/\/$/, "")), "dir");
  server = await startServer({ root, needs: [`${PREFIX}docs/errors.html`, `${PREFIX}element/nki-playground.js`] });
  base = server.url + PREFIX;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every request the page makes stays under the prefix (nothing assumes the origin's root). */
function recordRequests(page) {
  const urls = [];
  page.on("request", (req) => urls.push(req.url()));
  page.context().on("request", (req) => urls.push(req.url()));
  return urls;
}
const outside = (urls) => urls.filter((u) => u.startsWith("http") && !new URL(u).pathname.startsWith(`/${PREFIX}`));

/** Opens `href` (absolute) and reports whether the page answers 200 and has its #anchor. */
async function checkAnchor(href) {
  const page = await openPage(browser.context);
  try {
    const response = await page.goto(href);
    const id = decodeURIComponent(new URL(href).hash.slice(1));
    const found = await page.evaluate((anchor) => {
      const el = document.getElementById(anchor);
      if (!el) return null;
      const box = el.getBoundingClientRect();
      return { tag: el.tagName, top: box.top, height: window.innerHeight, scrolled: window.scrollY };
    }, id);
    return { status: response.status(), id, found, problems: page.problems };
  } finally {
    await page.close();
  }
}

describe("the site under a sub-path", () => {
  test("the page loads, its runtime gets ready, a run shows the IR; every request stays under the prefix", async () => {
    const page = await openPage(browser.context);
    const urls = recordRequests(page);
    await page.goto(base);
    expect(await waitForRuntime(page), await page.textContent("#output")).toBe("ready");
    await runAndWait(page);
    expect(await page.textContent("#panel-ir")).toContain("KernelScope @tensor_add");
    expect(urls.some((u) => /\/pyodide\//.test(u))).toBe(true);
    expect(outside(urls)).toEqual([]);
    expect(page.problems).toEqual([]);
    // The header's Docs link opens the published docs, also under the prefix.
    const docs = await page.locator("#docs-link").evaluate((a) => a.href);
    expect(docs).toBe(`${base}docs/index.html`);
    expect((await page.request.get(docs)).status()).toBe(200);
    await screenshot(page, "site-subpath-page");
    await page.close();
  });

  test("an error run's Problems entry links to its section of docs/errors.html, which exists", async () => {
    const page = await openPage(browser.context, base);
    expect(await waitForRuntime(page)).toBe("ready");
    await setCode(page, ERROR_SOURCE);
    expect(await runAndWait(page)).toBe("error");
    const [diagnostic] = await page.evaluate(() => window.nkiPlayground.lastResult.diagnostics);
    expect(diagnostic.code).toBe("nki-api-outside-of-nki-kernel");
    await page.click("#tab-problems");
    const href = await page.locator("#problems a.problem-code").first().evaluate((a) => a.href);
    expect(href).toBe(`${base}docs/errors.html#nki-api-outside-of-nki-kernel`);
    await page.close();

    const target = await checkAnchor(href);
    expect(target.status).toBe(200);
    expect(target.found?.tag).toBe("H3");
    // Opening the link scrolls to the section: its heading is at the top of the view.
    expect(target.found.scrolled).toBeGreaterThan(0);
    expect(target.found.top).toBeGreaterThanOrEqual(0);
    expect(target.found.top).toBeLessThan(target.found.height / 2);
    expect(target.problems).toEqual([]);
  });

  test("Open in playground from the embed demo opens a working page under the prefix, with the code", async () => {
    const page = await openPage(browser.context, `${base}docs-demo/`);
    const el = page.locator("nki-playground").first();
    await el.locator(".nkp-open").waitFor();
    const code = await el.locator("pre.nkp-source").textContent();
    const [opened] = await Promise.all([browser.context.waitForEvent("page"), el.locator(".nkp-open").click()]);
    await opened.waitForLoadState();
    expect(opened.url().startsWith(`${base}#v1/`)).toBe(true);
    expect(await waitForRuntime(opened)).toBe("ready");
    expect((await getCode(opened)).trimEnd()).toBe(code.trimEnd());
    await runAndWait(opened);
    expect(await opened.textContent("#panel-ir")).toContain("KernelScope @tensor_add");
    await opened.close();
    await page.close();
  });

  test("an embed's error status links to the errors page section of its diagnostic", async () => {
    const page = await openPage(browser.context, `${base}docs-demo/`);
    const el = page.locator("nki-playground[filename='wrong_shape.py']");
    await el.locator(".nkp-run").click();
    await page.waitForFunction(() => document.querySelector("nki-playground[filename='wrong_shape.py']").dataset.state === "error", null, {
      timeout: 120_000,
    });
    const link = el.locator(".nkp-status a.nkp-code");
    expect(await link.textContent()).toBe("num-partition-exceed-arch-limit");
    const href = await link.evaluate((a) => a.href);
    expect(href).toBe(`${base}docs/errors.html#num-partition-exceed-arch-limit`);
    const target = await checkAnchor(href);
    expect(target.status).toBe(200);
    expect(target.found?.tag).toBe("H3");
    await page.close();
  });
});

describe("the published docs", () => {
  test("a docs example is a pre-rendered embed that runs live and shows its expected IR below", async () => {
    const page = await openPage(browser.context);
    const urls = recordRequests(page);
    await page.goto(`${base}docs/getting-started.html`);
    const el = page.locator("main nki-playground").first();
    // Pre-rendered: the real IR of the example, before any script ran it.
    const staticIr = await el.locator(".nkp-static .nkp-ir").first().textContent();
    expect(staticIr).toContain("kernel @scale_add(");
    expect(await page.locator("main figure.expected").first().textContent()).toContain(staticIr.split("\n")[0]);
    await el.locator(".nkp-run").click();
    await page.waitForFunction(() => ["done", "error"].includes(document.querySelector("main nki-playground").dataset.state), null, {
      timeout: 120_000,
    });
    expect(await el.getAttribute("data-state")).toBe("done");
    expect(Number(await el.getAttribute("data-ir-lines"))).toBeGreaterThan(0);
    expect(await el.locator(".nkp-live").textContent()).toContain("KernelScope @scale_add");
    expect(outside(urls)).toEqual([]);
    expect(page.problems).toEqual([]);
    await screenshot(page, "site-docs-getting-started");
    // The header and nav lead back to the playground and to every page.
    expect(await page.locator(".docs-playground").evaluate((a) => a.href)).toBe(base);
    expect(await page.locator(".docs-nav a[aria-current=page]").textContent()).toBe("Getting started");
    await page.close();
  });

  test("docs/errors.html#<code> scrolls to that code's section", async () => {
    const target = await checkAnchor(`${base}docs/errors.html#tensor-access-out-of-bound`);
    expect(target.status).toBe(200);
    expect(target.found?.tag).toBe("H3");
    expect(target.found.scrolled).toBeGreaterThan(0);
    expect(target.found.top).toBeGreaterThanOrEqual(0);
    expect(target.found.top).toBeLessThan(target.found.height / 2);
  });
});
