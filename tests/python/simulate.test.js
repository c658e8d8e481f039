// Running kernels on data in Pyodide: nki.simulate_kernel, @nki.jit(mode='simulation'), direct
// calls and the device decorators (which say once that no device is present), nl.device_print,
// seeded randomness, and the simulator's diagnostics as the user sees them.
import { describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

/** Runs a script like the CLI does; returns runSource's result with its out and err. */
const { run } = pythonHarness("k.py");

const PRELUDE = `
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
`;

const SCALE = `
@nki.jit
def scale(x, factor=2.0):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.store(out, value=nl.multiply(t, factor))
    return out
`;

describe("running kernels", () => {
  test("simulate_kernel returns numpy arrays with the kernel's dtype and values", () => {
    const r = run(`${PRELUDE}${SCALE}
x = np.arange(12, dtype=np.float32).reshape(3, 4)
y = nki.simulate_kernel(scale, x, factor=0.5)
print(type(y).__name__, y.dtype, y.shape, y.tolist())
`);
    expect(r.err).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.out).toBe(
      "ndarray float32 (3, 4) [[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]\n",
    );
  });

  test("a gridded kernel runs one instance per program id, sharing shared_hbm", () => {
    const r = run(`${PRELUDE}
@nki.jit
def rows(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i = nl.program_id(0)
    t = nl.load(x[i:i + 1, :])
    nl.store(out[i:i + 1, :], value=nl.multiply(t, 10.0))
    return out
x = np.arange(6, dtype=np.float32).reshape(3, 2)
print(nki.simulate_kernel(rows[3], x).tolist())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[[0.0, 10.0], [20.0, 30.0], [40.0, 50.0]]\n");
  });

  test("mode='simulation' runs silently; the device modes say once that there is no device", () => {
    const r = run(`${PRELUDE}${SCALE}
sim = nki.jit(scale.func, mode="simulation")
x = np.ones((2, 2), dtype=np.float32)
print(sim(x).tolist())
print(scale(x).tolist(), scale(x).tolist())
bm = nki.baremetal(scale.func)
print(bm(x)[0, 0])
`);
    expect(r.exitCode).toBe(0);
    expect(r.out).toBe("[[2.0, 2.0], [2.0, 2.0]]\n[[2.0, 2.0], [2.0, 2.0]] [[2.0, 2.0], [2.0, 2.0]]\n2.0\n");
    const notes = r.err.split("\n").filter((l) => l.includes("no Neuron device here"));
    expect(notes).toEqual([
      "nki-playground: no Neuron device here; 'scale' (auto) runs on the simulator (nki.simulate_kernel)",
      "nki-playground: no Neuron device here; 'scale' (baremetal) runs on the simulator (nki.simulate_kernel)",
    ]);
  });

  test("nki.benchmark simulates and reports its latency as simulated", () => {
    const r = run(`${PRELUDE}${SCALE}
import neuronxcc.nki.typing as nt
bench = nki.benchmark(warmup=2, iters=5)(scale.func)
bench(nt.tensor[[128, 64], nl.float32])
lat = bench.benchmark_result.nc_latency
print(lat.get_latency_percentile(50) > 0, lat.get_latency_percentile(99) == lat.get_latency_percentile(1))
`);
    expect(r.exitCode).toBe(0);
    expect(r.out).toBe("True True\n");
    expect(r.err).toContain("(benchmark) runs on the simulator");
    expect(r.err).toContain("benchmark latencies are the simulator's wall-clock time (simulated)");
  });

  test("nki.profile runs placeholder inputs as zeros, as nki.benchmark does (the SDK's profiling example)", () => {
    const r = run(`${PRELUDE}${SCALE}
import neuronxcc.nki.typing as nt
prof = nki.profile(working_directory="/tmp/reports", save_neff_name="file.neff", profile_nth=2)(scale.func)
print(prof(nt.tensor[[128, 64], nl.float32]).max())
`);
    expect(r.exitCode, r.err).toBe(0);
    expect(r.out).toBe("0.0\n");
    expect(r.err).toContain("(profile) runs on the simulator");
  });

  test("a mutable parameter is updated and returned", () => {
    const r = run(`${PRELUDE}
import neuronxcc.nki.typing as nt
@nki.jit(mode="simulation")
def bump(x: nt.mutable_tensor):
    t = nl.load(x)
    nl.store(x, value=nl.add(t, 1.0))
    return x
print(bump(np.zeros((2, 3), dtype=np.float32)).tolist())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]\n");
  });

  test("bfloat16 outputs come back as bfloat16 arrays (ml_dtypes' type, rounded by the core)", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def to_bf16(x):
    out = nl.ndarray(x.shape, dtype=nl.bfloat16, buffer=nl.shared_hbm)
    nl.store(out, value=nl.copy(nl.load(x), dtype=nl.bfloat16))
    return out
y = to_bf16(np.array([[1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 3.4e38, -0.1]], dtype=np.float32))
print(y.dtype, y.tolist(), y.view(np.uint16).tolist(), y)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("bfloat16 [[1.0, 1.015625, inf, -0.10009765625]] [[16256, 16258, 32640, 48589]] [[1 1.01562 inf -0.100098]]\n");
  });

  test("bfloat16 and float8 host arrays are kernel inputs: their codes reach the kernel", () => {
    const r = run(`${PRELUDE}
import ml_dtypes
@nki.jit(mode="simulation")
def widen(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, value=nl.copy(nl.load(x), dtype=nl.float32))
    return out
for t in (nl.bfloat16, nl.float8_e4m3, nl.float8_e5m2):
    a = np.array([[0.1, -3.0, 1e-3, 200.0]], dtype=t)
    print(t, a.dtype, widen(a).tolist() == a.astype(np.float32).tolist(), widen(a).tolist())
try:
    widen(np.ones((1, 4), dtype=ml_dtypes.float8_e4m3fn))
except TypeError as e:
    print("TypeError:", e)
`);
    expect(r.out).toBe(
      "bfloat16 bfloat16 True [[0.10009765625, -3.0, 0.00099945068359375, 200.0]]\n" +
        "float8_e4m3 float8_e4m3 True [[0.1015625, -3.0, 0.001953125, 192.0]]\n" +
        "float8_e5m2 float8_e5m2 True [[0.09375, -3.0, 0.0009765625, 192.0]]\n" +
        "TypeError: widen(): parameter 'x' is a float8_e4m3fn array; NKI Beta 1 kernels take float8_e4m3 (IEEE-style, max 240) or float8_e5m2: convert it with .astype(nl.float8_e4m3)\n",
    );
  });
});

