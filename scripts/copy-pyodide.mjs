// Copies the Pyodide runtime files from node_modules/pyodide into web/public/pyodide/ so the
// page serves them itself (no CDN): only what loadPyodide needs, chosen by the same rule as
// `nki-playground site` (cli/site.mjs).
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { pyodideDir, pyodideFileNames } from "../cli/site.mjs";

const from = pyodideDir();
const to = fileURLToPath(new URL("../web/public/pyodide/", import.meta.url));

rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
let bytes = 0;
const names = pyodideFileNames(from);
for (const name of names) {
  copyFileSync(join(from, name), join(to, name));
  bytes += statSync(join(to, name)).size;
}
console.log(`copy-pyodide: ${names.length} files, ${(bytes / 1e6).toFixed(1)} MB -> web/public/pyodide/`);
