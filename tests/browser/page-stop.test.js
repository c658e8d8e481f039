// A script that never finishes: Stop (and the time limit) terminate the worker, a warm spare
// takes over, the editor keeps its text, the page says what happened and the next run works.
// Times are printed, not asserted (a shared machine); the limit only bounds a hang.
import { beforeAll, describe, expect, test } from "vitest";

import { getCode, runAndWait, screenshot, setCode, setTimeLimit, statusOf, usePlayground } from "./harness.js";

const LOOP = "print('looping', flush=True)\nwhile True:\n    pass\n";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

beforeAll(async () => {
  // Stop is fastest with the spare booted; wait for it so the figure below is the warm path.
  await page.waitForFunction(() => window.nkiPlayground.client.spareReady, null, { timeout: 90_000 });
});

async function startLoop() {
  await setCode(page, LOOP);
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#output").textContent.includes("looping"), null, {
    timeout: 30_000,
  });
}

describe("a script that does not finish", () => {
  test("Stop recovers: the editor keeps its text and the next run works", async () => {
    await startLoop();
    expect(await statusOf(page)).toBe("running");
    expect(await page.isDisabled("#run")).toBe(true);
    // A second run while one runs is refused, with a message; the first keeps running.
    await page.click(".cm-content");
    await page.keyboard.press("Control+Enter");
    expect(await page.textContent("#status")).toContain("already running");

    const t0 = Date.now();
    await page.click("#stop");
    await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running");
    expect(await getCode(page)).toBe(LOOP);
    expect(await page.textContent("#output")).toMatch(/stopped after \d+\.\d s: stopped by you\./);
    await screenshot(page, "page-stopped");

    await setCode(page, "print('after stop')\n");
    expect(await runAndWait(page)).toBe("ready");
    const recoveredMs = Date.now() - t0;
    expect(await page.textContent("#output")).toContain("after stop");
    console.log(`Stop -> next run finished: ${recoveredMs} ms (warm spare)`);
  });

  test("the time limit stops it and says so", async () => {
    await page.fill("#time-limit", "1");
    await page.dispatchEvent("#time-limit", "change");
    await startLoop();
    await page.waitForFunction(() => document.querySelector("#status").dataset.state !== "running", null, {
      timeout: 30_000,
    });
    expect(await page.textContent("#output")).toMatch(
      /stopped after \d+\.\d s: the script did not finish within the time limit \(1 s/,
    );
    expect(await getCode(page)).toBe(LOOP);
    // Right after, whichever worker is now active (spare or a cold one), a run completes.
    await setCode(page, "print('after the limit')\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#output")).toContain("after the limit");
    expect(page.problems).toEqual([]);
  });

  test("stopped while no warm spare is ready: the status keeps the outcome once the fresh runtime is", async () => {
    // The next spare's boot is held at its snapshot download, so the second stop below finds
    // it still booting (what a loaded machine does by itself, see page-flood.test.js).
    await page.waitForFunction(() => window.nkiPlayground.client.spareReady, null, { timeout: 90_000 });
    let held = null;
    let release;
    const released = new Promise((resolve) => (release = resolve));
    await page.route("**/nki-snapshot.bin", async (route) => {
      held = route.request().url();
      await released;
      await route.continue();
    });
    try {
      await setTimeLimit(page, 1);
      await setCode(page, LOOP);
      expect(await runAndWait(page, { timeout: 30_000 })).toBe("stopped"); // the warm spare takes over
      await page.waitForFunction(() => !window.nkiPlayground.client.spareReady);
      await expect.poll(() => held, { timeout: 30_000 }).not.toBeNull();
      expect(await runAndWait(page, { timeout: 30_000 })).toBe("stopped");
      expect(await page.textContent("#status")).toMatch(/^stopped after \d+\.\d s; starting a fresh runtime…$/);
      release();
      await page.waitForFunction(() => window.nkiPlayground.client.state === "ready", null, { timeout: 90_000 });
      // Its "ready" ends the note about the fresh runtime, not the run's outcome.
      expect(await statusOf(page)).toBe("stopped");
      expect(await page.textContent("#status")).toMatch(/^stopped after \d+\.\d s$/);
      await setCode(page, "print('after the fresh runtime')\n");
      expect(await runAndWait(page)).toBe("ready");
      expect(await page.textContent("#output")).toBe("after the fresh runtime\n");
    } finally {
      release();
      await page.unroute("**/nki-snapshot.bin");
      await setTimeLimit(page, 10);
    }
    expect(page.problems).toEqual([]);
  });
});

describe("a worker that dies", () => {
  test("is replaced, the page says so, the code stays and the next run works", async () => {
    // An uncaught exception in the worker's own event loop (after the run returns) is what a
    // crashed runtime looks like from the page: the Worker's error event.
    const crash = "import js\njs.eval(\"setTimeout(() => { throw new Error('boom from the test') }, 0)\")\nprint('scheduled')\n";
    await setCode(page, crash);
    // The crash follows the run at once: the status may already show the replacement booting.
    await runAndWait(page);
    expect(await page.textContent("#output")).toContain("scheduled");
    await page.waitForFunction(() => document.querySelector("#output").textContent.includes("stopped unexpectedly"), null, {
      timeout: 30_000,
    });
    expect(await page.textContent("#output")).toContain("boom from the test");
    expect(await getCode(page)).toBe(crash);
    await setCode(page, "print('after the crash')\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#output")).toContain("after the crash");
  });
});
