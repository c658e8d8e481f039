// render/prerender.js on hand-made traces: structure, the outline, escaping.
import { describe, expect, test } from "vitest";

import { prerender, renderIrText } from "../../render/prerender.js";

const EVIL = `<script>alert("x")</script>`;
const loop = (region, axis, body) => ({ region, kind: "LoopScope", loc: null, axis, body });
const inst = (op) => ({ op, opcode: "load", engine: "dma", operands: [], attrs: {}, loc: null });
const TRACE = {
  kernel: EVIL,
  text: `kernel @k() {  @ ${EVIL}.py:1:1\n  KernelScope @k {\n  }\n}\n`,
  irJson: `{"kernel":"${EVIL.replace(/"/g, '\\"')}"}`,
  ir: {
    loop_axes: [
      { id: 0, name: "i", tag: "AffineAxis", axis_type: "affine", trip_count: 4 },
      { id: 1, name: "n", tag: "DynamicAxis", axis_type: "sequential" },
    ],
    body: {
      region: 0,
      kind: "KernelScope",
      name: EVIL,
      body: [inst(0), loop(1, 0, [inst(1), loop(2, 1, [inst(2), inst(3)])]), { region: 3, kind: "IfScope", else: true, body: [] }],
    },
  },
};

describe("prerender", () => {
  const html = prerender({ source: `# ${EVIL}\nx = 1 & 2\n`, filename: `${EVIL}.py`, traces: [TRACE] });

  test("no kernel-derived text becomes markup", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`<nki-playground filename="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;.py" data-nkp-format="1">`);
    expect(html).toContain(`<pre class="nkp-source"><code># &lt;script&gt;alert("x")&lt;/script&gt;\nx = 1 &amp; 2\n</code></pre>`);
    expect(html).toContain(`data-kernel="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"`);
  });

  test("the outline: kinds, axes with trip counts, instruction counts of the whole subtree", () => {
    expect(html).toContain(
      '<summary><span class="nkp-region-kind">KernelScope</span> <span class="nkp-region-detail">@&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</span> <span class="nkp-region-count">4 instructions</span></summary>',
    );
    expect(html).toContain('<span class="nkp-region-detail">%i affine trip 4</span> <span class="nkp-region-count">3 instructions</span>');
    expect(html).toContain('<li data-region="2"><span class="nkp-region-kind">LoopScope</span> <span class="nkp-region-detail">%n dynamic trip dynamic</span>');
    expect(html).toContain('<li data-region="3"><span class="nkp-region-kind">IfScope</span> <span class="nkp-region-detail">else</span> <span class="nkp-region-count">0 instructions</span></li>');
  });

  test("the embedded JSON is the printer's text, only &, < and > escaped", () => {
    expect(html).toContain(`<template class="nkp-ir-json">[\n{"kernel":"&lt;script&gt;alert(\\"x\\")&lt;/script&gt;"}\n]\n</template>`);
  });

  test("IR lines are coloured by the shared tokenizer and joined back losslessly", () => {
    const text = "    %t = dma.load %a : sbuf f32[128,64]      @ k.py:3:5";
    const rendered = renderIrText(text);
    expect(rendered).toContain('<span class="ir-op">dma.load</span>');
    expect(rendered).toContain('<span class="ir-loc">@ k.py:3:5</span>');
    expect(rendered.replace(/<[^>]+>/g, "")).toBe(text);
  });
});
