// Accessibility (issue 14, item 10): axe finds nothing on the page after a run — every result
// pane shown, light and dark — in particular the region tree's items are named by what they
// show (label-content-name-mismatch) and the editor's scroller has focusable content
// (scrollable-region-focusable); where focus enters the editor it says how Tab works there; the
// built site does not ship the components' test page.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

import { describe, expect, test } from "vitest";

import { SITE, launchBrowser, openPage, runAndWait, screenshot, usePlayground, waitForRuntime } from "./harness.js";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const pg = usePlayground({ open: false });

/** axe's violations on the page now: ["rule-id: target", ...]. */
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

describe.each(["light", "dark"])("%s", (scheme) => {
  test("axe finds no violation on the page, whichever result pane is shown", async () => {
    const browser = await launchBrowser({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await openPage(browser.context, pg.server.url);
    expect(await waitForRuntime(page)).toBe("ready");
    expect(await runAndWait(page)).toBe("ready");
    for (const tab of ["ir", "regions", "sim", "compare", "problems", "output"]) {
      await page.click(`#tab-${tab}`);
      expect(await violations(page), tab).toEqual([]);
    }
    await page.click("#tab-regions");
    await page.focus("#panel-regions [role=treeitem]");
    expect(await violations(page)).toEqual([]);
    await browser.close();
  });
});

describe("keyboard", () => {
  test("where focus enters the editor, it says that Tab indents and how to leave", async () => {
    const browser = await pg.launch();
    const page = await openPage(browser.context, pg.server.url);
    await page.waitForSelector("html[data-editor-ready]");
    const hint = () =>
      page.evaluate(() => {
        const root = document.getElementById("editor").shadowRoot;
        const content = root.querySelector(".cm-content");
        const el = root.getElementById(content.getAttribute("aria-describedby"));
        return { text: el?.textContent, visible: !!el && getComputedStyle(el).display !== "none" };
      });
    expect(await hint()).toEqual({ text: "Tab indents · press Esc, then Tab, to leave the editor", visible: false });
    await page.focus("#copy-link");
    for (let i = 0; i < 12 && !(await page.evaluate(() => document.activeElement?.id === "editor")); i++) await page.keyboard.press("Tab");
    // CodeMirror notes the focus a moment after the focus event.
    await page.waitForFunction(() => {
      const el = document.getElementById("editor").shadowRoot.querySelector(".cm-nkp-hint");
      return getComputedStyle(el).display !== "none";
    });
    expect(await hint()).toEqual({ text: "Tab indents · press Esc, then Tab, to leave the editor", visible: true });
    await screenshot(page, "a11y-editor-hint");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.id)).toBe("split-x");
    // CodeMirror notes the focus change a moment later.
    await page.waitForFunction(() => {
      const el = document.getElementById("editor").shadowRoot.querySelector(".cm-nkp-hint");
      return getComputedStyle(el).display === "none";
    });
    await browser.close();
  });

  test("the built site does not ship the components' test page", async () => {
    expect(existsSync(join(SITE, "views-test.html"))).toBe(false);
    const res = await fetch(`${pg.server.url}views-test.html`);
    expect(res.status).toBe(404);
  });
});
