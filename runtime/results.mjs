// Decodes what `nki_playground.runner.take_results()` hands over after a run: one JSON text
// (diagnostics, simulations whose tensors point into a blob) and one bytes blob with
// every tensor's raw row-major bytes in its own dtype. Element work happens here, on typed
// arrays, because Python in Pyodide pays per element: each tensor becomes float32 data plus
// NaN-aware min/max/mean. Environment-agnostic (Node and the browser worker).

/** Tensors with more elements than this carry `data: null` (and null statistics). */
export const MAX_DATA_ELEMENTS = 4 * 1024 * 1024;

/**
 * @param {string|object} text  The JSON half of take_results() (or it parsed).
 * @param {Uint8Array} blob  The bytes half.
 * @returns {{traces: object[], diagnostics: object[], simulations: object[]}}  (`traces` empty:
 *   the runtime fills it from the core's run session)
 */
export function decodeResults(text, blob) {
  const parsed = typeof text === "string" ? JSON.parse(text) : text;
  // Records pointing at the same bytes share one decoded array and its statistics.
  const cache = new Map();
  const decode = (t) => {
    const key = `${t.offset}:${t.nbytes}:${t.dtype}`;
    if (t.offset === null || t.offset === undefined) return decodeTensor(t, blob);
    let hit = cache.get(key);
    if (!hit) cache.set(key, (hit = decodeTensor(t, blob)));
    return { ...hit, name: t.name };
  };
  const simulations = (parsed.simulations || []).map((sim) => ({
    kernel: sim.kernel,
    inputs: sim.inputs.map(decode),
    outputs: sim.outputs.map(decode),
    prints: sim.prints,
    warnings: sim.warnings,
    comparisons: sim.comparisons.map((c) => comparison(c, decode)),
    // Instructions the simulator executed (loop bodies once per iteration).
    ...(typeof sim.executed === "number" ? { executed: sim.executed } : {}),
    // Past the simulator's limits (a print or a warning in a long loop) records are counted.
    ...(sim.prints_dropped ? { prints_dropped: sim.prints_dropped } : {}),
    ...(sim.warnings_dropped ? { warnings_dropped: sim.warnings_dropped } : {}),
  }));
  return { traces: [], diagnostics: parsed.diagnostics || [], simulations };
}

/** A tensor record {name, shape, dtype, size, offset, nbytes} → tensor summary. */
export function decodeTensor(rec, blob) {
  const out = { name: rec.name, shape: rec.shape, dtype: rec.dtype, min: null, max: null, mean: null, data: null };
  // Python leaves out the bytes of tensors above MAX_DATA_ELEMENTS (offset null).
  if (rec.offset === null || rec.offset === undefined) return out;
  const bytes = blob.subarray(rec.offset, rec.offset + rec.nbytes);
  const data = toFloat32(bytes, rec.dtype, rec.size);
  if (!data) return out;
  out.data = data;
  Object.assign(out, stats(data));
  return out;
}

function comparison(c, decode) {
  const expected = decode(c.expected);
  const actual = decode(c.actual);
  return {
    label: c.label,
    ok: c.ok,
    max_abs_err: maxAbsError(expected.data, actual.data),
    expected,
    actual,
    file: c.file,
    line: c.line,
    col: c.col,
  };
}

/**
 * Largest |expected - actual| over the elements (NumPy broadcasting of a one-element side);
 * a NaN on one side only counts as Infinity, NaN on both sides as equal. Null when either
 * side has no data or the sizes differ otherwise.
 */
export function maxAbsError(expected, actual) {
  if (!expected || !actual) return null;
  const n = Math.max(expected.length, actual.length);
  if (expected.length !== actual.length && expected.length !== 1 && actual.length !== 1) return null;
  const es = expected.length === 1 ? 0 : 1;
  const as = actual.length === 1 ? 0 : 1;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const e = expected[i * es];
    const a = actual[i * as];
    const eNaN = e !== e;
    const aNaN = a !== a;
    if (eNaN || aNaN) {
      if (eNaN !== aNaN) return Infinity;
      continue;
    }
    if (e === a) continue; // equal infinities
    const d = Math.abs(e - a);
    if (d > worst) worst = d;
  }
  return worst;
}

/** NaN-aware min/max/mean (NaNs skipped; `nan_count` only when some were). */
export function stats(data) {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let nans = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v !== v) {
      nans++;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const counted = data.length - nans;
  const out = counted
    ? { min, max, mean: sum / counted }
    : { min: null, max: null, mean: null };
  if (nans) out.nan_count = nans;
  return out;
}

