// The docs pages' Markdown renderer (render/markdown.js) and the docs build's link
// resolution (scripts/build-docs.mjs): escaping, heading ids, tables, nested lists, links.
import { describe, expect, test } from "vitest";

import { listDocs, resolveDocLink } from "../../scripts/build-docs.mjs";
import { renderMarkdown, rewriteMdLink, slugify } from "../../render/markdown.js";

const html = (md, options) => renderMarkdown(md, options).html;

describe("escaping", () => {
  test("raw HTML in text, code spans, fenced code, link text and targets is shown, never parsed", () => {
    const out = html(
      [
        "A <script>alert(1)</script> & <b>bold</b>, `<nki-playground>` here.",
        "",
        "```html",
        '<img src=x onerror="alert(1)">',
        "```",
        "",
        '[<i>x</i>](a.md "t\\"<x>") <https://example.com/?a=1&b=<2>',
      ].join("\n"),
    );
    expect(out).not.toMatch(/<(script|b|i|img|nki-playground)\b/);
    expect(out).toContain("A &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(out).toContain("<code>&lt;nki-playground&gt;</code>");
    expect(out).toContain('<pre><code class="language-html">&lt;img src=x onerror="alert(1)"&gt;\n</code></pre>');
    expect(out).toContain('<a href="a.md" title="t&quot;&lt;x&gt;"><i>x</i></a>'.replace("<i>x</i>", "&lt;i&gt;x&lt;/i&gt;"));
    expect(out).toContain("&lt;https://example.com/?a=1&amp;b=&lt;2&gt;");
  });

  test("a heading's text and attributes are escaped; a quote cannot leave an attribute", () => {
    const out = html('# A "quoted" <tag> & more');
    expect(out).toContain('<h1 id="a-quoted-tag--more">A &quot;quoted&quot; &lt;tag&gt; &amp; more ');
  });

  test("script URLs are not made links", () => {
    expect(html("[x](javascript:alert(1))")).not.toContain("javascript:");
    expect(html("[x](JAVASCRIPT:alert)")).toContain('href="#"');
  });

  test("backslash escapes and emphasis markers inside code stay literal", () => {
    expect(html("\\*not em\\* and `a*b*c` and snake_case_name")).toBe(
      "<p>*not em* and <code>a*b*c</code> and snake_case_name</p>\n",
    );
    expect(html("**strong** and *em* and _em_")).toBe("<p><strong>strong</strong> and <em>em</em> and <em>em</em></p>\n");
  });
});

describe("headings", () => {
  test("GitHub-style ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered", () => {
    expect(slugify("Tracing, kernels and scopes")).toBe("tracing-kernels-and-scopes");
    expect(slugify("The `nki-playground` command")).toBe("the-nki-playground-command");
    expect(slugify("1. Run the playground")).toBe("1-run-the-playground");
    const { headings, title } = renderMarkdown("# The `nki-playground` command\n## run\n## run\n### 1d-arange-not-supported\n");
    expect(title).toBe("The nki-playground command");
    expect(headings.map((h) => h.id)).toEqual(["the-nki-playground-command", "run", "run-1", "1d-arange-not-supported"]);
  });

  test("each heading links to itself", () => {
    expect(html("## Line records")).toBe(
      '<h2 id="line-records">Line records <a class="self-link" href="#line-records" aria-label="Link to this section">#</a></h2>\n',
    );
  });
});

describe("tables", () => {
  test("header, alignment, inline Markdown in cells, escaped pipes (also inside code spans, as on GitHub)", () => {
    const out = html(["| name | `a\\|b` |", "|:--|--:|", "| **x** | 1 \\| 2 |", "| y |"].join("\n"));
    expect(out).toBe(
      [
        "<table>",
        "<thead>",
        "<tr>",
        '<th style="text-align: left">name</th>',
        '<th style="text-align: right"><code>a|b</code></th>',
        "</tr>",
        "</thead>",
        "<tbody>",
        "<tr>",
        '<td style="text-align: left"><strong>x</strong></td>',
        '<td style="text-align: right">1 | 2</td>',
        "</tr>",
        "<tr>",
        '<td style="text-align: left">y</td>',
        '<td style="text-align: right"></td>',
        "</tr>",
        "</tbody>",
        "</table>",
        "",
      ].join("\n"),
    );
  });
});

describe("lists", () => {
  test("nested bullet and ordered lists, continuation lines, a start number", () => {
    const md = ["- one", "  continued", "  - inner *a*", "  - inner b", "    1. deep", "- two", "", "3. three", "4. four"].join("\n");
    expect(html(md)).toBe(
      [
        "<ul>",
        "<li>one",
        "continued",
        "<ul>",
        "<li>inner <em>a</em></li>",
        "<li>inner b",
        "<ol>",
        "<li>deep</li>",
        "</ol>",
        "</li>",
        "</ul>",
        "</li>",
        "<li>two</li>",
        "</ul>",
        '<ol start="3">',
        "<li>three</li>",
        "<li>four</li>",
        "</ol>",
        "",
      ].join("\n"),
    );
  });

  test("a loose list keeps paragraphs; a fenced block inside an item stays code", () => {
    const out = html(["- a", "", "- b", "", "  ```py", "  x = 1", "  ```"].join("\n"));
    expect(out).toContain("<li>\n<p>a</p>\n</li>");
    expect(out).toContain("<p>b</p>\n<pre><code class=\"language-py\">x = 1\n</code></pre>");
  });

  test("block quotes hold blocks", () => {
    expect(html("> quoted *text*\n> - item")).toBe("<blockquote>\n<p>quoted <em>text</em></p>\n<ul>\n<li>item</li>\n</ul>\n</blockquote>\n");
  });
});

describe("links", () => {
  test(".md targets become .html, README.md becomes index.html, anchors kept", () => {
    expect(rewriteMdLink("errors.md#unsupported-memory")).toBe("errors.html#unsupported-memory");
    expect(rewriteMdLink("../README.md")).toBe("../index.html");
    expect(rewriteMdLink("ops/math.md")).toBe("ops/math.html");
    expect(rewriteMdLink("https://example.com/x.md")).toBe("https://example.com/x.md");
    expect(rewriteMdLink("#local")).toBe("#local");
    expect(rewriteMdLink("kernel.py")).toBe("kernel.py");
    expect(html("See [errors](errors.md#x).", { link: rewriteMdLink })).toBe('<p>See <a href="errors.html#x">errors</a>.</p>\n');
  });

  test("the docs build points links at published pages, kernels at the playground, the rest nowhere", async () => {
    const pages = ["README.md", "errors.md", "ops/math.md"];
    expect(await resolveDocLink("errors.md#a-b", "README.md", pages)).toBe("errors.html#a-b");
    expect(await resolveDocLink("../errors.md", "ops/math.md", pages)).toBe("../errors.html");
    expect(await resolveDocLink("README.md", "ops/math.md", pages)).toBe(null);
    expect(await resolveDocLink("../README.md", "ops/math.md", pages)).toBe("../index.html");
    expect(await resolveDocLink("../kernels/", "errors.md", pages)).toBe("../");
    expect(await resolveDocLink("../kernels/tensor_add.py", "errors.md", pages)).toMatch(/^\.\.\/#v1\/[\w-]+$/);
    expect(await resolveDocLink("../kernels/no_such_kernel.py", "errors.md", pages)).toBe(null);
    expect(await resolveDocLink("examples/kernel-ci.test.js", "README.md", pages)).toBe(null);
    expect(html("[it](x.py)", { link: () => null })).toBe('<p><span class="dead-link">it</span></p>\n');
  });

  test("every docs page is published, README first", () => {
    const docs = listDocs();
    expect(docs[0]).toBe("README.md");
    expect(docs).toContain("errors.md");
    expect(docs).toContain("ops/math.md");
  });
});
