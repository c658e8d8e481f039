// The IR is shown as soon as a kernel is traced, not when the script ends ("never lag"): a
// script that traces and then keeps Python busy shows its IR while it still runs; the previous
// run's IR stays (dimmed) until the new one arrives; the run's end keeps the streamed DOM; Stop
// keeps the streamed IR with a note. Real Chromium against the built site.
import { beforeAll, describe, expect, test } from "vitest";

import { runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

const kernel = (name) => `import time
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def ${name}(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out, value=nl.add(t, t))
    return out
`;
const TRACE = (name) => `nki.trace_kernel(${name}, nt.tensor[[128, 64], nl.float32])\n`;
// A busy loop in Python (no sleep: the worker's Python thread is really occupied).
const SPIN = (seconds) => `t0 = time.time()\nwhile time.time() - t0 < ${seconds}:\n    pass\nprint("spun", flush=True)\n`;

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

/** Waits for the IR pane to show `name`'s header; returns the page's state at that moment. */
function whenIrShows(name) {
  return page
    .waitForFunction(
      (header) => {
        const ir = document.querySelector("#panel-ir");
        if (!ir.textContent.includes(header)) return false;
        return {
          status: document.querySelector("#status").dataset.state,
          statusText: document.querySelector("#status").textContent,
          output: document.querySelector("#output").textContent,
          stale: ir.dataset.stale ?? null,
        };
      },
      `kernel @${name}(`,
      { timeout: 30_000, polling: "raf" },
    )
    .then((handle) => handle.jsonValue());
}

describe("streamed IR", () => {
  test("a kernel's IR shows while the script still runs; the run's end keeps that DOM", async () => {
    await setCode(page, kernel("first") + TRACE("first") + SPIN(3));
    await page.click("#run");
    const then = await whenIrShows("first");
    expect(then.status).toBe("running");
    expect(then.output).not.toContain("spun");
    expect(then.statusText).toContain("IR shown (1 kernel)");
    expect(then.stale).toBeNull();
    await screenshot(page, "page-stream-running");

    // Mark the header's row: if the final result re-rendered the pane, the mark would be gone.
    await page.$eval("#panel-ir .nkp-ir-line", (el) => (el.dataset.streamMark = "1"));
    await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running", null, {
      timeout: 30_000,
    });
    expect(await page.textContent("#output")).toContain("spun");
    expect(await page.$eval("#status", (el) => el.dataset.state)).toBe("ready");
    expect(await page.$$eval("#panel-ir [data-stream-mark]", (els) => els.length)).toBe(1);
    const ir = await page.evaluate(() => window.nkiPlayground.lastResult.traces.map((t) => t.kernel));
    expect(ir).toEqual(["first"]);
  });

  test("the previous run's IR stays, dimmed, until the new run traces", async () => {
    await setCode(page, kernel("second") + SPIN(2) + TRACE("second"));
    await page.click("#run");
    // While the new script spins before tracing: the old IR, marked stale.
    await page.waitForFunction(() => document.querySelector("#panel-ir").dataset.stale === "true", null, {
      timeout: 10_000,
    });
    expect(await page.textContent("#panel-ir")).toContain("kernel @first(");
    expect(await page.$eval("#status", (el) => el.dataset.state)).toBe("running");
    const then = await whenIrShows("second");
    expect(then.stale).toBeNull();
    await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running", null, {
      timeout: 30_000,
    });
    expect(await page.textContent("#panel-ir")).not.toContain("kernel @first(");
  });

  test("Stop keeps the streamed IR visible, with a note", async () => {
    await setCode(page, kernel("third") + TRACE("third") + "while True:\n    pass\n");
    await page.click("#run");
    const then = await whenIrShows("third");
    expect(then.status).toBe("running");
    await page.click("#stop");
    await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running", null, {
      timeout: 30_000,
    });
    expect(await page.$eval("#status", (el) => el.dataset.state)).toBe("stopped");
    expect(await page.textContent("#panel-ir")).toContain("kernel @third(");
    expect(await page.$eval("#panel-ir", (el) => el.dataset.stale ?? null)).toBeNull();
    expect(await page.textContent("#output")).toContain("the IR shown is what the script traced before it was stopped");
    await screenshot(page, "page-stream-stopped");

    // The fresh runtime (a warm spare, or one still booting) takes the next run.
    await page.waitForFunction(() => window.nkiPlayground.client.state === "ready", null, {
      timeout: 90_000,
    });
    await setCode(page, kernel("fourth") + TRACE("fourth"));
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#panel-ir")).toContain("kernel @fourth(");
    expect(page.problems).toEqual([]);
  });
});
