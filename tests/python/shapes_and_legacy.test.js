// Tile shapes the way NKI makes them (integer indices, nl.mgrid components), output-parameter
// kernels (the pre-2.20 convention the SDK 2.26 tutorials still run), and launch details.
import { describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const py = pythonHarness("s.py");

const HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
`;

/** The IR text of `HEAD + body`, which must trace cleanly. */
const run = (body) => py.irText(HEAD + body);

describe("tile shapes", () => {
  test("an integer index keeps a unit axis when the tile would lose its free axis", () => {
    const text = run(`@nki.jit
def k(a):
    col = nl.load(a[0:128, 3])
    row = nl.load(a[0])
    t = nl.load(a[0:128, :])
    first = nl.copy(t[:, 0])
    return None
nki.trace_kernel(k, nt.tensor[[128, 16], nl.float32])
`);
    expect(text).toContain("%col = dma.load %a[p, f + 3] : sbuf f32[128,1]");
    expect(text).toContain("%row = dma.load %a[p, f] : sbuf f32[1,16]");
    expect(text).toMatch(/%first = .*%t\[p, f\] : sbuf f32\[128,1\]/);
  });

  test("nl.mgrid components index where they are used", () => {
    const text = run(`@nki.jit
def k(x, g):
    ix, iw, iy = nl.mgrid[0:128, 0:1, 0:512]
    ib, ic = nl.mgrid[0:64, 0:6]
    gam = nl.load(g.reshape((1, 512))[iw, iy])
    t = nl.load(x[ix, iy], mask=(ix < 100))
    sub = nl.copy(t[ix, ic])
    both = nl.copy(t[ib, iy])
    return None
nki.trace_kernel(k, nt.tensor[[128, 512], nl.float32], nt.tensor[[512], nl.float32])
`);
    expect(text).toContain(": sbuf f32[1,512]"); // g[iw, iy]: the unused ix axis is gone
    expect(text).toContain("%t = dma.load %x {mask = p < 100} : sbuf f32[128,512]");
    expect(text).toMatch(/%sub = .* : sbuf f32\[128,6\]/); // two grids in one subscript
    expect(text).toMatch(/%both = .* : sbuf f32\[64,512\]/);
  });

  test("a grid component with an integer keeps the grid's unit axis", () => {
    const text = run(`@nki.jit
def k(x):
    i_p, i_f, one = nl.mgrid[0:128, 0:8, 0:1]
    t = nl.load(x[i_p, i_f])
    m = nl.copy(t[i_p, 0])
    return None
nki.trace_kernel(k, nt.tensor[[128, 8], nl.float32])
`);
    expect(text).toMatch(/%m = .*%t\[p, 0\] : sbuf f32\[128,1\]/);
  });

  test("the grid's unit axis keeps its place: a[0, g.x] of a [1, F] grid is [1, F]", () => {
    // NKI's nc_stream_shuffle doc test broadcasts src=a[0, g.x] with g = nl.mgrid[0:1, 0:128].
    const text = run(`@nki.jit
def k(x):
    g = nl.mgrid[0:1, 0:128]
    t = nl.load(x)
    m = nl.copy(t[0, g.x])
    return None
nki.trace_kernel(k, nt.tensor[[1, 128], nl.float32])
`);
    expect(text).toMatch(/%m = .*%t\[0, f\] : sbuf f32\[1,128\]/);
  });
});

describe("output-parameter kernels", () => {
  test("a plain function writing its output parameter traces, the parameter is its output", () => {
    const text = run(`def legacy(a, out):
    t = nl.load(a)
    nl.store(out, value=nl.add(t, 1.0))
nki.trace_kernel(legacy, nt.tensor[[128, 8], nl.float32], nt.tensor[[128, 8], nl.float32])
`);
    expect(text).toContain("kernel @legacy(%a: hbm f32[128,8] mutable, %out: hbm f32[128,8] mutable) -> (%out)");
  });

  test("simulating one writes the results into the caller's output arrays", () => {
    const src = `${HEAD}def add_one(a, out):
    nl.store(out, value=nl.add(nl.load(a), 1.0))
a = np.ones((128, 8), dtype=np.float32)
o1 = np.zeros((128, 8), dtype=np.float32)
o2 = np.zeros((128, 64), dtype=np.float32)
nki.simulate_kernel(add_one, a, o1)
nki.baremetal(add_one)(np.ones((128, 64), dtype=np.float32), o2)
assert (float(o1[3, 4]), float(o2[127, 63]), float(a[0, 0])) == (2.0, 2.0, 1.0), (o1, o2)
`;
    const r = py.run(src);
    expect(r.exitCode, py.err).toBe(0);
  });

  test("@nki.trace kernels and nki.jit of a jitted kernel", () => {
    const text = run(`@nki.trace
def legacy(a, out):
    nl.store(out, value=nl.load(a))
@nki.jit
def modern(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out
again = nki.jit(modern, platform_target="trn2")
A = nt.tensor[[128, 8], nl.float32]
nki.trace_kernel(legacy, A, A)
nki.trace_kernel(again, A)
`);
    expect(text).toContain("-> (%out)");
    expect(text).toContain("kernel @modern(%a: hbm f32[128,8]) -> (%out)");
  });
});

describe("double buffering", () => {
  test("a loop variable modulo an integer picks a buffer; traced and simulated", () => {
    const src = `${HEAD}@nki.jit
def ping_pong(a):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    bufs = nl.ndarray((2, nl.par_dim(128), cols), dtype=a.dtype, buffer=nl.sbuf)
    for i in nl.sequential_range(rows // 128):
        bufs[i % 2] = nl.load(a[i * 128:(i + 1) * 128, :])
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.add(bufs[(i + 2) % 2], 1.0))
    return out
a = np.arange(512 * 8, dtype=np.float32).reshape(512, 8)
assert float(np.max(np.abs(ping_pong(a) - (a + 1.0)))) == 0.0
print(nki.trace_kernel(ping_pong, a))
`;
    const r = py.run(src);
    expect(r.exitCode, py.err).toBe(0);
    // `bufs[i % 2] = nl.load(...)`: the DMA writes the picked buffer itself.
    expect(r.traces.at(-1).text).toContain("dma.load %bufs[(%i mod 2), p, f], %a[128*%i + p, f]");
  });

  test("a loop variable divided by an integer; exact divisions stay affine", () => {
    const src = `${HEAD}@nki.jit
def pairs(a):
    out = nl.ndarray((256, 8), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.sequential_range(4):
        t = nl.load(a[(i // 2) * 128:(i // 2 + 1) * 128, :])
        u = nl.load(a[i * 256 // 256 * 0:128, :])
        nl.store(out[(i // 2) * 128:(i // 2 + 1) * 128, :], value=nl.add(t, u))
    return out
a = np.arange(256 * 8, dtype=np.float32).reshape(256, 8)
r = pairs(a)
assert float(np.max(np.abs(r[128:] - (a[128:] + a[:128])))) == 0.0
print(nki.trace_kernel(pairs, a))
`;
    const r = py.run(src);
    expect(r.exitCode, py.err).toBe(0);
    expect(r.traces.at(-1).text).toContain("%a[128*(%i div 2) + p, f]");
  });

  test("anything else modulo is refused clearly", () => {
    const src = `${HEAD}@nki.jit
def k(a):
    for i in nl.affine_range(4):
        t = nl.load(a[(2 * i) % 3, 0:8])
    return None
nki.trace_kernel(k, nt.tensor[[4, 8], nl.float32])
`;
    expect(py.run(src).exitCode).toBe(1);
    expect(py.err).toContain("s.py:8:23: error: TypeError: index expressions must stay affine");
  });
});

describe("partition broadcast", () => {
  test("nl.add broadcasts a one-partition operand along the partitions (simulated too)", () => {
    const src = `${HEAD}@nki.jit
def add_rows(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.add(nl.load(x), nl.load(y)))
    return out
x = np.arange(128 * 8, dtype=np.float32).reshape(128, 8)
y = np.arange(8, dtype=np.float32).reshape(1, 8)
assert float(np.max(np.abs(add_rows(x, y) - (x + y)))) == 0.0
print(nki.trace_kernel(add_rows, x, y))
`;
    const r = py.run(src);
    expect(r.exitCode, py.err).toBe(0);
    expect(r.traces.at(-1).text).toContain("vector.tensor_tensor %t, %t.1[0, f] {op = add}");
  });
});

describe("launch and values", () => {
  test("nl.spmd_dim(k, nl.nc(n)) is k * n instances, nl.nc in either position", () => {
    // One script each: the launches trace to the same IR, which a run lists once.
    for (const launch of ["nl.spmd_dim(nl.nc(2), 2)", "nl.spmd_dim(2, nl.nc(2))", "2 * nl.nc(2)", "nl.nc(2) * 2"]) {
      const text = run(`@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    r = nl.program_id(0) * 128 + nl.arange(128)[:, None]
    nl.store(out[r, nl.arange(8)[None, :]], value=nl.load(a[r, nl.arange(8)[None, :]]))
    return out
A = nt.tensor[[512, 8], nl.float32]
nki.trace_kernel(k[${launch}], A)
`);
      expect(text.match(/grid \[4\]/g), launch).toHaveLength(1);
    }
  });

  test("infinite and NaN attributes cross to JS as JSON", () => {
    const r = py.run(`${HEAD}@nki.jit
def k(a):
    t = nl.full((128, 8), float("-inf"), nl.float32)
    return None
nki.trace_kernel(k, nt.tensor[[128, 8], nl.float32])
`);
    expect(r.exitCode).toBe(0);
    expect(JSON.stringify(r.traces[0].ir)).toContain('"-Infinity"');
    expect(r.traces[0].text).toContain("-inf");
  });
});
