"""NumPy on the host for the simulator's benchmark cases (scripts/bench_sim.mjs runs this with
/usr/bin/python3, OPENBLAS_NUM_THREADS=1). Prints one JSON line per case: the best wall time
over the repeats, in milliseconds, of the same computation the kernel does."""
import json
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


def main():
    rng = np.random.default_rng(0)
    a_t = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
    b = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
    x = rng.uniform(-1, 1, (128, 65536)).astype(np.float32)
    y = rng.uniform(-1, 1, (128, 65536)).astype(np.float32)
    s = rng.uniform(-1, 1, (128, 4096)).astype(np.float32)

    def softmax():
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    cases = {"matmul": (lambda: a_t.T @ b, 15), "elementwise": (lambda: x + y, 15),
             "softmax": (softmax, 200)}
    for name in sys.argv[1:] or cases:
        fn, repeats = cases[name]
        best, median = best_ms(fn, repeats)
        print(json.dumps({"case": name, "best_ms": best, "median_ms": median,
                          "numpy": np.__version__}))


if __name__ == "__main__":
    main()
