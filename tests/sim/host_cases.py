"""Host arrays (the numpy fallback's core-backed storage) against real NumPy: SETUP and CASES
are evaluated in order by make_goldens.py with a real NumPy (results saved as
host_goldens/case<i>.npy) and by tests/python/simulate_host_arrays.test.js with the fallback in
Pyodide. The arrays are large enough (>= 1024 elements) to live in the core.
"""
import os

SETUP = """
np.random.seed(1234)
a = np.random.rand(64, 48).astype(np.float32)
b = np.random.randn(48, 32)
c = (np.random.rand(64, 48) * 200 - 100).astype(np.int32)
d = np.arange(4096, dtype=np.int64).reshape(64, 64)
h = (np.random.rand(40, 40) * 4).astype(np.float16)


def put(x, key, v):  # a copy of x with x[key] = v (element and row stores into core arrays)
    x = x.copy()
    x[key] = v
    return x


def stale(x):  # runs of element reads of a core array (it keeps a copy), stores in between
    x = x.copy()
    r = []

    def look():
        r.extend(x[i, k] for i in range(2) for k in range(10))
    look()
    x[0, 1] = 9
    look()
    x[1] = 7
    look()
    x += 1
    look()
    x[:, 0] = x[:, 1]
    look()
    return np.array(r + x[2, :4].tolist())
"""

CASES = [
    "a", "b", "c", "h",
    "a + 1.5", "a * a - 2", "a / (a + 1)", "np.exp(a)", "np.log(a + 1)", "np.sqrt(a)",
    "np.tanh(b)", "a.T + a.T", "a[:, ::2] * 3", "np.maximum(a, 0.5)", "a > 0.5",
    "(a > 0.5) & (a < 0.7)", "-b", "b ** 2", "np.floor(b * 3)",
    "c + c", "c * 3 - 7", "c // 7", "c % 7", "np.abs(c)", "c.astype(np.float32) / 3",
    "c.astype(np.int8)", "c > 0",
    "a.sum()", "a.sum(axis=0)", "a.sum(axis=1, keepdims=True)", "b.mean(axis=1)",
    "a.max(axis=1)", "c.min()", "d.sum(axis=0)", "(a > 0.5).all()", "(a > 0.5).any(axis=1)",
    "c.sum(dtype=np.int64)", "np.prod(a[:2] + 0.5, axis=1)",
    "a @ b.astype(np.float32)", "np.matmul(b.T, b)", "np.dot(d[:2], d[:, :3])",
    "np.transpose(a).copy()", "a.reshape(48, 64)", "a.T.reshape(-1)",
    "np.zeros((64, 64), dtype=np.float32) + 1", "np.ones((2048,), dtype=np.int32)",
    "np.full((32, 64), 7.5)", "np.identity(64)", "np.repeat(d[:4], 3, axis=1)",
    "np.repeat(a, 2)", "np.arange(3000) * 2",
    "np.allclose(a, a + 1e-9)", "np.allclose(a, a + 1)",
    "h + h", "h * 3", "h.sum(axis=1)", "h.astype(np.float32).sum(axis=0)",
    "np.random.randn(2000)[-5:]", "np.random.random_sample((40, 30))",
    "np.array(a[:2, :3].tolist())",
    # small (Python-list) operands and core copies made for one operation
    "a + np.ones(48, dtype=np.float32)", "c / (c + 1000)", "d[:, :1] * np.arange(64.0)",
    "np.array([a[3, 2], d[1, 1], c[0, 5], h[2, 3]])",
    "put(a, (3, 2), 5)", "put(a, 3, np.arange(48))", "put(c, (5, 5), -7.9)",
    "put(d, (1, slice(None)), 2**60 + 1)", "put(d, (1, 2), 2**62 + 3)[1, 2]",
    "put(h, (0, 0), 1 / 3)", "put(a > 0.5, (0, 0), 1)", "stale(a)", "stale(c)", "stale(d)",
]

TOLERANCE = {"float64": [1e-12, 1e-12], "float32": [1e-5, 1e-6], "float16": [1e-3, 1e-3]}


def evaluate_all(np):
    """The value of every case, in order (the random state advances through them)."""
    env = {"np": np}
    exec(SETUP, env)
    return [np.asarray(eval(expr, env)) for expr in CASES]


def write(np, folder):
    """Evaluates the cases with a real NumPy and writes the goldens and their manifest."""
    import json
    os.makedirs(folder, exist_ok=True)
    manifest = []
    for i, (expr, value) in enumerate(zip(CASES, evaluate_all(np))):
        np.save(os.path.join(folder, f"case{i}.npy"), value.copy(order="C"))
        manifest.append({"expr": expr, "file": f"case{i}.npy", "dtype": str(value.dtype),
                         "shape": list(value.shape),
                         "tolerance": TOLERANCE.get(str(value.dtype), [0, 0])})
    with open(os.path.join(folder, "cases.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in manifest) + "\n]\n")
