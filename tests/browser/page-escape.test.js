// Kernel-derived text is text: HTML printed by a script, in a kernel's or a tensor's name, or in
// an error message shows literally and injects no element anywhere in the page.
import { readFileSync } from "node:fs";

import { describe, expect, test } from "vitest";

import { openPage, runAndWait, screenshot, setCode, usePlayground, waitForRuntime } from "./harness.js";

const SOURCE = readFileSync(new URL("./fixtures/page_html_text.py", import.meta.url), "utf8");

const pg = usePlayground({ open: false });

describe("kernel text with HTML in it", () => {
  test("shows literally in every pane and adds no element", async () => {
    const page = await openPage(pg.browser.context, pg.server.url);
    expect(await waitForRuntime(page)).toBe("ready");
    await setCode(page, SOURCE);
    expect(await runAndWait(page)).toBe("error"); // the script ends with a raise

    const output = await page.textContent("#output");
    expect(output).toContain("<img src=x onerror=window.__pwned=1>");
    expect(output).toContain("<b>stderr</b>");
    expect(output).toContain("<b>bold_kernel</b>");
    expect(await page.textContent("#panel-ir")).toContain("kernel @<b>bold_kernel</b>");
    await page.click("#tab-regions");
    expect(await page.textContent("#panel-regions")).toContain("<b>bold_kernel</b>");
    await page.click("#tab-problems");
    await screenshot(page, "page-escaped");

    // Not one element from the kernel's text: no <img>, no <b> anywhere outside CodeMirror's
    // own rendering of the source (which is text too, checked the same way).
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("b").count()).toBe(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(page.problems).toEqual([]);
  });
});
