// `nki-playground check`: Markdown and reST examples run, compared, diffed, and updated.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, test } from "vitest";

import { ROOT, cli } from "./cli-harness.js";

const FIXTURES = join(ROOT, "tests/runtime/fixtures/docs");

/** A scratch copy of the fixture docs; returns its folder. */
function scratch() {
  const dir = mkdtempSync(join(tmpdir(), "nkp-check-"));
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

/** guide.md with a wrong shape in the kernel, a wrong print and a failing example added. */
function breakGuide(text) {
  return (
    text
      .replace("nt.tensor[[128, 64], nl.float32]", "nt.tensor[[128, 32], nl.float32]")
      .replace('print("pmax =", nl.tile_size.pmax)', 'print("pmax:", nl.tile_size.pmax)') +
    '\nA broken one:\n\n```python nki-playground\nimport neuronxcc.nki.language as nl\n\nnl.load(None)\n```\n'
  );
}

describe("nki-playground check", () => {
  test("passing Markdown and reST examples: exit 0 and a summary", async () => {
    const { code, stdout, stderr } = await cli(["check", "tests/runtime/fixtures/docs"]);
    expect(stderr).toBe("");
    expect(stdout).toBe("check: 4 example(s) in 2 file(s): 4 passed\n");
    expect(code).toBe(0);
  });

  test("mismatches print unified diffs; a failing example points at its doc line", async () => {
    const dir = scratch();
    const guide = join(dir, "guide.md");
    writeFileSync(guide, breakGuide(readFileSync(guide, "utf8")));
    const { code, stdout } = await cli(["check", "guide.md"], { cwd: dir });
    expect(code).toBe(1);
    // The IR: the shape changed on three lines, nothing else.
    expect(stdout).toContain("FAIL guide.md:6: the IR differs from the expected block at guide.md:22\n");
    expect(stdout).toContain("--- expected (guide.md:22)\n+++ actual\n@@ -1,7 +1,7 @@\n");
    expect(stdout).toContain("-kernel @copy(%a: hbm f32[128,64]) -> (%out) {");
    expect(stdout).toContain("+kernel @copy(%a: hbm f32[128,32]) -> (%out) {");
    expect(stdout).toContain("   KernelScope @copy {");
    // The output.
    expect(stdout).toContain("FAIL guide.md:34: the output differs from the expected block at guide.md:39\n");
    expect(stdout).toContain("@@ -1 +1 @@\n-pmax = 128\n+pmax: 128\n");
    // The failing example: NKI's message at the document's own line.
    expect(stdout).toContain("FAIL guide.md:57: the example exited with status 1\n");
    expect(stdout).toMatch(/^guide\.md:59:1: error: .*outside of NKI kernels/m);
    expect(stdout).toContain("check: 4 example(s) in 1 file(s): 1 passed, 3 failed\n");
  });

  test("--update rewrites only the expected blocks, then check passes", async () => {
    const dir = scratch();
    const guide = join(dir, "guide.md");
    const rst = join(dir, "guide.rst");
    const original = readFileSync(guide, "utf8");
    // CRLF line endings survive, too.
    writeFileSync(guide, breakGuide(original).replace(/\n/g, "\r\n").replace("nl.load(None)", "pass"));
    writeFileSync(rst, readFileSync(rst, "utf8").replace("256", "3"));
    const update = await cli(["check", "--update", "."], { cwd: dir });
    expect(update.stdout).toContain("updated 2 block(s) in guide.md\n");
    expect(update.stdout).toContain("updated 1 block(s) in guide.rst\n");
    expect(update.code).toBe(0);

    const updated = readFileSync(guide, "utf8");
    const expected = breakGuide(original)
      .replace("nl.load(None)", "pass")
      .replaceAll("f32[128,64]", "f32[128,32]")
      .replace("pmax = 128", "pmax: 128")
      .replace(/\n/g, "\r\n");
    expect(updated).toBe(expected);
    expect(readFileSync(rst, "utf8")).toBe(readFileSync(join(FIXTURES, "guide.rst"), "utf8"));

    const again = await cli(["check", "."], { cwd: dir });
    expect(again.stdout).toBe("check: 5 example(s) in 2 file(s): 5 passed\n");
    expect(again.code).toBe(0);
  });

  test("text added above an example leaves its expected IR valid", async () => {
    const dir = scratch();
    const guide = join(dir, "guide.md");
    writeFileSync(guide, readFileSync(guide, "utf8").replace("# A guide", "# A guide\n\nNew\nlines\nof prose.\n"));
    const { code, stdout } = await cli(["check", "guide.md"], { cwd: dir });
    expect(stdout).toBe("check: 3 example(s) in 1 file(s): 3 passed\n");
    expect(code).toBe(0);
  });

  test("reST: a wrong expected output is reported with a diff", async () => {
    const dir = scratch();
    const rst = join(dir, "guide.rst");
    writeFileSync(rst, readFileSync(rst, "utf8").replace("256", "255"));
    const { code, stdout } = await cli(["check", "guide.rst"], { cwd: dir });
    expect(code).toBe(1);
    expect(stdout).toContain("FAIL guide.rst:7: the output differs from the expected block at guide.rst:13\n");
    expect(stdout).toContain("-255\n+256\n");
  });

  test("no examples is a failure; a missing path is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-check-empty-"));
    writeFileSync(join(dir, "plain.md"), "# nothing to run\n\n```python\nx = 1\n```\n");
    const empty = await cli(["check", dir]);
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain("no nki-playground examples");
    const missing = await cli(["check", join(dir, "nope.md")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file or folder");
  });
});
