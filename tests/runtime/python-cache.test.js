// The compiled Python package (nki-python.pyc, runtime/python-cache.mjs): the build's cache is
// complete and fresh, a boot uses it, and a cache that does not fit (stale module, another
// Python, damaged bytes) never changes what runs.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, test } from "vitest";

import { DEFAULT_PYTHON_CACHE_PATH, createNodeRuntime } from "../../runtime/node.mjs";
import { packPythonCache, unpackPythonCache } from "../../runtime/python-cache.mjs";
import { PYTHON_PACKAGE_DIR, readPythonFiles } from "../../runtime/python-files.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCES = readPythonFiles();
const quiet = { stdout: () => {}, stderr: () => {} };

describe("pack / unpack", () => {
  test("round trip keeps every path and byte", () => {
    const files = { "a/__pycache__/x.cpython-313.pyc": new Uint8Array([1, 2, 3]), "b/__pycache__/y.cpython-313.pyc": new Uint8Array(0) };
    const back = unpackPythonCache(packPythonCache("cpython-313", files));
    expect(back.cacheTag).toBe("cpython-313");
    expect(Object.keys(back.files).sort()).toEqual(Object.keys(files).sort());
    expect([...back.files["a/__pycache__/x.cpython-313.pyc"]]).toEqual([1, 2, 3]);
    expect(back.files["b/__pycache__/y.cpython-313.pyc"].length).toBe(0);
  });

  test("a buffer that is not a cache, or is cut short, is refused with a reason", () => {
    const packed = packPythonCache("cpython-313", { "a/__pycache__/x.cpython-313.pyc": new Uint8Array(100) });
    expect(() => unpackPythonCache(new TextEncoder().encode("{}"))).toThrow(/bad magic/);
    expect(() => unpackPythonCache(packed.subarray(0, 12))).toThrow(/cut short/);
    expect(() => unpackPythonCache(packed.subarray(0, packed.length - 1))).toThrow(/cut short or damaged at a\/__pycache__/);
  });
});

/**
 * The package modules whose code Python would compile from source rather than take from a
 * `.pyc`: each module's loader is asked for its code (the path an import takes) with the
 * compile step recording its caller.
 */
function compiledFromSource(runtime) {
  return runtime.pyodide.runPython(`
import sys
from importlib.machinery import SourceFileLoader
compiled = []
original = SourceFileLoader.source_to_code
def recording(self, data, path, **kw):
    compiled.append(self.name)
    return original(self, data, path, **kw)
SourceFileLoader.source_to_code = recording
try:
    for name, module in sorted(sys.modules.items()):
        loader = getattr(getattr(module, "__spec__", None), "loader", None)
        if isinstance(loader, SourceFileLoader) and loader.path.startswith("/nki/python/"):
            loader.get_code(name)
finally:
    SourceFileLoader.source_to_code = original
sorted(compiled)`).toJs();
}

describe("the build's nki-python.pyc", () => {
  test("exists, and holds one checked-hash .pyc per module, matching today's source", async () => {
    expect(DEFAULT_PYTHON_CACHE_PATH, "run npm run build first").not.toBeNull();
    const { cacheTag, files } = unpackPythonCache(readFileSync(DEFAULT_PYTHON_CACHE_PATH));
    const expected = Object.keys(SOURCES).map((rel) => {
      const slash = rel.lastIndexOf("/");
      return `${rel.slice(0, slash + 1)}__pycache__/${rel.slice(slash + 1, -3)}.${cacheTag}.pyc`;
    });
    expect(Object.keys(files).sort()).toEqual([...expected].sort());
    // PEP 552 header: flags 0b11 (hash-based, checked), then the source's SipHash, which
    // Python's importlib.util.source_hash computes.
    const runtime = await createNodeRuntime({ ...quiet, pythonCachePath: null });
    const hashOf = runtime.pyodide.runPython("import importlib.util\nlambda b: importlib.util.source_hash(bytes(b))");
    const stale = [];
    for (const [rel, source] of Object.entries(SOURCES)) {
      const pyc = files[expected[Object.keys(SOURCES).indexOf(rel)]];
      expect(new DataView(pyc.buffer, pyc.byteOffset).getUint32(4, true), rel).toBe(0b11);
      const want = hashOf(new TextEncoder().encode(source)).toJs();
      if (Buffer.compare(Buffer.from(pyc.subarray(8, 16)), Buffer.from(want)) !== 0) stale.push(rel);
    }
    hashOf.destroy();
    expect(stale, "modules changed since the last build: run npm run build").toEqual([]);
  });

  test("a boot without the memory snapshot installs it, and Python takes every module's code from it", async () => {
    // (From the snapshot every module is imported already: the cache is not needed then.)
    const runtime = await createNodeRuntime({ ...quiet, snapshotPath: null });
    expect(runtime.pythonCache).toEqual({ installed: Object.keys(SOURCES).length });
    expect(compiledFromSource(runtime)).toEqual([]);
    // The control: without the cache every imported module is compiled.
    const bare = await createNodeRuntime({ ...quiet, pythonCachePath: null, snapshotPath: null });
    expect(compiledFromSource(bare).length).toBeGreaterThan(40);
  });
});

