// The JS runtime in Node: real Pyodide, the real wasm core, the real neuronxcc.nki package.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import { beforeAll, beforeEach, describe, expect, test } from "vitest";

import { createNodeRuntime } from "../../runtime/node.mjs";

const KERNEL = fileURLToPath(new URL("../../kernels/tensor_add.py", import.meta.url));
const OUTSIDE = "calling NKI API outside of NKI kernels is not supported.";

let runtime;
let out = "";
let err = "";
let chunks = [];

beforeAll(async () => {
  runtime = await createNodeRuntime({
    stdout: (text) => {
      out += text;
      chunks.push(["out", text]);
    },
    stderr: (text) => {
      err += text;
      chunks.push(["err", text]);
    },
  });
});

beforeEach(() => {
  out = "";
  err = "";
  chunks = [];
});

describe("createNodeRuntime", () => {
  test("boots Pyodide with the core registered and the package importable", () => {
    expect(typeof runtime.core.nki_ctx).toBe("function");
    const { exitCode } = runtime.runSource(
      "import sys, nki_core, neuronxcc.nki, neuronxcc.nki.language\nprint(sys.version_info[:2] >= (3, 13), '/nki/python' in sys.path)\n",
    );
    expect(err).toBe("");
    expect(exitCode).toBe(0);
    expect(out).toBe("True True\n");
  });

  test("runSource traces tensor_add: exit code 0, IR text and records", () => {
    const source = readFileSync(KERNEL, "utf8");
    const { exitCode, traces } = runtime.runSource(source, { filename: "tensor_add.py" });
    expect(err).toBe("");
    expect(exitCode).toBe(0);
    expect(traces.length).toBeGreaterThanOrEqual(1);
    const [trace] = traces;
    expect(typeof trace.kernel).toBe("string");
    expect(trace.text).toContain("KernelScope");
    expect(trace.text).toContain("LoopScope");
    expect(trace.text).toMatch(/tensor_add\.py:\d+/);
    // One printer, two sinks: the records are the text's lines, in order.
    expect(trace.records.map((r) => r.text).join("\n")).toBe(trace.text.replace(/\n$/, ""));
    for (const r of trace.records) expect(Object.keys(r)).toEqual(expect.arrayContaining(["text", "depth", "op_id", "region_id", "loc"]));
    expect(typeof trace.ir).toBe("object");
    // take_traces() cleared the list: a run without kernels returns none.
    expect(runtime.runSource("pass\n").traces).toEqual([]);
  });

  test("trace() returns the traces of a run", () => {
    const traces = runtime.trace(readFileSync(KERNEL, "utf8"), { filename: "tensor_add.py" });
    expect(traces.map((t) => t.text).join("\n")).toContain("KernelScope");
  });

  test("stdout and stderr stream raw and in order, before the run returns", () => {
    let seenDuringRun = null;
    runtime.pyodide.registerJsModule("nki_test_probe", { seen: () => (seenDuringRun = out) });
    const { exitCode } = runtime.runSource(
      [
        "import sys, nki_test_probe",
        "print('partial', end='')",
        "nki_test_probe.seen()",
        "print(' line')",
        "print('oops', file=sys.stderr)",
        "sys.stdout.write('tail')",
      ].join("\n"),
    );
    expect(exitCode).toBe(0);
    expect(seenDuringRun).toBe("partial"); // no waiting for a newline or for the end
    expect(out).toBe("partial line\ntail");
    expect(err).toBe("oops\n");
    const order = chunks.map(([s, t]) => `${s}:${t}`).join("|");
    expect(order.indexOf("out: line")).toBeLessThan(order.indexOf("err:oops"));
    expect(order.indexOf("err:oops")).toBeLessThan(order.indexOf("out:tail"));
  });

  test("a script that raises exits non-zero, reports it, and the next run is clean", () => {
    const bad = runtime.runSource("def f():\n    raise ValueError('boom 42')\nf()\n", { filename: "bad.py" });
    expect(bad.exitCode).not.toBe(0);
    expect(err).toContain("boom 42");
    expect(err).toContain("bad.py");
    err = "";
    const good = runtime.runSource(readFileSync(KERNEL, "utf8"), { filename: "tensor_add.py" });
    expect(err).toBe("");
    expect(good.exitCode).toBe(0);
    expect(good.traces.length).toBeGreaterThanOrEqual(1);
  });

  test("an NKI call outside a kernel fails with the NKI message", () => {
    const { exitCode } = runtime.runSource("import neuronxcc.nki.language as nl\nnl.load(None)\n", {
      filename: "outside.py",
    });
    expect(exitCode).not.toBe(0);
    expect(err).toContain(OUTSIDE);
  });

  test("sys.exit codes and argv pass through", () => {
    expect(runtime.runSource("import sys\nsys.exit(3)\n").exitCode).toBe(3);
    expect(runtime.runSource("raise SystemExit(0)\n").exitCode).toBe(0);
    const { exitCode } = runtime.runSource("import sys\nprint(sys.argv[1:])\n", { argv: ["a", "b c"] });
    expect(exitCode).toBe(0);
    expect(out).toBe("['a', 'b c']\n");
  });

  test("runFile runs a host file with argv, __main__ and its folder visible", () => {
    const fixture = fileURLToPath(new URL("./fixtures/argv_and_exit.py", import.meta.url));
    const typed = relative(process.cwd(), fixture);
    const { exitCode } = runtime.runFile(typed, ["5", "x"]);
    expect(err).toBe("");
    expect(out).toBe("data: sibling file\nargv: ['5', 'x']\nname: __main__\n");
    expect(exitCode).toBe(5);
  });

  test("a kernel in a folder named python3/site-packages is the user's code: errors at its line", () => {
    const dir = mkdtempSync(join(tmpdir(), "nki-runfile-"));
    try {
      const folder = join(dir, "python3", "site-packages");
      mkdirSync(folder, { recursive: true });
      const file = join(folder, "kern.py");
      writeFileSync(
        file,
        `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out, value=t * a.shape)
    return out
nki.simulate_kernel(k, np.ones((128, 4), np.float32))
`,
      );
      const { exitCode } = runtime.runFile(file, []);
      expect(exitCode).toBe(1);
      expect(err).toContain(`${file}:8:25: error: TypeError: unsupported operand (128, 4): expected a tile or a scalar\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("runFile mounts a script folder outside the cwd", () => {
    const dir = mkdtempSync(join(tmpdir(), "nki-runfile-"));
    try {
      writeFileSync(join(dir, "helper_mod.py"), "VALUE = 'imported from the script folder'\n");
      writeFileSync(join(dir, "main.py"), "import helper_mod\nprint(helper_mod.VALUE)\n");
      const { exitCode } = runtime.runFile(join(dir, "main.py"), []);
      expect(err).toBe("");
      expect(out).toBe("imported from the script folder\n");
      expect(exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("runFile sees the host's files at their paths: a parent's data folder, a sibling package", () => {
    const dir = mkdtempSync(join(tmpdir(), "nki-runfile-"));
    try {
      for (const sub of ["proj/scripts", "proj/data", "proj/common"]) mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, "proj/data/x.txt"), "3 4\n");
      writeFileSync(join(dir, "proj/common/helpers.py"), "def twice(v):\n    return 2 * v\n");
      writeFileSync(
        join(dir, "proj/scripts/main.py"),
        `import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import helpers
print(helpers.twice(sum(int(v) for v in open("../data/x.txt").read().split())))
print(open(${JSON.stringify(join(dir, "proj/data/x.txt"))}).read().strip())
`,
      );
      const cwd = process.cwd();
      process.chdir(join(dir, "proj/scripts"));
      let exitCode;
      try {
        ({ exitCode } = runtime.runFile("main.py", []));
      } finally {
        process.chdir(cwd);
      }
      expect(err).toBe("");
      expect(out).toBe("14\n3 4\n");
      expect(exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("runFile from a path Pyodide reserves is refused with a message naming it", () => {
    expect(() => runtime.runFile("/proc/self/x.py", [])).toThrow(/reserved path inside Pyodide/);
  });

  test("20,000 failing core calls from Python keep the wasm heap flat", () => {
    const { core } = runtime;
    const inUse = typeof core.heap_in_use === "function" ? () => Number(core.heap_in_use()) : null;
    const loop = (n) =>
      runtime.runSource(
        `import nki_core\nbad = 0\nfor _ in range(${n}):\n    try:\n        nki_core.nki_ctx()\n        bad += 1\n    except Exception as e:\n        if 'outside of NKI kernels' not in str(e): bad += 1\nprint(bad)\n`,
      );
    loop(500); // warm-up
    out = "";
    const memBefore = core.HEAPU8.length;
    const usedBefore = inUse?.();
    expect(loop(20_000).exitCode).toBe(0);
    expect(out).toBe("0\n");
    expect(core.HEAPU8.length).toBe(memBefore);
    if (inUse) expect(inUse() - usedBefore).toBeLessThan(20_000);
  });
});
