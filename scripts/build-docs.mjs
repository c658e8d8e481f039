// Publishes docs/ on the site: every docs/*.md (and docs/ops/*.md) becomes
// build/site/docs/*.html (README.md → index.html), rendered by render/markdown.js.
// A `python nki-playground` example (the format `nki-playground check` verifies, found with
// cli/doc-examples.mjs) becomes a live <nki-playground> embed, pre-rendered from a real trace
// of the example (render/prerender.js); its expected block stays below it, marked as
// expected. Runs after the element build (the pages load ../element/nki-playground.js).
//
//   node scripts/build-docs.mjs
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { findExamples } from "../cli/doc-examples.mjs";
import { irText } from "../cli/trace-format.mjs";
import { createNodeRuntime } from "../runtime/node.mjs";
import { encodeState } from "../web/src/share/codec.js";
import { codeBlock, renderMarkdown, rewriteMdLink } from "../render/markdown.js";
import { escapeHtml, escapeText, prerender, renderIrText } from "../render/prerender.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DOCS = join(ROOT, "docs");
const OUT = join(ROOT, "build/site/docs");
const CSS = join(ROOT, "render/docs.css");
const IR_CSS = join(ROOT, "web/src/ir/ir-view.css"); // the IR token colours, shared with the views

/** The reading order of the nav; pages not named here follow in name order. */
const ORDER = ["README.md", "getting-started.md", "examples.md", "errors.md", "tracing.md", "simulator.md",
  "ir-format.md", "ops/math.md", "ops/movement.md", "cli.md", "ci.md", "js-api.md", "embedding.md"];

/** docs-relative paths ("errors.md", "ops/math.md") of the pages to publish. */
export function listDocs(docsDir = DOCS) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(join(docsDir, dir)).sort()) {
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(join(docsDir, rel)).isDirectory()) walk(rel);
      else if (name.endsWith(".md")) found.push(rel);
    }
  };
  walk("");
  const rank = (p) => (ORDER.includes(p) ? ORDER.indexOf(p) : ORDER.length);
  return found.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The published name of a docs-relative .md path. */
export const htmlPath = (md) => rewriteMdLink(md);

/**
 * A link target in the doc at `from` (docs-relative) → the site's href, or null when what it
 * names is not on the site. Kernels (../kernels/x.py) open in the playground.
 */
