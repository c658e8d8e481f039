"""NumPy on the host for the simulator's benchmark cases (scripts/bench_sim.mjs runs this with
/usr/bin/python3, OPENBLAS_NUM_THREADS=1). Prints one JSON line per case: the best and median
wall time over the repeats, in milliseconds, of a plain NumPy implementation of the math the
kernel does (same shapes and dtypes; bfloat16, which NumPy lacks, as float32 values rounded
to bfloat16's grid, the product rounded back).

Each case is timed twice. `best_ms` / `median_ms`: before every repeat (untimed) its inputs are
written afresh, as the simulator's are (sim_bench.cpp writes each run's inputs into a new
Simulator's memory): freshly written inputs are dirty in the cache, and the writes a kernel
makes then evict them at the cost of writing them back, which inputs read over and over do
not pay. `warm_best_ms` / `warm_median_ms`: the same arrays repeat after repeat, untouched.

    bench_numpy.py [case ...]     (default: every case)
"""
import json
import math
import sys
import time

import numpy as np


def best_ms(fn, repeats, inputs=(), fresh=False):
    """Best and median of `repeats` timed calls after one untimed; with `fresh`, each input
    array is written again (from a copy kept aside) before every call, outside the timing."""
    sources = [x.copy() for x in inputs] if fresh else []

    def rewrite():
        for x, src in zip(inputs, sources):
            np.copyto(x, src)
    rewrite()
    fn()
    times = []
    for _ in range(repeats):
        rewrite()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[0], times[len(times) // 2]


def uniform(rng, shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def to_bf16(x):
    """float32 values rounded (to nearest even) to bfloat16, still held as float32."""
    b = x.view(np.uint32)
    b = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return b.view(np.float32)


def case_matmul(rng):
    a_t, b = uniform(rng, (512, 512)), uniform(rng, (512, 512))
    return (lambda: a_t.T @ b), [a_t, b]


def case_elementwise(rng):
    x, y = uniform(rng, (128, 65536)), uniform(rng, (128, 65536))
    return (lambda: x + y), [x, y]


def case_copy(rng, cols=65536):
    x = uniform(rng, (128, cols))
    return (lambda: x.copy()), [x]


def case_scan(rng):
    x, y = uniform(rng, (128, 16400)), uniform(rng, (128, 16400))

    def run():
        out = np.empty_like(x)
        for j in range(0, 16400, 2050):  # h = x * h + y along each row, from 0 per block
            h = np.zeros(128, np.float32)
            for t in range(j, j + 2050):
                h = x[:, t] * h + y[:, t]
                out[:, t] = h
        return out
    return run, [x, y]


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def case_softmax(rng):
    s = uniform(rng, (128, 4096))
    return (lambda: softmax_rows(s)), [s]


def flash(seq, d=128):
    def make(rng):
        q, k, v = uniform(rng, (d, seq)), uniform(rng, (d, seq)), uniform(rng, (seq, d))
        upper = np.triu_indices(seq, 1)

        def run():
            s = (q.T @ k) * np.float32(1.0 / math.sqrt(d))
            s[upper] = -np.inf
            return softmax_rows(s) @ v
        return run, [q, k, v]
    return make


def case_matmul_2048_bf16(rng):
    a_t, b = to_bf16(uniform(rng, (2048, 2048))), to_bf16(uniform(rng, (2048, 2048)))
    return (lambda: to_bf16(a_t.T @ b)), [a_t, b]


def case_layernorm(rng):
    x = uniform(rng, (4096, 8192))
    gamma, beta = uniform(rng, (8192,)), uniform(rng, (8192,))

    def run():
        mean = x.mean(axis=1, keepdims=True)
        var = x.var(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(var + np.float32(1e-5)) * gamma + beta
    return run, [x, gamma, beta]


def case_mamba_scan(rng, channels=128, seq=8192, states=16):
    delta = rng.uniform(0.0, 0.1, (channels, seq)).astype(np.float32)
    u = uniform(rng, (channels, seq))
    a = rng.uniform(-1.0, -0.1, (channels, states)).astype(np.float32)
    b, c = uniform(rng, (states, seq)), uniform(rng, (states, seq))

    def run():
        decay = np.exp(delta[:, :, None] * a[:, None, :])  # [channels, seq, states]
        drive = (delta * u)[:, :, None] * b.T[None, :, :]
        h = np.zeros((channels, states), np.float32)
        y = np.empty((channels, seq), np.float32)
        for t in range(seq):
            h = decay[:, t] * h + drive[:, t]
            y[:, t] = h @ c[:, t]
        return y
    return run, [delta, u, a, b, c]


CASES = {
    "matmul": (case_matmul, 15),
    "elementwise": (case_elementwise, 15),
    "copy": (case_copy, 15),
    "copy_large": (lambda rng: case_copy(rng, 262144), 7),
    "softmax": (case_softmax, 200),
    "scan": (case_scan, 3),
    "flash_fwd_4096": (flash(4096), 3),
    "flash_fwd_8192": (flash(8192), 1),
    "matmul_2048_bf16": (case_matmul_2048_bf16, 1),
    "layernorm_4096x8192": (case_layernorm, 3),
    "mamba_scan": (case_mamba_scan, 3),
    "tile_add_current": (case_elementwise, 15),
}


def main():
    for name in sys.argv[1:] or CASES:
        make, repeats = CASES[name]
        run, inputs = make(np.random.default_rng(0))
        best, median = best_ms(run, repeats, inputs, fresh=True)
        warm_best, warm_median = best_ms(run, repeats, inputs)
        print(json.dumps({"case": name, "best_ms": best, "median_ms": median,
                          "warm_best_ms": warm_best, "warm_median_ms": warm_median,
                          "numpy": np.__version__}), flush=True)


if __name__ == "__main__":
    main()