describe("control flow and SPMD memory", () => {
  test("range(scalar(t)) runs its body t times (and once for t < 1, with a warning)", () => {
    const r = run(`${PRELUDE}
from neuronxcc.nki.typing import scalar
@nki.jit(mode="simulation")
def repeat_add(x, n):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    acc = nl.load(x)
    trips = nl.load(n)
    for _ in range(scalar(trips)):
        acc[...] = nl.add(acc, 1.0)
    nl.store(out, value=acc)
    return out
x = np.zeros((1, 2), dtype=np.float32)
print(repeat_add(x, np.array([[3]], dtype=np.int32)).tolist(), repeat_add(x, np.array([[0]], dtype=np.int32)).tolist())
`);
    expect(r.out).toBe("[[3.0, 3.0]] [[1.0, 1.0]]\n");
    expect(r.err).toBe(
      "k.py:13:14: warning: dynamic loop trip count is 0; the loop runs once (On-chip while loop cannot scale to zero)\n",
    );
  });

  test("private_hbm is per SPMD instance; shared_hbm is shared", () => {
    const r = run(`${PRELUDE}
@nki.jit
def priv(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scratch = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.private_hbm)
    i = nl.program_id(0)
    nl.store(scratch[i:i + 1, :], value=nl.load(x[i:i + 1, :]))
    nl.store(out[i:i + 1, :], value=nl.load(scratch[0:1, :]))
    return out
print(nki.simulate_kernel(priv[2], np.arange(4, dtype=np.float32).reshape(2, 2)).tolist())
`);
    expect(r.out).toBe("[[0.0, 1.0], [nan, nan]]\n");
    expect(r.err).toMatch(/^k\.py:13:37: warning: reading memory that was never written: 'load' reads `scratch\[0, 0\]`/);
  });
});

