// The page's layout at a desktop and a phone size (issue 14, items 5 and 6): long IR lines
// scroll inside the IR pane and never widen Output or Problems, the IR's `@ file:line:col`
// column stays in view, and on a 390 × 844 phone the panes stack with every tab on screen.
// Both in light and dark (screenshots in build/screenshots/).
import { readFileSync } from "node:fs";

import { describe, expect, test } from "vitest";

import { launchBrowser, openPage, runAndWait, screenshot, setCode, setTimeLimit, usePlayground, waitForRuntime } from "./harness.js";

const LONG = readFileSync(new URL("./fixtures/long_lines.py", import.meta.url), "utf8");
const pg = usePlayground({ open: false });

/** A page of a fresh browser at this size and colour scheme, runtime ready. */
async function openAt(viewport, colorScheme) {
  const browser = await launchBrowser({ viewport, colorScheme });
  const page = await openPage(browser.context, pg.server.url);
  expect(await waitForRuntime(page)).toBe("ready");
  return { browser, page };
}

/** Elements of `selector` whose box reaches past the right edge of `container`'s box. */
const overflowing = (page, selector, container) =>
  page.evaluate(
    ([sel, box]) => {
      const limit = document.querySelector(box).getBoundingClientRect().right + 1;
      return [...document.querySelectorAll(sel)].filter((el) => el.getBoundingClientRect().right > limit).map((el) => el.textContent.slice(0, 60));
    },
    [selector, container],
  );

const pageWidth = (page) => page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);

describe.each(["light", "dark"])("%s", (scheme) => {
  test("1440 × 900: long lines stay inside their panes; the IR's locations stay in view", async () => {
    const { browser, page } = await openAt({ width: 1440, height: 900 }, scheme);
    await setCode(page, LONG);
    expect(await runAndWait(page)).toBe("ready");
    const [scrollW, viewW] = await pageWidth(page);
    expect(scrollW).toBe(viewW);
    const widest = await page.evaluate(() => Math.max(...window.nkiPlayground.views.irLineTexts().map((t) => t.length)));
    expect(widest).toBeGreaterThan(130);
    expect(await overflowing(page, "#bottom-group, #output .out-block", "#panel-output")).toEqual([]);
    expect(await overflowing(page, "#panel-ir .nkp-ir-code > .ir-loc", "#panel-ir")).toEqual([]);
    expect(await page.locator("#panel-ir .nkp-ir-code > .ir-loc").count()).toBeGreaterThan(5);
    await screenshot(page, `layout-long-lines-${scheme}`);
    await page.click("#tab-problems");
    expect(await overflowing(page, "#problems li", "#panel-problems")).toEqual([]);
    expect(await page.textContent("#problems")).toContain("cuts it in half at the edge of its pane");

    // The note a Stop leaves is whole too.
    await page.click("#tab-output");
    await setTimeLimit(page, 1);
    await setCode(page, "while True:\n    pass\n");
    expect(await runAndWait(page, { timeout: 30_000 })).toBe("stopped");
    expect(await overflowing(page, "#output .out-block", "#panel-output")).toEqual([]);
    await screenshot(page, `layout-stopped-${scheme}`);
    expect(page.problems).toEqual([]);
    await browser.close();
  });

  test("390 × 844: the panes stack, nothing scrolls sideways, every tab can be tapped", async () => {
    const { browser, page } = await openAt({ width: 390, height: 844 }, scheme);
    expect(await runAndWait(page)).toBe("ready");
    const [scrollW, viewW] = await pageWidth(page);
    expect(scrollW).toBe(viewW);
    const boxes = await page.evaluate(() =>
      Object.fromEntries(
        ["#editor", "#top-group", "#bottom-group"].map((s) => {
          const r = document.querySelector(s).getBoundingClientRect();
          return [s, { top: r.top, bottom: r.bottom, width: r.width, height: r.height }];
        }),
      ),
    );
    expect(boxes["#editor"].bottom).toBeLessThanOrEqual(boxes["#top-group"].top);
    expect(boxes["#top-group"].bottom).toBeLessThanOrEqual(boxes["#bottom-group"].top);
    for (const b of Object.values(boxes)) {
      expect(b.width).toBeGreaterThan(380);
      expect(b.height).toBeGreaterThan(200);
    }
    await screenshot(page, `layout-phone-${scheme}`, { fullPage: true });
    for (const tab of ["regions", "sim", "ir", "problems", "output"]) {
      const el = page.locator(`#tab-${tab}`);
      await el.scrollIntoViewIfNeeded();
      // The tab itself is what a finger on its centre hits (nothing covers it, it is on screen).
      const hit = await el.evaluate((t) => {
        const r = t.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.right <= innerWidth && r.left >= 0 && (at === t || t.contains(at));
      });
      expect(hit, tab).toBe(true);
      await el.click();
      const panel = await page.evaluate((t) => {
        const p = document.getElementById(`panel-${t}`);
        return !p.hidden && p.getBoundingClientRect().width > 380;
      }, tab);
      expect(panel, tab).toBe(true);
      if (tab === "sim") await screenshot(page, `layout-phone-sim-${scheme}`);
    }
    expect(page.problems).toEqual([]);
    await browser.close();
  });
});
