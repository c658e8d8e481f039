// A small Markdown renderer for the project's own docs (docs/*.md → build/site/docs/*.html,
// scripts/build-docs.mjs). It knows the subset those pages use, not all of CommonMark:
// ATX headings (GitHub-style ids with a self link), paragraphs, emphasis, code spans, fenced
// code, bullet and ordered lists (nested by indentation), tables, block quotes, rules, links
// and autolinks. Raw HTML is not passed through: every character of the text is escaped, so
// the docs can show `<nki-playground>` markup as text. Pure (no DOM, no Node APIs).
import { escapeHtml, escapeText } from "./prerender.js";

/**
 * @typedef {object} RenderOptions
 * @property {(href: string) => string | null} [link]  rewrites a link target; null renders
 *   the link's text without a link (a target that does not exist on the site)
 * @property {(fence: {lang: string, classes: string[], body: string, info: string}) => string | null} [fence]
 *   HTML for a fenced block, or null for the default `<pre><code>`
 *
 * @param {string} markdown
 * @param {RenderOptions} [options]
 * @returns {{html: string, title: string, headings: {level: number, id: string, text: string}[]}}
 */
export function renderMarkdown(markdown, options = {}) {
  const ctx = { options, ids: new Map(), headings: [] };
  const lines = markdown.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  const html = renderBlocks(lines, ctx);
  const first = ctx.headings.find((h) => h.level === 1) ?? ctx.headings[0];
  return { html, title: first?.text ?? "", headings: ctx.headings };
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** `.md` targets become `.html` (README.md → index.html); other targets stay as written. */
export function rewriteMdLink(href) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/")) return href;
  const m = /^([^?#]*?)([^/?#]*)\.md([?#].*)?$/i.exec(href);
  if (!m) return href;
  const [, dir, name, rest = ""] = m;
  return `${dir}${name.toLowerCase() === "readme" ? "index" : name}.html${rest}`;
}

// ---- blocks ----

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const TABLE_DELIM = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;
const blank = (line) => line.trim() === "";
const indentOf = (line) => /^ */.exec(line)[0].length;

function renderBlocks(lines, ctx) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (blank(line)) {
      i++;
      continue;
    }
    let m;
    if ((m = FENCE.exec(line)) && !(m[2][0] === "`" && m[3].includes("`"))) {
      i = fencedBlock(lines, i, m, ctx, out);
    } else if ((m = HEADING.exec(line))) {
      out.push(heading(m[1].length, m[2] ?? "", ctx));
      i++;
    } else if (RULE.test(line)) {
      out.push("<hr>");
      i++;
    } else if (QUOTE.test(line)) {
      const inner = [];
      while (i < lines.length && !blank(lines[i])) {
        const q = QUOTE.exec(lines[i]);
        inner.push(q ? q[1] : lines[i]); // a line without ">" continues the quote's paragraph
        i++;
      }
      out.push(`<blockquote>\n${renderBlocks(inner, ctx)}</blockquote>`);
    } else if (ITEM.test(line)) {
      i = list(lines, i, ctx, out);
    } else if (line.includes("|") && i + 1 < lines.length && TABLE_DELIM.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      i = table(lines, i, ctx, out);
    } else {
      const para = [];
      while (i < lines.length && !blank(lines[i]) && !startsBlock(lines[i])) para.push(lines[i++]);
      if (!para.length) para.push(lines[i++]); // a line only startsBlock rejected later
      out.push(`<p>${inline(para.map((l) => l.trim()).join("\n"), ctx)}</p>`);
    }
  }
  return out.map((b) => b + "\n").join("");
}

/** A line that ends a paragraph (no lazy continuation into another block). */
function startsBlock(line) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function fencedBlock(lines, start, [, indent, fence, info], ctx, out) {
  const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
  let end = start + 1;
  while (end < lines.length && !close.test(lines[end])) end++;
  const body = lines
    .slice(start + 1, end)
    .map((l) => l.slice(Math.min(indent.length, indentOf(l))))
    .join("\n");
  const [lang = "", ...classes] = info.trim().split(/\s+/).filter(Boolean);
  const fenceInfo = { lang, classes, info: info.trim(), body: end > start + 1 ? body + "\n" : "" };
  const custom = ctx.options.fence?.(fenceInfo);
  out.push(custom ?? codeBlock(lang, fenceInfo.body));
  return end + 1;
}

export function codeBlock(lang, body) {
  const cls = lang ? ` class="language-${escapeHtml(lang)}"` : "";
  return `<pre><code${cls}>${escapeText(body)}</code></pre>`;
}

function heading(level, text, ctx) {
  const plain = plainText(text);
  const base = slugify(plain) || "section";
  const seen = ctx.ids.get(base) ?? 0;
  ctx.ids.set(base, seen + 1);
  const id = seen ? `${base}-${seen}` : base;
  ctx.headings.push({ level, id, text: plain });
  const self = `<a class="self-link" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a>`;
  return `<h${level} id="${escapeHtml(id)}">${inline(text, ctx)} ${self}</h${level}>`;
}

