// The npm package as a user gets it: `npm pack`, install the tarball into an empty project the
// way a user does (from the registry; the local cache only where it already holds a package, so
// a machine whose cache holds only what `npm ci` fetched still installs the tarball's own
// dependencies, pyodide's `@types/emscripten` among them), then run the CLI and the docs' example
// CI test from that project.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

const execFileAsync = promisify(execFile);
// Children get the user's environment, not the Vitest worker's (VITEST_* would make the inner
// Vitest think it is a worker of ours).
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST") && k !== "FORCE_COLOR")),
  NO_COLOR: "1",
};
const run = (cmd, args, opts) => execFileAsync(cmd, args, { env: ENV, maxBuffer: 64 << 20, ...opts });
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs");

let work;
let project;
let packed;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "nkp-pack-"));
  project = join(work, "project");
  mkdirSync(project);
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT });
  [packed] = JSON.parse(stdout);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: "module" }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, packed.filename)], { cwd: project });
}, 120_000);

afterAll(() => work && rmSync(work, { recursive: true, force: true }));

describe("npm package", () => {
  test("the tarball holds the runtime, the built core, the Python package and the CLI, not the tests", () => {
    const files = packed.files.map((f) => f.path);
    for (const path of [
      "bin/nki-playground.mjs",
      "cli/main.mjs",
      "runtime/node.mjs",
      "runtime/runtime.mjs",
      "build/wasm/nki_core.mjs",
      "build/wasm/nki_core.wasm",
      "build/site/nki-python.pyc",
      "build/site/nki-snapshot.bin",
      "build/site/index.html",
      "build/site/docs/errors.html",
      "cli/site.mjs",
      "python/neuronxcc/nki/__init__.py",
      "python/nki_playground/door.py",
      "python/numpy_standin/__init__.py",
      "render/prerender.js",
      "render/tokens.js",
    ]) {
      expect(files).toContain(path);
    }
    expect(files.filter((f) => /^(tests|core|kernels|node_modules)\//.test(f))).toEqual([]);
  });

  test("npx nki-playground trace runs in the installed project", async () => {
    copyFileSync(join(ROOT, "kernels/tensor_add.py"), join(project, "tensor_add.py"));
    const { stdout } = await run("npx", ["--offline", "nki-playground", "trace", "--format", "json", "tensor_add.py"], {
      cwd: project,
    });
    expect(JSON.parse(stdout).map((ir) => ir.kernel)).toEqual(["tensor_add"]);
  });

  test("the exports resolve: '.', './browser', './prerender', './cli'; the runtime boots from the memory snapshot", async () => {
    const script = `
      const node = await import("nki-playground");
      const browser = await import("nki-playground/browser");
      const pre = await import("nki-playground/prerender");
      const cli = await import("nki-playground/cli");
      console.log([typeof node.createRuntime, typeof node.createNodeRuntime, typeof browser.createRuntime, typeof pre.prerender, typeof cli.main].join(","));
      const runtime = await node.createRuntime({ stdout() {}, stderr() {} });
      console.log(JSON.stringify(runtime.snapshot));
      const plain = await node.createRuntime({ stdout() {}, stderr() {}, snapshotPath: null });
      console.log(JSON.stringify(plain.pythonCache));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    const [types, snapshot, cache] = stdout.trim().split("\n");
    expect(types).toBe("function,function,function,function,function");
    // The installed package boots from its memory snapshot (build/site/nki-snapshot.bin), made
    // from the very sources it ships; without it, from its compiled Python (nki-python.pyc).
    expect(JSON.parse(snapshot)).toMatchObject({ used: true });
    expect(JSON.parse(cache).installed).toBeGreaterThan(50);
  });

  test("npx nki-playground site writes a servable folder, Pyodide from the project's own dependency", async () => {
    const { stdout } = await run("npx", ["--offline", "nki-playground", "site", "static/nki"], { cwd: project });
    expect(stdout).toMatch(/^nki-playground site: \d+ files/);
    for (const path of ["index.html", "element/nki-playground.js", "element/nki_core.wasm", "docs/errors.html", "nki-python.pyc", "nki-snapshot.bin", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm"]) {
      expect(existsSync(join(project, "static/nki", path)), path).toBe(true);
    }
  });

  test("docs/examples/kernel-ci.test.js passes from the installed project", async () => {
    copyFileSync(join(ROOT, "docs/examples/kernel-ci.test.js"), join(project, "kernel-ci.test.js"));
    const { stdout } = await run(process.execPath, [VITEST, "run", "--root", project, "--reporter", "verbose"], {
      cwd: project,
    });
    expect(stdout).toMatch(/Tests\s+3 passed \(3\)/);
  });
});
