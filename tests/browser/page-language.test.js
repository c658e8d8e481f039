// The page takes either NKI language: the examples menu has a group per language, the label
// next to the file name says which one the code is written in (its imports select the front
// end), a current-language example runs and shows its IR and regions, and a share link records
// the language it was written for.
import { describe, expect, test } from "vitest";

import { openPage, runAndWait, screenshot, setCode, usePlayground, waitForRuntime } from "./harness.js";
import { decodeState, toBase64Url } from "../../web/src/share/codec.js";

const pg = usePlayground({ open: false });

/** A v1 link holding `record` as it is (a later playground's encoder may write other fields). */
async function rawLink(record) {
  const bytes = new TextEncoder().encode(JSON.stringify(record));
  const out = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return `v1/${toBase64Url(new Uint8Array(await new Response(out).arrayBuffer()))}`;
}

const label = (page) => page.$eval("#language", (el) => [el.dataset.language, el.textContent]);

describe("the page and the current NKI language", () => {
  test("examples are grouped by language; a current-language example runs with its IR and regions", async () => {
    const page = await openPage(pg.browser.context, pg.server.url);
    await page.waitForSelector("html[data-editor-ready]");
    const groups = await page.$$eval("#examples optgroup[data-language]", (gs) =>
      gs.map((g) => [g.label, [...g.children].map((o) => o.value)]),
    );
    const byLabel = Object.fromEntries(groups);
    const current = "Examples: NKI 0.6.0 (import nki)";
    const beta1 = "Examples: NKI Beta 1 (import neuronxcc.nki)";
    expect(Object.keys(byLabel)).toEqual([current, beta1]);
    expect(byLabel[current]).toEqual(expect.arrayContaining(["tensor_add_nki", "matmul_nki", "dynamic_rows_nki"]));
    expect(byLabel[beta1]).toEqual(expect.arrayContaining(["tensor_add", "softmax"]));
    expect(byLabel[beta1]).not.toContain("tensor_add_nki");
    expect(await label(page)).toEqual(["beta1", "NKI Beta 1"]);

    await page.selectOption("#examples", "tensor_add_nki");
    expect(await label(page)).toEqual(["nki", "NKI 0.6.0"]);
    expect(await waitForRuntime(page)).toBe("ready");
    expect(await runAndWait(page), await page.textContent("#output")).toBe("ready");
    expect(await page.textContent("#output")).toContain("simulated tensor_add_nki matches a + b: True");
    const ir = await page.textContent("#panel-ir");
    expect(ir).toMatch(/kernel @tensor_add_nki\(.*\) -> \(%out\) nki 0\.6\.0 lnc 2 \{/);
    expect(ir).toContain("LoopScope unrolled %j in [0, 2) trip 2");
    expect(ir).toContain("vector.tensor_tensor %a_tile, %a_tile, %b_tile {op = add}");
    expect(await page.textContent("#sim-count")).toBe("1");
    await page.click("#tab-regions");
    const regions = await page.textContent("#panel-regions");
    expect(regions).toMatch(/core 1/);
    expect(regions).toMatch(/(trip\D{0,3}|×)2(?!\d)/);
    await screenshot(page, "page-current-language");
    expect(page.problems).toEqual([]);
  });

  test("the label follows the code; an error in a current-language kernel is a problem at its line", async () => {
    const page = await openPage(pg.browser.context, pg.server.url);
    expect(await waitForRuntime(page)).toBe("ready");
    await setCode(page, "import neuronxcc.nki as nki\nprint(1)\n");
    expect(await label(page)).toEqual(["beta1", "NKI Beta 1"]);
    await setCode(
      page,
      "import numpy as np\nimport nki\nimport nki.language as nl\n\n@nki.jit\ndef k(a):\n    for i in range(2):\n" +
        "        pass\n    else:\n        pass\n    return a\n\nk(np.zeros((2, 2), np.float32))\n",
    );
    expect(await label(page)).toEqual(["nki", "NKI 0.6.0"]);
    expect(await runAndWait(page)).toBe("error");
    const problems = await page.evaluate(() => window.nkiPlayground.lastResult.diagnostics.filter((d) => d.severity === "error"));
    expect(problems).toMatchObject([{ class: "SyntaxError", message: "for-orelse is not supported in NKI", line: 10, col: 9 }]);
    // The next run works.
    await setCode(page, "import nki\nimport nki.language as nl\nprint(nl.tile_size.pmax)\n");
    expect(await runAndWait(page)).toBe("ready");
    expect(await page.textContent("#output")).toContain("128");
  });

  test("a share link records the language; one written for a version this playground does not run says so", async () => {
    const code = "import nki\nimport nki.language as nl\nprint(nl.tile_size.pmax)\n";
    const page = await openPage(pg.browser.context, pg.server.url);
    await page.waitForSelector("html[data-editor-ready]");
    await setCode(page, code);
    await page.click("#copy-link");
    await page.waitForSelector("#notice:not([hidden])");
    const shared = await decodeState(await page.evaluate(() => location.hash));
    expect(shared).toMatchObject({ code, language: ["nki@0.6.0"] });

    const b = await pg.launch();
    const other = await openPage(b.context, `${pg.server.url}#${await rawLink({ ...shared, language: ["nki@0.7.0"] })}`);
    await other.waitForSelector("html[data-editor-ready]");
    expect(await other.textContent("#notice-text")).toBe("This link was written for nki@0.7.0; this playground runs NKI 0.6.0 and NKI Beta 1.");
    expect(await label(other)).toEqual(["nki", "NKI 0.6.0"]);
    expect(other.problems).toEqual([]);
  });
});
