// The JS side of runtime.simulate(): turns the caller's inputs (typed arrays, number arrays,
// nested JS arrays, scalars) into one bytes blob plus a JSON spec for
// `nki_playground.runner.simulate_source`, and the simulated outputs back into typed arrays of
// their own dtype (bfloat16/float8: Float32Array values plus their raw codes). Environment-
// agnostic; no element work happens in Python, except rounding values to bfloat16/float8.
import { toFloat32 } from "./results.mjs";

const NATIVE = {
  float32: Float32Array,
  float64: Float64Array,
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  bool: Uint8Array,
  bool_: Uint8Array,
};

/**
 * ml_dtypes' low-precision floats (NKI's bfloat16 and float8 types): their raw codes' typed
 * array. An input of one of them is its codes (this typed array, passed as they are) or values
 * to round (a Float32Array, Float64Array or number[]): those cross as float32/float64 and are
 * cast in Python by the formats' one owner (nki_playground.dtype_values), as
 * `x.astype(ml_dtypes.bfloat16)` would — no rounding happens here.
 */
export const CODES = {
  bfloat16: Uint16Array,
  float8_e4m3: Uint8Array,
  float8_e4m3fn: Uint8Array,
  float8_e5m2: Uint8Array,
  float8_e8m0fnu: Uint8Array,
};

const DTYPE_OF = new Map([
  [Float32Array, "float32"],
  [Float64Array, "float64"],
  [Int8Array, "int8"],
  [Uint8Array, "uint8"],
  [Int16Array, "int16"],
  [Uint16Array, "uint16"],
  [Int32Array, "int32"],
  [Uint32Array, "uint32"],
  [BigInt64Array, "int64"],
  [BigUint64Array, "uint64"],
]);

/**
 * Encodes simulate()'s inputs.
 * @param {Array|object} inputs  Positional (array) or by parameter name (object).
 * @returns {{spec: object[], blob: Uint8Array}}
 */
export function encodeInputs(inputs) {
  let entries;
  if (Array.isArray(inputs)) entries = inputs.map((v) => [null, v]);
  else if (inputs && typeof inputs === "object") entries = Object.entries(inputs);
  else throw new TypeError("simulate: inputs must be an array (positional) or an object (by parameter name)");
  const spec = [];
  const chunks = [];
  let offset = 0;
  for (const [name, value] of entries) {
    const label = name === null ? `input ${spec.length}` : `input '${name}'`;
    if (typeof value === "number" || typeof value === "boolean") {
      spec.push({ name, scalar: value });
      continue;
    }
    const bytes = tensorBytes(value, label);
    const entry = { name, shape: bytes.shape, dtype: bytes.dtype, offset, nbytes: bytes.data.byteLength };
    if (bytes.from) entry.from = bytes.from;
    spec.push(entry);
    chunks.push(bytes.data);
    offset += bytes.data.byteLength;
  }
  const blob = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    blob.set(c, at);
    at += c.byteLength;
  }
  return { spec, blob };
}

function tensorBytes(value, label) {
  let data;
  let shape;
  let dtype;
  if (Array.isArray(value)) {
    shape = nestedShape(value, label);
    data = value.flat(Infinity);
  } else if (ArrayBuffer.isView(value)) {
    data = value;
  } else if (value && typeof value === "object" && "data" in value) {
    ({ data, shape, dtype } = value);
    if (Array.isArray(data) && data.some(Array.isArray)) {
      shape ??= nestedShape(data, label);
      data = data.flat(Infinity);
    }
  } else {
    throw new TypeError(`simulate: ${label} must be {data, shape, dtype?}, a typed array, a (nested) array or a number`);
  }
  if (!Array.isArray(data) && !ArrayBuffer.isView(data)) {
    throw new TypeError(`simulate: ${label}: data must be a typed array or an array of numbers`);
  }
  dtype ??= DTYPE_OF.get(data.constructor) ?? "float32";
  shape ??= [data.length];
  if (!Array.isArray(shape) || !shape.every((s) => Number.isInteger(s) && s >= 0)) {
    throw new TypeError(`simulate: ${label}: shape must be an array of non-negative integers`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) {
    throw new TypeError(`simulate: ${label} has ${data.length} values, shape [${shape}] needs ${count}`);
  }
  const Codes = CODES[dtype];
  if (Codes) {
    if (data instanceof Codes) return { shape, dtype, data: encode(data, Codes === Uint16Array ? "uint16" : "uint8", label) };
    const from = data instanceof Float32Array ? "float32" : Array.isArray(data) || data instanceof Float64Array ? "float64" : null;
    if (!from) {
      throw new TypeError(
        `simulate: ${label}: ${dtype} data must be its raw codes (a ${Codes.name}) or values to round (a Float32Array, Float64Array or number[])`,
      );
    }
    return { shape, dtype, from, data: encode(data, from, label) };
  }
  return { shape, dtype, data: encode(data, dtype, label) };
}

function nestedShape(value, label) {
  const shape = [];
  for (let v = value; Array.isArray(v); v = v[0]) shape.push(v.length);
  const check = (v, depth) => {
    if (depth === shape.length) {
      if (typeof v !== "number" && typeof v !== "boolean") throw new TypeError(`simulate: ${label}: not a number: ${v}`);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) throw new TypeError(`simulate: ${label} is a ragged array`);
    for (const x of v) check(x, depth + 1);
  };
  check(value, 0);
  return shape;
}

/** `data` as little-endian bytes of `dtype`. */
function encode(data, dtype, label) {
  const Native = NATIVE[dtype];
  if (Native) {
    const big = Native === BigInt64Array || Native === BigUint64Array;
    const typed = data instanceof Native ? data : Native.from(data, big ? (x) => BigInt(Math.trunc(Number(x))) : Number);
    return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength).slice();
  }
  if (dtype === "float16") {
    const out = new Uint16Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = toHalf(Number(data[i]));
    return new Uint8Array(out.buffer);
  }
  const why = dtype === "tfloat32"
    ? "host arrays have no such dtype: pass float32 and cast in the kernel"
    : "not a NumPy or ml_dtypes dtype";
  throw new TypeError(`simulate: ${label}: dtype ${dtype} is not supported for inputs (${why})`);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float → IEEE half bits, rounding to nearest even (via float32). */
export function toHalf(v) {
  f32[0] = v;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const e = (x >>> 23) & 0xff;
  let m = x & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  let he = e - 127 + 15;
  if (he >= 0x1f) return sign | 0x7c00;
  if (he <= 0) { // subnormal half (or zero)
    if (he < -10) return sign;
    m |= 0x800000;
    const shift = 14 - he;
    let hm = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && hm & 1)) hm++;
    return sign | hm; // a carry into the exponent field is the right encoding
  }
  let hm = m >>> 13;
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && hm & 1)) {
    hm++;
    if (hm === 0x400) {
      hm = 0;
      he++;
      if (he >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (he << 10) | hm;
}

/** An output record of take_results() → {name, shape, dtype, data} in its own dtype. */
export function decodeOutput(rec, blob) {
  const out = { name: rec.name, shape: rec.shape, dtype: rec.dtype, data: null };
  if (rec.offset === null || rec.offset === undefined) return out;
  const bytes = blob.slice(rec.offset, rec.offset + rec.nbytes);
  const Native = NATIVE[rec.dtype];
  out.data = Native ? new Native(bytes.buffer, 0, rec.size) : toFloat32(bytes, rec.dtype, rec.size);
  const Codes = CODES[rec.dtype];
  if (Codes) out.bits = new Codes(bytes.buffer, 0, rec.size); // the raw codes, beside the values
  return out;
}
