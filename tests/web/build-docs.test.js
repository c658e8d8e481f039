// scripts/build-docs.mjs on a small docs folder, with the real runtime: an example becomes a
// pre-rendered <nki-playground> holding the example's real IR, its expected block stays shown
// as expected, a stale expected block is reported, pages link to each other and load the element.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, expect, test } from "vitest";

import { buildDocs } from "../../scripts/build-docs.mjs";

const EXAMPLE = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def double(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.multiply(nl.load(a), 2.0))
    return out


nki.trace_kernel(double, nt.tensor[[128, 512], nl.float32])
`;
// As `nki-playground check` writes it: run under the doc's name, lines counted in the example.
const IR = `kernel @double(%a: hbm f32[128,512]) -> (%out) {                        @ guide.md:7:1
  KernelScope @double {                                                 @ guide.md:7:1
    %out = ndarray : shared_hbm f32[128,512]                            @ guide.md:8:11
    %t = dma.load %a : sbuf f32[128,512]                                @ guide.md:9:37
    %t.1 = vector.tensor_scalar %t, 2.0 {op0 = multiply} : sbuf f32[128,512]  @ guide.md:9:25
    dma.store %out, %t.1                                                @ guide.md:9:5
  }
}
`;

let dir;
let result;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "nki-build-docs-"));
  mkdirSync(join(dir, "docs"));
  mkdirSync(join(dir, "site/element"), { recursive: true });
  writeFileSync(join(dir, "site/element/nki-playground.js"), "");
  writeFileSync(join(dir, "docs/README.md"), "# docs/\n\nStart with [the guide](guide.md#a-kernel).\n");
  const guide = (ir) =>
    `# Guide <b>\n\n## A kernel\n\n\`\`\`python nki-playground\n${EXAMPLE}\`\`\`\n\n\`\`\`text nki-expect-ir\n${ir}\`\`\`\n`;
  writeFileSync(join(dir, "docs/guide.md"), guide(IR));
  writeFileSync(join(dir, "docs/stale.md"), guide(IR.replace("2.0", "3.0")));
  result = await buildDocs({ docsDir: join(dir, "docs"), outDir: join(dir, "site/docs"), quiet: true });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const read = (name) => readFileSync(join(dir, "site/docs", name), "utf8");

test("every page is written, README as index.html; a stale expected block is reported", () => {
  expect(result.pages).toEqual(["index.html", "guide.html", "stale.html"]);
  expect(result.examples).toBe(2);
  expect(result.stale).toEqual(["stale.md:6"]);
  expect(result.failed).toEqual([]);
});

test("an example is a pre-rendered embed with its real IR; the expected block follows it", () => {
  const html = read("guide.html");
  const embed = /<nki-playground filename="guide\.md" data-nkp-format="1" language="beta1@beta1">[\s\S]*?<\/nki-playground>/.exec(html)?.[0];
  expect(embed).toBeTruthy();
  expect(embed).toContain("<pre class=\"nkp-source\"><code>import neuronxcc.nki as nki");
  // The static IR is the trace's text, token-coloured: without the tags it is the expected IR.
  const staticIr = /<pre class="nkp-ir"><code>([\s\S]*?)<\/code><\/pre>/.exec(embed)[1];
  const text = staticIr.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  expect(`${text}\n`).toBe(IR);
  expect(embed).toContain('<template class="nkp-ir-json">');
  const after = html.slice(html.indexOf("</nki-playground>"));
  expect(after).toMatch(/^<\/nki-playground>\n<figure class="expected expected-ir">\n<figcaption>Expected IR/);
  expect(html).toContain('<script type="module" src="../element/nki-playground.js"></script>');
});

test("pages: escaped title, nav with the current page, links rewritten, the playground linked", () => {
  const index = read("index.html");
  expect(index).toContain('<a href="guide.html#a-kernel">the guide</a>');
  expect(index).toContain("<title>Overview — NKI playground docs</title>");
  expect(index).not.toContain("nki-playground.js"); // no example, no element script
  const guide = read("guide.html");
  expect(guide).toContain("<title>Guide &lt;b&gt; — NKI playground docs</title>");
  expect(guide).toContain('<li><a href="guide.html" aria-current="page">Guide &lt;b&gt;</a></li>');
  expect(guide).toContain('<a class="docs-playground" href="../">');
  expect(guide).toContain('<h2 id="a-kernel">');
  expect(read("docs.css")).toMatch(/\.ir-kw \{/);
});