function list(lines, start, ctx, out) {
  const first = ITEM.exec(lines[start]);
  const ordered = /\d/.test(first[2]);
  const base = first[1].length;
  const items = [];
  let loose = false;
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]);
    if (!m || m[1].length !== base || /\d/.test(m[2]) !== ordered) break;
    // The item's content column: text after the marker (a marker followed by 5+ spaces keeps 1).
    const gap = m[3].length > 4 || m[4] === "" ? 1 : m[3].length;
    const column = base + m[2].length + gap;
    const body = [m[4]];
    i++;
    let sawBlank = false;
    while (i < lines.length) {
      const line = lines[i];
      if (blank(line)) {
        body.push("");
        sawBlank = true;
        i++;
        continue;
      }
      const ind = indentOf(line);
      if (ind >= column) body.push(line.slice(column));
      else if (!sawBlank && ind > base && !ITEM.test(line)) body.push(line.trim()); // lazy line
      else if (!sawBlank && !startsBlock(line)) body.push(line.trim());
      else break;
      sawBlank = false;
      i++;
    }
    while (body.length && blank(body[body.length - 1])) body.pop();
    // Blank lines between items or between an item's paragraphs make the list loose.
    const nextItem = i < lines.length ? ITEM.exec(lines[i]) : null;
    if (nextItem && blank(lines[i - 1]) && nextItem[1].length === base && /\d/.test(nextItem[2]) === ordered) loose = true;
    if (body.some((l, k) => blank(l) && k > 0 && !blank(body[k + 1] ?? "") && !/^ /.test(body[k + 1] ?? ""))) loose = true;
    items.push(body);
  }
  const rendered = items.map((body) => {
    let html = renderBlocks(body, ctx).trimEnd();
    // A tight list shows its paragraphs without <p>.
    if (!loose) html = html.replace(/^<p>([\s\S]*?)<\/p>$/gm, "$1");
    return `<li>${html.includes("\n") ? `\n${html}\n` : html}</li>`;
  });
  const startNum = ordered ? parseInt(first[2], 10) : 1;
  const tag = ordered ? "ol" : "ul";
  const attr = ordered && startNum !== 1 ? ` start="${startNum}"` : "";
  out.push(`<${tag}${attr}>\n${rendered.join("\n")}\n</${tag}>`);
  return i;
}

function table(lines, start, ctx, out) {
  const cells = (line) => {
    const row = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "");
    // Split on pipes that are neither escaped nor inside a code span.
    const parts = [];
    let cur = "";
    let code = 0;
    for (let k = 0; k < row.length; k++) {
      const c = row[k];
      if (c === "\\" && row[k + 1] === "|") {
        cur += "|";
        k++;
      } else if (c === "`") {
        let n = 0;
        while (row[k + n] === "`") n++;
        code = code === n ? 0 : code || n;
        cur += "`".repeat(n);
        k += n - 1;
      } else if (c === "|" && !code) {
        parts.push(cur.trim());
        cur = "";
      } else cur += c;
    }
    parts.push(cur.trim());
    return parts;
  };
  const head = cells(lines[start]);
  const align = cells(lines[start + 1]).map((d) =>
    d.startsWith(":") && d.endsWith(":") ? "center" : d.endsWith(":") ? "right" : d.startsWith(":") ? "left" : "",
  );
  const cell = (tag, text, k) =>
    `<${tag}${align[k] ? ` style="text-align: ${align[k]}"` : ""}>${inline(text ?? "", ctx)}</${tag}>`;
  let i = start + 2;
  const rows = [];
  while (i < lines.length && !blank(lines[i]) && lines[i].includes("|") && !startsBlock(lines[i])) {
    const row = cells(lines[i++]);
    rows.push(`<tr>${head.map((_, k) => cell("td", row[k], k)).join("")}</tr>`);
  }
  out.push(
    `<table>\n<thead>\n<tr>${head.map((h, k) => cell("th", h, k)).join("")}</tr>\n</thead>\n` +
      `<tbody>\n${rows.join("\n")}${rows.length ? "\n" : ""}</tbody>\n</table>`,
  );
  return i;
}

// ---- inline ----

const PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/** Inline Markdown → HTML; every piece of text goes through escapeText/escapeHtml. */
export function inline(text, ctx = { options: {} }) {
  let out = "";
  let i = 0;
  let plain = "";
  const flush = () => {
    out += escapeText(plain);
    plain = "";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length && PUNCT.includes(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
    } else if (c === "\\" && text[i + 1] === "\n") {
      flush();
      out += "<br>\n";
      i += 2;
    } else if (c === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      const end = findRun(text, "`".repeat(n), i + n);
      if (end < 0) {
        plain += "`".repeat(n);
        i += n;
        continue;
      }
      flush();
      let code = text.slice(i + n, end).replace(/\n/g, " ");
      if (/^ .*[^ ].* $/.test(code)) code = code.slice(1, -1);
      out += `<code>${escapeText(code)}</code>`;
      i = end + n;
    } else if (c === "<" && /^<(https?:\/\/[^\s<>]+)>/.test(text.slice(i))) {
      const [whole, url] = /^<(https?:\/\/[^\s<>]+)>/.exec(text.slice(i));
      flush();
      out += `<a href="${escapeHtml(url)}">${escapeText(url)}</a>`;
      i += whole.length;
    } else if (c === "[" || (c === "!" && text[i + 1] === "[")) {
      const link = parseLink(text, c === "!" ? i + 1 : i);
      if (!link) {
        plain += c;
        i++;
        continue;
      }
      flush();
      out += renderLink(link, c === "!", ctx);
      i = link.end;
    } else if ((c === "*" || c === "_") && emphasisAt(text, i)) {
      const em = emphasisAt(text, i);
      flush();
      const tag = em.n === 2 ? "strong" : "em";
      out += `<${tag}>${inline(text.slice(i + em.n, em.close), ctx)}</${tag}>`;
      i = em.close + em.n;
    } else if (c === " " && text.startsWith("  \n", i)) {
      flush();
      out += "<br>\n";
      i += 3;
    } else {
      plain += c;
      i++;
    }
  }
  flush();
  return out;
}

/** The index of the next run of exactly `run` (a code span's closing backticks), or -1. */
function findRun(text, run, from) {
  for (let k = text.indexOf(run, from); k >= 0; k = text.indexOf(run, k + 1)) {
    if (text[k - 1] !== "`" && text[k + run.length] !== "`") return k;
    while (text[k + 1] === "`") k++;
  }
  return -1;
}

/** `*x*`, `**x**`, `_x_`, `__x__`: an opener before a non-space, a matching closer after one. */
function emphasisAt(text, i) {
  const c = text[i];
  const n = text[i + 1] === c ? 2 : 1;
  const after = text[i + n];
  if (!after || /\s/.test(after) || after === c) return null;
  // Intraword underscores (snake_case) are not emphasis.
  if (c === "_" && /[\p{L}\p{N}]/u.test(text[i - 1] ?? "")) return null;
  const marker = c.repeat(n);
  for (let k = i + n + 1; k <= text.length - n; k++) {
    if (text[k] === "`") {
      // Skip code spans: emphasis markers inside them are literal.
      let m = 0;
      while (text[k + m] === "`") m++;
      const end = findRun(text, "`".repeat(m), k + m);
      if (end >= 0) k = end + m - 1;
      continue;
    }
    if (text[k] === "\\") {
      k++;
      continue;
    }
    if (text.startsWith(marker, k) && !/\s/.test(text[k - 1]) && text[k + n] !== c && text[k - 1] !== c) {
      if (c === "_" && /[\p{L}\p{N}]/u.test(text[k + n] ?? "")) continue;
      return { n, close: k };
    }
  }
  return null;
}

/** `[text](href "title")` starting at `[`: {text, href, title, end} or null. */
function parseLink(text, open) {
  let depth = 0;
  let k = open;
  for (; k < text.length; k++) {
    if (text[k] === "\\") k++;
    else if (text[k] === "`") {
      let m = 0;
      while (text[k + m] === "`") m++;
      const end = findRun(text, "`".repeat(m), k + m);
      if (end >= 0) k = end + m - 1;
    } else if (text[k] === "[") depth++;
    else if (text[k] === "]" && --depth === 0) break;
  }
  if (k >= text.length || text[k + 1] !== "(") return null;
  const m = /^\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\)/.exec(text.slice(k + 1));
  if (!m) return null;
  const href = m[1].startsWith("<") ? m[1].slice(1, -1) : m[1];
  const title = m[2]?.replace(/\\(.)/g, "$1");
  return { text: text.slice(open + 1, k), href, title, end: k + 1 + m[0].length };
}

function renderLink({ text, href, title }, image, ctx) {
  const target = ctx.options.link ? ctx.options.link(href) : href;
  const label = image ? escapeText(text) : inline(text, ctx);
  if (target === null || target === undefined) return `<span class="dead-link">${label}</span>`;
  const t = title ? ` title="${escapeHtml(title)}"` : "";
  return `<a href="${escapeHtml(safeHref(target))}"${t}>${label}</a>`;
}

/** No `javascript:` (or other script-running) URLs from a document. */
function safeHref(href) {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme && !["http", "https", "mailto"].includes(scheme) ? "#" : href;
}

/** The text a heading shows, without Markdown (for its id and the page title). */
export function plainText(md) {
  return md
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(`+)(.*?)\1/g, "$2")
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, "$2")
    .trim();
}
