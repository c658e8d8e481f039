// The memory snapshot (runtime/snapshot.mjs, scripts/make-snapshot.mjs): the build's snapshot is
// complete and fresh, a boot from it gives the results a plain boot gives and carries nothing
// of the build's interpreter into a run, and one that does not fit (other sources, another
// Pyodide, cut short, damaged) is not used, says why, and changes nothing that runs.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEFAULT_SNAPSHOT_PATH, createNodeRuntime } from "../../runtime/node.mjs";
import { PYTHON_PACKAGE_DIR, readPythonFiles } from "../../runtime/python-files.mjs";
import { checksum, packSnapshot, readSnapshot, sourceDigest } from "../../runtime/snapshot.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCES = readPythonFiles();
const KERNELS = readdirSync(join(ROOT, "kernels")).filter((f) => f.endsWith(".py")).sort();
const PYODIDE_VERSION = JSON.parse(readFileSync(join(ROOT, "node_modules/pyodide/package.json"), "utf8")).version;
const TENSOR_ADD_OK = "import neuronxcc.nki.language as nl\nassert nl.tile_size.pmax == 128";

/** A runtime that keeps what it printed (`rt.out`, reset by `take(rt)`). */
async function boot(opts = {}) {
  const rt = await createNodeRuntime({ stdout: (t) => (rt.out += t), stderr: (t) => (rt.out += t), ...opts });
  rt.out = "";
  return rt;
}
const take = (rt) => {
  const text = rt.out;
  rt.out = "";
  return text;
};
const py = (rt, code) => {
  const value = rt.pyodide.runPython(code);
  const js = value?.toJs ? value.toJs() : value;
  value?.destroy?.();
  return js;
};

describe("pack / read", () => {
  const payload = new Uint8Array(64).map((_, i) => i * 7);
  const meta = { pyodide: "0.29.5", sources: "0123456789abcdef", modules: ["a", "a.b"] };

  test("round trip keeps the header and every byte; the payload is word-aligned", () => {
    const { header, payload: back } = readSnapshot(packSnapshot(payload, meta));
    expect(header).toMatchObject({ ...meta, bytes: 64, check: checksum(payload) });
    expect([...back]).toEqual([...payload]);
    expect(back.byteOffset % 16).toBe(0);
  });

  test("a file that is not one, is cut short or is damaged is refused, saying why", () => {
    const packed = packSnapshot(payload, meta);
    expect(() => readSnapshot(new TextEncoder().encode("{}"))).toThrow(/bad magic/);
    expect(() => readSnapshot(packed.subarray(0, 20))).toThrow(/cut short/);
    expect(() => readSnapshot(packed.subarray(0, packed.length - 16))).toThrow(/cut short \(48 of 64 bytes\)/);
    const flipped = packed.slice();
    flipped[packed.length - 10] ^= 1;
    expect(() => readSnapshot(flipped)).toThrow(/damaged \(checksum mismatch\)/);
    const header = packed.slice();
    header[20] = 0x7b; // a brace inside the JSON
    expect(() => readSnapshot(header)).toThrow(/damaged/);
  });

  test("the sources' digest changes with any file's text or name, not with their order", () => {
    const files = { "a.py": "x = 1\n", "b/c.py": "" };
    const d = sourceDigest(files);
    expect(d).toMatch(/^[0-9a-f]{16}$/);
    expect(sourceDigest({ "b/c.py": "", "a.py": "x = 1\n" })).toBe(d);
    expect(sourceDigest({ ...files, "a.py": "x = 2\n" })).not.toBe(d);
    expect(sourceDigest({ "a.py": "x = 1\n", "b/d.py": "" })).not.toBe(d);
    expect(sourceDigest({ "a.py": "x = 1\n", "b/c.py": "", "e.py": "" })).not.toBe(d);
  });
});

describe("the build's snapshot", () => {
  test("exists, for this Pyodide, made from today's sources, with every module imported", () => {
    expect(DEFAULT_SNAPSHOT_PATH, "run npm run build first").not.toBeNull();
    const { header } = readSnapshot(readFileSync(DEFAULT_SNAPSHOT_PATH));
    expect(header.pyodide).toBe(PYODIDE_VERSION);
    expect(header.sources, "Python sources changed since the last build: run npm run build").toBe(sourceDigest(SOURCES));
    // Every module of every package (found by walking python/, so a new package is in too).
    const modules = Object.keys(SOURCES).map((rel) => rel.replace(/(\/__init__)?\.py$/, "").replaceAll("/", "."));
    expect([...header.modules].sort()).toEqual(modules.sort());
  });
});

