// bfloat16 and the float8 formats, bit for bit, against tests/numpy_golden/float_goldens.json
// (made from the formats' definitions and checked against ml_dtypes): every code of every
// format decodes to the float32 ml_dtypes gives and round-trips, and ~67k float32 / float64
// probes (ties, subnormals, overflow, NaN) round to ml_dtypes' codes — in the NumPy stand-in
// (nki_playground.dtype_values, the Python owner), in the simulator's casts (core/sim/numerics.cpp)
// and in the JS display decoder (runtime/results.mjs): the three copies are pinned equal here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inflateSync } from "node:zlib";

import { beforeAll, describe, expect, test } from "vitest";

import { toFloat32 } from "../../runtime/results.mjs";
import { pythonHarness } from "./harness.js";

const DIR = fileURLToPath(new URL("../numpy_golden/", import.meta.url));
const GOLDENS = JSON.parse(readFileSync(`${DIR}float_goldens.json`, "utf8"));
const FORMATS = Object.keys(GOLDENS.formats);
const unpack = (s) => new Uint8Array(inflateSync(Buffer.from(s, "base64")));
const h = pythonHarness("floats.py");
const { py } = h;

/** The float32 bit patterns every code of `name` decodes to (bfloat16: code << 16). */
function decodeBits(name) {
  const enc = GOLDENS.formats[name].decode;
  if (enc === null) return Uint32Array.from({ length: 65536 }, (_, c) => (c << 16) >>> 0);
  const raw = unpack(enc);
  return new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
}

const isNaNBits = (b) => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;

/** Codes whose float32 value differs from the golden (a NaN: only NaN-ness and sign count). */
function decodeMismatches(name, gotBits) {
  const want = decodeBits(name);
  const bad = [];
  for (let c = 0; c < want.length; c++) {
    const w = want[c];
    const g = gotBits[c] >>> 0;
    const same = isNaNBits(w) ? isNaNBits(g) && w >>> 31 === g >>> 31 : w === g;
    if (!same) bad.push([c, w.toString(16), g.toString(16)]);
  }
  return bad;
}

beforeAll(() => {
  const FS = h.runtime.pyodide.FS;
  FS.mkdirTree("/tmp/fg");
  FS.writeFile("/tmp/fg/float_cases.py", readFileSync(`${DIR}float_cases.py`, "utf8"));
  FS.writeFile("/tmp/fg/float_goldens.json", readFileSync(`${DIR}float_goldens.json`, "utf8"));
  py(`
import base64, hashlib, json, struct, sys, zlib
sys.path.insert(0, "/tmp/fg")
import float_cases
sys.path.remove("/tmp/fg")
G = json.load(open("/tmp/fg/float_goldens.json"))
F32 = float_cases.f32_probes()
F64 = float_cases.f64_probes()
F32_BYTES = struct.pack(f"<{len(F32)}I", *F32)
F64_BYTES = struct.pack(f"<{len(F64)}d", *F64)

def unpack(s):
    return zlib.decompress(base64.b64decode(s))

def want_codes(name, key):
    raw = unpack(G["formats"][name][key])
    return list(raw) if name != "bfloat16" else list(struct.unpack(f"<{len(raw) // 2}H", raw))

def all_codes(name):
    return bytes(range(256)) if name != "bfloat16" else struct.pack("<65536H", *range(65536))

def mismatches(got, want, probes):
    bad = [(i, probes[i], got[i], want[i]) for i in range(len(want)) if got[i] != want[i]]
    return [len(bad)] + [list(b) for b in bad[:5]]
`);
});

test("the probes are the ones the goldens were made from", () => {
  const got = JSON.parse(
    py("", "json.dumps([len(F32), hashlib.sha256(F32_BYTES).hexdigest(), len(F64), hashlib.sha256(F64_BYTES).hexdigest()])"),
  );
  expect(got).toEqual([
    GOLDENS.f32_probes.count,
    GOLDENS.f32_probes.sha256,
    GOLDENS.f64_probes.count,
    GOLDENS.f64_probes.sha256,
  ]);
});

