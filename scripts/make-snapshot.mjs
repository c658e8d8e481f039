// Makes the runtime's memory snapshot (runtime/snapshot.mjs): a bare Pyodide with the Python
// packages installed and every module imported (python/nki_playground/snapshot.py prepare()),
// saved by Pyodide. Written to build/snapshot/nki-snapshot.bin and copied into the site
// (build/site/, which the page's worker and the element's fetch it from). A snapshot already
// made from the same sources for the same Pyodide is kept (Pyodide's start takes ~10 s here).
//
//   node scripts/make-snapshot.mjs [--force]
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { readPythonFiles } from "../runtime/python-files.mjs";
import { FRONT_ENDS, PYTHON_ROOT, writePythonFiles } from "../runtime/runtime.mjs";
import { SNAPSHOT_FILE, packSnapshot, readSnapshot, sourceDigest } from "../runtime/snapshot.mjs";

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = `${ROOT}build/snapshot/${SNAPSHOT_FILE}`;
const SITE = `${ROOT}build/site/`;

const files = readPythonFiles();
const sources = sourceDigest(files);
const pyodideModule = await import("pyodide");
const { version } = pyodideModule;

/** Whether OUT already holds a whole snapshot of these sources for this Pyodide. */
function upToDate() {
  if (process.argv.includes("--force") || !existsSync(OUT)) return false;
  try {
    const { header } = readSnapshot(readFileSync(OUT));
    return header.pyodide === version && header.sources === sources && JSON.stringify(header.frontEnds) === JSON.stringify(FRONT_ENDS);
  } catch {
    return false;
  }
}

const t0 = performance.now();
let packed;
if (upToDate()) {
  packed = readFileSync(OUT);
  console.log(`make-snapshot: ${OUT.slice(ROOT.length)} is up to date (sources ${sources}, Pyodide ${version})`);
} else {
  // What the interpreter reads once at start-up is kept by the snapshot: make it the same on
  // every build machine (the time zone, the program name) rather than this one's.
  process.env.TZ = "UTC";
  const pyodide = await pyodideModule.loadPyodide({
    indexURL: dirname(require.resolve("pyodide/package.json")) + sep,
    _makeSnapshot: true,
    _sysExecutable: "./this.program", // Emscripten's own default, what a browser boot has
  });
  writePythonFiles(pyodide.FS, files);
  const found = pyodide.runPython(`
import sys
sys.path.insert(0, ${JSON.stringify(PYTHON_ROOT)})
from nki_playground import snapshot
snapshot.prepare(${JSON.stringify(PYTHON_ROOT)}, ${JSON.stringify(FRONT_ENDS)})`);
  const modules = found.toJs();
  found.destroy();
  let memory;
  try {
    memory = pyodide.makeMemorySnapshot();
  } catch (err) {
    // Pyodide refuses memory that refers to a JS object (a proxy kept by a module at import).
    throw new Error(`make-snapshot: Pyodide cannot save this memory (${err.message}): a module of python/ keeps a JS object at import`);
  }
  packed = packSnapshot(memory, { pyodide: version, sources, modules, frontEnds: FRONT_ENDS });
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, packed);
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `make-snapshot: ${modules.length} modules imported, ${(packed.length / 1e6).toFixed(1)} MB ` +
      `(gzip ${(gzipSync(packed, { level: 6 }).length / 1e6).toFixed(1)} MB) -> ${OUT.slice(ROOT.length)} in ${secs} s`,
  );
}
if (existsSync(SITE)) {
  copyFileSync(OUT, `${SITE}${SNAPSHOT_FILE}`);
  console.log(`make-snapshot: copied to build/site/${SNAPSHOT_FILE}`);
}
