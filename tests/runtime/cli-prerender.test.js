// render/prerender.js on hand-made traces: structure, the outline, escaping.
import { describe, expect, test } from "vitest";

import { prerender, renderIrText } from "../../render/prerender.js";

const EVIL = `<script>alert("x")</script>`;
// Region records as the printer writes them (docs/ir-format.md): the outline only decorates them.
const region = (id, parent, kind, detail, instructions) => ({ region: id, parent, depth: 0, kind, label: `${kind} ${detail}`.trim(), detail, line: 0, instructions, engines: [], loc: null, span: null });
const TRACE = {
  kernel: EVIL,
  text: `kernel @k() {  @ ${EVIL}.py:1:1\n  KernelScope @k {\n  }\n}\n`,
  irJson: `{"kernel":"${EVIL.replace(/"/g, '\\"')}"}`,
  ir: {},
  regions: [
    { ...region(0, null, "KernelScope", `@${EVIL}`, 4), signature: "()" },
    region(1, 0, "LoopScope", "affine %i in [0, 4) trip 4", 3),
    region(2, 1, "LoopScope", "dynamic %n trip %t[0, 0]", 2),
    region(3, 0, "IfScope", "else", 0),
    region(4, 1, "AllocationScope", "", 1),
  ],
};

describe("prerender", () => {
  const html = prerender({ source: `# ${EVIL}\nx = 1 & 2\n`, filename: `${EVIL}.py`, traces: [TRACE] });

  test("no kernel-derived text becomes markup", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`<nki-playground filename="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;.py" data-nkp-format="1">`);
    expect(html).toContain(`<pre class="nkp-source"><code># &lt;script&gt;alert("x")&lt;/script&gt;\nx = 1 &amp; 2\n</code></pre>`);
    expect(html).toContain(`data-kernel="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"`);
  });

  test("the outline: the region records' kinds, details and instruction counts, nested", () => {
    expect(html).toContain(
      '<summary><span class="nkp-region-kind">KernelScope</span> <span class="nkp-region-detail">@&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</span> <span class="nkp-region-count">4 instructions</span></summary>',
    );
    expect(html).toContain('<span class="nkp-region-detail">affine %i in [0, 4) trip 4</span> <span class="nkp-region-count">3 instructions</span>');
    expect(html).toContain('<li data-region="2"><span class="nkp-region-kind">LoopScope</span> <span class="nkp-region-detail">dynamic %n trip %t[0, 0]</span> <span class="nkp-region-count">2 instructions</span></li>');
    expect(html).toContain('<li data-region="4"><span class="nkp-region-kind">AllocationScope</span> <span class="nkp-region-count">1 instruction</span></li>');
    expect(html).toContain('<li data-region="3"><span class="nkp-region-kind">IfScope</span> <span class="nkp-region-detail">else</span> <span class="nkp-region-count">0 instructions</span></li>');
  });

  test("the languages the code imports are recorded as share links record them; none, no attribute", () => {
    const tag = (source) => /^<nki-playground [^>]*>/.exec(prerender({ source, filename: "k.py", traces: [TRACE] }))[0];
    expect(tag("import nki\nimport nki.language as nl\n")).toBe('<nki-playground filename="k.py" data-nkp-format="1" language="nki@0.6.0">');
    expect(tag("from neuronxcc import nki\nimport nki.isa as nisa\n")).toBe('<nki-playground filename="k.py" data-nkp-format="1" language="beta1@beta1 nki@0.6.0">');
    expect(tag("x = 1\n")).toBe('<nki-playground filename="k.py" data-nkp-format="1">');
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
