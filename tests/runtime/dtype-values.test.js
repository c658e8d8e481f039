// The values of NKI's float types NumPy lacks have one Python owner
// (python/nki_playground/dtype_values.py); the JS display decoder (runtime/results.mjs) is a
// second copy that must stay: this pins the two equal for every fp8 code and a sweep of
// bfloat16 patterns — real Pyodide.
import { describe, expect, test } from "vitest";

import { toFloat32 } from "../../runtime/results.mjs";
import { pythonHarness } from "../python/harness.js";

const py = pythonHarness("d.py");

/** Python's decoding of `bytes` as dtype `name`, as float32 bit patterns (NaN: null). */
function pythonBits(name, bytes) {
  const r = py.run(`import struct, math
from nki_playground import dtype_values
vals = dtype_values.decode(bytes(${JSON.stringify(Array.from(bytes))}), ${JSON.stringify(name)})
print(",".join("nan" if math.isnan(v) else str(struct.unpack("<I", struct.pack("<f", v))[0]) for v in vals))
`);
  expect(r.exitCode).toBe(0);
  return py.out.trim().split(",").map((s) => (s === "nan" ? null : Number(s)));
}

function jsBits(name, bytes, n) {
  const f = toFloat32(bytes, name, n);
  const bits = new Uint32Array(f.buffer, f.byteOffset, n);
  return Array.from(f, (v, i) => (Number.isNaN(v) ? null : bits[i]));
}

describe("NKI-only float types: Python and JS decode alike", () => {
  for (const name of ["float8_e4m3", "float8_e5m2", "float8_e4m3fn", "float8_e8m0fnu"]) {
    test(`${name}: all 256 codes`, () => {
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      expect(jsBits(name, bytes, 256)).toEqual(pythonBits(name, bytes));
    });
  }

  test("bfloat16: every 257th pattern and the specials", () => {
    const patterns = [0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x3f80, 0xbf80];
    for (let p = 0; p < 0x10000; p += 257) patterns.push(p);
    const bytes = new Uint8Array(new Uint16Array(patterns).buffer);
    expect(jsBits("bfloat16", bytes, patterns.length)).toEqual(pythonBits("bfloat16", bytes));
  });
});
