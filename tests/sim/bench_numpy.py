"""NumPy on the host for the simulator's benchmark cases (scripts/bench_sim.mjs runs this with
/usr/bin/python3, OPENBLAS_NUM_THREADS=1). Prints one JSON line per case: the best and median
wall time over the repeats, in milliseconds, of a plain NumPy implementation of the math the
kernel does (same shapes and dtypes; bfloat16, which NumPy lacks, as float32 values rounded
to bfloat16's grid, the product rounded back).

    bench_numpy.py [case ...]     (default: every case)
"""
import json
import math
import sys
import time

import numpy as np


def best_ms(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
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
    return lambda: a_t.T @ b


def case_elementwise(rng):
    x, y = uniform(rng, (128, 65536)), uniform(rng, (128, 65536))
    return lambda: x + y


def case_copy(rng, cols=65536):
    x = uniform(rng, (128, cols))
    return lambda: x.copy()


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
    return run


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def case_softmax(rng):
    s = uniform(rng, (128, 4096))
    return lambda: softmax_rows(s)


def flash(seq, d=128):
    def make(rng):
        q, k, v = uniform(rng, (d, seq)), uniform(rng, (d, seq)), uniform(rng, (seq, d))
        upper = np.triu_indices(seq, 1)

        def run():
            s = (q.T @ k) * np.float32(1.0 / math.sqrt(d))
            s[upper] = -np.inf
            return softmax_rows(s) @ v
        return run
    return make


def case_matmul_2048_bf16(rng):
    a_t, b = to_bf16(uniform(rng, (2048, 2048))), to_bf16(uniform(rng, (2048, 2048)))
    return lambda: to_bf16(a_t.T @ b)


def case_layernorm(rng):
    x = uniform(rng, (4096, 8192))
    gamma, beta = uniform(rng, (8192,)), uniform(rng, (8192,))

    def run():
        mean = x.mean(axis=1, keepdims=True)
        var = x.var(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(var + np.float32(1e-5)) * gamma + beta
    return run


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
    return run


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
        best, median = best_ms(make(np.random.default_rng(0)), repeats)
        print(json.dumps({"case": name, "best_ms": best, "median_ms": median,
                          "numpy": np.__version__}), flush=True)


if __name__ == "__main__":
    main()
