// The compiled Python package: one file holding a `.pyc` per module, so a runtime boot imports
// the package without compiling ~12,000 lines of Python (measured in Node: 150 ms -> 30 ms;
// in the browser it is most of what a warm reload pays over bare Pyodide).
//
// The `.pyc` files are hash-checked (PEP 552, "checked"): Python compares each one with the
// hash of the source it sits beside and silently recompiles a module whose source changed, so
// a cache from another build costs time, never correctness. They are compiled by the same
// Pyodide the runtime loads (scripts/bundle-python.mjs); a cache for another Python version
// (another `cache_tag`) is skipped whole.
//
// Layout (little-endian): "NKPYC1\n", u32 header length, the header as UTF-8 JSON
// {cacheTag, files: [[relativePath, offset, length], ...]}, then the files' bytes; offsets are
// from the end of the header.
const MAGIC = "NKPYC1\n";

/**
 * Packs `{relativePath: Uint8Array}` (paths like `neuronxcc/__pycache__/x.cpython-313.pyc`)
 * compiled for `cacheTag` into one buffer.
 * @returns {Uint8Array}
 */
export function packPythonCache(cacheTag, files) {
  const entries = Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let offset = 0;
  const index = entries.map(([path, bytes]) => {
    const entry = [path, offset, bytes.length];
    offset += bytes.length;
    return entry;
  });
  const header = new TextEncoder().encode(JSON.stringify({ cacheTag, files: index }));
  const magic = new TextEncoder().encode(MAGIC);
  const out = new Uint8Array(magic.length + 4 + header.length + offset);
  out.set(magic, 0);
  new DataView(out.buffer).setUint32(magic.length, header.length, true);
  out.set(header, magic.length + 4);
  let at = magic.length + 4 + header.length;
  for (const [, bytes] of entries) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/**
 * The inverse of packPythonCache: `{cacheTag, files: {relativePath: Uint8Array}}` (views into
 * `buffer`). Throws on a buffer that is not such a cache or is cut short.
 */
export function unpackPythonCache(buffer) {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.length < magic.length + 4 || magic.some((b, i) => bytes[i] !== b)) {
    throw new Error("not a compiled Python package (bad magic)");
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(magic.length, true);
  const start = magic.length + 4 + headerLength;
  if (start > bytes.length) throw new Error("compiled Python package cut short (header)");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(magic.length + 4, start)));
  if (typeof header?.cacheTag !== "string" || !Array.isArray(header.files)) {
    throw new Error("compiled Python package: bad header");
  }
  const files = {};
  for (const [path, offset, length] of header.files) {
    if (typeof path !== "string" || !(offset >= 0) || !(length >= 0) || start + offset + length > bytes.length) {
      throw new Error(`compiled Python package cut short or damaged at ${path}`);
    }
    files[path] = bytes.subarray(start + offset, start + offset + length);
  }
  return { cacheTag: header.cacheTag, files };
}

/**
 * Compiles the package installed at `root` in `pyodide` into checked-hash `.pyc` files and
 * returns them packed. Build-time only (scripts/bundle-python.mjs).
 * @returns {Uint8Array}
 */
export function compilePythonCache(pyodide, root) {
  const found = pyodide.runPython(`
import compileall, os, py_compile, sys
root = ${JSON.stringify(root)}
ok = compileall.compile_dir(root, quiet=1, force=True,
                            invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
if not ok:
    raise SystemExit("compileall failed under " + root)
paths = sorted(os.path.relpath(os.path.join(d, f), root)
               for d, _, names in os.walk(root) for f in names if f.endswith(".pyc"))
[sys.implementation.cache_tag, paths]`);
  const [cacheTag, paths] = found.toJs();
  found.destroy();
  const files = {};
  for (const path of paths) files[path] = pyodide.FS.readFile(`${root}/${path}`);
  return packPythonCache(cacheTag, files);
}
