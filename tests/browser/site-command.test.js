// A docs host set up the documented way: `nki-playground site _static/nki` written by the CLI
// (not the build folder), a guide page elsewhere on the host with examples pre-rendered by
// `nki-playground trace --format html`, and one script tag. In Chromium: the examples run, an
// error's code links to the errors page inside that folder, and "Open in playground" opens
// the full page from it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { cli } from "../runtime/cli-harness.js";
import { insertUntil, launchChromium, recordProblems, runEmbed, startServer } from "./harness.js";

const GOOD = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def double(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.multiply(nl.load(a), 2.0))
    return out


nki.trace_kernel(double, nt.tensor[[128, 16], nl.float32])
`;
// Runs fine at docs-build time; the reader breaks it (nl.load outside a kernel).
const BROKEN_LINE = "nl.load(None)\n";

let root;
let server;
let browser;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "nkp-host-"));
  const site = await cli(["site", join(root, "_static/nki")]);
  expect(site.code, site.stderr).toBe(0);
  mkdirSync(join(root, "examples"));
  writeFileSync(join(root, "examples/double.py"), GOOD);
  const pre = await cli(["trace", "--format", "html", "double.py"], { cwd: join(root, "examples") });
  expect(pre.code, pre.stderr).toBe(0);
  mkdirSync(join(root, "guide"));
  writeFileSync(
    join(root, "guide/index.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title><link rel="icon" href="data:,">
<script type="module" src="../_static/nki/element/nki-playground.js"></script></head>
<body><h1>Doubling</h1>\n${pre.stdout}</body></html>\n`,
  );
  server = await startServer({ root, needs: ["guide/index.html", "_static/nki/element/nki-playground.js"] });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("a docs host serving `nki-playground site` output", () => {
  test("the example runs; a reader's error links into the folder's errors page; Open in playground works", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems = recordProblems(page);
    const requests = [];
    page.on("request", (req) => requests.push(new URL(req.url()).pathname));
    await page.goto(`${server.url}guide/`);
    expect(await runEmbed(page)).toBe("done");
    await expect.poll(() => page.locator("nki-playground .nkp-panel-ir").textContent()).toContain("kernel @double(");
    // Everything the runtime needed came from the folder the command wrote.
    const runtime = requests.filter((p) => /pyodide|\.wasm$|nki-python|nki-snapshot|worker/.test(p));
    expect(runtime.length).toBeGreaterThan(3);
    for (const p of runtime) expect(p).toMatch(/^\/_static\/nki\//);
    // Booted from the memory snapshot: the compiled package is fetched only by a boot without it.
    expect(requests).toContain("/_static/nki/nki-snapshot.bin");
    expect(requests).not.toContain("/_static/nki/nki-python.pyc");

    // The reader adds a broken line: the status links the error's code to _static/nki/docs/errors.html.
    await page.locator("nki-playground .nkp-editor .cm-content").click();
    await page.keyboard.press("Control+End");
    const has = (t) => document.querySelector("nki-playground").source.includes(t);
    expect(await insertUntil(page, `\n${BROKEN_LINE}`, has, BROKEN_LINE)).toBe(true);
    const source = await page.locator("nki-playground").evaluate((e) => e.source);
    const brokenLine = source.split("\n").indexOf(BROKEN_LINE.trim()) + 1;
    const state = await runEmbed(page);
    const status = await page.locator("nki-playground .nkp-status").textContent();
    expect(state, status).toBe("error");
    expect(status).toContain(`at line ${brokenLine}: `);
    const link = page.locator("nki-playground .nkp-status a.nkp-code");
    const href = await link.evaluate((a) => a.href);
    expect(href).toBe(`${server.url}_static/nki/docs/errors.html#${await link.textContent()}`);
    const errors = await context.newPage();
    expect((await errors.goto(href)).status()).toBe(200);
    expect(await errors.locator(`[id="${await link.textContent()}"]`).count()).toBe(1);

    // Open in playground: the full page from the same folder, with the edited code.
    const open = await page.locator("nki-playground .nkp-open").evaluate((a) => a.href);
    expect(open.startsWith(`${server.url}_static/nki/#v1/`)).toBe(true);
    const full = await context.newPage();
    const fullProblems = recordProblems(full);
    await full.goto(open);
    await full.waitForFunction(() => document.querySelector("#status")?.dataset.state === "ready", null, { timeout: 120_000 });
    expect(await full.evaluate(() => window.nkiPlayground.editor.text())).toContain(`def double(a):`);
    expect(await full.evaluate(() => window.nkiPlayground.editor.text())).toContain(BROKEN_LINE);
    expect(problems).toEqual([]);
    expect(fullProblems).toEqual([]);
    await context.close();
  });
});

