"""Traces the real-kernel cases of the simulator's benchmark (bench_cases.json) as a user's
kernel is traced (Beta 1 from tensor types; the current language, "language": "nki", from
shapes), and writes each one's IR (the printer's JSON form) to
build/sim_bench/<case>.json for `sim_bench --kernel`. Runs inside Pyodide with the repository
mounted (tests/sim/trace_bench.mjs):  python tests/sim/trace_bench.py [case ...]
"""
import importlib.util
import json
import os
import sys

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "sim_bench")


class _Shape:
    """An input of a current-language kernel, as tracing needs it: a shape and a dtype."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)


def trace(case):
    path = os.path.join(ROOT, case["kernel"])
    spec = importlib.util.spec_from_file_location("bench_" + case["name"], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if case.get("language") == "nki":  # the current language: traced on shapes alone
        from nki import _kernel
        kernel = getattr(module, case["function"])
        fn = getattr(kernel, "fn", kernel)
        t = _kernel.trace(fn, [_Shape(s, d) for s, d in case["inputs"]], {})
        try:
            return t.handle.to_json()
        finally:
            t.close()
    types = [nt.tensor[list(shape), getattr(nl, dtype)] for shape, dtype in case["inputs"]]
    t = nki.trace_kernel(getattr(module, case["function"]), *types)
    try:
        return t.to_json()
    finally:
        t.close()


def main(names):
    with open(os.path.join(HERE, "bench_cases.json"), encoding="utf-8") as f:
        cases = [c for c in json.load(f) if not names or c["name"] in names]
    os.makedirs(OUT, exist_ok=True)
    for case in cases:
        with open(os.path.join(OUT, case["name"] + ".json"), "w", encoding="utf-8") as f:
            f.write(trace(case) + "\n")
        print(f"trace_bench: wrote build/sim_bench/{case['name']}.json")


if __name__ == "__main__":
    main(sys.argv[1:])
