// Your code is your file (issue 14, item 2): an example shows under its own name until it is
// edited; from the first edit the text is the user's file — "kernel.py" or a name they pick —
// in the title, in every diagnostic, traceback and IR location, and in share links. Picking an
// example never throws the user's text away: "Your files" in the menu brings it back.
import { describe, expect, test } from "vitest";

import { getCode, openPage, runAndWait, screenshot, usePlayground, waitForRuntime } from "./harness.js";

const pg = usePlayground({ open: false });

/** Appends `text` at the end of the editor, as typed keys. */
async function typeAtEnd(page, text) {
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

const menu = (page) =>
  page.$$eval("#examples optgroup", (groups) => groups.map((g) => [g.label, [...g.children].map((o) => o.textContent)]));

describe("your file", () => {
  test("an edited example becomes kernel.py: title, diagnostics, traceback and IR say so", async () => {
    const browser = await pg.launch();
    const page = await openPage(browser.context, pg.server.url);
    expect(await waitForRuntime(page)).toBe("ready");
    expect(await page.textContent("#filename")).toBe("tensor_add.py");
    expect(await page.textContent("#file-kind")).toBe("example");

    // A kernel that traces, then a line that fails: IR locations and the error both name the file.
    await typeAtEnd(page, "\nundefined_name\n");
    expect(await page.textContent("#filename")).toBe("kernel.py");
    expect(await page.textContent("#file-kind")).toBe("your file");
    expect(await page.inputValue("#examples")).toBe("file:kernel.py");
    expect((await menu(page))[0]).toEqual(["Your files", ["kernel.py"]]);

    expect(await runAndWait(page)).toBe("error");
    const output = await page.textContent("#output");
    expect(output).toMatch(/^kernel\.py:\d+:1: error: NameError: name 'undefined_name' is not defined$/m);
    expect(output).not.toContain("tensor_add.py");
    expect(await page.textContent("#problems")).toMatch(/^kernel\.py:\d+:\d+ error: NameError/);
    const ir = await page.evaluate(() => window.nkiPlayground.views.irLineTexts().join("\n"));
    expect(ir).toMatch(/@ kernel\.py:\d+:\d+/);
    expect(ir).not.toContain("tensor_add.py");
    await screenshot(page, "page-your-file");
    await browser.close();
  });

  test("picking an example keeps your text; Your files brings it back, also after a reload", async () => {
    const browser = await pg.launch();
    const page = await openPage(browser.context, pg.server.url);
    await page.waitForSelector("html[data-editor-ready]");
    await typeAtEnd(page, "\n# mine\n");
    const mine = await getCode(page);
    await page.selectOption("#examples", "softmax");
    expect(await page.textContent("#filename")).toBe("softmax.py");
    expect(await getCode(page)).not.toBe(mine);
    await page.selectOption("#examples", "file:kernel.py");
    expect(await getCode(page)).toBe(mine);
    expect(await page.textContent("#filename")).toBe("kernel.py");

    // A second edited example is a second file; neither replaces the other.
    await page.selectOption("#examples", "softmax");
    await typeAtEnd(page, "\n# second\n");
    expect(await page.textContent("#filename")).toBe("kernel_2.py");
    expect((await menu(page))[0]).toEqual(["Your files", ["kernel.py", "kernel_2.py"]]);
    await page.waitForTimeout(500); // the save is debounced (300 ms)
    await page.reload();
    await page.waitForSelector("html[data-editor-ready]");
    expect(await page.textContent("#filename")).toBe("kernel_2.py");
    await page.selectOption("#examples", "file:kernel.py");
    expect(await getCode(page)).toBe(mine);
    expect(page.problems).toEqual([]);
    await browser.close();
  });

  test("a file renamed by the user runs and travels in links under its name; bad names are refused", async () => {
    const browser = await pg.launch();
    const page = await openPage(browser.context, pg.server.url);
    expect(await waitForRuntime(page)).toBe("ready");
    await typeAtEnd(page, "\nprint(1 / 0)\n");
    await page.click("#rename");
    await page.fill("#rename-input", "my/add");
    await page.keyboard.press("Enter");
    expect(await page.textContent("#rename-error")).toContain("letters, digits");
    expect(await page.getAttribute("#rename-input", "aria-invalid")).toBe("true");
    await screenshot(page, "page-rename-refused");
    await page.fill("#rename-input", "my_add");
    await page.keyboard.press("Enter");
    expect(await page.isHidden("#rename-form")).toBe(true);
    expect(await page.textContent("#filename")).toBe("my_add.py");

    expect(await runAndWait(page)).toBe("error");
    expect(await page.textContent("#output")).toMatch(/File "my_add\.py", line \d+|^my_add\.py:\d+:\d+: error/m);
    expect(await page.textContent("#problems")).toMatch(/^my_add\.py:\d+:\d+ error: ZeroDivisionError/);

    await page.click("#copy-link");
    const link = await page.evaluate(() => location.href);
    const other = await pg.launch();
    const opened = await openPage(other.context, link);
    await opened.waitForSelector("html[data-editor-ready]");
    expect(await opened.textContent("#filename")).toBe("my_add.py");
    expect(await getCode(opened)).toBe(await getCode(page));
    expect(opened.problems).toEqual([]);
    await browser.close();
    await other.close();
  });
});
