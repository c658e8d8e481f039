// `nki-playground compare OLD.py NEW.py`, the porting bench, on the repository's paired examples
// (each Beta 1 kernel in kernels/ and its port, *_nki.py) and deliberately broken ports
// (fixtures/compare/): the CLI as a child process for the exit codes and the table, the command
// in-process on one real runtime for the reports (real Pyodide, the real wasm core).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { beforeAll, describe, expect, test } from "vitest";

import { compareFiles } from "../../cli/compare.mjs";
import { createRuntime } from "../../runtime/node.mjs";
import { ROOT, cli } from "./cli-harness.js";

const FIX = "tests/runtime/fixtures/compare";

let runtime;
beforeAll(async () => {
  runtime = await createRuntime({ stdout: () => {}, stderr: () => {} });
});

/** The command's JSON report and exit status, in-process (paths from the repository root). */
async function report(oldFile, newFile, opts = {}) {
  const cwd = process.cwd();
  process.chdir(ROOT);
  let text = "";
  try {
    const code = await compareFiles(
      { old: oldFile, new: newFile, json: true, ...opts },
      { createRuntime: async () => runtime, write: (t) => (text += t) },
    );
    return { code, report: JSON.parse(text) };
  } finally {
    process.chdir(cwd);
  }
}

describe("compare: the CLI", () => {
  test("a Beta 1 kernel and its port match: exit 0, the table on stdout, the scripts' prints on stderr", async () => {
    const { code, stdout, stderr } = await cli(["compare", "kernels/tensor_add.py", "kernels/tensor_add_nki.py"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^old {2}kernels\/tensor_add\.py +NKI Beta 1 +1 simulated call\nnew {2}kernels\/tensor_add_nki\.py +NKI 0\.6\.0 +1 simulated call\n/);
    expect(stdout).toContain("call 1: @tensor_add -> @tensor_add_nki");
    expect(stdout).toContain("inputs   2 equal: a_input float32[256, 1024], b_input float32[256, 1024]");
    expect(stdout).toMatch(/\n {2}out +float32\[256, 1024\] +0 +0 +0\/262144 +min -5\.939 .* match\n/);
    // Instructions per engine and regions per kind, old and new side by side.
    expect(stdout).toMatch(/\n {2}instructions +5 +25\n {4}dma +3 +12\n/);
    expect(stdout).toMatch(/\n {4}LoopScope +1 +2\n {4}ScopeRegion +0 +6\n/);
    expect(stdout).toMatch(/\n {2}executed \(simulated\) +18 +25\n/);
    expect(stdout).toMatch(/\nmatch: 1 call, 1 output within tolerance\n$/);
    expect(stderr).toContain("simulated tensor_add_nki matches a + b: True");
    expect(stdout).not.toContain("simulated tensor_add");
  });

  test("a broken port: exit 1, the mismatch, its NaN band and the worst element", async () => {
    const { code, stdout } = await cli(["compare", "kernels/tensor_add.py", `${FIX}/tensor_add_nki_partial.py`]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\n {2}out +float32\[256, 1024\] +Infinity +Infinity +131072\/262144 .*\[131072 NaN\] +mismatch\n/);
    expect(stdout).toContain("worst    out[0, 512]: old -1.91, new NaN");
    expect(stdout).toContain("note     new out holds 131072 NaN values (never-written memory reads NaN in the simulator)");
    expect(stdout).toMatch(/\nmismatch: 1 of 1 output differs\n$/);
  });

  test("usage errors answer before Pyodide boots: exit 2", async () => {
    for (const [args, message] of [
      [["compare", "kernels/tensor_add.py"], "compare needs OLD.py and NEW.py"],
      [["compare", "a.py", "b.py", "c.py"], "compare takes two files"],
      [["compare", "--rtol", "-1", "kernels/tensor_add.py", "kernels/tensor_add_nki.py"], "--rtol expects a number >= 0, got '-1'"],
      [["compare", "--atol=x", "kernels/tensor_add.py", "kernels/tensor_add_nki.py"], "--atol expects a number >= 0, got 'x'"],
      [["compare", "kernels/tensor_add.py", "kernels/missing.py"], "cannot open 'kernels/missing.py': no such file"],
    ]) {
      const { code, stderr } = await cli(args);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toContain(`nki-playground: ${message}`);
    }
  });
});

describe("compare: the reports of the paired examples", () => {
  test("matmul_tiled and matmul_nki: equal outputs, the simulated trace's counts", async () => {
    const { code, report: r } = await report("kernels/matmul_tiled.py", "kernels/matmul_nki.py");
    expect(code).toBe(0);
    expect(r).toMatchObject({ ok: true, verdict: "match", tolerance: { rtol: 1e-5, atol: 1e-8 } });
    expect(r.old).toEqual({ file: "kernels/matmul_tiled.py", language: "NKI Beta 1", exitCode: 0, simulations: 1 });
    expect(r.new.language).toBe("NKI 0.6.0");
    const [out] = r.pairs[0].outputs;
    expect(out).toMatchObject({ name: "c", status: "match", max_abs: 0, max_rel: 0, mismatched: 0, size: 65536 });
    expect(out.old.shape).toEqual([128, 512]);
    // matmul_tiled traces a bfloat16 kernel first; the simulation ran its float32 copy.
    const tensorRow = r.pairs[0].counts.engines.find((e) => e.key === "tensor");
    expect(tensorRow).toEqual({ key: "tensor", old: 1, new: 2 });
    expect(r.pairs[0].counts.instructions).toEqual({ old: 7, new: 15 });
  });

  test("dynamic_rows and dynamic_rows_nki: a run-time loop in each language", async () => {
    const { code, report: r } = await report("kernels/dynamic_rows.py", "kernels/dynamic_rows_nki.py");
    expect(code).toBe(0);
    expect(r.pairs[0].inputs).toMatchObject({ same: true, names: ["x", "n"], types: ["float32[512, 64]", "int32[1, 1]"] });
    expect(r.pairs[0].outputs[0]).toMatchObject({ status: "match", max_abs: 0 });
    const kinds = Object.fromEntries(r.pairs[0].counts.regionKinds.map((k) => [k.key, [k.old, k.new]]));
    expect(kinds.LoopScope).toEqual([2, 2]);
  });

  test("a port that drops the K loop: every element off; --atol widens the rule", async () => {
    const { code, report: r } = await report("kernels/matmul_tiled.py", `${FIX}/matmul_nki_first_k.py`);
    expect(code).toBe(1);
    expect(r.verdict).toBe("mismatch");
    const [out] = r.pairs[0].outputs;
    expect(out).toMatchObject({ status: "mismatch", mismatched: 65536, size: 65536 });
    expect(out.max_abs).toBeGreaterThan(10);
    expect(out.new.flags).toEqual([]);
    const loose = await report("kernels/matmul_tiled.py", `${FIX}/matmul_nki_first_k.py`, { atol: 100 });
    expect(loose.code).toBe(0);
    expect(loose.report.tolerance.atol).toBe(100);
  });

  test("a port that writes no output: all NaN on that side, said", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-compare-"));
    const source = readFileSync(join(ROOT, "kernels/tensor_add_nki.py"), "utf8")
      .replace("nisa.dma_copy(dst=out[band_rows, band_cols], src=a_tile)", "pass");
    writeFileSync(join(dir, "unwritten.py"), source);
    const { code, report: r } = await report("kernels/tensor_add.py", join(dir, "unwritten.py"));
    expect(code).toBe(1);
    expect(r.pairs[0].outputs[0].new.flags).toEqual(["all NaN"]);
    expect(r.pairs[0].outputs[0].mismatched).toBe(262144);
  });

  test("other seeds: the inputs differ, and the report says so instead of a mismatch", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-compare-"));
    writeFileSync(join(dir, "seed1.py"), readFileSync(join(ROOT, "kernels/tensor_add_nki.py"), "utf8").replace("np.random.seed(0)", "np.random.seed(1)"));
    const { code, report: r } = await report("kernels/tensor_add.py", join(dir, "seed1.py"));
    expect(code).toBe(1);
    expect(r.verdict).toBe("inputs differ");
    expect(r.pairs[0].inputs.differences).toEqual([
      "input 1 (a_input): other values (seed the data alike)",
      "input 2 (b_input): other values (seed the data alike)",
    ]);
  });

  test("a script that fails or simulates nothing is not compared", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-compare-"));
    writeFileSync(join(dir, "traces_only.py"), readFileSync(join(ROOT, "kernels/tensor_add.py"), "utf8").split("\n    # The same call simulated")[0] + "\n");
    writeFileSync(join(dir, "broken.py"), "import nki\nraise SystemExit(4)\n");
    const a = await report(join(dir, "traces_only.py"), "kernels/tensor_add_nki.py");
    expect(a.code).toBe(1);
    expect(a.report.verdict).toBe("not compared");
    expect(a.report.problems[0].message).toMatch(/traces_only\.py simulated no kernel: its __main__ block must call the kernel on NumPy arrays/);
    const b = await report("kernels/tensor_add.py", join(dir, "broken.py"));
    expect(b.report.problems).toEqual([{ side: "new", code: "failed", message: `${join(dir, "broken.py")} failed (exit status 4): its error is above` }]);
  });
});
