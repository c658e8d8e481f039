// The runtime's memory snapshot: Pyodide's wasm memory saved by the build after the Python
// packages were imported (python/nki_playground/snapshot.py), so a boot restores it instead of
// starting the interpreter and importing ~300 modules. A snapshot holds memory only — no file
// and no JS object — so after the restore the runtime writes the package's files again,
// registers and attaches the core (runtime.mjs), and Python redoes what the memory must not fix
// (snapshot.py restored()).
//
// A snapshot is used only if it fits: made by this format, for this Pyodide, from exactly these
// Python sources, whole and undamaged. Otherwise the runtime boots as without one and says why
// (`runtime.snapshot.reason`). Environment-agnostic, like runtime.mjs.
//
// Layout (little-endian): "NKSNAP1\n", u32 header length, u32 0, the header as UTF-8 JSON
// padded with spaces to a multiple of 16 bytes {pyodide, sources, bytes, check, modules,
// frontEnds}, then Pyodide's own snapshot (`makeMemorySnapshot()`, which checks its build id on load).
const MAGIC = "NKSNAP1\n";
const PREFIX = 16;

/** The file name the build writes and the page fetches (beside nki-python.json). */
export const SNAPSHOT_FILE = "nki-snapshot.bin";

/** A snapshot that does not fit: `message` says why. */
class Unusable extends Error {}

/**
 * A digest of the package's sources `{relativePath: text}`: equal only for the same files with
 * the same text (path order does not matter). Not cryptographic: it tells builds apart.
 * @returns {string} 16 hex digits
 */
export function sourceDigest(files) {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  const feed = (text) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
    a = Math.imul(a ^ 0xffff, 0x01000193); // a separator no UTF-16 text holds alone
    b = Math.imul(b ^ 0xffff, 0x5bd1e995);
  };
  for (const path of Object.keys(files).sort()) {
    feed(path);
    feed(files[path]);
  }
  return hex32(a) + hex32(b);
}

/**
 * A checksum of `bytes` (a multiple of 16 long, 4-aligned): four interleaved polynomial hashes
 * of its 32-bit words (any one changed word changes it), 32 hex digits. Cheap on purpose — it
 * runs on every boot, over ~20 MB — and in chunks, so V8 optimizes the loop early.
 */
export function checksum(bytes) {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const lanes = new Int32Array(4);
  const n = words.length & ~3;
  for (let i = 0; i < n; i += CHUNK) hashWords(words, i, Math.min(n, i + CHUNK), lanes);
  return Array.from(lanes, hex32).join("");
}

const CHUNK = 1 << 14;

function hashWords(w, from, to, lanes) {
  let a = lanes[0];
  let b = lanes[1];
  let c = lanes[2];
  let d = lanes[3];
  for (let i = from; i < to; i += 4) {
    a = (Math.imul(a, 31) + w[i]) | 0;
    b = (Math.imul(b, 37) + w[i + 1]) | 0;
    c = (Math.imul(c, 41) + w[i + 2]) | 0;
    d = (Math.imul(d, 43) + w[i + 3]) | 0;
  }
  lanes[0] = a;
  lanes[1] = b;
  lanes[2] = c;
  lanes[3] = d;
}

/**
 * Wraps Pyodide's snapshot with what decides whether a boot may use it.
 * @param {Uint8Array} pyodideSnapshot  `pyodide.makeMemorySnapshot()`
 * @param {{pyodide: string, sources: string, modules: string[]}} meta
 * @returns {Uint8Array}
 */
export function packSnapshot(pyodideSnapshot, { pyodide, sources, modules }) {
  if (pyodideSnapshot.byteLength % 16) throw new Error("packSnapshot: Pyodide's snapshot is not a multiple of 16 bytes");
  const header = JSON.stringify({
    pyodide,
    sources,
    bytes: pyodideSnapshot.byteLength,
    check: checksum(pyodideSnapshot),
    modules,
  });
  const headerBytes = new TextEncoder().encode(header);
  const padded = Math.ceil(headerBytes.length / 16) * 16;
  const out = new Uint8Array(PREFIX + padded + pyodideSnapshot.byteLength);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, padded, true);
  out.fill(0x20, PREFIX, PREFIX + padded);
  out.set(headerBytes, PREFIX);
  out.set(pyodideSnapshot, PREFIX + padded);
  return out;
}

