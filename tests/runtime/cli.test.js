// The CLI as a user runs it: a separate node process, paths relative to the repository root.
import { describe, expect, test } from "vitest";

import { cli } from "./cli-harness.js";

const OUTSIDE = "calling NKI API outside of NKI kernels is not supported.";

describe("nki-playground CLI", () => {
  test("run --ir text traces kernels/tensor_add.py", async () => {
    const { code, stdout, stderr } = await cli(["run", "--ir", "text", "kernels/tensor_add.py"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("KernelScope");
    expect(stdout).toContain("LoopScope");
    expect(stdout).toMatch(/tensor_add\.py:\d+/);
  });

  test("run --ir json prints a JSON array of IR objects", async () => {
    const { code, stdout } = await cli(["run", "--ir=json", "kernels/tensor_add.py"]);
    expect(code).toBe(0);
    const start = stdout.indexOf("\n[") >= 0 ? stdout.indexOf("\n[") + 1 : stdout.indexOf("[");
    const irs = JSON.parse(stdout.slice(start));
    expect(Array.isArray(irs)).toBe(true);
    expect(irs.length).toBeGreaterThanOrEqual(1);
    expect(typeof irs[0]).toBe("object");
  });

  test("an NKI call outside a kernel exits non-zero with the NKI message at the typed path", async () => {
    const typed = "tests/runtime/fixtures/load_outside_kernel.py";
    const { code, stdout, stderr } = await cli(["run", typed]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(OUTSIDE);
    expect(stderr).toContain(`${typed}:4`);
    expect(stdout).not.toContain("unreachable");
  });

  test("argv and exit status pass through", async () => {
    const { code, stdout } = await cli(["run", "tests/runtime/fixtures/argv_and_exit.py", "7", "--ir"]);
    expect(stdout).toContain("argv: ['7', '--ir']");
    expect(code).toBe(7);
  });

  test("a missing file is a usage error (exit 2), without booting Pyodide", async () => {
    const { code, stderr } = await cli(["run", "--ir", "text", "no/such/kernel.py"]);
    expect(code).toBe(2);
    expect(stderr).toContain("no/such/kernel.py");
    expect(stderr).toContain("no such file");
  });

  test("--help and bad options", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("nki-playground run [--ir text|json] FILE.py");
    const bad = await cli(["run", "--ir", "xml", "kernels/tensor_add.py"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--ir expects");
  });
});
