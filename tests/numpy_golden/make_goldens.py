"""Writes numpy_goldens.json: golden_cases.CASES evaluated with a real NumPy.

Run with Debian's Python, which has NumPy (the pyenv python3 on PATH does not), for the
scipy.special cases SciPy (``apt-get install python3-scipy``) and for golden_cases_ml's cases
ml_dtypes (not packaged for Debian 12: a build of its source on PYTHONPATH; without it those
cases keep their recorded results):

    /usr/bin/python3 tests/numpy_golden/make_goldens.py

Where the NumPy at hand is older than 2 and a case is in golden_cases.NUMPY2, the NumPy >= 2
result written there is used instead (and the case is marked "numpy2": true).
"""
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_cases  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy_goldens.json")


def main():
    major = int(np.__version__.split(".")[0])
    warnings.simplefilter("ignore")  # overflow/invalid RuntimeWarnings are expected
    np.seterr(all="ignore")
    env = golden_cases.make_env(np)
    kept = {}
    if env.get("_no_ml_dtypes"):  # ml_dtypes' cases keep their recorded results
        with open(OUT, encoding="utf-8") as f:
            kept = {c["expr"]: c for c in json.load(f)["cases"]}
        print("ml_dtypes not importable: its cases keep the results recorded in the goldens")
    ml = set(golden_cases.ML_CASES)
    cases = []
    for expr in golden_cases.CASES:
        if expr in ml and env.get("_no_ml_dtypes"):
            if expr not in kept:
                raise SystemExit(f"no recorded result for {expr!r}: run with ml_dtypes")
            cases.append(kept[expr])
            continue
        case = {"expr": expr, "expected": golden_cases.evaluate(np, expr, env)}
        if major < 2 and expr in golden_cases.NUMPY2:
            case["numpy1"] = case["expected"]
            case["expected"] = golden_cases.NUMPY2[expr]
            case["numpy2"] = True
        cases.append(case)
    doc = {
        "generator": "tests/numpy_golden/make_goldens.py",
        "numpy": np.__version__,
        "note": "expected results of golden_cases.CASES under a real NumPy; entries marked "
                "numpy2 hold the NumPy >= 2 result (numpy1: what this NumPy said)",
        "cases": cases,
    }
    # One case per line: small diffs when a case is added or a result changes.
    head = json.dumps({k: v for k, v in doc.items() if k != "cases"})[:-1]
    lines = ",\n".join(json.dumps(c) for c in cases)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(f'{head}, "cases": [\n{lines}\n]}}\n')
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT)} (NumPy {np.__version__})")


if __name__ == "__main__":
    main()
