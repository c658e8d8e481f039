// Linking in the built page: a source line lights its IR lines, an IR line its source line,
// a region its source span and IR block; the breadcrumb follows the cursor.
import { beforeAll, describe, expect, test } from "vitest";

import { editorLine, runAndWait, screenshot, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const linked = (selector) => page.$eval(selector, (el) => el.dataset.linkedLines ?? "");
/** Indices of the IR lines whose location is tensor_add.py:<line>. */
const irLinesOf = (line) =>
  page.evaluate(
    (n) =>
      window.nkiPlayground.views
        .irLineTexts()
        .flatMap((text, i) => (text.includes(`@ tensor_add.py:${n}:`) ? [i] : []))
        .join(","),
    line,
  );

beforeAll(async () => {
  await page.selectOption("#examples", "tensor_add");
  expect(await runAndWait(page)).toBe("ready");
});

describe("source, IR and regions are linked", () => {
  test("clicking a source line highlights exactly its IR lines; the breadcrumb shows its regions", async () => {
    const expected = await irLinesOf(25); // a_tile = nl.load(...)
    expect(expected.split(",").length).toBe(1);
    await editorLine(page, 25).click();
    expect(await linked("#panel-ir")).toBe(expected);
    const crumbs = await page.$$eval("#breadcrumb li", (lis) => lis.map((li) => li.textContent));
    expect(crumbs.length).toBeGreaterThanOrEqual(3);
    expect(crumbs[0]).toMatch(/kernel/i);
    expect(crumbs[0]).toMatch(/tensor_add/);
    expect(crumbs.some((c) => /Loop/.test(c) && /%j/.test(c))).toBe(true);
    expect(crumbs.at(-1)).toMatch(/Allocation/);
    await screenshot(page, "page-linked-source");

    // A crumb picks its region: the loop's crumb lights the loop's whole source span.
    await page.locator("#breadcrumb li button").filter({ hasText: /Loop/ }).click();
    expect(await linked("#editor")).toBe("22,23,24,25,26,27,28");
    expect(await page.evaluate(() => window.nkiPlayground.editor.cursorLine())).toBe(25);

    // Hovering another line lights its IR for as long as the pointer stays; leaving the
    // editor goes back to the cursor's line.
    await editorLine(page, 26).hover();
    expect(await linked("#panel-ir")).toBe(await irLinesOf(26));
    await page.hover("#breadcrumb");
    expect(await linked("#panel-ir")).toBe(expected);

    // A line with no IR of its own (the docstring) highlights nothing.
    await editorLine(page, 2).click();
    expect(await linked("#panel-ir")).toBe("");
  });

  test("clicking an IR line selects and highlights its source line", async () => {
    await page.locator("#panel-ir").getByText("dma.store").first().click();
    expect(await linked("#editor")).toBe("28");
    expect(await page.evaluate(() => window.nkiPlayground.editor.cursorLine())).toBe(28);
    expect(await page.locator(".cm-linked-line").count()).toBe(1);
    expect(await page.locator(".cm-linked-line").textContent()).toContain("nl.store(out[rows_here, cols_here]");
    await screenshot(page, "page-linked-ir");
  });

  test("clicking a region highlights its source span and its IR block", async () => {
    await page.click("#tab-regions");
    // The innermost item mentioning a loop is the loop (its ancestors contain its text too);
    // click its label (not a fold toggle).
    const loop = page.locator('#panel-regions [role="treeitem"]').filter({ hasText: /Loop/ }).last();
    await loop.getByText(/^Loop/).first().click();
    // The loop opens on line 22 and its last statement is on line 28.
    expect(await linked("#editor")).toBe("22,23,24,25,26,27,28");
    const texts = await page.evaluate(() => window.nkiPlayground.views.irLineTexts());
    const block = (await linked("#panel-ir")).split(",").map(Number);
    expect(texts[block[0]]).toMatch(/LoopScope affine %j/);
    expect(texts[block.at(-1)].trim()).toBe("}");
    expect(block.some((i) => texts[i].includes("dma.store"))).toBe(true);
    await screenshot(page, "page-linked-region");
    await page.click("#tab-ir");
    expect(page.problems).toEqual([]);
  });
});
