// Writes the Python package for the page's worker into web/public/ (the site's static files)
// and, for the Node runtime, the compiled package into build/python/ as well:
//   nki-python.json  {relativePath: source} of every *.py under python, installed into
//                    Pyodide at /nki/python;
//   nki-python.pyc   the same modules compiled by the Pyodide the runtime loads
//                    (runtime/python-cache.mjs), so a boot imports without compiling.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";

import { compilePythonCache } from "../runtime/python-cache.mjs";
import { readPythonFiles } from "../runtime/python-files.mjs";

const require = createRequire(import.meta.url);
const outDir = fileURLToPath(new URL("../web/public/", import.meta.url));
const files = readPythonFiles();
mkdirSync(outDir, { recursive: true });
const json = JSON.stringify(files);
writeFileSync(`${outDir}nki-python.json`, json);
console.log(`bundle-python: ${Object.keys(files).length} files, ${(json.length / 1e3).toFixed(1)} kB -> web/public/nki-python.json`);

// Compiled in a scratch folder of a bare Pyodide: nothing is imported, only compiled.
const { loadPyodide } = await import("pyodide");
const pyodide = await loadPyodide({ indexURL: dirname(require.resolve("pyodide/package.json")) + sep });
const root = "/tmp/nki-python";
for (const [rel, text] of Object.entries(files)) {
  const path = `${root}/${rel}`;
  pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  pyodide.FS.writeFile(path, text);
}
const cache = compilePythonCache(pyodide, root);
writeFileSync(`${outDir}nki-python.pyc`, cache);
// The Node runtime reads the build's copy (runtime/ names no file of web/).
const buildDir = fileURLToPath(new URL("../build/python/", import.meta.url));
mkdirSync(buildDir, { recursive: true });
writeFileSync(`${buildDir}nki-python.pyc`, cache);
console.log(`bundle-python: compiled, ${(cache.length / 1e3).toFixed(1)} kB -> web/public/nki-python.pyc, build/python/nki-python.pyc`);
