// An error in the kernel: a lint marker at the diagnostic's line and column, an entry in the
// Problems list that moves the cursor there, the stderr in Output, the text kept.
import { beforeAll, describe, expect, test } from "vitest";

import { getCode, lintMark, runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

// Line 5, column 5: `nl.load` called outside any kernel.
const SOURCE = [
  "import neuronxcc.nki.language as nl",
  "",
  "",
  "if True:",
  "    nl.load(None)",
  "",
].join("\n");

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

describe("diagnostics", () => {
  test("an error kernel gets a marker at its line and column and a Problems entry", async () => {
    await setCode(page, SOURCE);
    expect(await runAndWait(page)).toBe("error");
    expect(await page.textContent("#output")).toContain("calling NKI API outside of NKI kernels is not supported");

    // The marker: CodeMirror wraps the diagnostic's range in .cm-lintRange-error.
    const where = await lintMark(page, "error");
    expect(where.line).toBe(5);
    expect(where.col).toBe(5);
    expect(where.text.startsWith("nl.load")).toBe(true);

    await page.click("#tab-problems");
    const entry = page.locator("#problems .problem").first();
    expect(await entry.textContent()).toMatch(/:5:5/);
    expect(await page.textContent("#problem-count")).toBe("1");
    // The entry links to the errors page exactly when the diagnostic has a code.
    const [diagnostic] = await page.evaluate(() => window.nkiPlayground.lastResult.diagnostics);
    expect([diagnostic.line, diagnostic.col]).toEqual([5, 5]);
    const link = entry.locator("a.problem-code");
    expect(await link.count()).toBe(diagnostic.code ? 1 : 0);
    if (diagnostic.code) expect(await link.getAttribute("href")).toMatch(new RegExp(`errors\\.(md|html)#${diagnostic.code}$`));
    await page.evaluate(() => window.nkiPlayground.editor.select(1, 1));
    await entry.locator("button").click();
    expect(await page.evaluate(() => window.nkiPlayground.editor.cursorLine())).toBe(5);
    await screenshot(page, "page-error");
    expect(await getCode(page)).toBe(SOURCE);
    expect(page.problems).toEqual([]);
  });
});
