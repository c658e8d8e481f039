// The built site (build/site, from `npm run build`) in Debian's Chromium: the page boots the
// worker (Pyodide + core), runs the default kernel and shows its IR.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { serve } from "../../scripts/serve.mjs";

const SITE = fileURLToPath(new URL("../../build/site/", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../../build/screenshots/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let server;
let url;
let context;
let profileDir;
const consoleErrors = [];

beforeAll(async () => {
  if (!existsSync(join(SITE, "index.html"))) {
    throw new Error(`${SITE} has no index.html; run \`npm run build\` first`);
  }
  ({ server, url } = await serve({ root: SITE, port: 0 }));
  profileDir = mkdtempSync(join(tmpdir(), "nki-chromium-profile-"));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

describe("playground page", () => {
  test("loads, runs the default kernel and shows its IR", async () => {
    const page = await context.newPage();
    page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
    page.on("pageerror", (err) => consoleErrors.push(String(err)));
    const requests = [];
    page.on("request", (req) => requests.push(req.url()));
    const failed = [];
    page.on("response", (res) => res.status() >= 400 && failed.push(`${res.status()} ${res.url()}`));

    const t0 = Date.now();
    await page.goto(url);
    // Interactive before the runtime is ready: the editor is filled and the button exists.
    await expect.poll(() => page.inputValue("#editor")).toContain("tensor_add");
    await page.waitForFunction(
      () => ["ready", "error"].includes(document.querySelector("#status").dataset.state),
      null,
      { timeout: 60_000 },
    );
    const readyMs = Date.now() - t0;
    expect(await page.textContent("#status"), await page.textContent("#output")).toBe("ready");

    await page.click("#run");
    await page.waitForFunction(
      () => ["ready", "error"].includes(document.querySelector("#status").dataset.state) &&
        document.querySelector("#ir").textContent.length > 0 ||
        document.querySelector("#status").dataset.state === "error",
      null,
      { timeout: 30_000 },
    );
    const ir = await page.textContent("#ir");
    const output = await page.textContent("#output");
    expect(await page.textContent("#status"), output).toBe("ready");
    expect(ir).toContain("KernelScope");
    expect(ir).toContain("LoopScope");
    expect(ir).toMatch(/tensor_add\.py:\d+/);

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, "page.png") });
    // Everything came from our own server: no CDN.
    expect(requests.filter((u) => !u.startsWith(url))).toEqual([]);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
    console.log(`page ready in ${readyMs} ms`);
  });

  test("a failing script shows its error and leaves the page usable", async () => {
    const page = await context.newPage();
    await page.goto(url);
    await page.fill("#editor", "import neuronxcc.nki.language as nl\nnl.load(None)\n");
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(() => document.querySelector("#status").dataset.state === "error", null, {
      timeout: 60_000,
    });
    expect(await page.textContent("#output")).toContain(
      "calling NKI API outside of NKI kernels is not supported.",
    );
    // The edit was kept in localStorage: a reload shows it again.
    await page.reload();
    expect(await page.inputValue("#editor")).toContain("nl.load(None)");
  });
});
