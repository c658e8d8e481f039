// A simulator warning in the page: a kernel that stores an SBUF tile it only half wrote gets a
// warning marker on the reading line (not an error marker: the run succeeds) and a Problems
// entry that links to the warning's section of the errors page by its code.
import { beforeAll, describe, expect, test } from "vitest";

import { lintMark, runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

// Line 10, column 5: `nl.store` reads `buf`, whose rows 64..127 nothing wrote.
const SOURCE = [
  "import numpy as np",
  "import neuronxcc.nki as nki",
  "import neuronxcc.nki.language as nl",
  "",
  "@nki.jit(mode='simulation')",
  "def half(x):",
  "    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)",
  "    buf = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)",
  "    buf[0:64, :] = nl.load(x[0:64, :])",
  "    nl.store(out, value=buf)",
  "    return out",
  "",
  "y = half(np.ones((128, 2), dtype=np.float32))",
  "",
].join("\n");

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

describe("simulator warnings", () => {
  test("a read of never-written SBUF: a warning marker at the reading line, a Problems entry linking unwritten-read", async () => {
    await setCode(page, SOURCE);
    expect(await runAndWait(page)).toBe("ready");
    const [sim] = await page.evaluate(() => window.nkiPlayground.lastResult.simulations);
    expect(sim.warnings).toHaveLength(1);
    expect(sim.warnings[0]).toMatchObject({ line: 10, col: 5, code: "unwritten-read" });

    // The marker: CodeMirror wraps the warning's range in .cm-lintRange-warning.
    const where = await lintMark(page, "warning");
    expect(where).toEqual({ line: 10, col: 5, text: "nl.store" });
    expect(await page.locator(".cm-lintRange-error").count()).toBe(0);

    await page.click("#tab-problems");
    const entries = page.locator("#problems .problem");
    expect(await entries.count()).toBe(1);
    const entry = entries.first();
    expect(await entry.getAttribute("class")).toContain("warning");
    expect(await entry.textContent()).toMatch(/:10:5 warning: reading memory that was never written: 'store' reads `buf\[64, 0\]`/);
    expect(await page.textContent("#problem-count")).toBe("1");
    const link = entry.locator("a.problem-code");
    expect(await link.textContent()).toBe("unwritten-read");
    expect(await link.getAttribute("href")).toMatch(/docs\/errors\.html#unwritten-read$/);
    // The link's target exists: the published errors page has that section.
    const href = await link.evaluate((a) => a.href);
    const errorsPage = await page.evaluate(async (u) => (await fetch(u)).text(), href);
    expect(errorsPage).toContain('id="unwritten-read"');

    // The simulation pane lists it too, with its source position and the same code link.
    await page.click("#tab-sim");
    const listed = page.locator(".nkp-sim-warning");
    expect(await listed.count()).toBe(1);
    expect(await listed.locator(".nkp-sim-src").textContent()).toMatch(/:10:5$/);
    expect(await listed.locator("a.nkp-sim-code").textContent()).toBe("unwritten-read");
    expect(await listed.locator("a.nkp-sim-code").evaluate((a) => a.href)).toBe(href);

    await page.evaluate(() => window.nkiPlayground.editor.select(1, 1));
    await page.click("#tab-problems");
    await entry.locator("button").click();
    expect(await page.evaluate(() => window.nkiPlayground.editor.cursorLine())).toBe(10);
    await screenshot(page, "page-sim-warning");

    // A clean run clears both.
    await setCode(page, SOURCE.replace("buf[0:64, :] = nl.load(x[0:64, :])", "buf[...] = nl.load(x)"));
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.locator(".cm-lintRange-warning").count()).toBe(0);
    expect(await page.locator("#problems .problem").count()).toBe(0);
    expect(page.problems).toEqual([]);
  });
});
