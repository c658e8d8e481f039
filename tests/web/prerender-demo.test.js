// scripts/prerender-demo.mjs: the demo template's markers → pre-rendered elements with the
// marker's attributes (Node only; the whole page is checked in tests/browser/embed.test.js).
import { describe, expect, test } from "vitest";

import { parseMarker, withAttributes } from "../../scripts/prerender-demo.mjs";

describe("prerender-demo markers", () => {
  test("attributes keep their order; bare names are boolean", () => {
    const attrs = parseMarker('src="kernels/a.py" readonly panes="ir,output" theme="dark"');
    expect([...attrs]).toEqual([
      ["src", "kernels/a.py"],
      ["readonly", ""],
      ["panes", "ir,output"],
      ["theme", "dark"],
    ]);
  });

  test("the marker's attributes, minus src, go on the element's opening tag, escaped", () => {
    const html = '<nki-playground filename="a.py">\n<pre class="nkp-source"><code>x</code></pre>\n</nki-playground>';
    const out = withAttributes(html, new Map([["src", "a.py"], ["readonly", ""], ["height", "10em"], ["panes", "ir<b>"]]));
    expect(out.split("\n")[0]).toBe('<nki-playground readonly height="10em" panes="ir&lt;b&gt;" filename="a.py">');
    expect(out.split("\n").slice(1)).toEqual(html.split("\n").slice(1));
  });
});
