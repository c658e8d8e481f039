// What a kernel author takes away from a run (issue 14, item 9): its inputs and outputs as .npy
// files NumPy loads, the IR as JSON, a comparison whose difference is all zeros said in words,
// and an N-d tensor sliced to the 2-D plane one wants to see.
import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, test } from "vitest";

import { runAndWait, screenshot, setCode, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

const SCRIPT = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def plus_one(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.add(nl.load(a), 1))
    return out

a = np.arange(2 * 4 * 8, dtype=np.float32).reshape(2, 4, 8)
out = plus_one(a)
print("same:", np.allclose(out, a + 1))
`;

/** Parses a .npy (version 1.0) file: {descr, shape, values}. */
function readNpy(bytes) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  const len = bytes[8] | (bytes[9] << 8);
  const header = Buffer.from(bytes.subarray(10, 10 + len)).toString("latin1");
  expect((10 + len) % 64).toBe(0);
  const descr = /'descr': '([^']+)'/.exec(header)[1];
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(",").filter((s) => s.trim()).map(Number);
  const body = bytes.slice(10 + len);
  return { descr, shape, values: [...new Float32Array(body.buffer, body.byteOffset, body.byteLength / 4)] };
}

async function downloadOf(click) {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync(await file.path())) };
}

describe("taking results away", () => {
  test("inputs and outputs download as .npy files with their shape and values", async () => {
    await setCode(page, SCRIPT);
    expect(await runAndWait(page)).toBe("ready");
    await page.click("#tab-sim");
    const out = await downloadOf(() => page.click(".nkp-sim-outputs .nkp-sim-download"));
    expect(out.name).toMatch(/\.npy$/);
    const npy = readNpy(out.bytes);
    expect(npy.descr).toBe("<f4");
    expect(npy.shape).toEqual([2, 4, 8]);
    expect(npy.values).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    const input = readNpy((await downloadOf(() => page.click(".nkp-sim-inputs .nkp-sim-download"))).bytes);
    expect(input.values).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });

  test("the IR downloads as the printer's JSON", async () => {
    const { name, bytes } = await downloadOf(() => page.click("#download-ir"));
    expect(name).toBe("kernel.ir.json");
    const [ir] = JSON.parse(Buffer.from(bytes).toString("utf8"));
    expect(ir.kernel).toBe("plus_one");
    expect(ir.params).toHaveLength(1);
  });

  test("a difference of all zeros is said in words, not drawn as a flat map", async () => {
    const compare = page.locator(".nkp-compare").first();
    expect(await compare.textContent()).toContain("|difference| is 0 everywhere: expected and actual are equal element for element.");
    expect(await compare.locator("canvas.nkp-heatmap").count()).toBe(2); // expected and actual only
  });

  test("a 3-D tensor can be sliced to one plane", async () => {
    const card = page.locator(".nkp-sim-outputs .nkp-tensor").first();
    expect(await card.locator("canvas.nkp-heatmap").getAttribute("aria-label")).toContain("heatmap of 8 × 8 values");
    await card.locator(".nkp-slice-dim").first().selectOption("1");
    const canvas = card.locator("canvas.nkp-heatmap");
    expect(await canvas.getAttribute("aria-label")).toMatch(/\[1, :, :\]: heatmap of 4 × 8 values/);
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + 2, box.y + 2);
    expect(await card.locator(".nkp-tensor-hover").textContent()).toMatch(/\[1, 0, 0\] = 33$/);
    await screenshot(page, "sim-sliced");
    expect(page.problems).toEqual([]);
  });
});
