// Forms NKI's own doc tests write, in real Pyodide over the real core: `and` between conditions
// on loop variables or mgrid indices (their conjunction), NumPy scalars passed to a kernel
// (compile-time scalars, not tensors), and the search instructions' masks over their input.
import { describe, expect, test } from "vitest";

import { F32, HEAD, pythonHarness, script } from "./harness.js";

const py = pythonHarness("cs.py");
const { ir } = py;

function simulateOk(body) {
  const r = py.run(`${HEAD}${body}`);
  expect(py.err).toBe("");
  expect(r.exitCode).toBe(0);
  return r.out;
}

describe("`and` between conditions", () => {
  test("an if on `i > 0 and i < 3` is one IfScope on both comparisons", () => {
    const l = ir(
      script(
        "a",
        `    for i in nl.affine_range(4):
        if i > 0 and i < 3:
            t = nl.load(a)
    return None`,
        F32("128, 8"),
      ),
    );
    const plain = ir(
      script(
        "a",
        `    for i in nl.affine_range(4):
        if (i > 0) & (i < 3):
            t = nl.load(a)
    return None`,
        F32("128, 8"),
      ),
    );
    expect(l.find((x) => x.startsWith("IfScope"))).toBe(plain.find((x) => x.startsWith("IfScope")));
  });

  test("a mask of mgrid comparisons joined by `and` masks both axes", () => {
    const out = simulateOk(`
@nki.jit(mode="simulation")
def k(a):
    out = nl.ndarray((8, 8), dtype=a.dtype, buffer=nl.shared_hbm)
    ix, iy = nl.mgrid[0:8, 0:8]
    z = nl.zeros((8, 8), dtype=a.dtype)
    t = nl.load(a)
    z[ix, iy] = nl.multiply(t[ix, iy], 2.0, mask=(ix < 4 and iy < 2))
    nl.store(out, value=z)
    return out

r = k(np.ones((8, 8), dtype=np.float32))
print(int(r.sum()), r[3, 1], r[3, 2], r[4, 1])
`);
    expect(out).toBe("16 2.0 0.0 0.0\n");
  });

  test("Python values keep Python's `and`", () => {
    const out = simulateOk(`
@nki.jit(mode="simulation")
def k(a, n):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    f = 3.0 if (n > 2 and n < 10) else 1.0
    g = (n and 0) or 5
    nl.store(out, value=nl.multiply(t, f + g))
    return out

print(k(np.ones((2, 2), dtype=np.float32), 4)[0, 0])
`);
    expect(out).toBe("8.0\n");
  });
});

describe("NumPy scalars as kernel arguments", () => {
  test("np.float32(-inf) passed to a kernel is a compile-time scalar", () => {
    const out = simulateOk(`
@nki.jit(mode="simulation")
def k(a, imm: np.float32):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    top = nisa.max8(src=t)
    nl.store(out, value=nisa.nc_match_replace8(data=t, vals=top, imm=imm))
    return out

a = np.arange(32, dtype=np.float32).reshape((2, 16))
r = k(a, np.float32('-inf'))
print(int(np.isinf(r).sum()), r[0, 7], r[0, 8])
`);
    expect(out).toBe("16 7.0 -inf\n");
  });
});

describe("search instructions mask their input", () => {
  test("max8 under a mask takes the largest of the selected elements of selected partitions", () => {
    const out = simulateOk(`
@nki.jit(mode="simulation")
def k(a):
    out = nl.ndarray((2, 8), dtype=a.dtype, buffer=nl.shared_hbm)
    ix, iy = nl.mgrid[0:4, 0:32]
    t = nl.load(a)
    top = nisa.max8(src=t[ix, iy], mask=(ix < 2) & (iy < 16))
    nl.store(out, value=top[0:2, :])
    return out

a = np.arange(128, dtype=np.float32).reshape((4, 32))
r = k(a)
print(r[0].tolist(), r[1, 0])
`);
    expect(out).toBe("[15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0] 47.0\n");
  });
});

describe("nl.static_cast", () => {
  test("casts host arrays and scalars like astype (the nki-samples unit tests' helper)", () => {
    const out = simulateOk(`
a = nl.static_cast(np.arange(4, dtype=np.float32) + 0.5, np.int32)
print(a.dtype, a.tolist(), nl.static_cast(2.5, nl.float32), nl.static_cast(np.ones(2), "float16").dtype)
`);
    expect(out).toBe("int32 [0, 1, 2, 3] 2.5 float16\n");
  });
});