describe("a cache that does not fit changes nothing that runs", () => {
  test("a module edited after the build runs its new source", async () => {
    const root = mkdtempSync(join(tmpdir(), "nkp-pycache-"));
    try {
      cpSync(PYTHON_PACKAGE_DIR, root, { recursive: true });
      appendFileSync(join(root, "neuronxcc/__init__.py"), "\nEDITED_AFTER_BUILD = 42\n");
      let out = "";
      const runtime = await createNodeRuntime({ stdout: (t) => (out += t), stderr: () => {}, pythonRoot: root });
      expect(runtime.pythonCache.installed).toBe(Object.keys(SOURCES).length);
      expect(runtime.runSource("import neuronxcc\nprint(neuronxcc.EDITED_AFTER_BUILD)").exitCode).toBe(0);
      expect(out).toBe("42\n");
      // Only the edited module is compiled; the rest still come from the cache.
      expect(compiledFromSource(runtime)).toEqual(["neuronxcc"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("another Python's cache and a damaged one are skipped, saying why; the runtime works", async () => {
    const { files } = unpackPythonCache(readFileSync(DEFAULT_PYTHON_CACHE_PATH));
    const other = packPythonCache("cpython-399", files);
    const path = join(mkdtempSync(join(tmpdir(), "nkp-pycache-")), "nki-python.pyc");
    for (const [bytes, why] of [
      [other, /compiled for cpython-399, this Python is cpython-3\d+/],
      [readFileSync(DEFAULT_PYTHON_CACHE_PATH).subarray(0, 5000), /cut short/],
    ]) {
      writeFileSync(path, bytes);
      try {
        const runtime = await createNodeRuntime({ ...quiet, pythonCachePath: path, snapshotPath: null });
        expect(runtime.pythonCache.installed).toBe(0);
        expect(runtime.pythonCache.skipped).toMatch(why);
        expect(runtime.runSource("import neuronxcc.nki.language as nl\nassert nl.tile_size.pmax == 128").exitCode).toBe(0);
      } finally {
        rmSync(path, { force: true });
      }
    }
  });
});

describe("createRuntime takes the package while it downloads", () => {
  test("promises of the sources and of the cache: Pyodide boots meanwhile, then both are used", async () => {
    const { createRuntime } = await import("../../runtime/runtime.mjs");
    const { loadPyodide } = await import("pyodide");
    const { default: createCore } = await import("../../build/wasm/nki_core.mjs");
    const indexURL = join(ROOT, "node_modules/pyodide/");
    const later = (value) => new Promise((resolve) => setTimeout(() => resolve(value), 50));
    const runtime = await createRuntime({
      loadPyodide,
      indexURL,
      createCore,
      pythonFiles: later(SOURCES),
      pythonCache: later(readFileSync(DEFAULT_PYTHON_CACHE_PATH)),
    });
    expect(runtime.pythonCache).toEqual({ installed: Object.keys(SOURCES).length });
    expect(runtime.runSource("import neuronxcc.nki.language as nl\nassert nl.tile_size.pmax == 128").exitCode).toBe(0);
    // A failed download fails the boot with its own error.
    await expect(
      createRuntime({ loadPyodide, indexURL, createCore, pythonFiles: Promise.reject(new Error("nki-python.json: HTTP 404")) }),
    ).rejects.toThrow("nki-python.json: HTTP 404");
  });
});
