// Share links: the state in the URL hash opens the same code, example and layout in a fresh
// browser profile; a damaged link says so and falls back to saved or default content.
import { describe, expect, test } from "vitest";

import { getCode, openPage, screenshot, usePlayground } from "./harness.js";

const pg = usePlayground({ open: false });

const layoutOf = (page) =>
  page.evaluate(() => ({
    top: document.querySelector('#top-group [aria-selected="true"]').dataset.tab,
    bottom: document.querySelector('#bottom-group [aria-selected="true"]').dataset.tab,
    splitX: window.nkiPlayground.state.layout.splitX,
  }));

describe("share links", () => {
  test("Copy link restores code, file and layout in a fresh profile, over its saved state", async () => {
    const a = pg.browser;
    const page = await openPage(a.context, pg.server.url);
    await page.waitForSelector("html[data-editor-ready]");
    await page.selectOption("#examples", "softmax");
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n# shared édition ✓ <b>\n");
    await page.click("#tab-regions");
    await page.click("#tab-problems");
    await page.focus("#split-x");
    await page.keyboard.press("ArrowLeft"); // 0.50 -> 0.45
    await page.click("#copy-link");
    await page.waitForSelector("#notice:not([hidden])");
    const link = await page.evaluate(() => location.href);
    expect(link).toMatch(/#v1\/[A-Za-z0-9_-]+$/);
    const code = await getCode(page);
    const layout = await layoutOf(page);
    expect(layout).toEqual({ top: "regions", bottom: "problems", splitX: 0.45 });

    const b = await pg.launch();
    const other = await openPage(b.context, pg.server.url);
    await other.waitForSelector("html[data-editor-ready]"); // saves the default state first
    await other.goto(link);
    await other.reload(); // a real load of the link, not a same-document hash change
    await other.waitForSelector("html[data-editor-ready]");
    expect(await getCode(other)).toBe(code);
    // The edited example is the user's file now (issue 14): the link opens it under that name.
    expect(await other.inputValue("#examples")).toBe("file:kernel.py");
    expect(await other.textContent("#filename")).toBe("kernel.py");
    expect(await layoutOf(other)).toEqual(layout);
    expect(await other.isHidden("#notice")).toBe(true);
    await screenshot(other, "page-shared");
    expect(page.problems).toEqual([]);
    expect(other.problems).toEqual([]);
  });

  test("a damaged or unknown link says so and shows the saved or default code", async () => {
    const b = await pg.launch();
    const page = await openPage(b.context, `${pg.server.url}#v1/not-deflate-at-all`);
    await page.waitForSelector("html[data-editor-ready]");
    expect(await page.textContent("#notice")).toMatch(/could not be opened: the link is damaged/);
    expect(await getCode(page)).toContain("def tensor_add");

    await page.goto(`${pg.server.url}#v99/abc`);
    await page.reload();
    await page.waitForSelector("html[data-editor-ready]");
    expect(await page.textContent("#notice")).toContain('unknown link format "v99"');
    expect((await getCode(page)).length).toBeGreaterThan(0);
  });
});
