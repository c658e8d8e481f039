// The view components (IR, regions, simulation) in Debian's Chromium on the built harness page
// (web/views-test.html), fed with traces of real kernels traced in Node.
import { readFileSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { createNodeRuntime } from "../../runtime/node.mjs";
import { VIEWS_TEST_SITE, launchBrowser, openPage, screenshot, startServer } from "./harness.js";

const LINE_HEIGHT = 18; // web/src/ir/ir-view.js

// A kernel with a 20,000-line IR and foldable regions (also used by scripts/bench-views.mjs).
const BIG = readFileSync(new URL("./fixtures/big_ir.py", import.meta.url), "utf8");
// A kernel named <b>x</b> with HTML in its device_print and comparison, simulated on a ramp.
const HTML_NAMES = readFileSync(new URL("./fixtures/html_names.py", import.meta.url), "utf8");
// 80 × two nested affine loops: 321 regions, enough for deep boxes to start collapsed.
const MANY = `
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def many(a):
    out = nl.ndarray((128, 64 * 4), dtype=a.dtype, buffer=nl.shared_hbm)
    for j in nl.static_range(80):
        for i in nl.affine_range(2):
            for k in nl.affine_range(2):
                t = nl.load(a)
                nl.store(out[:, (2 * i + k) * 64:(2 * i + k + 1) * 64], value=t)
    return out

nki.trace_kernel(many, nt.tensor[[128, 64], nl.float32])
`;

let server, browser, page;
const traces = {};
let realSims; // html_names.py's simulations, as runSource returns them

beforeAll(async () => {
  server = await startServer({ root: VIEWS_TEST_SITE, needs: ["views-test.html"] });
  const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
  const run = (source, filename) => {
    const { exitCode, traces: t, simulations } = runtime.runSource(source, { filename });
    expect(exitCode).toBe(0);
    if (filename === "html_names.py") realSims = simulations;
    return t;
  };
  traces.causal = run(readFileSync(new URL("../../kernels/causal_blocks.py", import.meta.url), "utf8"), "causal_blocks.py");
  traces.big = run(BIG, "big.py");
  traces.html = run(HTML_NAMES, "html_names.py");
  traces.many = run(MANY, "many.py");
  browser = await launchBrowser({ viewport: { width: 1280, height: 1100 } });
  page = await openPage(browser.context, `${server.url}views-test.html`);
  await page.waitForFunction(() => document.documentElement.dataset.harness === "ready");
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// Traces cross as one JSON string: CDP serializes a 16 MB object argument ~20× slower.
// Float32Array data is sent as plain arrays (NaN as null); the harness makes them typed again.
const plain = (_, v) => (v instanceof Float32Array ? Array.from(v, (x) => (Number.isNaN(x) ? null : x)) : v);
const mount = (t, sims = []) =>
  page.evaluate(([t, s]) => window.__mount(JSON.parse(t), JSON.parse(s)), [JSON.stringify(t), JSON.stringify(sims, plain)]);
const nextFrame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const renderedLines = () =>
  page.$$eval("#ir .nkp-ir-line", (els) => els.map((e) => [Number(e.dataset.line), e.querySelector(".nkp-ir-code").textContent]));
const events = (type) => page.evaluate((type) => window.__events.filter((e) => e.type === type), type);

describe("IR view", () => {
  test("a 20,000-line IR keeps only the visible rows in the DOM, at every scroll position", async () => {
    const { lines } = await mount(traces.big);
    expect(lines).toBeGreaterThanOrEqual(20_000);
    const texts = traces.big[0].records.map((r) => r.text);
    const bound = Math.ceil(400 / LINE_HEIGHT) + 2 * 12 + 2;
    for (const frac of [0, 0.37, 0.81, 1]) {
      await page.$eval("#ir .nkp-ir", (el, f) => (el.scrollTop = f * el.scrollHeight), frac);
      await nextFrame();
      const shown = await renderedLines();
      expect(shown.length).toBeGreaterThan(10);
      expect(shown.length).toBeLessThanOrEqual(bound);
      for (const [i, text] of shown) expect(text).toBe(texts[i]);
      if (frac === 1) expect(shown.map(([i]) => i)).toContain(lines - 1);
    }
    const height = await page.$eval("#ir .nkp-ir-spacer", (el) => el.getBoundingClientRect().height);
    expect(height).toBe(lines * LINE_HEIGHT);
    // Its 20 loops fold: folding every one leaves the kernel's frame and the 20 loop lines.
    const loops = await page.evaluate(() => [...window.__index.regions.values()].filter((r) => r.kind === "LoopScope").map((r) => r.id));
    expect(loops.length).toBe(20);
    await page.evaluate((ids) => ids.forEach((id) => window.__views.ir.toggleFold(id)), loops);
    const folded = await page.$eval("#ir .nkp-ir-spacer", (el) => el.getBoundingClientRect().height / 18);
    const hidden = await page.evaluate((ids) =>
      ids.reduce((n, id) => { const [a, b] = window.__index.irRangeForRegion(id); return n + (b - a); }, 0), loops);
    expect(folded).toBe(lines - hidden);
    expect(folded).toBeLessThan(30);
    // The tokens carry the ir-<cls> classes.
    const classes = await page.$$eval("#ir .nkp-ir-code span", (els) => [...new Set(els.map((e) => e.className))].sort());
    expect(classes).toEqual(expect.arrayContaining(["ir-loc", "ir-op", "ir-punct", "ir-type", "ir-val"]));
  });

  test("folding a region hides its lines; unfolding brings them back", async () => {
    await mount(traces.causal);
    const total = traces.causal[0].records.length;
    const spacer = () => page.$eval("#ir .nkp-ir-spacer", (el) => el.getBoundingClientRect().height / 18);
    expect(await spacer()).toBe(total);
    // Long lines scroll sideways (rows are absolutely positioned; the spacer carries the width).
    expect(await page.$eval("#ir .nkp-ir", (e) => e.scrollWidth > e.clientWidth + 100)).toBe(true);
    const ifLine = traces.causal[0].records.findIndex((r) => r.text.includes("IfScope %ki == %qi"));
    await page.click(`#ir .nkp-ir-line[data-line="${ifLine}"] .nkp-ir-fold`);
    expect(await spacer()).toBe(total - 4);
    const shown = (await renderedLines()).map(([i]) => i);
    for (let i = ifLine + 1; i <= ifLine + 4; i++) expect(shown).not.toContain(i);
    expect(await page.textContent(`#ir .nkp-ir-line[data-line="${ifLine}"]`)).toContain("… 3 lines }");
    expect(await page.getAttribute(`#ir .nkp-ir-line[data-line="${ifLine}"]`, "aria-expanded")).toBe("false");
    await page.click(`#ir .nkp-ir-line[data-line="${ifLine}"] .nkp-ir-fold`);
    expect(await spacer()).toBe(total);
    expect((await renderedLines()).map(([i]) => i)).toContain(ifLine + 2);
    // Folding the kernel's header folds everything but it.
    await page.click(`#ir .nkp-ir-line[data-line="0"] .nkp-ir-fold`);
    expect(await spacer()).toBe(1);
    await page.click(`#ir .nkp-ir-line[data-line="0"] .nkp-ir-fold`);
  });

  test("keyboard moves the active line; Enter clicks it; highlight marks lines and the region", async () => {
    await mount(traces.causal);
    await page.focus("#ir .nkp-ir");
    for (let k = 0; k < 3; k++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    expect(await page.$$eval("#ir .nkp-ir-active", (els) => els.map((e) => e.dataset.line))).toEqual(["1"]);
    await page.keyboard.press("Enter");
    const clicks = await events("lineClick");
    expect(clicks.at(-1).args[1]).toBe(1);
    expect(clicks.at(-1).args[0].text).toBe(traces.causal[0].records[1].text);
    await page.click(`#ir .nkp-ir-line[data-line="2"] .nkp-ir-code`);
    expect((await events("lineClick")).at(-1).args[1]).toBe(2);
    const region = await page.evaluate(() => [...window.__index.regions.values()].find((r) => r.kind === "IfScope").id);
    await page.evaluate((id) => window.__views.ir.highlight({ lines: new Set([8, 9]), regionId: id }), region);
    expect(await page.$$eval("#ir .nkp-ir-hl", (els) => els.map((e) => e.dataset.line).sort())).toEqual(["8", "9"]);
    const [a, b] = await page.evaluate((id) => window.__index.irRangeForRegion(id), region);
    expect(await page.$$eval("#ir .nkp-ir-region", (els) => els.length)).toBe(b - a + 1);
  });
});

describe("region view", () => {
  test("draws the tree with kinds, axes, predicates, counts and engines", async () => {
    await mount(traces.causal);
    const regions = await page.evaluate(() => window.__index.regions.size);
    expect(await page.$$eval("#regions [role=tree] [role=treeitem]", (e) => e.length)).toBe(regions);
    const boxes = await page.$$eval("#regions .nkp-region-box", (els) => els.map((e) => e.textContent));
    expect(boxes[0]).toContain("@causal_blocks");
    expect(boxes.some((t) => t.includes("Loop") && t.includes("affine %qi in [0, 4) trip 4"))).toBe(true);
    expect(boxes.some((t) => t.includes("If") && t.includes("%ki == %qi") && t.includes("3 instructions") && t.includes("gpsimd"))).toBe(true);
    expect(await page.$$eval("#regions [role=treeitem]", (els) => els.map((e) => e.getAttribute("aria-level")).slice(0, 3))).toEqual(["1", "2", "3"]);
    expect(await page.$$eval("#regions [role=group]", (e) => e.length)).toBeGreaterThan(0);
    await page.evaluate(() => window.__views.regions.highlight(new Set(["0:1"])));
    expect(await page.$$eval("#regions .nkp-region-hl", (els) => els.map((e) => e.dataset.region))).toEqual(["0:1"]);
  });

  test("follows the WAI-ARIA tree keyboard pattern", async () => {
    await mount(traces.causal);
    const focused = () => page.evaluate(() => document.activeElement?.dataset?.region ?? null);
    const tabStops = () => page.$$eval("#regions [role=treeitem][tabindex='0']", (e) => e.map((x) => x.dataset.region));
    expect(await tabStops()).toEqual(["0:0"]);
    await page.focus('#regions [data-region="0:0"]');
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe("0:1");
    expect(await tabStops()).toEqual(["0:1"]);
    await page.keyboard.press("ArrowLeft"); // expanded → collapse
    expect(await page.getAttribute('#regions [data-region="0:1"]', "aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowDown"); // the collapsed loop's children are skipped: nothing below
    expect(await focused()).toBe("0:1");
    await page.keyboard.press("ArrowRight"); // collapsed → expand
    expect(await page.getAttribute('#regions [data-region="0:1"]', "aria-expanded")).toBe("true");
    await page.keyboard.press("ArrowRight"); // expanded → first child
    expect(await focused()).toBe("0:2");
    await page.keyboard.press("End");
    const last = await focused();
    expect(await page.getAttribute(`#regions [data-region="${last}"]`, "aria-expanded")).toBeNull();
    await page.keyboard.press("ArrowLeft"); // a leaf → its parent
    expect(await focused()).toBe("0:4");
    await page.keyboard.press("Home");
    expect(await focused()).toBe("0:0");
    await page.keyboard.press("Enter");
    expect((await events("regionClick")).at(-1).args).toEqual(["0:0"]);
  });

  test("a big tree starts with its deep boxes collapsed and builds them on demand", async () => {
    const { regions } = await mount(traces.many);
    expect(regions).toBe(321);
    const items = () => page.$$eval("#regions [role=treeitem]", (e) => e.length);
    // Kernel + 80 × (loop, allocation, loop): the inner loops (level 4) are collapsed, unbuilt.
    expect(await items()).toBe(1 + 80 * 3);
    const inner = await page.evaluate(() => [...window.__index.regions.values()].find((r) => r.depth === 3).id);
    expect(await page.getAttribute(`#regions [data-region="${inner}"]`, "aria-expanded")).toBe("false");
    await page.focus(`#regions [data-region="${inner}"]`);
    await page.keyboard.press("ArrowRight");
    expect(await items()).toBe(1 + 80 * 3 + 1);
    // reveal() opens the ancestors of a region not built yet.
    const deep = await page.evaluate(() => [...window.__index.regions.values()].filter((r) => r.depth === 4).at(-1).id);
    expect(await page.$(`#regions [data-region="${deep}"]`)).toBeNull();
    await page.evaluate((id) => window.__views.regions.reveal(id), deep);
    expect(await page.isVisible(`#regions [data-region="${deep}"]`)).toBe(true);
  });
});

// Edge cases in the worker protocol's shape that the example kernels do not produce: a 3-D
// tensor, one averaged down to 512 × 512, one too big to keep, one all NaN, a simulator warning.
function edgeSimulations() {
  const cube = Array.from({ length: 24 }, (_, i) => (i % 5) - 2);
  const wide = Array.from({ length: 600 * 700 }, (_, i) => i % 700);
  const t = (name, shape, data) => ({ name, shape, dtype: "float32", data,
    min: data.reduce((a, b) => Math.min(a, b)), max: data.reduce((a, b) => Math.max(a, b)),
    mean: data.reduce((a, b) => a + b, 0) / data.length });
  return [{
    kernel: "edges",
    outputs: [{ name: "huge", shape: [4096, 4096], dtype: "float32", data: null, min: 0, max: 1, mean: 0.5 },
      { name: "unset", shape: [4, 4], dtype: "float32", data: new Float32Array(16).fill(NaN), min: null, max: null, mean: null, nan_count: 16 }],
    inputs: [t("cube", [2, 3, 4], cube), t("wide", [600, 700], wide)],
    prints: [],
    warnings: [{ message: "read of never-written memory <i>t</i>", file: "edges.py", line: 7, col: 11 }],
    comparisons: [],
  }];
}

const pixelOf = (locator, x, y) => locator.evaluate((c, [x, y]) => [...c.getContext("2d").getImageData(x, y, 1, 1).data], [x, y]);
// Hovered canvases are scrolled into the pane first (mouse events need them on screen).
async function hover(locator, fx, fy) {
  await locator.scrollIntoViewIfNeeded();
  const b = await locator.boundingBox();
  await page.mouse.move(b.x + fx(b.width), b.y + fy(b.height));
  return locator.getAttribute("title");
}

describe("simulation view and escaping", () => {
  test("a real simulation: heatmaps, stats, the failed comparison, device_print", async () => {
    expect(realSims.length).toBe(1);
    await mount(traces.html, realSims);
    const sizes = await page.$$eval("#sim canvas.nkp-heatmap", (els) => els.map((c) => [c.width, c.height]));
    // expected, actual, |difference|, out, a: 128 rows × 64 cols, columns drawn 2 px wide.
    expect(sizes).toEqual(Array(5).fill([128, 128]));
    const input = page.locator(".nkp-sim-inputs canvas.nkp-heatmap");
    expect(await pixelOf(input, 0, 0)).toEqual([48, 18, 84, 255]); // the ramp's minimum: first colour
    expect(await pixelOf(input, 127, 127)).toEqual([250, 230, 40, 255]); // its maximum: the last
    // |out − (a + 2)| is 1 everywhere: the top of its own [0, 1] scale.
    expect(await pixelOf(page.locator(".nkp-compare canvas.nkp-heatmap").nth(2), 60, 60)).toEqual([250, 230, 40, 255]);
    expect(await page.textContent(".nkp-compare")).toContain("max abs error 1");
    expect(await page.textContent(".nkp-badge")).toBe("failed");
    expect(await page.textContent(".nkp-compare-label")).toContain("<i>close</i>");
    expect(await page.textContent(".nkp-sim-outputs")).toContain("min 1  max 8192  mean 4096.5");
    // Hover: the element under the pointer and its value (out = a + 1 = flat index + 1).
    const out = page.locator(".nkp-sim-outputs canvas.nkp-heatmap");
    const [, r, c, v] = (await hover(out, (w) => w / 2, (h) => h / 2)).match(/^out\[(\d+), (\d+)\] = (\d+)$/).map(Number);
    expect(Math.abs(r - 64) <= 1 && Math.abs(c - 32) <= 1).toBe(true);
    expect(v).toBe(r * 64 + c + 1);
    expect(await page.textContent(".nkp-sim-print-text")).toMatch(/^<img src=x onerror=alert\(1\)> t = \[\[0/);
    await page.click(".nkp-sim-print .nkp-sim-src");
    expect((await events("sourceClick")).at(-1).args[0]).toEqual({ file: "html_names.py", line: 12, col: 5 });
    await screenshot(page, "views-sim", { fullPage: true });
  });

  test("edge cases: >2-D, downsampled, not kept, all NaN, warnings", async () => {
    await mount(traces.html, edgeSimulations());
    const sizes = await page.$$eval("#sim canvas.nkp-heatmap", (els) => els.map((c) => [c.width, c.height]));
    // unset (4 × 4, 32 px cells), cube (3-D → 6 rows × 4 cols), wide (averaged to 512 × 512).
    expect(sizes).toEqual([[128, 128], [128, 126], [512, 512]]);
    expect(await page.textContent(".nkp-sim-outputs")).toContain("values not kept (16,777,216 elements)");
    expect(await page.textContent(".nkp-sim-outputs")).toContain("min –  max –  mean –  nan 16");
    expect(await pixelOf(page.locator(".nkp-sim-outputs canvas.nkp-heatmap"), 5, 5)).toEqual([255, 0, 200, 255]); // NaN
    const cube = page.locator(".nkp-sim-inputs canvas.nkp-heatmap").nth(0);
    expect(await hover(cube, () => 3, () => 3)).toBe("cube[0, 0, 0] = -2");
    expect(await hover(cube, (w) => w - 3, (h) => h - 3)).toBe("cube[1, 2, 3] = 1");
    // 600 × 700 in 512 × 512 bins: a pixel's colour may be a block's mean, but the pointer reads
    // the one element under it, with its own value (issue 14: it used to say the block's mean).
    // Across the map (some pixels stand for one element, others for two columns).
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const title = await hover(page.locator(".nkp-sim-inputs canvas.nkp-heatmap").nth(1), (w) => w * f, (h) => h * f);
      const one = title.match(/^wide\[(\d+), (\d+)\] = (\d+)(?: {2}\(a pixel shows the mean of \d+ × \d+ values\))?$/);
      expect(one, title).toBeTruthy();
      expect(Number(one[3])).toBe(Number(one[2])); // the element's own value: its column
      expect(Math.abs(Number(one[1]) - 600 * f)).toBeLessThanOrEqual(2);
      expect(Math.abs(Number(one[2]) - 700 * f)).toBeLessThanOrEqual(2);
    }
    expect(await page.textContent(".nkp-sim-warning")).toContain("read of never-written memory <i>t</i>");
    await page.click(".nkp-sim-warning .nkp-sim-src");
    expect((await events("sourceClick")).at(-1).args[0]).toEqual({ file: "edges.py", line: 7, col: 11 });
  });

  test("a kernel named <b>x</b> and HTML in prints stay text", async () => {
    await mount(traces.html, [...realSims, ...edgeSimulations()]);
    expect(await page.$$eval("#ir b, #regions b, #sim b, #sim img, #sim i", (e) => e.length)).toBe(0);
    expect(await page.textContent("#ir")).toContain("kernel @<b>x</b>(%a");
    expect(await page.textContent("#regions")).toContain("@<b>x</b>");
    expect(await page.textContent("#sim")).toContain("@<b>x</b>");
    expect(await page.textContent("#sim")).toContain("<img src=x onerror=alert(1)> t =");
    expect(page.problems).toEqual([]);
  });

  test("dark colour scheme: the panes follow the inherited color-scheme", async () => {
    await mount(traces.causal, realSims);
    const bg = () => page.$eval("#ir .nkp-ir", (e) => getComputedStyle(e).backgroundColor);
    const kw = () => page.$eval("#ir .ir-kw", (e) => getComputedStyle(e).color);
    await page.emulateMedia({ colorScheme: "light" });
    const light = [await bg(), await kw()];
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = [await bg(), await kw()];
    expect(light[0]).toBe("rgb(255, 255, 255)");
    expect(dark[0]).toBe("rgb(13, 17, 23)");
    expect(dark[1]).not.toBe(light[1]);
    await screenshot(page, "views-dark");
    await page.emulateMedia({ colorScheme: "light" });
  });

  test("two kernels, one of 20,000 lines, side by side: bounded rows; screenshot", async () => {
    await mount([...traces.causal, ...traces.big]);
    await screenshot(page, "views-ir-regions");
    expect(await page.$$eval("#ir .nkp-ir-line", (e) => e.length)).toBeLessThanOrEqual(Math.ceil(400 / LINE_HEIGHT) + 26);
  });
});
