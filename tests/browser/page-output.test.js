// The Output pane under a chatty script: every write arrives, in order, in a handful of DOM
// nodes (writes of one stream extend one node), stdout and stderr keep their order, and a
// runaway amount of output is cut at the cap with a note instead of growing without bound.
import { beforeAll, describe, expect, test } from "vitest";

import { runAndWait, setCode, usePlayground } from "./harness.js";

const pg = usePlayground();
let page;
beforeAll(() => (page = pg.page));

describe("Output", () => {
  test("20,000 prints arrive whole and in order, in few nodes", async () => {
    await setCode(page, "import sys\nfor i in range(20000):\n    print(i)\nprint('err', file=sys.stderr)\nprint('end')\n");
    expect(await runAndWait(page)).toBe("ready");
    const { text, nodes, stderr } = await page.$eval("#output", (el) => ({
      text: el.textContent,
      nodes: el.childNodes.length,
      stderr: [...el.querySelectorAll(".stderr")].map((s) => s.textContent),
    }));
    const expected = Array.from({ length: 20000 }, (_, i) => `${i}\n`).join("") + "err\nend\n";
    expect(text).toBe(expected);
    expect(stderr).toEqual(["err\n"]);
    expect(nodes).toBe(3); // stdout, stderr, stdout
  });

  test("output past the cap is cut with a note; the run still completes", async () => {
    await setCode(page, "line = 'x' * 999\nfor i in range(2500):\n    print(line)\nprint('done')\n");
    expect(await runAndWait(page)).toBe("ready");
    const text = await page.textContent("#output");
    expect(text.length).toBeLessThan(2_000_100);
    expect(text).toContain("[output truncated after 2000000 characters]");
    expect(text).not.toContain("done");
    expect(page.problems).toEqual([]);
  });
});
