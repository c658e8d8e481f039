// `nki-playground check PATH...`: runs every NKI example in the given docs (one runtime for
// all of them) and compares it with its expected block; `--update` rewrites those blocks.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { EXIT, UsageError } from "./args.mjs";
import { unifiedDiff } from "./diff.mjs";
import { docKind, findExamples, rewriteBlocks } from "./doc-examples.mjs";
import { irText } from "./trace-format.mjs";

/** Folders never searched: dependencies, build outputs, hidden folders. */
const SKIP_DIRS = new Set(["node_modules", "build", "dist"]);

/**
 * @param {{update: boolean, paths: string[]}} plan
 * @param {{createRuntime: (sinks: object) => Promise<any>, out?: (t: string) => void}} deps
 * @returns {Promise<number>} exit status
 */
export async function checkPaths({ update, paths }, { createRuntime, out = writeStdout }) {
  const docs = paths.flatMap(findDocs);
  const found = docs
    .map((path) => {
      const text = readFileSync(path, "utf8");
      return { path, text, examples: findExamples(text, docKind(path)) };
    })
    .filter((d) => d.examples.length > 0);
  const total = found.reduce((n, d) => n + d.examples.length, 0);
  if (total === 0) {
    out(`check: no nki-playground examples in ${paths.join(" ")}\n`);
    return EXIT.FAILED;
  }

  // One runtime; each example's output is captured separately.
  let sink = { stdout: "", stderr: "" };
  const runtime = await createRuntime({
    stdout: (t) => (sink.stdout += t),
    stderr: (t) => (sink.stderr += t),
  });

  let failed = 0;
  let updated = 0;
  for (const doc of found) {
    const replacements = [];
    for (const example of doc.examples) {
      sink = { stdout: "", stderr: "" };
      const where = `${doc.path}:${example.line}`;
      // Run under the doc's own name, lines counted from the example's first line: the IR's
      // locations (`@ guide.md:3:5`) stay the same when text above the example changes, and
      // errors are moved to the doc's lines before they are shown.
      const { exitCode, traces } = runtime.runSource(example.source, { filename: doc.path });
      if (exitCode !== 0) {
        failed++;
        const stderr = toDocLines(sink.stderr, doc.path, example.line - 1);
        out(`FAIL ${where}: the example exited with status ${exitCode}\n${endLine(stderr)}`);
        continue;
      }
      if (!example.expect) continue;
      const actual = example.expect.kind === "ir" ? irText(traces) : sink.stdout;
      if (actual === example.expect.text) continue;
      if (update) {
        replacements.push({ body: example.expect.body, text: actual });
        continue;
      }
      failed++;
      const what = example.expect.kind === "ir" ? "IR" : "output";
      const expectedAt = `${doc.path}:${example.expect.body.first + 1}`;
      out(`FAIL ${where}: the ${what} differs from the expected block at ${expectedAt}\n`);
      out(unifiedDiff(example.expect.text, actual, { aName: `expected (${expectedAt})`, bName: `actual` }));
    }
    if (replacements.length) {
      writeFileSync(doc.path, rewriteBlocks(doc.text, replacements));
      updated += replacements.length;
      out(`updated ${replacements.length} block(s) in ${doc.path}\n`);
    }
  }
  const passed = total - failed;
  const summary = [`${passed} passed`, failed ? `${failed} failed` : null, update ? `${updated} updated` : null];
  out(`check: ${total} example(s) in ${found.length} file(s): ${summary.filter(Boolean).join(", ")}\n`);
  return failed ? EXIT.FAILED : EXIT.OK;
}

/** The .md/.markdown/.rst files at `path` (a file, or a folder searched recursively, sorted). */
function findDocs(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`cannot open '${path}': no such file or folder`);
  }
  if (stat.isFile()) {
    if (!docKind(path)) throw new UsageError(`'${path}' is not a .md, .markdown or .rst file`);
    return [path];
  }
  const out = [];
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    const s = statSync(child);
    if (s.isDirectory()) {
      if (!name.startsWith(".") && !SKIP_DIRS.has(name)) out.push(...findDocs(child));
    } else if (docKind(name)) {
      out.push(child);
    }
  }
  return out;
}

/** `path:L:C` positions in `text` moved down by `offset` lines (example lines → doc lines). */
export function toDocLines(text, path, offset) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(?<![\\w./-])${escaped}:(\\d+):(\\d+)`, "g"), (_, line, col) => `${path}:${Number(line) + offset}:${col}`);
}

/** The script's stderr as it is: `file:line:col: error:` lines stay parseable in CI logs. */
function endLine(text) {
  return text ? text.replace(/\n?$/, "\n") : "";
}

function writeStdout(text) {
  process.stdout.write(text);
}