describe("the NumPy stand-in (nki_playground.dtype_values)", () => {
  test.each(FORMATS)("%s: every code decodes as ml_dtypes decodes it, and round-trips", (name) => {
    const got = JSON.parse(
      py(
        `
import numpy as np, ml_dtypes
_t = getattr(ml_dtypes, "${name}")
_a = np.frombuffer(all_codes("${name}"), _t)
_dec = _a.astype(np.float32).view(np.uint32).tolist()
_back = _a.tobytes() == all_codes("${name}")
_fmt = __import__("nki_playground.dtype_values", fromlist=["get"]).get("${name}")
_trip = [c for c in range(len(_dec)) if _fmt.encode(_fmt.decode(c)) != c and _dec[c] & 0x7fffffff <= 0x7f800000]
`,
        "json.dumps([_dec, _trip])",
      ),
    );
    expect(decodeMismatches(name, got[0])).toEqual([]);
    expect(got[1]).toEqual([]); // every non-NaN code: encode(decode(c)) == c
  });

  test.each(FORMATS)("%s: float32 and float64 arrays cast, Python floats convert, as ml_dtypes does", (name) => {
    const got = JSON.parse(
      py(
        `
import numpy as np, ml_dtypes
_t = getattr(ml_dtypes, "${name}")
_u = np.uint16 if "${name}" == "bfloat16" else np.uint8
_f32 = np.frombuffer(F32_BYTES, np.float32)
_res = {
  "from_f32": mismatches(_f32.astype(_t).view(_u).tolist(), want_codes("${name}", "from_f32"), F32),
  "from_f64": mismatches(np.frombuffer(F64_BYTES, np.float64).astype(_t).view(_u).tolist(), want_codes("${name}", "from_f64"), F64),
  "from_py": mismatches(np.array(F64, dtype=_t).view(_u).tolist(), want_codes("${name}", "from_py"), F64),
}
`,
        "json.dumps(_res)",
      ),
    );
    expect(got).toEqual({ from_f32: [0], from_f64: [0], from_py: [0] });
  });
});

describe("the simulator's casts (core/sim/numerics.cpp)", () => {
  const KERNELS = `
import numpy as np, ml_dtypes
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

def narrowing(t):
    @nki.jit(mode="simulation")
    def narrow(bits):  # float32 bit patterns (NaN payloads included) reach the core exactly
        out = nl.ndarray(bits.shape, dtype=t, buffer=nl.shared_hbm)
        nl.store(out, value=nl.copy(nl.load(bits.view(nl.float32)), dtype=t))
        return out
    return narrow

def widening(t):
    @nki.jit(mode="simulation")
    def widen(codes):
        out = nl.ndarray(codes.shape, dtype=nl.float32, buffer=nl.shared_hbm)
        nl.store(out, value=nl.copy(nl.load(codes.view(t)), dtype=nl.float32))
        return out
    return widen
`;
  // The formats the core has (NKI Beta 1's).
  test.each(["bfloat16", "float8_e4m3", "float8_e5m2"])("%s: codes decode, float32 rounds, as ml_dtypes", (name) => {
    const got = JSON.parse(
      py(
        `${KERNELS}
_t = getattr(nl, "${name}")
_u = np.uint16 if "${name}" == "bfloat16" else np.uint8
_codes = np.frombuffer(all_codes("${name}"), _u).reshape(128, -1)
_dec = widening(_t)(_codes).view(np.uint32).reshape(-1).tolist()
_n = len(F32)
_cols = -(-_n // 128)
_x = np.zeros(128 * _cols, np.uint32)
_x[:_n] = np.frombuffer(F32_BYTES, np.uint32)
_out = narrowing(_t)(_x.reshape(128, _cols)).view(_u).reshape(-1).tolist()[:_n]
_res = [_dec, mismatches(_out, want_codes("${name}", "from_f32"), F32)]
`,
        "json.dumps(_res)",
      ),
    );
    expect(decodeMismatches(name, got[0])).toEqual([]);
    expect(got[1]).toEqual([0]);
  });
});

describe("the JS display decoder (runtime/results.mjs)", () => {
  test.each(["bfloat16", "float8_e4m3", "float8_e5m2"])("%s: every code decodes to ml_dtypes' value", (name) => {
    const n = name === "bfloat16" ? 65536 : 256;
    const codes = name === "bfloat16" ? Uint16Array.from({ length: n }, (_, i) => i) : Uint8Array.from({ length: n }, (_, i) => i);
    const values = toFloat32(new Uint8Array(codes.buffer), name, n);
    expect(decodeMismatches(name, new Uint32Array(values.buffer))).toEqual([]);
  });
});
