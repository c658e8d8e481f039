// `npm run lint`'s layer check (scripts/check_layers.py) fails on each kind of violation the
// import table of docs/architecture.md forbids: each test plants one in a copy of the tree and
// runs the checker there (`--root`), as lint.sh runs it on the checkout.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PARTS = ["python", "render", "runtime", "cli", "bin", "web/src", "core", "wasm", "package.json",
  "scripts/check_layers.py", "scripts/layers_imports.py"];

const copies = [];
afterEach(() => copies.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of the sources the checker reads, uncommitted ones included (no .git: it reads the copy whole). */
function copyTree() {
  const dir = mkdtempSync(join(tmpdir(), "nkp-layers-"));
  copies.push(dir);
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...PARTS], { cwd: ROOT, encoding: "utf8" });
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

function plant(dir, file, text, { append = false } = {}) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), append ? readFileSync(join(dir, file), "utf8") + text : text);
}

function check(dir) {
  const r = spawnSync("python3", [join(dir, "scripts/check_layers.py"), "--root", dir], { encoding: "utf8" });
  return { code: r.status, lines: r.stdout.split("\n") };
}

describe("scripts/check_layers.py", () => {
  it("fails on a render/ -> runtime/ import, naming the file and line", () => {
    const dir = copyTree();
    expect(check(dir).lines.filter((l) => l.includes("render/ imports"))).toEqual([]);
    plant(dir, "render/count.js", `import { createRuntime } from "../runtime/runtime.mjs";\n` +
      readFileSync(join(dir, "render/count.js"), "utf8"));
    const { code, lines } = check(dir);
    expect(code).toBe(1);
    expect(lines).toContain("render/count.js:1: render/ imports runtime/runtime.mjs (runtime/); " +
      "render/ may import only render/ (docs/architecture.md)");
  });

  it("fails on a JS import circle, a dynamic import() counted as an edge", () => {
    const dir = copyTree();
    expect(check(dir).lines.some((l) => l.startsWith("JS import circle"))).toBe(false);
    plant(dir, "web/src/embed/theme.js", `\nexport const later = () => import("./nki-playground.js");\n`, { append: true });
    const { code, lines } = check(dir);
    expect(code).toBe(1);
    expect(lines).toContain("JS import circle of 2 module(s): web/src/embed/nki-playground.js, web/src/embed/theme.js");
    expect(lines.some((l) => /^ {2}web\/src\/embed\/theme\.js:\d+: web\/src\/embed\/theme\.js imports web\/src\/embed\/nki-playground\.js$/.test(l))).toBe(true);
  });

  it("fails on a Python circle closed by a function-level import, a comment excusing nothing", () => {
    const dir = copyTree();
    plant(dir, "python/nki_playground/planted_a.py", "from . import planted_b\n\nX = planted_b\n");
    plant(dir, "python/nki_playground/planted_b.py",
      "def late():\n    # imported late, to break the circle\n    from . import planted_a\n    return planted_a\n");
    const { code, lines } = check(dir);
    expect(code).toBe(1);
    const at = lines.indexOf("Python import circle of 2 module(s): nki_playground.planted_a, nki_playground.planted_b");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "  python/nki_playground/planted_a.py:1: nki_playground.planted_a imports nki_playground.planted_b",
      "  python/nki_playground/planted_b.py:3 (function-level): nki_playground.planted_b imports nki_playground.planted_a",
    ]);
  });

  it("fails on a front end importing the other's internals, either way", () => {
    const dir = copyTree();
    plant(dir, "python/nki/planted.py", "from neuronxcc.nki import _kernel  # noqa: F401\n");
    plant(dir, "python/neuronxcc/nki/planted.py", "def f():\n    import nki._kernel  # the other front end\n");
    const { code, lines } = check(dir);
    expect(code).toBe(1);
    expect(lines).toContain("python/nki/planted.py:1: nki.planted imports neuronxcc.nki._kernel: " +
      "a front end must not import another's internals (nki imports neuronxcc)");
    expect(lines).toContain("python/neuronxcc/nki/planted.py:2: neuronxcc.nki.planted imports nki._kernel: " +
      "a front end must not import another's internals (neuronxcc imports nki)");
  });

  it("fails on nki_playground importing a front end (by name too), and on a function-level import whose only comment is a tool marker", () => {
    const dir = copyTree();
    plant(dir, "python/nki_playground/planted.py", "import importlib\n\n\ndef f():\n    from nki import _kernel  # noqa: F401\n" +
      "    return _kernel, importlib.import_module(\"neuronxcc.nki\")\n");
    const { lines } = check(dir);
    expect(lines).toContain("python/nki_playground/planted.py:5: nki_playground.planted imports nki._kernel: " +
      "nki_playground must not import a front end (a front end registers with the runner)");
    expect(lines).toContain("python/nki_playground/planted.py:5: function-level import of nki without a one-line " +
      "reason (a comment on its line or the line above, not a tool marker)");
    // An import by name is an import.
    expect(lines).toContain("python/nki_playground/planted.py:6: nki_playground.planted imports neuronxcc.nki: " +
      "nki_playground must not import a front end (a front end registers with the runner)");
  });

  it("fails on the stand-in importing beyond the standard library, nki_playground.door and nki_playground.dtype_values", () => {
    const dir = copyTree();
    plant(dir, "python/numpy_standin/planted.py", "import nki_playground.runner\nimport yaml\n");
    const { lines } = check(dir);
    expect(lines).toContain("python/numpy_standin/planted.py:1: numpy_standin.planted imports nki_playground.runner: " +
      "the NumPy stand-in imports only the standard library, nki_playground.door and nki_playground.dtype_values (python/numpy_standin/README.md)");
    expect(lines).toContain("python/numpy_standin/planted.py:2: imports yaml, which is neither the standard library " +
      "nor a package numpy_standin may import (docs/architecture.md)");
  });
});
