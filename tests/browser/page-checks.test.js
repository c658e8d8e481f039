// A wrong kernel is a failure (issue 14, item 3): when the script's np.allclose says False, the
// status is a failure, the Simulation badge turns red, and the Problems list and the editor
// mark the check's line; a failed assert_allclose is one error at its line, not two.
import { beforeAll, describe, expect, test } from "vitest";

import { lintMark, runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const KERNEL = (op) => `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def tensor_add(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.${op}(nl.load(a), nl.load(b)))
    return out

a = np.full((4, 8), 3.0, dtype=np.float32)
b = np.ones((4, 8), dtype=np.float32)
out = tensor_add(a, b)
`;

const badgeColour = () => page.$eval("#sim-count", (el) => getComputedStyle(el).backgroundColor);
const colourOf = (name) =>
  page.evaluate((n) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${n})`;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, name);

describe("checks against a reference", () => {
  test("np.allclose False: a failed status, a red badge and an error at the check's line", async () => {
    await setCode(page, `${KERNEL("subtract")}print("matches:", np.allclose(out, a + b))\n`);
    expect(await runAndWait(page)).toBe("failed");
    expect(await page.textContent("#status")).toBe("check failed: 1 of 1 comparison (line 14)");
    expect(await page.textContent("#output")).toContain("matches: False");
    expect(await page.textContent("#sim-count")).toBe("1");
    expect(await badgeColour()).toBe(await colourOf("--error"));
    const problems = await page.$$eval("#problems li", (lis) => lis.map((li) => li.textContent));
    expect(problems).toEqual([expect.stringMatching(/^kernel\.py:14:\d+ error: check failed: expected and actual differ \(max abs error 2\)/)]);
    expect(await page.textContent("#problem-count")).toBe("1");
    expect((await lintMark(page, "error")).line).toBe(14);
    await page.click("#tab-sim");
    await screenshot(page, "page-check-failed");
    await page.click("#tab-ir");
  });

  test("the right kernel: ready, a blue badge, no problem", async () => {
    await setCode(page, `${KERNEL("add")}print("matches:", np.allclose(out, a + b))\n`);
    expect(await runAndWait(page)).toBe("ready");
    expect(await badgeColour()).toBe(await colourOf("--accent"));
    expect(await page.textContent("#problem-count")).toBe("");
  });

  test("a failed assert_allclose is one error at its line", async () => {
    await setCode(page, `${KERNEL("subtract")}np.testing.assert_allclose(out, a + b)\n`);
    expect(await runAndWait(page)).toBe("error");
    const problems = await page.$$eval("#problems li", (lis) => lis.map((li) => li.textContent));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^kernel\.py:14:\d+ error: AssertionError/);
    expect(await badgeColour()).toBe(await colourOf("--error"));
    expect(page.problems).toEqual([]);
  });
});
