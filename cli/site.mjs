// `nki-playground site OUT`: writes the static files a docs host serves for live examples —
// the element, the full playground page ("Open in playground"), the errors pages its
// diagnostics link to, the Python package and Pyodide — into one folder, laid out the way the
// element expects (docs/embedding.md). Everything but Pyodide comes from the build's site
// (build/site, which the npm package ships); Pyodide from the `pyodide` dependency.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { UsageError } from "./args.mjs";

const require = createRequire(import.meta.url);

/** The built site this command copies from. */
export const BUILT_SITE = fileURLToPath(new URL("../build/site/", import.meta.url));

/** What of the built site a host needs (not the demo page or the components' test page). */
export const SITE_ENTRIES = ["index.html", "assets", "element", "docs", "nki-python.json", "nki-python.pyc", "nki-snapshot.bin"];

/** Marks a folder this command wrote, so a later run may replace it and nothing else. */
const MARKER = ".nki-playground-site";

/** The files of a Pyodide package that loadPyodide needs: no source maps, .d.ts or console pages. */
export function pyodideFileNames(dir) {
  const wanted = (name) => /\.(mjs|js|wasm|zip)$/.test(name) || name === "pyodide-lock.json";
  const names = readdirSync(dir).filter(wanted).sort();
  if (!names.includes("pyodide.mjs") || !names.some((n) => n.endsWith(".wasm"))) {
    throw new Error(`${dir} does not look like a Pyodide package (no pyodide.mjs or .wasm)`);
  }
  return names;
}

/** The folder of the installed `pyodide` package. */
export function pyodideDir() {
  return dirname(require.resolve("pyodide/package.json"));
}

/**
 * Writes the site into `out`. `out` must be missing, empty, or a folder an earlier run wrote
 * (its entries are replaced; files the host added beside them stay).
 * @returns {{files: number, bytes: number}}
 */
export function writeSite(out) {
  const missing = SITE_ENTRIES.filter((name) => !existsSync(join(BUILT_SITE, name)));
  if (missing.length) {
    throw Object.assign(new Error(`${BUILT_SITE} has no ${missing.join(", ")}; build it first (npm run build)`), {
      code: "NKI_NOT_BUILT",
    });
  }
  const target = resolve(out);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new UsageError(`'${out}' exists and is not a folder`);
    const names = readdirSync(target);
    if (names.length && !names.includes(MARKER)) {
      throw new UsageError(`'${out}' is not empty and was not written by 'nki-playground site'; choose an empty or new folder`);
    }
  }
  if (isInside(target, BUILT_SITE) || isInside(BUILT_SITE, target)) {
    throw new UsageError(`'${out}' overlaps the build's own site (${BUILT_SITE})`);
  }
  mkdirSync(target, { recursive: true });
  for (const name of [...SITE_ENTRIES, "pyodide"]) rmSync(join(target, name), { recursive: true, force: true });
  // The components' test page (views-test.html) ships in the build, not in a host's site.
  const filter = (src) => !/[/\\]views-test[^/\\]*$/.test(src);
  for (const name of SITE_ENTRIES) cpSync(join(BUILT_SITE, name), join(target, name), { recursive: true, dereference: true, filter });
  const from = pyodideDir();
  mkdirSync(join(target, "pyodide"));
  for (const name of pyodideFileNames(from)) copyFileSync(join(from, name), join(target, "pyodide", name));
  writeFileSync(join(target, MARKER), "Written by `nki-playground site`; running it again replaces this folder's site files.\n");
  return count(target);
}

function isInside(path, dir) {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

function count(dir) {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = count(path);
      files += inner.files;
      bytes += inner.bytes;
    } else {
      files++;
      bytes += statSync(path).size;
    }
  }
  return { files, bytes };
}
