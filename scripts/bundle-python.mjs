// Writes web/public/nki-python.json: {relativePath: source} of every *.py under wasm/python,
// which the page's worker installs into Pyodide at /nki/python.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { readPythonFiles } from "../wasm/js/python-files.mjs";

const out = fileURLToPath(new URL("../web/public/nki-python.json", import.meta.url));
const files = readPythonFiles();
mkdirSync(fileURLToPath(new URL("../web/public/", import.meta.url)), { recursive: true });
const json = JSON.stringify(files);
writeFileSync(out, json);
console.log(`bundle-python: ${Object.keys(files).length} files, ${(json.length / 1e3).toFixed(1)} kB -> web/public/nki-python.json`);
