// Empty panes say what will appear there, and a file that traces nothing says so (issue 14,
// item 4): a published kernel file defines kernels and calls none — the page says what happened
// and how to trace one instead of showing "ready" and blank panes.
import { beforeAll, describe, expect, test } from "vitest";

import { runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const LIBRARY = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def flash_fwd(q, k, v):
    out = nl.ndarray(q.shape, dtype=q.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(q))
    return out

@nki.jit(
    mode="simulation")
def flash_bwd(dout):
    return dout
`;

const note = (name) => page.evaluate((n) => {
  const el = document.getElementById(`empty-${n}`);
  return el.hidden ? null : el.textContent;
}, name);

describe("empty panes", () => {
  test("before the first run each pane says what it will show", async () => {
    expect(await note("ir")).toMatch(/^Run the script .*the IR of each kernel it traces shows here/);
    await page.click("#tab-regions");
    expect(await note("regions")).toMatch(/scope regions .* show here/);
    await page.click("#tab-sim");
    expect(await page.textContent("#panel-sim")).toMatch(/a kernel called on NumPy arrays .* is simulated/);
    await page.click("#tab-ir");
  });

  test("a file that defines kernels and calls none says so and how to trace one", async () => {
    await setCode(page, LIBRARY);
    expect(await runAndWait(page)).toBe("empty");
    expect(await page.textContent("#status")).toBe("ran, but no kernel was traced (see Output)");
    const output = await page.textContent("#output");
    expect(output).toContain("the script defines the kernels flash_fwd and flash_bwd but calls none, so nothing was traced.");
    expect(output).toContain("nki.trace_kernel(flash_fwd, nt.tensor[[128, 512], nl.float32], …)");
    expect(await note("ir")).toMatch(/^The last run traced no kernel.*nki\.trace_kernel/);
    await screenshot(page, "page-traced-nothing");
    await page.click("#tab-sim");
    expect(await page.textContent("#panel-sim")).toContain("The last run simulated nothing");
    await page.click("#tab-ir");
  });

  test("after a failed trace the panes point at the error; a traced kernel hides the notes", async () => {
    await setCode(page, "def broken(:\n");
    expect(await runAndWait(page)).toBe("error");
    expect(await note("ir")).toBe("The last run failed before it traced a kernel: its error is in Problems and Output.");
    await setCode(page, `${LIBRARY}import neuronxcc.nki.typing as nt\nnki.trace_kernel(flash_fwd, *[nt.tensor[[128, 64], nl.float32]] * 3)\n`);
    expect(await runAndWait(page)).toBe("ready");
    expect(await note("ir")).toBeNull();
    expect(await page.textContent("#panel-ir")).toContain("kernel @flash_fwd");
  });

  test("a plain Python script without kernels just runs", async () => {
    await setCode(page, "print('hello')\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#output")).toBe("hello\n");
    expect(page.problems).toEqual([]);
  });
});
