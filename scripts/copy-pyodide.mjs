// Copies the Pyodide runtime files from node_modules/pyodide into web/public/pyodide/ so the
// page serves them itself (no CDN). Only what loadPyodide needs: *.mjs, *.js, *.wasm, *.zip
// and pyodide-lock.json (no source maps, no .d.ts, no console pages).
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const from = dirname(require.resolve("pyodide/package.json"));
const to = fileURLToPath(new URL("../web/public/pyodide/", import.meta.url));
const wanted = (name) => /\.(mjs|js|wasm|zip)$/.test(name) || name === "pyodide-lock.json";

rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
let bytes = 0;
const names = readdirSync(from).filter(wanted).sort();
for (const name of names) {
  copyFileSync(join(from, name), join(to, name));
  bytes += statSync(join(to, name)).size;
}
if (!names.includes("pyodide.mjs") || !names.some((n) => n.endsWith(".wasm"))) {
  throw new Error(`copy-pyodide: ${from} does not look like a Pyodide package`);
}
console.log(`copy-pyodide: ${names.length} files, ${(bytes / 1e6).toFixed(1)} MB -> web/public/pyodide/`);
