// Finds NKI examples and their expected blocks in Markdown and reStructuredText, and rewrites
// expected blocks in place. Pure text in, text out: the rest of a document is kept byte for
// byte (line endings included), so `check --update` touches only what it must.
//
// Markdown:  ```python nki-playground        reST:  .. code-block:: python
//            <example>                                 :class: nki-playground
//            ```                                       <blank line, indented example>
//            ```text nki-expect-ir                   .. code-block:: text
//            <expected IR or stdout>                    :class: nki-expect-ir | nki-expect-output
//            ```

const EXAMPLE_CLASS = "nki-playground";
const EXPECT_KINDS = { "nki-expect-ir": "ir", "nki-expect-output": "output" };

/**
 * @typedef {{first: number, end: number, indent: string, lines: string[]}} Body
 *   lines [first, end) of the document (0-based) hold the body; `indent` is stripped from them.
 * @typedef {{line: number, source: string, body: Body,
 *            expect: null | {kind: "ir"|"output", text: string, body: Body}}} Example
 *   `line` is the 1-based document line of the example's first code line.
 */

/** Splits into lines that keep their line endings, so joining them gives the text back. */
export function splitLines(text) {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const stripEol = (line) => line.replace(/\r?\n$/, "");

/** @returns {"markdown"|"rst"|null} */
export function docKind(path) {
  if (/\.(md|markdown)$/i.test(path)) return "markdown";
  if (/\.rst$/i.test(path)) return "rst";
  return null;
}

/** @returns {Example[]} */
export function findExamples(text, kind) {
  const lines = splitLines(text).map(stripEol);
  const blocks = kind === "rst" ? rstBlocks(lines) : markdownBlocks(lines);
  const examples = [];
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (!(block.lang === "python" && block.classes.includes(EXAMPLE_CLASS))) continue;
    const next = blocks[b + 1];
    const expectClass = next?.lang === "text" ? next.classes.find((c) => c in EXPECT_KINDS) : undefined;
    examples.push({
      line: block.body.first + 1,
      source: joinBody(block.body),
      body: block.body,
      expect: expectClass
        ? { kind: EXPECT_KINDS[expectClass], text: joinBody(next.body), body: next.body }
        : null,
    });
    if (expectClass) b++;
  }
  return examples;
}

/**
 * Replaces the bodies of expected blocks; `replacements` is [{body, text}] (body from
 * findExamples on this same text). Everything else is kept byte for byte.
 */
export function rewriteBlocks(text, replacements) {
  const lines = splitLines(text);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  // From the last block up, so earlier line numbers stay valid.
  const sorted = [...replacements].sort((a, b) => b.body.first - a.body.first);
  for (const { body, text: newText } of sorted) {
    const newLines = newText === "" ? [] : newText.replace(/\n$/, "").split("\n");
    const rendered = newLines.map((l) => (l === "" ? eol : body.indent + l + eol));
    if (body.first === body.end && body.blankBefore) rendered.unshift(eol); // reST needs one
    // A document whose last line has no newline keeps that ending after our lines, too.
    if (body.end === lines.length && body.end > 0 && !lines[lines.length - 1].endsWith("\n")) {
      const last = rendered.length - 1;
      if (last >= 0) rendered[last] = rendered[last].slice(0, -eol.length);
    }
    lines.splice(body.first, body.end - body.first, ...rendered);
  }
  return lines.join("");
}

function joinBody(body) {
  return body.lines.length ? body.lines.join("\n") + "\n" : "";
}

// ---- Markdown (CommonMark fenced code blocks) ----

function markdownBlocks(lines) {
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open || (open[2][0] === "`" && open[3].includes("`"))) continue;
    const [, indent, fence, info] = open;
    let close = i + 1;
    const closeRe = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    while (close < lines.length && !closeRe.test(lines[close])) close++;
    const [lang = "", ...classes] = info.trim().split(/\s+/);
    const bodyLines = lines.slice(i + 1, close).map((l) => stripIndent(l, indent.length));
    blocks.push({ lang, classes, body: { first: i + 1, end: close, indent, lines: bodyLines } });
    i = close;
  }
  return blocks;
}

/** Removes up to n leading spaces (CommonMark: a fence's indentation is removed from its lines). */
function stripIndent(line, n) {
  let k = 0;
  while (k < n && line[k] === " ") k++;
  return line.slice(k);
}

// ---- reStructuredText (code-block / code / sourcecode directives) ----

const indentOf = (line) => /^[ \t]*/.exec(line)[0].length;
const isBlank = (line) => line.trim() === "";

function rstBlocks(lines) {
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)\s*$/.exec(lines[i]);
    if (!head) continue;
    const dirIndent = head[1].length;
    let j = i + 1;
    const classes = [];
    // Options: `:name: value` lines right under the directive.
    for (; j < lines.length && !isBlank(lines[j]) && indentOf(lines[j]) > dirIndent; j++) {
      const opt = /^\s*:([\w-]+):\s*(.*)$/.exec(lines[j]);
      if (!opt) break;
      if (opt[1] === "class") classes.push(...opt[2].trim().split(/\s+/));
    }
    const optionsEnd = j;
    // The body: indented lines (blank ones included) until the first dedent.
    let end = j;
    let last = j; // one past the last non-blank body line
    for (; end < lines.length; end++) {
      if (isBlank(lines[end])) continue;
      if (indentOf(lines[end]) <= dirIndent) break;
      last = end + 1;
    }
    let first = optionsEnd;
    while (first < last && isBlank(lines[first])) first++;
    const present = lines.slice(first, last).filter((l) => !isBlank(l));
    const indentLen = present.length
      ? Math.min(...present.map(indentOf))
      : dirIndent + 3; // where a new body goes
    const indent = present.length ? lines[first].slice(0, indentLen) : " ".repeat(indentLen);
    const bodyLines = lines.slice(first, last).map((l) => (isBlank(l) ? "" : l.slice(indentLen)));
    const body = { first, end: last, indent, lines: bodyLines, blankBefore: first === optionsEnd };
    blocks.push({ lang: head[2], classes, body });
    i = Math.max(i, last - 1);
  }
  return blocks;
}
