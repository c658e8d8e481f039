// The pure parts of `check`: finding examples, rewriting expected blocks, the diff.
import { describe, expect, test } from "vitest";

import { unifiedDiff } from "../../cli/diff.mjs";
import { toDocLines } from "../../cli/check.mjs";
import { findExamples, rewriteBlocks } from "../../cli/doc-examples.mjs";

describe("doc examples", () => {
  test("Markdown: examples, their expected blocks and first lines; other fences ignored", () => {
    const md = [
      "# t", "", "```python nki-playground", "a = 1", "```", "text", "```text nki-expect-output", "1", "```",
      "````python", "```python nki-playground", "not an example: inside a longer fence", "````",
      "  ~~~python nki-playground", "  b = 2", "    c = 3", "  ~~~", "```text nki-expect-ir", "```",
      "```python nki-playground", "last = 1", "```",
    ].join("\n");
    const ex = findExamples(md, "markdown");
    expect(ex.map((e) => [e.line, e.source, e.expect?.kind, e.expect?.text])).toEqual([
      [4, "a = 1\n", "output", "1\n"],
      [15, "b = 2\n  c = 3\n", "ir", ""],
      [21, "last = 1\n", undefined, undefined],
    ]);
  });

  test("rewriting keeps every other byte, the fence's indentation and a missing final newline", () => {
    const md = "x\r\n  ```python nki-playground\r\n  a\r\n  ```\r\n  ```text nki-expect-ir\r\n  old\r\n  ```";
    const [ex] = findExamples(md, "markdown");
    const out = rewriteBlocks(md, [{ body: ex.expect.body, text: "new\n\nlines\n" }]);
    expect(out).toBe(
      "x\r\n  ```python nki-playground\r\n  a\r\n  ```\r\n  ```text nki-expect-ir\r\n  new\r\n\r\n  lines\r\n  ```",
    );
  });

  test("reST: options, indentation, an empty expected block filled in", () => {
    const rst = [
      "Title", "=====", "", ".. code-block:: python", "   :class: nki-playground", "   :caption: x", "",
      "   def f():", "       return 1", "", "   print(f())", "", ".. code-block:: text", "   :class: nki-expect-output",
      "", "Prose", "", ".. code-block:: python", "", "   not_an_example()", "",
    ].join("\n");
    const [ex, ...rest] = findExamples(rst, "rst");
    expect(rest).toEqual([]);
    expect(ex.line).toBe(8);
    expect(ex.source).toBe("def f():\n    return 1\n\nprint(f())\n");
    expect(ex.expect).toMatchObject({ kind: "output", text: "" });
    const out = rewriteBlocks(rst, [{ body: ex.expect.body, text: "1\n" }]);
    expect(out).toContain(".. code-block:: text\n   :class: nki-expect-output\n\n   1\n\nProse\n");
    expect(findExamples(out, "rst")[0].expect.text).toBe("1\n");
  });
});

test("toDocLines moves the doc's own positions, not other files' or longer names'", () => {
  const text = "docs/a.md:3:5: error: x\n  docs/a.md:1:1: in <module>\n  lib/docs/a.md:2:2 x.md:3:3\n";
  expect(toDocLines(text, "docs/a.md", 40)).toBe(
    "docs/a.md:43:5: error: x\n  docs/a.md:41:1: in <module>\n  lib/docs/a.md:2:2 x.md:3:3\n",
  );
});

describe("unifiedDiff", () => {
  test("equal texts give no diff; changes come with three lines of context", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n")).toBe("");
    const a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    // Seven unchanged lines between the changes: two hunks (six or fewer would merge them).
    const b = a.replace("5\n", "five\n") + "13\n";
    expect(unifiedDiff(a, b)).toBe(
      "--- expected\n+++ actual\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n",
    );
    expect(unifiedDiff(a, a.replace("5\n", "five\n").replace("11\n", "eleven\n"))).toContain("@@ -2,11 +2,11 @@\n");
  });

  test("into and out of empty, and a final-newline-only difference", () => {
    expect(unifiedDiff("", "x\n")).toBe("--- expected\n+++ actual\n@@ -0,0 +1 @@\n+x\n");
    expect(unifiedDiff("x\n", "")).toBe("--- expected\n+++ actual\n@@ -1 +0,0 @@\n-x\n");
    expect(unifiedDiff("x", "x\n")).toContain("differ only in their final newline");
  });
});
