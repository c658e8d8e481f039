// Diagnostic codes end to end: the core's code reaches Python as exc.nki_code, the error output
// links the errors page under the caret, the surface's own coded errors do the same, and every
// code the Python surface gives has a section in docs/errors.md (the core's are checked by
// tests/core/diagnostic_codes_test.cpp).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

import { HEAD, pythonHarness, script } from "./harness.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const h = pythonHarness("c.py");

/** Section anchors of docs/errors.md (`### code` headings). */
function documentedCodes() {
  const doc = readFileSync(join(ROOT, "docs/errors.md"), "utf8");
  return new Set([...doc.matchAll(/^#{2,4} `?([a-z0-9-]+)`?\s*$/gm)].map((m) => m[1]));
}

function pythonFiles(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return pythonFiles(p);
    return n.endsWith(".py") ? [p] : [];
  });
}

const { run } = h;

describe("diagnostic codes", () => {
  test("a core diagnostic prints the errors-page link right after its caret", () => {
    const src = script("a", "    t = nl.exp(a)\n    return t", "nt.tensor[[128, 512], nl.float32]");
    const r = run(src);
    expect(r.exitCode).toBe(1);
    const lines = r.err.split("\n");
    const at = lines.findIndex((l) => l.startsWith("c.py:") && l.includes(": error: TypeError:"));
    expect(at, r.err).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe("    t = nl.exp(a)");
    expect(lines[at + 2]).toMatch(/^ {4} *\^~*$/);
    expect(lines[at + 3]).toBe("    see: docs/errors.md#unsupported-memory");
  });

  test("the code reaches Python as exc.nki_code", () => {
    const src = `${HEAD}@nki.jit
def k(a):
    return nl.exp(a)
try:
    nki.trace_kernel(k, nt.tensor[[128, 512], nl.float32])
except TypeError as e:
    print("code", e.nki_code)
try:
    nl.zeros((128, 1), dtype=nl.float32)
except RuntimeError as e:
    print("code", e.nki_code)
`;
    const r = run(src);
    expect(r.exitCode, r.err).toBe(0);
    expect(r.out).toBe("code unsupported-memory\ncode nki-api-outside-of-nki-kernel\n");
  });

  test("a surface error with a stable identity links its section too", () => {
    const body = "    for i in nl.affine_range(2):\n        for j in nl.affine_range(2):\n" +
      "            x = nl.load(a[i * j, 0:512])\n    return a";
    const r = run(script("a", body, "nt.tensor[[128, 512], nl.float32]"));
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain("error: TypeError: index expressions must stay affine");
    expect(r.err).toContain("\n    see: docs/errors.md#non-affine-index-expression\n");
  });

  test("assigning into an index expression is NKI's cannot-assign-to-index", () => {
    const body = "    _, x = nl.mgrid[0:1, 0:8]\n    x[0, 5] = 1024\n    return a";
    const r = run(script("a", body, "nt.tensor[[128, 512], nl.float32]"));
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain("c.py:10:5: error: TypeError: 'index' tensor does not support item assignment");
    expect(r.err).toContain("\n    see: docs/errors.md#cannot-assign-to-index\n");
  });

  // (The block-dimension DeprecationWarning carries its code the same way, but Python's default
  // filters hide DeprecationWarnings outside __main__; tests/core checks its code.)
  test("trace warnings carry their codes into the run's diagnostics", () => {
    const body = [
      "    t = nl.load(a)",
      "    acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)",
      "    for i in nl.sequential_range(2):",
      "        acc = nl.add(acc, t)",
      "    return a",
    ].join("\n");
    const r = run(script("a", body, "nt.tensor[[128, 512], nl.float32]"));
    expect(r.exitCode, r.err).toBe(0);
    const codes = r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.code);
    expect(codes).toEqual(["shadowing-local-tensor"]);
  });

  test("an error without a code (the user's own exception) prints no link", () => {
    const r = run(`${HEAD}raise ValueError("mine")\n`);
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain("error: ValueError: mine");
    expect(r.err).not.toContain("see: docs/errors.md");
  });

  test("every code the Python surface gives has a section in docs/errors.md", () => {
    const docs = documentedCodes();
    const codes = new Set();
    for (const f of ["python/neuronxcc", "python/nki_playground"].flatMap((d) => pythonFiles(join(ROOT, d)))) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/coded\([\s\S]*?,\s*"([a-z0-9-]+)"\)/g)) codes.add(m[1]);
      for (const m of text.matchAll(/raise_diagnostic\(\s*"err_([a-z0-9_]+)"/g))
        codes.add(m[1].replaceAll("_", "-"));
    }
    expect(codes.size).toBeGreaterThan(15);
    const missing = [...codes].filter((c) => !docs.has(c));
    expect(missing).toEqual([]);
  });
});
