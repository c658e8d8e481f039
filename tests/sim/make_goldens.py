"""Writes the simulator's goldens: for each example kernel at small shapes, its inputs and the
outputs a real NumPy reference computes, as .npy files, plus goldens/cases.json describing the
cases (kernel file, function, grid, extra arguments, tolerances), and host_goldens/ (the numpy
fallback's host-array expressions of host_cases.py, evaluated by this NumPy). Then traces every case in
Pyodide (node tests/sim/trace_goldens.mjs) so that goldens/<case>/kernel.json holds its IR for
the native tests.

Run with Debian's Python, which has NumPy (the pyenv python3 on PATH does not):

    /usr/bin/python3 tests/sim/make_goldens.py [--no-trace]

Kernels come from kernels/ when the file is there, else from tests/sim/kernels/ (drafts the
tests use until they land in kernels/).
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "goldens")

# Tolerances by output dtype: |got - want| <= atol + rtol * |want| (NaN and inf must match).
# float16: one ulp of the result (the simulator computes in fp32 and rounds once, the
# reference in float64 and rounds once); float32: transcendental approximations and a
# different summation order; integers: exact.
TOLERANCE = {"float32": [2e-5, 1e-5], "float16": [2e-3, 1e-3], "int8": [0, 0], "uint8": [0, 0],
             "int32": [0, 0]}


def uniform(rng, shape, dtype, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def softmax_rows(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def ref_tensor_add(a, b):
    return [(a.astype(np.int32) + b.astype(np.int32)).astype(a.dtype)]


def ref_matmul(a_t, b):
    return [(a_t.astype(np.float64).T @ b.astype(np.float64)).astype(a_t.dtype)]


def ref_softmax(x):
    return [softmax_rows(x).astype(x.dtype)]


def ref_rmsnorm(x, gamma, eps=1e-6):
    x64 = x.astype(np.float64)
    inv = 1.0 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + eps)
    return [(x64 * inv * gamma.astype(np.float64)).astype(x.dtype)]


def ref_layernorm(x, gamma, beta, eps=1e-5):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = x64.var(axis=1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + eps) * gamma.astype(np.float64) + beta.astype(np.float64)
    return [y.astype(x.dtype)]


def ref_attention(q, k, v):
    scores = q.astype(np.float64).T @ k.astype(np.float64) / np.sqrt(q.shape[0])
    return [(softmax_rows(scores) @ v.astype(np.float64)).astype(q.dtype)]


def ref_avgpool(image, pool):
    c, h, w = image.shape
    x = image.astype(np.float64).reshape(c, h // pool, pool, w // pool, pool)
    return [x.mean(axis=(2, 4)).astype(image.dtype)]


def ref_causal_blocks(scores):
    seq = scores.shape[0]
    i = np.arange(seq)[:, None]
    j = np.arange(seq)[None, :]
    fp32_min = np.float32(np.finfo(np.float32).min)
    block = 128
    below = (j // block) < (i // block)
    diag_keep = ((j // block) == (i // block)) & (i >= j)
    out = np.where(below | diag_keep, scores.astype(np.float32), fp32_min)
    return [out.astype(scores.dtype)]


def ref_halve(x, threshold):
    x = x.astype(np.float64)
    while True:
        x = x * 0.5
        if not x[0, 0] >= threshold:
            break
    return [x.astype(np.float32)]


def ref_selective_scan(delta, u, a, b, c):
    d, uu, aa, bb, cc = (t.astype(np.float64) for t in (delta, u, a, b, c))
    channels, seq = d.shape
    h = np.zeros((channels, aa.shape[1]))
    y = np.zeros((channels, seq))
    for t in range(seq):
        h = np.exp(d[:, t:t + 1] * aa) * h + (d[:, t] * uu[:, t])[:, None] * bb[:, t][None, :]
        y[:, t] = (h * cc[:, t][None, :]).sum(axis=1)
    return [y.astype(np.float32)]


def ref_transpose_free_axes(x, shape2d):
    p = x.shape[0]
    f1, f2 = shape2d
    return [x.reshape(p, f1, f2).transpose(0, 2, 1).reshape(p, f1 * f2)]


def cases(rng):
    """(name, kernel file, function, grid, inputs {name: array}, extra args, reference)."""
    i8 = lambda shape: rng.integers(-60, 60, size=shape).astype(np.int8)  # noqa: E731
    return [
        ("tensor_add", "tensor_add.py", "tensor_add", [2],
         {"a_input": i8((256, 512)), "b_input": i8((256, 512))}, {}, ref_tensor_add),
        ("matmul_tiled", "matmul_tiled.py", "matmul_tiled", [],
         {"a_t": uniform(rng, (256, 128), np.float16), "b": uniform(rng, (256, 512), np.float16)},
         {}, ref_matmul),
        ("softmax", "softmax.py", "softmax", [],
         {"logits": uniform(rng, (200, 64), np.float32, -4, 4)}, {}, ref_softmax),
        ("rmsnorm", "rmsnorm.py", "rmsnorm", [],
         {"x": uniform(rng, (200, 128), np.float32), "gamma": uniform(rng, (128,), np.float32)},
         {}, ref_rmsnorm),
        ("layernorm_bn", "layernorm_bn.py", "layernorm_bn", [],
         {"x": uniform(rng, (130, 600), np.float16, -2, 2),
          "gamma": uniform(rng, (600,), np.float16), "beta": uniform(rng, (600,), np.float16)},
         {}, ref_layernorm),
        ("attention", "attention.py", "attention_block", [],
         {"q": uniform(rng, (64, 128), np.float32), "k": uniform(rng, (64, 128), np.float32),
          "v": uniform(rng, (128, 64), np.float32)}, {}, ref_attention),
        ("avgpool", "avgpool.py", "avgpool2d", [],
         {"image": uniform(rng, (2, 6, 6), np.float16)}, {"pool": 2}, ref_avgpool),
        ("causal_blocks", "causal_blocks.py", "causal_blocks", [],
         {"scores": uniform(rng, (256, 256), np.float16)}, {}, ref_causal_blocks),
        ("halve_until_small", "halve_until_small.py", "halve_until_small", [],
         {"x": uniform(rng, (128, 64), np.float32, 10, 40)}, {"threshold": 1.0}, ref_halve),
        ("selective_scan", "selective_scan.py", "selective_scan", [],
         {"delta": uniform(rng, (16, 1024), np.float32, 0.01, 0.1),
          "u": uniform(rng, (16, 1024), np.float32),
          "a": uniform(rng, (16, 4), np.float32, -1.0, -0.1),
          "b": uniform(rng, (4, 1024), np.float32), "c": uniform(rng, (4, 1024), np.float32)},
         {}, ref_selective_scan),
        ("transpose_free_axes", "transpose2d.py", "transpose_free_axes", [],
         {"x": rng.integers(-100, 100, size=(6, 12)).astype(np.int8)}, {"shape2d": [3, 4]},
         ref_transpose_free_axes),
    ]


def kernel_path(file):
    for folder in ("kernels", "tests/sim/kernels"):
        if os.path.exists(os.path.join(ROOT, folder, file)):
            return f"{folder}/{file}"
    raise FileNotFoundError(file)


def main():
    rng = np.random.default_rng(20261129)
    manifest = []
    for name, file, func, grid, inputs, args, ref in cases(rng):
        folder = os.path.join(OUT, name)
        os.makedirs(folder, exist_ok=True)
        for pname, value in inputs.items():
            np.save(os.path.join(folder, f"{pname}.npy"), value)
        call_args = {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}
        with np.errstate(all="ignore"):
            outputs = ref(*inputs.values(), **call_args)
        out_meta = []
        for i, o in enumerate(outputs):
            np.save(os.path.join(folder, f"out{i}.npy"), o)
            out_meta.append({"file": f"out{i}.npy", "dtype": str(o.dtype),
                             "tolerance": TOLERANCE[str(o.dtype)]})
        manifest.append({"name": name, "kernel": kernel_path(file), "function": func,
                         "grid": grid, "inputs": list(inputs), "args": args,
                         "outputs": out_meta})
        print(f"goldens: {name}: {len(inputs)} input(s), {len(outputs)} output(s)")
    with open(os.path.join(OUT, "cases.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in manifest) + "\n]\n")
    sys.path.insert(0, HERE)
    import host_cases  # noqa: E402  (host arrays of the numpy fallback against this NumPy)
    host_cases.write(np, os.path.join(HERE, "host_goldens"))
    print(f"goldens: {len(host_cases.CASES)} host-array cases")
    if "--no-trace" not in sys.argv:
        subprocess.run(["node", os.path.join(HERE, "trace_goldens.mjs")], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
