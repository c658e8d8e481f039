// `nki-playground site OUT`: the folder a docs host serves, its refusals, and its re-runs.
// (tests/browser/site.test.js serves such a folder in Chromium; tests/package runs it from the
// installed package.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { ROOT, cli } from "./cli-harness.js";

const work = mkdtempSync(join(tmpdir(), "nkp-site-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SITE = join(ROOT, "build/site");

/** Every file under `dir`, relative, sorted. */
function listing(dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listing(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  ).sort();
}

describe("nki-playground site", () => {
  test("writes the element, the page, the errors pages, the Python package and Pyodide", async () => {
    const out = join(work, "nki");
    const { code, stdout, stderr } = await cli(["site", out]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const files = listing(out);
    expect(stdout).toContain(`nki-playground site: ${files.length} files,`);
    expect(stdout).toContain("/element/nki-playground.js");
    for (const path of [
      "index.html",
      "element/nki-playground.js",
      "element/live.js",
      "element/worker.js",
      "element/nki_core.wasm",
      "docs/errors.html",
      "docs/docs.css",
      "nki-python.json",
      "nki-python.pyc",
      "nki-snapshot.bin",
      "pyodide/pyodide.mjs",
      "pyodide/pyodide.asm.wasm",
      "pyodide/pyodide-lock.json",
      "pyodide/python_stdlib.zip",
    ]) {
      expect(files).toContain(path);
    }
    // Byte for byte the build's files; no demo page, no components' test page, no source maps.
    for (const path of files.filter((f) => !f.startsWith("pyodide/") && !f.startsWith("."))) {
      expect(readFileSync(join(out, path)).equals(readFileSync(join(SITE, path))), path).toBe(true);
    }
    expect(files.filter((f) => /docs-demo|views-test|\.map$|\.d\.ts$/.test(f))).toEqual([]);
    // The page's worker asset is there, as index.html names it.
    const html = readFileSync(join(out, "index.html"), "utf8");
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) expect(files).toContain(asset);
  });

  test("a second run replaces its own site and keeps what the host added beside it", async () => {
    const out = join(work, "again");
    expect((await cli(["site", out])).code).toBe(0);
    writeFileSync(join(out, "element/stale.js"), "old");
    writeFileSync(join(out, "my-notes.txt"), "mine");
    const { code } = await cli(["site", out]);
    expect(code).toBe(0);
    expect(existsSync(join(out, "element/stale.js"))).toBe(false);
    expect(readFileSync(join(out, "my-notes.txt"), "utf8")).toBe("mine");
    expect(statSync(join(out, "element/nki-playground.js")).isFile()).toBe(true);
  });

  test("refuses a folder it did not write, a file, the build's own site, and no folder", async () => {
    const foreign = join(work, "foreign");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "index.html"), "the host's own page");
    let r = await cli(["site", foreign]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'${foreign}' is not empty and was not written by 'nki-playground site'`);
    expect(readFileSync(join(foreign, "index.html"), "utf8")).toBe("the host's own page");

    const file = join(work, "a-file");
    writeFileSync(file, "x");
    r = await cli(["site", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("exists and is not a folder");

    r = await cli(["site", join(SITE, "inner")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("overlaps the build's own site");
    expect(existsSync(join(SITE, "inner"))).toBe(false);

    r = await cli(["site"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing OUT");
  });
});