export async function resolveDocLink(href, from, pages) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) return href;
  const [, path, rest = ""] = /^([^?#]*)(.*)$/.exec(href);
  const target = posix.normalize(posix.join(posix.dirname(from), path));
  const up = "../".repeat(from.split("/").length - 1); // from this page to docs/
  if (pages.includes(target)) return up + htmlPath(target) + rest;
  if (pages.includes(posix.join(target, "README.md"))) return `${up}${target.replace(/\/?$/, "/")}index.html${rest}`;
  if (/^\.\.\/kernels\/?$/.test(target)) return `${up}../`; // the examples menu holds them all
  const kernel = /^\.\.\/kernels\/([\w-]+)\.py$/.exec(target);
  if (kernel && existsSync(join(ROOT, "kernels", `${kernel[1]}.py`))) {
    const code = readFileSync(join(ROOT, "kernels", `${kernel[1]}.py`), "utf8");
    return `${up}../#${await encodeState({ code, example: kernel[1] })}`;
  }
  return null;
}

/** An `<nki-playground>` per example, the expected block as a labelled figure. */
function fenceRenderer({ doc, examples, runtime, report }) {
  let next = 0;
  let lastTraces = null;
  return ({ lang, classes, body }) => {
    if (lang === "python" && classes.includes("nki-playground")) {
      const example = examples[next++];
      if (!example || example.source !== body) throw new Error(`build-docs: ${doc}: example ${next} not where check finds it`);
      // The name `check` runs it under, so the IR's `@ file:line:col` equal the expected block's.
      const filename = basename(doc);
      const { exitCode, traces } = runtime.runSource(example.source, { filename });
      if (exitCode !== 0) report.failed.push(`${doc}:${example.line}`);
      if (example.expect?.kind === "ir" && irText(traces) !== example.expect.text) report.stale.push(`${doc}:${example.line}`);
      lastTraces = traces;
      report.examples++;
      return prerender({ source: example.source, filename, traces }).trimEnd();
    }
    const expect = classes.find((c) => c === "nki-expect-ir" || c === "nki-expect-output");
    if (lang === "text" && expect && lastTraces) {
      lastTraces = null;
      const what = expect === "nki-expect-ir" ? "IR" : "output";
      const text = expect === "nki-expect-ir" ? renderIrText(body) : escapeText(body.replace(/\n$/, ""));
      return (
        `<figure class="expected expected-${what.toLowerCase()}">\n` +
        `<figcaption>Expected ${what} (checked by <code>nki-playground check</code>)</figcaption>\n` +
        `<pre><code>${text}</code></pre>\n</figure>`
      );
    }
    lastTraces = null;
    return codeBlock(lang, body);
  };
}

function page({ doc, title, html, nav, hasExamples }) {
  const up = "../".repeat(doc.split("/").length - 1); // to docs/
  const links = nav
    .map(({ doc: d, title: t }) => {
      const current = d === doc ? ' aria-current="page"' : "";
      return `<li><a href="${escapeHtml(up + htmlPath(d))}"${current}>${escapeText(t)}</a></li>`;
    })
    .join("\n");
  const script = hasExamples ? `<script type="module" src="${up}../element/nki-playground.js"></script>\n` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeText(title)} — NKI playground docs</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${up}docs.css">
</head>
<body>
<header class="docs-header">
<a class="docs-home" href="${up}index.html">NKI playground docs</a>
<a class="docs-playground" href="${up}../">Open the playground</a>
</header>
<div class="docs-layout">
<nav class="docs-nav" aria-label="Documentation pages">
<ul>
${links}
</ul>
</nav>
<main class="docs-main">
${html}</main>
</div>
${script}</body>
</html>
`;
}

/**
 * @param {{docsDir?: string, outDir?: string, quiet?: boolean}} [opts]
 * @returns {Promise<{pages: string[], examples: number, stale: string[], failed: string[]}>}
 */
export async function buildDocs({ docsDir = DOCS, outDir = OUT, quiet = false } = {}) {
  if (!existsSync(join(outDir, "../element/nki-playground.js"))) {
    throw new Error("build-docs: build/site/element/ is missing; run scripts/build-embed.mjs first");
  }
  const docs = listDocs(docsDir);
  const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
  const report = { examples: 0, stale: [], failed: [] };
  const texts = new Map(docs.map((d) => [d, readFileSync(join(docsDir, d), "utf8")]));
  // Titles first: every page's nav lists all of them.
  // docs/README.md is titled by its folder name ("docs/"); on the site it is the overview.
  const titleOf = (doc, title) => (doc === "README.md" ? "Overview" : title || doc);
  const nav = docs.map((doc) => ({ doc, title: titleOf(doc, renderMarkdown(texts.get(doc)).title) }));
  for (const doc of docs) {
    const text = texts.get(doc);
    // Links resolve asynchronously (a kernel link holds compressed code): collect, then render.
    const targets = new Map();
    renderMarkdown(text, { link: (href) => (targets.set(href, null), href), fence: () => "" });
    for (const href of targets.keys()) targets.set(href, await resolveDocLink(href, doc, docs));
    const examples = findExamples(text, "markdown");
    const fence = fenceRenderer({ doc, examples, runtime, report });
    const { html, title } = renderMarkdown(text, { link: (href) => targets.get(href), fence });
    const out = join(outDir, htmlPath(doc));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, page({ doc, title: titleOf(doc, title), html, nav, hasExamples: examples.length > 0 }));
  }
  // The expected-IR blocks use the same token colours as the IR pane and the embeds.
  const tokenRules = readFileSync(IR_CSS, "utf8").split("\n").filter((l) => /^\.ir-[a-z]+ \{/.test(l));
  writeFileSync(join(outDir, "docs.css"), `${readFileSync(CSS, "utf8")}\n/* IR tokens: web/src/ir/ir-view.css */\n${tokenRules.join("\n")}\n`);
  if (!quiet) {
    console.log(`build-docs: ${docs.length} pages, ${report.examples} live examples -> ${relative(ROOT, outDir)}/`);
    for (const where of report.stale) console.warn(`build-docs: WARNING ${where}: the IR differs from the expected block (run \`nki-playground check\`)`);
    for (const where of report.failed) console.warn(`build-docs: WARNING ${where}: the example exits with an error`);
  }
  return { pages: docs.map(htmlPath), ...report };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDocs();
}
