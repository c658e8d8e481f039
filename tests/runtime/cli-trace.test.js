// `nki-playground trace`: the three formats, -o, failures with their doc-able exit codes.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, test } from "vitest";

import { cli, embeddedJson } from "./cli-harness.js";

const KERNEL = "kernels/tensor_add.py";

describe("nki-playground trace", () => {
  test("text: stdout holds only the IR; the script's prints go to stderr", async () => {
    const { code, stdout, stderr } = await cli(["trace", KERNEL]);
    expect(code).toBe(0);
    expect(stdout).toBe(readFileSync("tests/golden/tensor_add.ir", "utf8"));
    expect(stderr).toContain("traced tensor_add: 5 instructions");
  });

  test("json: one kernel per line, the printer's bytes, valid JSON", async () => {
    const { code, stdout } = await cli(["trace", "--format", "json", KERNEL]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("[");
    expect(lines.at(-2)).toBe("]");
    const irs = JSON.parse(stdout);
    expect(irs.map((ir) => ir.kernel)).toEqual(["tensor_add"]);
    expect(irs[0].version).toBe(1);
    expect(lines[1]).toMatch(/^\{"version":1,"kernel":"tensor_add",/);
  });

  test("html -o OUT: the embed goes to the file, the script's stdout stays on stdout", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "nkp-trace-")), "embed.html");
    const { code, stdout } = await cli(["trace", "--format=html", "-o", out, KERNEL]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^traced tensor_add: 5 instructions\n/);
    const html = readFileSync(out, "utf8");
    // The language the example was written for, as share links record it (issue 12, item 7).
    expect(html.startsWith(`<nki-playground filename="${KERNEL}" data-nkp-format="1" language="beta1@beta1">\n<pre class="nkp-source"><code>`)).toBe(true);
    expect(html).toContain('<span class="ir-kw">LoopScope</span>');
    expect(html).toContain('<span class="nkp-region-detail">affine %j in [0, 2) trip 2</span>');
    const json = await cli(["trace", "--format", "json", KERNEL]);
    expect(embeddedJson(html)).toBe(json.stdout);
  });

  test("html escapes kernel-derived text: <script> in the source and the kernel name", async () => {
    const { code, stdout } = await cli(["trace", "--format", "html", "tests/runtime/fixtures/script_in_names.py"]);
    expect(code).toBe(0);
    // The only tags are the pre-render's own.
    const tags = new Set([...stdout.matchAll(/<\/?([a-z-]+)/g)].map((m) => m[1]));
    const own = ["code", "details", "div", "li", "nki-playground", "pre", "section", "span", "summary", "template", "ul"];
    expect([...tags].filter((t) => !own.includes(t))).toEqual([]);
    expect(stdout).toContain("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(\"source\")");
    expect(stdout).toContain('data-kernel="&lt;script&gt;alert(&#39;kernel&#39;)&lt;/script&gt;"');
    expect(JSON.parse(embeddedJson(stdout))[0].kernel).toBe("<script>alert('kernel')</script>");
  });

  test("a failing script exits 1 with file:line:col: error: on stderr; the others' IR is printed", async () => {
    const file = "tests/runtime/fixtures/fails_in_kernel.py";
    const { code, stdout, stderr } = await cli(["trace", "--format", "json", file, KERNEL]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).map((ir) => ir.kernel)).toEqual(["tensor_add"]);
    expect(stderr).toContain(`${file}:9:9: error: ValueError: number of partitions 256`);
    expect(stderr).toContain("before the trace");
  });

  test("usage errors exit 2 without booting the runtime", async () => {
    for (const args of [
      ["trace", "--format", "xml", KERNEL],
      ["trace"],
      ["trace", "no/such/kernel.py"],
      ["trace", "kernels"],
      ["trace", "--frobnicate", KERNEL],
      ["frobnicate"],
    ]) {
      const { code, stderr } = await cli(args);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toContain("Usage:");
    }
  });

  test("an internal error exits 3 with its stack", async () => {
    // A core module that is not one: loading it fails inside nki-playground, not in the script.
    const env = { ...process.env, NKI_CORE_PATH: "tests/runtime/fixtures/data.txt" };
    const { code, stderr } = await cli(["trace", KERNEL], { env });
    expect(code).toBe(3);
    expect(stderr).toContain("nki-playground: internal error:");
    expect(stderr).toMatch(/\n\s+at /);
  });

  test("--help documents the exit codes", async () => {
    const { code, stdout } = await cli(["trace", "--help"]);
    expect(code).toBe(0);
    for (const line of ["0  success", "1  the script failed", "2  usage error", "3  internal error"]) {
      expect(stdout).toContain(line);
    }
  });
});