describe("device_print, randomness", () => {
  test("nl.device_print prints prefix and value in program order, per loop iteration", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def k(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        t = nl.load(x[i:i + 1, :])
        nl.device_print("row", t)
        nl.store(out[i:i + 1, :], value=t)
    nl.device_print("done", nl.load(x[0:1, 0:1]))
    return out
k(np.arange(4, dtype=np.int32).reshape(2, 2))
print("after")
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("row [[0 1]]\nrow [[2 3]]\ndone [[0]]\nafter\n");
  });

  test("nl.device_print formats values as NumPy prints them (scientific, summarised, wrapped)", () => {
    // Expected texts: str() of the same arrays under Debian's NumPy 1.24.
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def k(x, y):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    nl.device_print("x", t)
    nl.device_print("y", nl.load(y))
    nl.store(out, value=t)
    return out
k(np.array([[0.8147237, 9.754e-05, 12.5]], np.float32),
  (np.arange(128 * 512, dtype=np.float32).reshape(128, 512) % 97) / 7)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe(
      "x [[8.147237e-01 9.754000e-05 1.250000e+01]]\n" +
        "y [[ 0.          0.14285715  0.2857143  ...  3.4285715   3.5714285\n   3.7142856 ]\n [ 3.857143    4.          4.142857   ...  7.285714    7.428571\n   7.571429  ]\n [ 7.714286    7.857143    8.         ... 11.142858   11.285714\n  11.428572  ]\n ...\n [11.         11.142858   11.285714   ...  0.5714286   0.71428573\n   0.85714287]\n [ 1.          1.1428572   1.2857143  ...  4.428571    4.571429\n   4.714286  ]\n [ 4.857143    5.          5.142857   ...  8.285714    8.428572\n   8.571428  ]]\n",
    );
  });

  test("nl.device_print in a long loop keeps the first 1000 and counts the rest", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def k(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.load(x)
    for i in nl.affine_range(5000):
        nl.device_print("t", t)
    nl.store(out, value=t)
    return out
k(np.ones((1, 2), dtype=np.int32))
`);
    expect(r.err).toBe("");
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe("t [[1 1]]");
    expect(lines[1000]).toBe("nki-playground: 4000 more device_print outputs were not kept (the first 1000 are above)");
    expect(r.simulations[0].prints).toHaveLength(1000);
    expect(r.simulations[0].prints_dropped).toBe(4000);
  });

  test("a script warning in a loop lists its first 100 warnings and one summary", () => {
    const r = run(`import warnings
for i in range(250):
    warnings.warn(f"careful {i}")
`);
    expect(r.exitCode).toBe(0);
    const warnings = r.diagnostics.filter((d) => d.severity === "warning");
    expect(warnings).toHaveLength(101);
    expect(warnings[99].message).toBe("careful 99");
    expect(warnings[100]).toMatchObject({ line: null, message: "150 more warnings were not listed (the first 100 are)" });
    expect(r.err.match(/UserWarning/g)).toHaveLength(250); // all of them are still printed
  });

  test("nl.rand is reproducible under nl.random_seed and uniform in [0, 1)", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def draw(seed):
    out = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.random_seed(seed)
    nl.store(out, value=nl.rand((128, 64)))
    return out
dummy = np.zeros((1, 1), dtype=np.float32)
a, b, c = draw(7).tolist(), draw(7).tolist(), draw(8).tolist()
flat = [v for row in a for v in row]
print(a == b, a != c, min(flat) >= 0.0, max(flat) < 1.0, 0.45 < sum(flat) / len(flat) < 0.55)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True True True True True\n");
  });

  test("dropout keeps everything at rate 0 and nothing at rate 1", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def drop(x, rate):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.dropout(nl.load(x), rate))
    return out
x = np.ones((4, 8), dtype=np.float32)
print(drop(x, 0.0).sum(), drop(x, 1.0).sum())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("32.0 0.0\n");
  });
});

describe("what the simulator catches", () => {
  test("the first read of never-written memory is a warning at the user's line", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def half(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.sbuf)
    buf[0:64, :] = nl.load(x[0:64, :])
    nl.store(out, value=buf)
    return out
y = half(np.ones((128, 4), dtype=np.float32))
print(y[0, 0], y[100, 0])
`);
    expect(r.exitCode).toBe(0);
    expect(r.out).toBe("1.0 nan\n");
    expect(r.err).toMatch(/^k\.py:12:5: warning: reading memory that was never written: 'store' reads `buf\[64, 0\]`/);
  });

  test("SBUF over capacity raises NKI's stack overflow error at the allocation", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def big(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.ndarray((128, 40000), dtype=nl.float32, buffer=nl.sbuf)
    b = nl.ndarray((128, 40000), dtype=nl.float32, buffer=nl.sbuf)
    c = nl.add(a, b)
    nl.store(out, value=nl.load(x))
    return out
big(np.ones((2, 2), dtype=np.float32))
`);
    expect(r.exitCode).not.toBe(0);
    expect(r.err).toContain("k.py:11:9: error: RuntimeError: stack overflow: required sbuf size 320000 exceeds available sbuf size 196608");
  });

  test("a simulated kernel may return an SBUF tile (NKI's simulator does); a trace may not", () => {
    const kernel = `${PRELUDE}
@nki.jit(mode="simulation")
def k(x):
    t = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    t[...] = nl.multiply(nl.load(x), 3.0)
    return t
`;
    const r = run(`${kernel}print(k(np.arange(4, dtype=np.float32).reshape((2, 2))).tolist())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[[0.0, 3.0], [6.0, 9.0]]\n");
    const t = run(`${kernel}import neuronxcc.nki.typing as nt\nnki.trace_kernel(k, nt.tensor[[2, 2], nl.float32])\n`);
    expect(t.exitCode).not.toBe(0);
    expect(t.err).toContain("error: NKISyntaxError: kernel output `t` must be an HBM tensor");
  });

  test("an indirect gather moves the rows' bytes; out of bounds raises IndexError at the load", () => {
    const r = run(`${PRELUDE}
@nki.jit(mode="simulation")
def gather(data, idx):
    out = nl.ndarray((4, 8), dtype=data.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(4)[:, None]
    i_f = nl.arange(8)[None, :]
    ix = nl.load(idx)
    rows = nl.load(data[ix[i_p, 0], i_f])
    nl.store(out, value=rows)
    return out
data = (np.arange(128, dtype=np.float32) * 0.25).reshape(16, 8)
print(gather(data, np.array([[1], [2], [3], [15]], dtype=np.int32))[:, 1].tolist())
gather(data, np.array([[1], [2], [3], [16]], dtype=np.int32))
`);
    expect(r.out).toBe("[2.25, 4.25, 6.25, 30.25]\n");
    expect(r.err).toContain("k.py:13:12: error: IndexError: index 128 is out of bounds for axis 0 with size 128");
  });
});
