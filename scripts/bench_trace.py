"""Trace-time figures for npm run bench, run inside the nki-playground runtime (Pyodide).

For each kernel script: run it once with the tracer hooked to capture every trace it makes
(the kernel and its arguments); then, per captured trace,
  - full:  median wall time of tracing it again (our front end + the wasm core);
  - floor: the same Python executed against a *null backend* that replays the core's recorded
           replies without doing any work (what the Python surface costs on its own);
  - calls: Python→core calls per emitted instruction.
Prints one JSON object per kernel.
"""
import json
import statistics
import sys
import time

import neuronxcc.nki  # noqa: F401  (the front end the traced kernels use)
from neuronxcc.nki import _kernel
from nki_playground import door as _core
from neuronxcc.nki.compiler.backends.neuron.TraceContext import TraceContext

# The door's trace-time calls (scopes open and close through op requests: push / loop / pop).
CORE_FUNCS = ["op", "new_ctx", "finalize_kernel", "abandon_trace", "get_cur_scope"]


def capture(path):
    captured = []
    real_trace = _kernel.trace

    def hook(func, grid, args, kwargs, options=None, simulated=False):
        # Traces made only to simulate (an example's main block) are not the kernel's IR trace.
        if not simulated:
            captured.append((func, grid, args, kwargs, options))
        return real_trace(func, grid, args, kwargs, options, simulated=simulated)

    _kernel.trace = hook
    try:
        from nki_playground import runner as _runner
        code = _runner.run_file(path, [])
    finally:
        _kernel.trace = real_trace
    if code != 0:
        raise SystemExit(f"{path} exited {code}")
    return captured


class _FakeHandle:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name

    def clone(self):
        return self

    def delete(self):
        pass


def record(func, grid, args, kwargs, options):
    """Runs one real trace with every core call counted and its reply recorded."""
    log = []
    originals = {n: getattr(_core, n) for n in CORE_FUNCS}

    def wrap(n, f):
        def call(*a):
            r = f(*a)
            log.append((n, r))
            return r
        return call

    for n, f in originals.items():
        setattr(_core, n, wrap(n, f))
    try:
        t = _kernel.trace(func, grid, args, kwargs, options)
    finally:
        for n, f in originals.items():
            setattr(_core, n, f)
    return t, log


def replay(log, name):
    """Installs a null backend answering with the recorded replies, in order."""
    it = iter(log)

    def make(n):
        def call(*a):
            got, reply = next(it)
            assert got == n, f"replay diverged: expected {got}, got {n}"
            if n == "finalize_kernel":
                return _FakeHandle(name)
            return reply
        return call

    originals = {n: getattr(_core, n) for n in CORE_FUNCS}
    for n in CORE_FUNCS:
        setattr(_core, n, make(n))
    return originals


def timed(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main(paths, runs, warmup=30):
    for path in paths:
        for func, grid, args, kwargs, options in capture(path):
            t, log = record(func, grid, args, kwargs, options)
            insts = t.instruction_count
            calls = len(log)
            t.close()

            def full():
                _kernel.trace(func, grid, args, kwargs, options).close()

            def floor():
                originals = replay(log, func.__name__)
                try:
                    _kernel.trace(func, grid, args, kwargs, options)
                finally:
                    for n, f in originals.items():
                        setattr(_core, n, f)

            for _ in range(warmup):  # let V8 tier the wasm up before timing
                full()
                floor()
            full_ms = timed(full, runs)
            floor_ms = timed(floor, runs)
            assert TraceContext.global_ctx is None
            print(json.dumps({"kernel": func.__name__, "file": path, "instructions": insts,
                              "core_calls": calls, "full_ms": full_ms, "floor_ms": floor_ms}))


if __name__ == "__main__":
    main(sys.argv[2:], int(sys.argv[1]))
