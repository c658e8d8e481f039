// Controls that tell the truth (issue 14, item 7): an invalid time limit is marked and says
// which limit runs keep; "Link copied." goes away by itself and never pushes the workspace;
// the playground's own "no Neuron device" note is not a Problem and a warning alone is not red;
// breakpoint() says the debugger is not available here and the script goes on; a Stop while the
// runtime is still loading keeps that runtime booting instead of starting over.
import { beforeAll, describe, expect, test } from "vitest";

import { openPage, runAndWait, screenshot, setCode, setTimeLimit, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const colourOf = (name) =>
  page.evaluate((n) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${n})`;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, name);

describe("controls", () => {
  test("an out-of-range time limit is marked and says which limit runs keep", async () => {
    for (const value of ["0", "-5", "", "1000", "2.5"]) {
      await setTimeLimit(page, value);
      expect(await page.getAttribute("#time-limit", "aria-invalid"), value).toBe("true");
      expect(await page.textContent("#time-limit-error")).toBe(
        "The time limit is a whole number of seconds from 1 to 600; runs keep 10 s.",
      );
    }
    await screenshot(page, "controls-time-limit-invalid");
    await setCode(page, "print('ran')\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#output")).toBe(
      "The time limit is a whole number of seconds from 1 to 600; runs keep 10 s.\nran\n",
    );
    await setTimeLimit(page, "20");
    expect(await page.getAttribute("#time-limit", "aria-invalid")).toBeNull();
    expect(await page.isHidden("#time-limit-error")).toBe(true);
    expect(await page.evaluate(() => window.nkiPlayground.client.timeLimitMs)).toBe(20_000);
  });

  test("'Link copied.' floats over the page and goes away by itself", async () => {
    const top = () => page.$eval("#workspace", (el) => el.getBoundingClientRect().top);
    const before = await top();
    await page.click("#copy-link");
    await page.waitForSelector("#notice:not([hidden])");
    expect(await page.textContent("#notice-text")).toBe("Link copied.");
    expect(await top()).toBe(before);
    await page.waitForSelector("#notice", { state: "hidden", timeout: 6_000 });
  });

  test("the 'no Neuron device' note is not a Problem; a warning alone is not red", async () => {
    const device = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit(mode="baremetal")
def copy(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out

copy(np.zeros((2, 2), dtype=np.float32))
`;
    await setCode(page, device);
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#problem-count")).toBe("");
    expect(await page.locator(".cm-lintRange-warning").count()).toBe(0);
    await setCode(page, "import warnings\nwarnings.warn('look here')\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#problem-count")).toBe("1");
    const badge = await page.$eval("#problem-count", (el) => getComputedStyle(el).backgroundColor);
    expect(badge).toBe(await colourOf("--warning"));
    expect(badge).not.toBe(await colourOf("--error"));
  });

  test("breakpoint() says the debugger is not available here; the script goes on", async () => {
    await setCode(page, "x = 41\nbreakpoint()\nprint('after', x + 1)\n");
    expect(await runAndWait(page)).toBe("ready");
    const output = await page.textContent("#output");
    expect(output).toContain("breakpoint(): the Python debugger is not available in the browser");
    expect(output).toContain("print()");
    expect(output).toContain("after 42\n");
    expect(output).not.toContain("(Pdb)");
    expect(output).not.toContain("OSError");
  });

  test("Stop while the runtime is loading drops the run but keeps the runtime booting", async () => {
    const browser = await pg.launch();
    const fresh = await openPage(browser.context);
    await fresh.addInitScript(() => {
      window.__stages = [];
      new MutationObserver(() => window.__stages.push(document.querySelector("#status")?.dataset.state)).observe(document, {
        subtree: true,
        attributes: true,
        attributeFilter: ["data-state"],
      });
    });
    await fresh.goto(pg.server.url);
    await fresh.waitForSelector("html[data-editor-ready]");
    await setCode(fresh, "while True:\n    pass\n");
    await fresh.click("#run");
    expect(await fresh.evaluate(() => document.querySelector("#status").dataset.state)).toBe("running");
    await fresh.evaluate(() => window.__stages.splice(0));
    await fresh.click("#stop");
    await fresh.waitForFunction(() => document.querySelector("#status").dataset.state === "ready", null, { timeout: 90_000 });
    const stages = await fresh.evaluate(() => window.__stages);
    expect(stages).not.toContain("downloading"); // the boot was not started over
    expect(await fresh.textContent("#output")).toContain("stopped before it started (the runtime was still loading)");
    await setCode(fresh, "print('runs')\n");
    expect(await runAndWait(fresh)).toBe("ready");
    expect(fresh.problems).toEqual([]);
    await browser.close();
  });
});