/**
 * Reads a packed snapshot: `{header, payload}` (payload: Pyodide's snapshot, a view into
 * `buffer`). Throws (with the reason as message) on a file that is not one, is cut short or is
 * damaged.
 */
export function readSnapshot(buffer) {
  let bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  if (bytes.byteOffset % 4) bytes = bytes.slice(); // word views need alignment
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.length < PREFIX || magic.some((c, i) => bytes[i] !== c)) throw new Unusable("not an nki-playground snapshot (bad magic)");
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, PREFIX).getUint32(MAGIC.length, true);
  if (headerLength % 16 || PREFIX + headerLength > bytes.length) throw new Unusable(`cut short (${bytes.length} bytes, header incomplete)`);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + headerLength)));
  } catch {
    throw new Unusable("damaged (unreadable header)");
  }
  if (typeof header?.pyodide !== "string" || typeof header.sources !== "string" || !(header.bytes > 0)) {
    throw new Unusable("damaged (bad header)");
  }
  const payload = bytes.subarray(PREFIX + headerLength);
  if (payload.length !== header.bytes) {
    throw new Unusable(payload.length < header.bytes
      ? `cut short (${payload.length} of ${header.bytes} bytes)`
      : `damaged (${payload.length - header.bytes} bytes too many)`);
  }
  if (checksum(payload) !== header.check) throw new Unusable("damaged (checksum mismatch)");
  return { header, payload };
}

/**
 * Boots Pyodide from `snapshot` if it fits, otherwise as without one.
 *
 * The snapshot (bytes, or a promise of them: still downloading) and the sources are checked
 * while Pyodide fetches and compiles its own files; Pyodide waits for the check only when it is
 * about to start the interpreter. A snapshot that does not fit makes that boot stop there and a
 * plain one start (`onFallback(reason)` first, e.g. to start fetching what a plain boot needs).
 *
 * @returns {Promise<{pyodide: any, snapshot: {used: true, bytes: number, modules: number} |
 *   {used: false, reason: string}}>}
 */
export async function bootPyodide({ loadPyodide, indexURL, snapshot, pythonFiles, pyodideVersion, onFallback }) {
  if (snapshot == null) return { pyodide: await loadPyodide({ indexURL }), snapshot: { used: false, reason: "no snapshot given" } };
  let header = null;
  let total = 0;
  const checked = Promise.all([
    Promise.resolve(snapshot).catch((err) => {
      throw new Unusable(`not loaded (${err?.message ?? err})`);
    }),
    pythonFiles,
  ]).then(([bytes, files]) => {
    if (bytes == null) throw new Unusable("no snapshot given");
    const read = readSnapshot(bytes);
    header = read.header;
    total = bytes.byteLength;
    if (pyodideVersion && header.pyodide !== pyodideVersion) {
      throw new Unusable(`made for Pyodide ${header.pyodide}, this is ${pyodideVersion}`);
    }
    const digest = sourceDigest(files);
    if (header.sources !== digest) {
      throw new Unusable(`made from other Python sources (${header.sources}; these are ${digest}): rebuild it (npm run build)`);
    }
    return read.payload;
  });
  checked.catch(() => {}); // Pyodide may fail before it waits for the check (then reported below)
  let reason;
  try {
    const pyodide = await loadPyodide({ indexURL, _loadSnapshot: checked });
    return { pyodide, snapshot: { used: true, bytes: total, modules: header.modules?.length ?? 0 } };
  } catch (err) {
    reason = err instanceof Unusable
      ? err.message
      : `Pyodide refused it: ${String(err?.message ?? err).split("\n")[0]}${header ? ` (made for Pyodide ${header.pyodide})` : ""}`;
  }
  onFallback?.(reason);
  return { pyodide: await loadPyodide({ indexURL }), snapshot: { used: false, reason } };
}

function hex32(x) {
  return (x >>> 0).toString(16).padStart(8, "0");
}
