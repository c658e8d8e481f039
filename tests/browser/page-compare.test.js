// The porting bench on the page (issue 12, item 8): the Compare tab runs the editor's kernel and
// another version of it in the real worker (real Pyodide, the real wasm core), one after the
// other, and shows the verdict, the outputs' errors, the IR counts side by side and the
// old / new / |difference| heatmaps — reached and driven from the keyboard, with no axe
// violation; a broken port's NaN band and mismatch stand out.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import { beforeAll, describe, expect, test } from "vitest";

import { ROOT } from "../runtime/cli-harness.js";
import { screenshot, setCode, usePlayground } from "./harness.js";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PARTIAL = readFileSync(join(ROOT, "tests/runtime/fixtures/compare/tensor_add_nki_partial.py"), "utf8");

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

async function violations() {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

/** Waits for the compare to end; returns the panel's state and verdict. */
async function compareEnd() {
  await page.waitForFunction(() => {
    const s = document.getElementById("panel-compare").dataset.state;
    return s && s !== "running";
  }, null, { timeout: 90_000 });
  return page.$eval("#panel-compare", (p) => [p.dataset.state, p.dataset.verdict]);
}

/** The rows of a table in the Compare tab, as cell texts. */
const rows = (selector) =>
  page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));

describe("the Compare tab", () => {
  test("an _nki example against its Beta 1 version, from the keyboard: a match, counts side by side", async () => {
    await page.selectOption("#examples", "tensor_add_nki");
    // Reach the tab with the arrows of the tab list, then the controls with Tab.
    await page.focus("#tab-sim");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement.id)).toBe("tab-compare");
    expect(await page.isVisible("#panel-compare")).toBe(true);
    // The Beta 1 version is proposed, and it is the old side.
    expect(await page.$eval("#compare-with", (s) => s.value)).toBe("example:tensor_add");
    expect(await page.textContent("#compare-sides")).toBe("old: tensor_add.py, NKI Beta 1 → new: the editor (tensor_add_nki.py), NKI 0.6.0");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.id)).toBe("compare-with");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.id)).toBe("compare-swap");
    await page.keyboard.press("Enter");
    expect(await page.textContent("#compare-sides")).toMatch(/^old: the editor \(tensor_add_nki\.py\)/);
    await page.keyboard.press("Enter");
    expect(await page.textContent("#compare-sides")).toMatch(/^old: tensor_add\.py/);
    for (const id of ["compare-rtol", "compare-atol", "compare-run"]) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement.id)).toBe(id);
    }
    await page.keyboard.press("Enter");
    expect(await compareEnd()).toEqual(["done", "match"]);
    expect(await page.textContent("#compare-status")).toBe("match: 1 output within tolerance (1 call)");
    expect(await page.textContent("#compare-result .nkp-cmp-pair-title")).toBe("call 1: @tensor_add → @tensor_add_nki");
    const [out] = await rows("#compare-result .nkp-cmp-outputs");
    expect(out.slice(0, 5)).toEqual(["out", "float32[256, 1024]", "0", "0", "0 of 262,144"]);
    expect(out.at(-1)).toBe("match");
    const counts = Object.fromEntries((await rows("#compare-result .nkp-cmp-counts")).map(([k, ...v]) => [k, v]));
    expect(counts.instructions).toEqual(["5", "25"]);
    expect(counts.dma).toEqual(["3", "12"]);
    expect(counts.ScopeRegion).toEqual(["0", "6"]);
    expect(counts["executed (simulated)"]).toEqual(["18", "25"]);
    // The heatmaps: old and new; equal everywhere, so no |difference| map but a sentence.
    const maps = page.locator("#compare-result .nkp-compare");
    expect(await maps.locator("canvas.nkp-heatmap").count()).toBe(2);
    expect(await maps.textContent()).toContain("|difference| is 0 everywhere: old and new are equal element for element.");
    expect(await maps.locator(".nkp-tensor-name").allTextContents()).toEqual(["old", "new"]);
    // The script's output went to Output; the IR tab still shows the editor's own (none yet).
    expect(await page.textContent("#output")).toContain("compare: running tensor_add.py (old), then tensor_add_nki.py (new)");
    expect(await page.textContent("#output")).toContain("simulated tensor_add_nki matches a + b: True");
    expect(await page.textContent("#status")).toBe("compare: match");
    await screenshot(page, "compare-match");
    expect(await violations()).toEqual([]);
  });

  test("a broken port: the mismatch, its NaN band flagged, the |difference| drawn", async () => {
    await setCode(page, PARTIAL);
    await page.click("#tab-compare");
    // A user's file that names no example it ports: pick the Beta 1 kernel in the menu.
    await page.selectOption("#compare-with", "example:tensor_add");
    expect(await page.textContent("#compare-sides")).toBe("old: tensor_add.py, NKI Beta 1 → new: the editor (kernel.py), NKI 0.6.0");
    await page.click("#compare-run");
    expect(await compareEnd()).toEqual(["done", "mismatch"]);
    expect(await page.textContent(".nkp-cmp-head")).toContain("the outputs differ");
    expect(await page.textContent("#compare-status")).toBe("mismatch: 1 of 1 output differs (1 call)");
    const [out] = await rows("#compare-result .nkp-cmp-outputs");
    expect(out.slice(2, 5)).toEqual(["inf", "inf", "131,072 of 262,144"]);
    expect(out[6]).toContain("131072 NaN");
    expect(out.at(-1)).toBe("mismatch");
    expect(await page.textContent(".nkp-cmp-notes")).toContain("new out holds 131072 NaN values: never-written memory reads NaN in the simulator.");
    expect(await page.textContent(".nkp-cmp-notes")).toMatch(/worst element out\[0, 512\]: old -1\.91\d*, new nan/);
    const maps = page.locator("#compare-result .nkp-compare");
    expect(await maps.locator(".nkp-badge").textContent()).toBe("mismatch");
    expect(await maps.locator("canvas.nkp-heatmap").count()).toBe(3); // old, new, |difference|
    expect(await maps.locator(".nkp-tensor-stats").nth(2).textContent()).toContain("nan 131072");
    expect(await page.textContent("#status")).toBe("compare: mismatch");
    await screenshot(page, "compare-broken-port");
    expect(await violations()).toEqual([]);
  });

  test("bad tolerance is refused at the field; a busy runtime is waited for, not raced", async () => {
    await page.fill("#compare-rtol", "-1");
    await page.click("#compare-run");
    expect(await page.$eval("#panel-compare", (p) => p.dataset.state)).toBe("error");
    expect(await page.getAttribute("#compare-rtol", "aria-invalid")).toBe("true");
    expect(await page.textContent("#compare-status")).toBe("rtol and atol must be numbers ≥ 0 (e.g. 1e-5).");
    await page.fill("#compare-rtol", "1e-5");
    // --atol wide enough makes the broken port's finite elements match; NaN never does.
    await page.fill("#compare-atol", "100");
    await page.click("#compare-run");
    expect(await page.$eval("#compare-run", (b) => b.disabled)).toBe(true);
    expect(await page.$eval("#run", (b) => b.disabled)).toBe(true);
    expect(await compareEnd()).toEqual(["done", "mismatch"]);
    const [out] = await rows("#compare-result .nkp-cmp-outputs");
    expect(out[4]).toBe("131,072 of 262,144");
    expect(await page.$eval("#run", (b) => b.disabled)).toBe(false);
    expect(page.problems).toEqual([]);
  });
});
