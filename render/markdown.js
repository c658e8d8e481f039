// The project's docs pages (docs/*.md → build/site/docs/*.html, scripts/build-docs.mjs) rendered
// with markdown-it (CommonMark plus GitHub tables), configured for them: raw HTML is not passed
// through (the docs show `<nki-playground>` markup as text), headings get GitHub-style ids with
// a self link, link targets go through the caller's `link` (null: the text without a link, for
// a target the site does not have), no script-running URL becomes a link target, and fenced
// blocks may be rendered by the caller's `fence`. Node only (the docs build and its tests); the
// page and the element never load it. docs/architecture.md says why the library.
import MarkdownIt from "markdown-it";

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
  const env = { options, ids: new Map(), headings: [], links: [] };
  const html = md.render(markdown, env);
  const first = env.headings.find((h) => h.level === 1) ?? env.headings[0];
  return { html, title: first?.text ?? "", headings: env.headings };
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

/** The default rendering of a fenced block. */
export function codeBlock(lang, body) {
  const cls = lang ? ` class="language-${escapeHtml(lang)}"` : "";
  return `<pre><code${cls}>${escapeText(body)}</code></pre>`;
}

const md = new MarkdownIt({ html: false });
// Targets are the document's own text: the `link` option sees them as written (no percent
// encoding), and every URL may be a link target; safeHref below disarms script URLs instead
// of markdown-it leaving the whole link as text.
md.normalizeLink = (url) => url;
md.validateLink = () => true;

/** No `javascript:` (or other script-running) URLs from a document. */
function safeHref(href) {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme && !["http", "https", "mailto"].includes(scheme) ? "#" : href;
}

/** The text an inline token's children show (a heading's id and the page title). */
function plainText(inlineToken) {
  return (inlineToken.children ?? [])
    .filter((t) => t.type === "text" || t.type === "code_inline")
    .map((t) => t.content)
    .join("")
    .trim();
}

md.renderer.rules.heading_open = (tokens, i, _opts, env) => {
  const level = Number(tokens[i].tag.slice(1));
  const text = plainText(tokens[i + 1]);
  const base = slugify(text) || "section";
  const seen = env.ids.get(base) ?? 0;
  env.ids.set(base, seen + 1);
  const id = seen ? `${base}-${seen}` : base;
  env.headings.push({ level, id, text });
  tokens[i].meta = { id };
  return `<h${level} id="${escapeHtml(id)}">`;
};

md.renderer.rules.heading_close = (tokens, i) => {
  const { id } = tokens[i - 2].meta;
  const self = `<a class="self-link" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a>`;
  return ` ${self}</${tokens[i].tag}>\n`;
};

md.renderer.rules.link_open = (tokens, i, opts, env, self) => {
  const token = tokens[i];
  const href = token.attrGet("href");
  const target = env.options.link ? env.options.link(href) : href;
  env.links.push(target !== null && target !== undefined);
  if (!env.links.at(-1)) return '<span class="dead-link">';
  token.attrSet("href", safeHref(target));
  return self.renderToken(tokens, i, opts);
};

md.renderer.rules.link_close = (tokens, i, opts, env, self) =>
  env.links.pop() ? self.renderToken(tokens, i, opts) : "</span>";

md.renderer.rules.fence = (tokens, i, _opts, env) => {
  const token = tokens[i];
  const info = token.info.trim();
  const [lang = "", ...classes] = info.split(/\s+/).filter(Boolean);
  const custom = env.options.fence?.({ lang, classes, info, body: token.content });
  return `${custom ?? codeBlock(lang, token.content)}\n`;
};

// Table cells align with `style="text-align: …"`, as the site's CSS expects.
for (const cell of ["th_open", "td_open"]) {
  md.renderer.rules[cell] = (tokens, i, opts, _env, self) => {
    const style = tokens[i].attrGet("style");
    if (style) tokens[i].attrSet("style", style.replace("text-align:", "text-align: "));
    return self.renderToken(tokens, i, opts);
  };
}
