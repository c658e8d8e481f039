"""The goldens' cases inside Pyodide: load a case (kernel, input .npy files, extra arguments),
simulate it and compare with the expected outputs, or trace it for its IR.

Used by tests/sim/trace_goldens.mjs (writes goldens/<case>/kernel.json) and by
tests/python/simulate_kernels.test.js (checks every case end to end).
"""
import importlib.util
import json
import math
import os

import numpy as np

import neuronxcc.nki as nki

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDENS = os.path.join(HERE, "goldens")


def cases():
    with open(os.path.join(GOLDENS, "cases.json"), encoding="utf-8") as f:
        return json.load(f)


def _kernel(case):
    path = os.path.join(ROOT, case["kernel"])
    spec = importlib.util.spec_from_file_location(f"golden_{case['name']}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    k = getattr(module, case["function"])
    return k[tuple(case["grid"])] if case["grid"] else k


def _arguments(case):
    folder = os.path.join(GOLDENS, case["name"])
    arrays = [np.load(os.path.join(folder, f"{p}.npy")) for p in case["inputs"]]
    extra = {k: tuple(v) if isinstance(v, list) else v for k, v in case["args"].items()}
    return arrays, extra


def trace(case):
    """The case's IR in the printer's JSON form."""
    arrays, extra = _arguments(case)
    t = nki.trace_kernel(_kernel(case), *arrays, **extra)
    try:
        return t.to_json()
    finally:
        t.close()


def _compare(got, want, rtol, atol):
    """(mismatches, worst |difference|, first mismatch description)."""
    if tuple(got.shape) != tuple(want.shape):
        return 1, math.inf, f"shape {tuple(got.shape)} != {tuple(want.shape)}"
    g = got.reshape(-1).tolist()
    w = want.reshape(-1).tolist()
    bad, worst, first = 0, 0.0, None
    for i, (a, b) in enumerate(zip(g, w)):
        if b != b or a != a or b in (math.inf, -math.inf):
            ok = (a != a and b != b) or a == b
            d = 0.0 if ok else math.inf
        else:
            d = abs(a - b)
            ok = d <= atol + rtol * abs(b)
        worst = max(worst, d)
        if not ok:
            bad += 1
            if first is None:
                first = f"element {i}: got {a!r}, want {b!r}"
    return bad, worst, first


def run(case):
    """Simulates the case; returns {name, ok, outputs: [{mismatches, worst, first}]}."""
    arrays, extra = _arguments(case)
    result = nki.simulate_kernel(_kernel(case), *arrays, **extra)
    outs = result if isinstance(result, tuple) else (result,)
    folder = os.path.join(GOLDENS, case["name"])
    report = {"name": case["name"], "ok": len(outs) == len(case["outputs"]), "outputs": []}
    for got, meta in zip(outs, case["outputs"]):
        want = np.load(os.path.join(folder, meta["file"]))
        rtol, atol = meta["tolerance"]
        bad, worst, first = _compare(got, want, rtol, atol)
        report["outputs"].append({"dtype": str(got.dtype), "mismatches": bad, "worst": worst,
                                  "first": first})
        report["ok"] = report["ok"] and bad == 0 and str(got.dtype) == meta["dtype"]
    return report
