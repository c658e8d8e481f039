// The static HTML of an <nki-playground> embed: what a docs page shows before the reader
// clicks Run (and all it shows with scripts off). Written at docs-build time by
// `nki-playground trace --format html`; pure (no DOM, no Node APIs) so the element can also
// call it in the page. Every kernel-derived string goes through escapeHtml or escapeText.
import { languageTags } from "./language.js";
import { countLabel } from "./count.js";
import { tokenizeIrLine } from "./tokens.js";

/**
 * The version of this markup, written as `data-nkp-format` on every pre-rendered element.
 * Pages stay published for years and are not rebuilt, so every later element must still read
 * format 1 (tests/browser/embed-compat.test.js keeps a frozen format-1 page); a change the old
 * markup cannot express gets a new number, and the element reads both.
 */
export const PRERENDER_FORMAT = 1;

/**
 * @param {object} opts
 * @param {string} opts.source  the kernel script
 * @param {string} [opts.filename]  the name the element runs it under (shown, and used in locs)
 * @param {{kernel: string, text: string, regions: object[], irJson?: string}[]} opts.traces
 *   runtime.runSource(...).traces
 * @returns {string} an HTML fragment: one <nki-playground> element
 */
export function prerender({ source, filename = "kernel.py", traces }) {
  const kernels = traces.map(renderKernel).join("");
  // The printer's JSON, kept byte for byte, so the live element can show regions before its
  // first run. A <template> is inert and entity-decoded by the parser, so textContent gives
  // the exact bytes back (a <script type="application/json"> would need `<` rewritten).
  const json = traces.every((t) => typeof t.irJson === "string")
    ? `<template class="nkp-ir-json">${escapeText(irJsonArrayText(traces))}</template>\n`
    : "";
  // The languages the example was written for, as share links record them ("nki@0.6.0"): a
  // page published today still says so when the element it loads runs a later NKI.
  const tags = languageTags(source);
  const language = tags.length ? ` language="${escapeHtml(tags.join(" "))}"` : "";
  return (
    `<nki-playground filename="${escapeHtml(filename)}" data-nkp-format="${PRERENDER_FORMAT}"${language}>\n` +
    `<pre class="nkp-source"><code>${escapeText(source)}</code></pre>\n` +
    `<div class="nkp-static">\n${kernels}</div>\n` +
    json +
    `</nki-playground>\n`
  );
}

/** The same array text `nki-playground trace --format json` prints. */
export function irJsonArrayText(traces) {
  return traces.length ? `[\n${traces.map((t) => t.irJson).join(",\n")}\n]\n` : "[]\n";
}

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Escapes element content only (quotes stay: the embedded JSON is full of them). */
export function escapeText(text) {
  return String(text).replace(/[&<>]/g, (c) => ESCAPES[c]);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function renderKernel(trace) {
  const name = escapeHtml(trace.kernel);
  return (
    `<section class="nkp-kernel" data-kernel="${name}">\n` +
    `<pre class="nkp-ir"><code>${renderIrText(trace.text)}</code></pre>\n` +
    (trace.regions?.length ? renderOutline(trace.regions) : "") +
    `</section>\n`
  );
}

/** The IR text, each line coloured with the shared tokenizer's `ir-<cls>` classes. */
export function renderIrText(text) {
  const lines = text.replace(/\n$/, "").split("\n");
  return lines
    .map((line) =>
      tokenizeIrLine(line)
        .map(({ text: t, cls }) => (cls ? `<span class="ir-${escapeHtml(cls)}">${escapeText(t)}</span>` : escapeText(t)))
        .join(""),
    )
    .join("\n");
}

/**
 * The region tree as nested lists: each region's kind, detail (what it was opened with) and
 * instruction count, as the printer's region records give them (`trace.regions`, parents first).
 */
export function renderOutline(regions) {
  const children = new Map(regions.map((r) => [r.region, []]));
  for (const r of regions) if (r.parent !== null) children.get(r.parent)?.push(r);
  return `<ul class="nkp-outline">\n${renderRegion(regions[0], children)}</ul>\n`;
}

function renderRegion(region, children) {
  const inner = children.get(region.region) || [];
  const label =
    `<span class="nkp-region-kind">${escapeHtml(region.kind)}</span>` +
    (region.detail ? ` <span class="nkp-region-detail">${escapeHtml(region.detail)}</span>` : "") +
    ` <span class="nkp-region-count">${countLabel(region.instructions)}</span>`;
  const attrs = `data-region="${Number(region.region)}"`;
  if (inner.length === 0) return `<li ${attrs}>${label}</li>\n`;
  const items = inner.map((child) => renderRegion(child, children)).join("");
  return `<li ${attrs}><details open><summary>${label}</summary>\n<ul>\n${items}</ul>\n</details></li>\n`;
}