describe("a boot from the snapshot gives the results of a plain boot", () => {
  let snap;
  let plain;
  beforeAll(async () => {
    [snap, plain] = [await boot(), await boot({ snapshotPath: null })];
  });

  test("it was used, and the plain one was not", () => {
    expect(snap.snapshot).toMatchObject({ used: true, modules: Object.keys(SOURCES).length });
    expect(plain.snapshot).toEqual({ used: false, reason: "no snapshot given" });
  });

  test("every kernel in kernels/: the same exit code, output and IR bytes; simulations alike", () => {
    for (const file of KERNELS) {
      const [a, b] = [snap, plain].map((rt) => {
        const r = rt.runFile(`kernels/${file}`);
        return { ...r, out: take(rt) };
      });
      expect(a.exitCode, `${file}:\n${a.out}`).toBe(0);
      expect(a.out, file).toBe(b.out);
      expect(a.traces.map((t) => t.irJson), file).toEqual(b.traces.map((t) => t.irJson));
      expect(a.simulations, file).toEqual(b.simulations);
      expect(a.diagnostics, file).toEqual(b.diagnostics);
    }
  }, 600_000); // every example simulates on its own data, twice

  test("a simulation through the JS API: the same output bytes", () => {
    const source = readFileSync(join(ROOT, "kernels/tensor_add.py"), "utf8");
    const a = Float32Array.from({ length: 256 * 1024 }, (_, i) => (i % 97) / 7);
    const b = Float32Array.from({ length: 256 * 1024 }, (_, i) => (i % 89) / 3);
    const inputs = [{ data: a, shape: [256, 1024] }, { data: b, shape: [256, 1024] }];
    const [x, y] = [snap, plain].map((rt) => rt.simulate(source, inputs, { grid: [2] }).outputs[0]);
    expect(x.shape).toEqual([256, 1024]);
    const bytes = (o) => Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength);
    expect(bytes(x).equals(bytes(y))).toBe(true);
    expect(x.data[1000]).toBe(Math.fround(a[1000] + b[1000]));
  });

  test("a diagnostic at the user's line and column, the same in both", () => {
    const source = "import neuronxcc.nki.language as nl\n\nnl.load(None)\n";
    const [a, b] = [snap, plain].map((rt) => ({ ...rt.runSource(source, { filename: "bad.py" }), out: take(rt) }));
    expect(a.exitCode).toBe(1);
    expect(a.diagnostics).toHaveLength(1);
    expect(a.diagnostics[0]).toMatchObject({ severity: "error", file: "bad.py", line: 3, col: 1 });
    expect(a.diagnostics).toEqual(b.diagnostics);
    expect(a.out).toBe(b.out);
  });

  test("after a failed run that imported a user module and drew random numbers, the next run sees the same state", () => {
    const dir = mkdtempSync(join(tmpdir(), "nkp-snap-state-"));
    try {
      writeFileSync(join(dir, "helper_mod.py"), "VALUE = 7\n");
      writeFileSync(join(dir, "fails.py"), "import numpy as np, helper_mod\nnp.random.seed(3)\nnp.random.rand(5)\nraise ValueError(helper_mod.VALUE)\n");
      const probe = `import sys, numpy as np
import neuronxcc.nki as nki
print(sorted(m for m in sys.modules if m.startswith("helper")))
print(float(np.random.rand()))
print(sys.argv, sys.path[:2], [m for m, v in sys.modules.items() if (getattr(v, "__file__", None) or "/lib/").startswith(("/lib/", "/nki/python/")) is False])
`;
      const results = [snap, plain].map((rt) => {
        const failed = rt.runFile(join(dir, "fails.py"));
        take(rt);
        const next = rt.runSource(probe, { filename: "probe.py" });
        return { failed: failed.exitCode, diagnostics: failed.diagnostics, next: next.exitCode, out: take(rt) };
      });
      expect(results[0].failed).toBe(1);
      expect(results[0].next).toBe(0);
      expect(results[0]).toEqual(results[1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("Python's state matches a plain boot's: sys.path, no user module, the door on this runtime's core", () => {
    // (The program name, os.environ["_"], is not compared: the build's is Emscripten's default.)
    const state = `import os, sys
[sys.path, sorted(m for m, v in sys.modules.items() if not (getattr(v, "__file__", None) or "/lib/").startswith(("/lib/", "/nki/python/"))),
 sorted((k, v) for k, v in os.environ.items() if k != "_"), os.getcwd()]`;
    const fresh = [snap, plain].map((rt) => py(rt, state));
    expect(fresh[0]).toEqual(fresh[1]);
    for (const rt of [snap, plain]) {
      expect(py(rt, "from nki_playground import door\ndoor.module()")).toBe(rt.core);
    }
    // Every module a plain boot imported is there; the snapshot's extra ones are the packages' own.
    const modules = (rt) => py(rt, "import sys\nsorted(sys.modules)");
    const extra = modules(snap).filter((m) => !modules(plain).includes(m));
    const ours = new Set(["neuronxcc", "nki", "nki_playground", "numpy_standin", "numpy", "scipy"]);
    expect(modules(plain).filter((m) => !modules(snap).includes(m))).toEqual([]);
    expect(extra.filter((m) => !ours.has(m.split(".")[0]) && !py(snap, `import sys\nstr(getattr(sys.modules[${JSON.stringify(m)}], "__file__", ""))`).startsWith("/lib/"))).toEqual([]);
  });

  test("two boots from the snapshot draw different random numbers (the build's entropy is not kept)", async () => {
    const other = await boot();
    const draw = (rt) => py(rt, "import random\nrandom.getrandbits(64).to_bytes(8, 'little').hex()");
    expect(draw(other)).not.toBe(draw(snap));
  });
});

describe("a snapshot that does not fit is not used, says why, and changes nothing that runs", () => {
  let dir;
  let good;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "nkp-snap-"));
    good = readSnapshot(readFileSync(DEFAULT_SNAPSHOT_PATH));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Boots from `bytes` written to a file; checks the reason and that the runtime works. */
  async function bootFrom(bytes, why, opts = {}) {
    const path = join(dir, "nki-snapshot.bin");
    writeFileSync(path, bytes);
    const rt = await boot({ snapshotPath: path, ...opts });
    expect(rt.snapshot.used).toBe(false);
    expect(rt.snapshot.reason).toMatch(why);
    expect(rt.runSource(TENSOR_ADD_OK).exitCode, take(rt)).toBe(0);
    const r = rt.runFile("kernels/tensor_add.py");
    expect(r.exitCode, take(rt)).toBe(0);
    return rt;
  }

  test("made from other Python sources: the sources as they are now run", async () => {
    const root = join(dir, "python");
    mkdirSync(root);
    cpSync(PYTHON_PACKAGE_DIR, root, { recursive: true });
    appendFileSync(join(root, "neuronxcc/__init__.py"), "\nEDITED_AFTER_BUILD = 42\n");
    const rt = await bootFrom(readFileSync(DEFAULT_SNAPSHOT_PATH), /made from other Python sources .*npm run build/, { pythonRoot: root });
    expect(rt.runSource("import neuronxcc\nprint(neuronxcc.EDITED_AFTER_BUILD)").exitCode).toBe(0);
    expect(take(rt)).toBe("42\n");
    // A plain boot without the snapshot takes the compiled package instead.
    expect(rt.pythonCache.installed).toBe(Object.keys(SOURCES).length);
  });

  test("made for another Pyodide (by its header, or refused by Pyodide's own build-id check)", async () => {
    await bootFrom(packSnapshot(good.payload, { ...good.header, pyodide: "0.0.1" }), new RegExp(`made for Pyodide 0\\.0\\.1, this is ${PYODIDE_VERSION.replaceAll(".", "\\.")}`));
    // Pyodide's snapshot starts with its magic, sizes and the 256-bit id of the build that made it.
    const foreign = good.payload.slice();
    foreign[20] ^= 0xff;
    await bootFrom(packSnapshot(foreign, good.header), /Pyodide refused it: Snapshot build id mismatch/);
  }, 120_000);

  test("cut short, damaged, or not a snapshot at all", async () => {
    const bytes = readFileSync(DEFAULT_SNAPSHOT_PATH);
    await bootFrom(bytes.subarray(0, bytes.length - 4096), /cut short \(\d+ of \d+ bytes\)/);
    const damaged = Buffer.from(bytes);
    damaged[damaged.length >> 1] ^= 0x10;
    await bootFrom(damaged, /damaged \(checksum mismatch\)/);
    await bootFrom(readFileSync(join(ROOT, "kernels/tensor_add.py")), /bad magic/);
  }, 120_000);
});

describe("createRuntime takes the snapshot while it downloads", () => {
  test("promises of the sources and the snapshot; a compiled package asked for only without one", async () => {
    const { createRuntime } = await import("../../runtime/runtime.mjs");
    const { loadPyodide, version } = await import("pyodide");
    const { default: createCore } = await import("../../build/wasm/nki_core.mjs");
    const indexURL = join(ROOT, "node_modules/pyodide/");
    const later = (value) => new Promise((resolve) => setTimeout(() => resolve(value), 50));
    let asked = 0;
    const pythonCache = () => (asked++, later(null));
    const runtime = await createRuntime({
      loadPyodide,
      pyodideVersion: version,
      indexURL,
      createCore,
      pythonFiles: later(SOURCES),
      snapshot: later(readFileSync(DEFAULT_SNAPSHOT_PATH)),
      pythonCache,
    });
    expect(runtime.snapshot.used).toBe(true);
    expect(asked).toBe(0);
    expect(runtime.runSource(TENSOR_ADD_OK).exitCode).toBe(0);
    // A failed download: a plain boot, which asks for the compiled package.
    const fallback = await createRuntime({
      loadPyodide,
      indexURL,
      createCore,
      pythonFiles: SOURCES,
      snapshot: Promise.reject(new Error("HTTP 404")),
      pythonCache,
    });
    expect(fallback.snapshot).toEqual({ used: false, reason: "not loaded (HTTP 404)" });
    expect(asked).toBe(1);
    expect(fallback.runSource(TENSOR_ADD_OK).exitCode).toBe(0);
  }, 120_000);
});
