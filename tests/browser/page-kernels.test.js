// Many kernels, many traces (issue 14, item 8): a kernel picker lists every trace with its
// signature (argument types, grid), so two traces of one kernel are told apart there and in the
// region tree; picking one brings it into view; Collapse all leaves one line per kernel.
import { beforeAll, describe, expect, test } from "vitest";

import { runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const kernel = (i) => `
@nki.jit
def k${String(i).padStart(2, "0")}(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for j in nl.affine_range(2):
        t = nl.load(a)
        nl.store(out, value=nl.multiply(t, ${i + 1}))
    return out
`;
const SCRIPT = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
${Array.from({ length: 12 }, (_, i) => kernel(i)).join("")}
for k in [${Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, "0")}`).join(", ")}]:
    nki.trace_kernel(k, nt.tensor[[128, 64], nl.float32])
nki.trace_kernel(k03, nt.tensor[[64, 32], nl.bfloat16])
`;

const visibleTreeItems = () =>
  page.$$eval("#panel-regions [role=treeitem]", (items) => items.filter((li) => !li.parentElement.closest("[hidden]")).length);

describe("a file with many kernels", () => {
  test("the picker lists every trace with its signature; the region tree tells them apart", async () => {
    await setCode(page, SCRIPT);
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.isVisible("#kernel-bar")).toBe(true);
    const options = await page.$$eval("#kernel-picker option", (os) => os.map((o) => o.textContent));
    expect(options).toHaveLength(14);
    expect(options[0]).toBe("All 13 kernels");
    expect(options[4]).toBe("4. k03(f32[128,64])");
    expect(options[13]).toBe("13. k03(bf16[64,32])");
    await page.click("#tab-regions");
    const roots = await page.$$eval("#panel-regions .nkp-region-tree > [role=treeitem] > .nkp-region-box .nkp-region-detail", (els) =>
      els.map((e) => e.textContent),
    );
    expect(roots[3]).toBe("@k03(f32[128,64])");
    expect(roots[12]).toBe("@k03(bf16[64,32])");
    await screenshot(page, "kernels-regions");
  });

  test("picking a kernel shows it; Collapse all leaves the kernels, Expand all brings the rest back", async () => {
    await page.click("#tab-ir");
    await page.selectOption("#kernel-picker", "9");
    const header = await page.evaluate(() => {
      const pane = document.querySelector("#panel-ir .nkp-ir");
      const top = pane.getBoundingClientRect().top;
      const rows = [...pane.querySelectorAll(".nkp-ir-line")].filter((r) => r.getBoundingClientRect().top >= top - 1);
      rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      return rows[0]?.textContent ?? "";
    });
    expect(header).toMatch(/^▾?kernel @k09\(/); // ▾: the header opens a region that folds
    expect(await page.getAttribute("#panel-regions", "data-linked-regions")).toMatch(/^9:/);

    await page.click("#tab-regions");
    const all = await visibleTreeItems();
    await page.click("#collapse-all");
    expect(await visibleTreeItems()).toBe(13);
    await page.click("#tab-ir");
    const rows = await page.evaluate(() => Number(getComputedStyle(document.querySelector("#panel-ir .nkp-ir-spacer")).height.replace("px", "")) / 18);
    expect(rows).toBe(13 + 12); // one folded header line per kernel, a blank line between kernels
    await screenshot(page, "kernels-collapsed");
    await page.click("#expand-all");
    await page.click("#tab-regions");
    expect(await visibleTreeItems()).toBe(all);
    expect(page.problems).toEqual([]);
  });
});
