// Writes build/site/docs-demo/index.html: the embed demo page, pre-rendered the way a docs
// build would do it. web/docs-demo/index.html holds the prose and one marker per example,
//   <!-- nkp-example src="kernels/tensor_add.py" panes="ir,output" readonly -->
// which becomes the static HTML of `nki-playground trace --format html` for that file (the
// same prerender() call), with the marker's other attributes added to the element.
// Run after the element build (build/site/element/); the page loads ../element/nki-playground.js.
//
//   node scripts/prerender-demo.mjs
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../runtime/node.mjs";
import { escapeHtml, prerender } from "../render/prerender.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TEMPLATE = join(ROOT, "web/docs-demo/index.html");
const OUT = join(ROOT, "build/site/docs-demo/index.html");

const MARKER = /<!--\s*nkp-example\s+([^>]*?)\s*-->/g;
const ATTR = /([a-z][a-z-]*)(?:="([^"]*)")?/g;

/** `src="x" readonly panes="ir"` → Map in source order. */
export function parseMarker(text) {
  const attrs = new Map();
  for (const [, name, value] of text.matchAll(ATTR)) attrs.set(name, value ?? "");
  return attrs;
}

/** Adds the marker's attributes (minus src) to the pre-rendered element's opening tag. */
export function withAttributes(html, attrs) {
  const extra = [...attrs]
    .filter(([name]) => name !== "src")
    .map(([name, value]) => (value === "" ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`))
    .join("");
  return html.replace(/^<nki-playground\b/, `<nki-playground${extra}`);
}

/**
 * @param {{template?: string, out?: string, quiet?: boolean}} [opts]
 * @returns {Promise<{out: string, examples: {src: string, exitCode: number, kernels: string[]}[]}>}
 */
export async function prerenderDemo({ template = TEMPLATE, out = OUT, quiet = false } = {}) {
  // The examples' own output is not part of the page; swallow it.
  const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
  const html = readFileSync(template, "utf8");
  const examples = [];
  const parts = [];
  let last = 0;
  for (const match of html.matchAll(MARKER)) {
    const attrs = parseMarker(match[1]);
    const src = attrs.get("src");
    if (!src) throw new Error(`prerender-demo: a marker without src: ${match[0]}`);
    const source = readFileSync(resolve(ROOT, src), "utf8");
    const filename = attrs.get("filename") || basename(src);
    // A failing example (the error demo) is still rendered: code only, no IR.
    const { exitCode, traces } = runtime.runSource(source, { filename });
    examples.push({ src, exitCode, kernels: traces.map((t) => t.kernel) });
    parts.push(html.slice(last, match.index), withAttributes(prerender({ source, filename, traces }).trimEnd(), attrs));
    last = match.index + match[0].length;
  }
  parts.push(html.slice(last));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, parts.join(""));
  if (!quiet) {
    const summary = examples.map((e) => `${basename(e.src)}${e.exitCode ? " (fails, as meant)" : ""}`).join(", ");
    console.log(`prerender-demo: ${examples.length} examples (${summary}) -> ${out.slice(ROOT.length)}`);
  }
  return { out, examples };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await prerenderDemo();
}