/** Raw little-endian bytes of NKI/NumPy dtype `dtype` → a new Float32Array of `n` values. */
export function toFloat32(bytes, dtype, n) {
  // An aligned copy: typed-array views need their byte offset to be a multiple of the size.
  const buf = bytes.slice().buffer;
  switch (dtype) {
    case "float32":
    case "tfloat32":
      return new Float32Array(buf, 0, n);
    case "float64":
      return Float32Array.from(new Float64Array(buf, 0, n));
    case "float16":
      return mapValues(new Uint16Array(buf, 0, n), halfToFloat);
    case "bfloat16": {
      const out = new Float32Array(n);
      const bits = new Uint32Array(out.buffer);
      const halves = new Uint16Array(buf, 0, n);
      for (let i = 0; i < n; i++) bits[i] = halves[i] << 16;
      return out;
    }
    case "float8_e4m3":
      return lookup(new Uint8Array(buf, 0, n), fp8Table(4, 3));
    case "float8_e5m2":
      return lookup(new Uint8Array(buf, 0, n), fp8Table(5, 2));
    case "float8_e4m3fn":
      return lookup(new Uint8Array(buf, 0, n), fp8Table(4, 3, true));
    case "float8_e8m0fnu":
      return lookup(new Uint8Array(buf, 0, n), e8m0Table());
    case "int8":
      return Float32Array.from(new Int8Array(buf, 0, n));
    case "uint8":
    case "bool":
    case "bool_":
      return Float32Array.from(new Uint8Array(buf, 0, n));
    case "int16":
      return Float32Array.from(new Int16Array(buf, 0, n));
    case "uint16":
      return Float32Array.from(new Uint16Array(buf, 0, n));
    case "int32":
      return Float32Array.from(new Int32Array(buf, 0, n));
    case "uint32":
      return Float32Array.from(new Uint32Array(buf, 0, n));
    case "int64":
      return mapValues(new BigInt64Array(buf, 0, n), Number);
    case "uint64":
      return mapValues(new BigUint64Array(buf, 0, n), Number);
    default:
      return null;
  }
}

function mapValues(src, fn) {
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = fn(src[i]);
  return out;
}

/** Each code's float32 bits from `table` (copied as bits: a NaN keeps its sign). */
function lookup(codes, table) {
  const out = new Float32Array(codes.length);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < codes.length; i++) bits[i] = table[codes[i]];
  return out;
}

function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  if (e === 0) return sign * m * 2 ** -24;
  return sign * (1024 + m) * 2 ** (e - 25);
}

const fp8Tables = new Map();

/**
 * The float32 bits of the 256 codes of an 8-bit float, as ml_dtypes decodes them: IEEE-style
 * (float8_e4m3, float8_e5m2), or with `fn` the OCP "fn" kind of the current language's
 * float8_e4m3fn (no infinities; only S.1111.111 is NaN). A NaN is the quiet NaN of its sign. A
 * display copy of python/nki_playground/dtype_values.py, pinned to it by
 * tests/python/float_formats.test.js and tests/runtime/dtype-values.test.js.
 */
function fp8Table(expBits, manBits, fn = false) {
  const key = `${expBits}.${manBits}.${fn}`;
  let table = fp8Tables.get(key);
  if (table) return table;
  table = new Uint32Array(256);
  const value = new Float32Array(1);
  const valueBits = new Uint32Array(value.buffer);
  const bias = (1 << (expBits - 1)) - 1;
  const top = (1 << expBits) - 1;
  const allMan = (1 << manBits) - 1;
  for (let code = 0; code < 256; code++) {
    const negative = (code >> (expBits + manBits)) & 1;
    const e = (code >> manBits) & top;
    const m = code & allMan;
    if (e === top && (fn ? m === allMan : m !== 0)) {
      table[code] = negative ? 0xffc00000 : 0x7fc00000;
      continue;
    }
    const sign = negative ? -1 : 1;
    if (e === top && !fn) value[0] = sign * Infinity;
    else if (e === 0) value[0] = sign * m * 2 ** (1 - bias - manBits);
    else value[0] = sign * ((1 << manBits) + m) * 2 ** (e - bias - manBits);
    table[code] = valueBits[0];
  }
  fp8Tables.set(key, table);
  return table;
}

/** float8_e8m0fnu's float32 bits: exponent only, 2 ** (code - 127); 0xff is NaN. */
function e8m0Table() {
  let table = fp8Tables.get("e8m0");
  if (table) return table;
  table = new Uint32Array(256);
  const value = new Float32Array(1);
  const valueBits = new Uint32Array(value.buffer);
  for (let code = 0; code < 256; code++) {
    value[0] = code === 255 ? NaN : 2 ** (code - 127);
    table[code] = code === 255 ? 0x7fc00000 : valueBits[0];
  }
  fp8Tables.set("e8m0", table);
  return table;
}

/** The ArrayBuffers of every tensor's data (a worker's postMessage transfer list). */
export function transferables(simulations) {
  const seen = new Set();
  for (const sim of simulations || []) {
    const tensors = [...sim.inputs, ...sim.outputs];
    for (const c of sim.comparisons) tensors.push(c.expected, c.actual);
    for (const t of tensors) if (t.data) seen.add(t.data.buffer);
  }
  return [...seen];
}
