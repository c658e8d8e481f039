// The trace-time numpy fallback inside real Pyodide: every golden expression (evaluated by a
// real NumPy in tests/numpy_golden/make_goldens.py) gives the same result under the fallback;
// unsupported names raise the clear error; a real NumPy is preferred when one can be imported;
// kernel scripts that `import numpy as np` before neuronxcc run.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GOLDEN_DIR = `${ROOT}tests/numpy_golden/`;
const GOLDENS = JSON.parse(readFileSync(`${GOLDEN_DIR}numpy_goldens.json`, "utf8"));
const FALLBACK_VERSION = "0.0+nki-playground-fallback";
const NOT_AVAILABLE =
  "is not available in nki-playground's trace-time numpy fallback (no real numpy can be loaded here); supported: ";

const h = pythonHarness("np.py");
const { py } = h;
/** Results of every golden expression under the fallback, in GOLDENS order. */
let results;

/** `[exception class name, message]` of running `code`, or null if it raised nothing. */
function raised(code) {
  return py(
    `try:\n${code.replace(/^/gm, "    ")}\n    _res = None\nexcept Exception as _e:\n    _res = [type(_e).__name__, str(_e)]`,
    "_res",
  );
}

function isFloatDescription(d) {
  if (d.t === "scalar" || d.t === "array") return d.dtype.startsWith("float");
  return d.t === "py" && (d.type === "float" || d.type === "list" || d.type === "tuple");
}

/** Exact for ints, shapes, names and text; 1e-6 relative for float values. */
function same(want, got, floats = false) {
  if (typeof want === "number" && typeof got === "number") {
    if (want === got) return true;
    return floats && Math.abs(want - got) <= 1e-6 * Math.max(Math.abs(want), Math.abs(got));
  }
  if (Array.isArray(want)) {
    return Array.isArray(got) && want.length === got.length && want.every((w, i) => same(w, got[i], floats));
  }
  if (want && typeof want === "object") {
    if (!got || typeof got !== "object") return false;
    const keys = Object.keys(want);
    if (keys.length !== Object.keys(got).length) return false;
    const f = floats || isFloatDescription(want);
    return keys.every((k) => k in got && same(want[k], got[k], f && (k === "value" || k === "data")));
  }
  return want === got;
}

beforeAll(() => {
  const FS = h.runtime.pyodide.FS;
  FS.mkdirTree("/tmp/numpy_golden");
  for (const name of ["golden_cases.py", "golden_cases_more.py", "golden_cases_cover.py", "golden_cases_ml.py"]) {
    FS.writeFile(`/tmp/numpy_golden/${name}`, readFileSync(`${GOLDEN_DIR}${name}`, "utf8"));
  }
  FS.writeFile("/tmp/numpy_golden/cases.json", JSON.stringify(GOLDENS.cases.map((c) => c.expr)));
  results = JSON.parse(
    py(
      `
import json, sys
sys.path.insert(0, "/tmp/numpy_golden")
import golden_cases
import numpy as np
_env = golden_cases.make_env(np)
_exprs = json.load(open("/tmp/numpy_golden/cases.json"))
_results = json.dumps([golden_cases.evaluate(np, e, _env) for e in _exprs])
sys.path.remove("/tmp/numpy_golden")
`,
      "_results",
    ),
  );
});

describe("the fallback is what `import numpy` gives in Pyodide", () => {
  test("numpy.__version__ and the docstring name the fallback", () => {
    const [version, doc, isFallback] = py(
      "import numpy\nfrom nki_playground.standins import is_fallback",
      "[numpy.__version__, numpy.__doc__, is_fallback(numpy)]",
    );
    expect(version).toBe(FALLBACK_VERSION);
    expect(doc).toContain("trace-time numpy fallback");
    expect(doc).toContain("stand-in");
    expect(isFallback).toBe(true);
  });

  test("the golden expressions were evaluated under the fallback, not a real NumPy", () => {
    expect(results).toHaveLength(GOLDENS.cases.length);
    expect(GOLDENS.cases.length).toBeGreaterThan(2000);
  });
});

describe("golden expressions agree with real NumPy", () => {
  // One test per expression: the failure names the expression and both results.
  test.each(GOLDENS.cases.map((c, i) => [c.expr, i]))("%s", (expr, i) => {
    const want = GOLDENS.cases[i].expected;
    const got = results[i];
    if (!same(want, got)) {
      expect({ expr, got }).toEqual({ expr, got: want });
    }
  });
});

describe("what the fallback does not cover raises a clear error", () => {
  test("an unsupported top-level name raises the AttributeError listing what is supported", () => {
    const [kind, msg] = raised("import numpy as np\nnp.polyfit");
    expect(kind).toBe("AttributeError");
    expect(msg.startsWith(`numpy.polyfit ${NOT_AVAILABLE}`)).toBe(true);
    expect(msg).toContain("add, all, allclose, amax");
    expect(msg).toContain("float32");
  });

  test("names removed in NumPy 2 (np.float_) are not silently aliased", () => {
    const [kind, msg] = raised("import numpy as np\nnp.float_");
    expect(kind).toBe("AttributeError");
    expect(msg).toContain(`numpy.float_ ${NOT_AVAILABLE}`);
  });

  test("numpy.random has the legacy draws; anything else raises the clear error", () => {
    const [kind, msg] = raised("import numpy.random\nimport numpy as np\nnp.random.beta(1, 2)");
    expect(kind).toBe("AttributeError");
    expect(msg).toBe(
      `numpy.random.beta ${NOT_AVAILABLE}seed, random_sample, random, rand, standard_normal, randn, uniform, normal, randint, shuffle, permutation, choice, dirichlet, get_state, set_state, RandomState, default_rng, Generator, PCG64, SeedSequence`,
    );
    expect(raised("import numpy as np\nnp.linalg.inv")[1]).toContain(`numpy.linalg.inv ${NOT_AVAILABLE}`);
  });

  test("scipy.special is the minimal SciPy stand-in; other SciPy names raise the clear error", () => {
    expect(py("import scipy, scipy.special", "[scipy.__version__, scipy.special.softmax.__name__]")).toEqual([
      "0.0+nki-playground-standin",
      "softmax",
    ]);
    const [kind, msg] = raised("import scipy.special\nscipy.special.gamma");
    expect(kind).toBe("AttributeError");
    expect(msg).toContain("scipy.special.gamma is not available in nki-playground's");
    expect(msg).toContain("supported: softmax, logsumexp, expit, erf");
  });

  test("hasattr/getattr with a default see the missing name as missing", () => {
    expect(py("import numpy as np", "[hasattr(np, 'bfloat16'), getattr(np, 'fft_x', 7)]")).toEqual([false, 7]);
  });

  test("ufunc methods beyond reduce raise NotImplementedError naming the fallback", () => {
    const [kind, msg] = raised("import numpy as np\nnp.add.reduceat([1, 2], [0])");
    expect(kind).toBe("NotImplementedError");
    expect(msg).toContain("numpy.add.reduceat is not available in nki-playground's trace-time numpy fallback");
  });

  test("an index NumPy refuses raises NumPy's IndexError; a 0-d boolean index is named unsupported", () => {
    const [kind, msg] = raised("import numpy as np\nnp.arange(4)[1.5]");
    expect(kind).toBe("IndexError");
    expect(msg).toContain("integer or boolean arrays are valid indices");
    expect(raised("import numpy as np\nnp.arange(4)[np.array(True)]")).toEqual([
      "IndexError",
      "not supported by nki-playground's numpy stand-in: a 0-d boolean index",
    ]);
  });

  test("what the new helpers leave out raises 'not supported by nki-playground's numpy stand-in: <name>'", () => {
    const STAND_IN = "not supported by nki-playground's numpy stand-in: ";
    for (const [code, name] of [
      ["np.einsum('ii->i', np.eye(2))", "numpy.einsum with a repeated label in one term ('ii')"],
      ["np.einsum('...i->i', np.eye(2))", "numpy.einsum with '...'"],
      ["np.einsum(np.eye(2), [0, 1])", "numpy.einsum with operand/sublist arguments"],
      ["np.random.randint([0, 1], 5)", "numpy.random.randint with array bounds"],
      ["np.take(np.arange(3), [5], mode='clip')", "take(mode='clip')"],
      ["np.arange(4).reshape(2, 2).reshape(4, order='K')", "reshape(order='K')"],
    ]) {
      const [kind, msg] = raised(`import numpy as np\n${code}`);
      expect(kind).toBe("NotImplementedError");
      expect(msg).toBe(`${STAND_IN}${name}`);
    }
  });

  test("large arrays stay in the core through the new helpers (no per-element Python copies)", () => {
    const kinds = py(
      `
import numpy as np
np.random.seed(0)
_big = np.random.random_sample((128, 512)).astype(np.float32)
_idx = 2 * np.arange(64, dtype=np.int32)
_t = _big.copy()
_t[_idx] = _big[:64]
_outs = [np.random.random_sample(3000), _big[_idx], _big[:, _idx], np.take(_big, _idx, axis=1), _t,
         np.tile(_big, (2, 1)), np.concatenate([_big, _big]), np.expand_dims(_big, 0), np.diff(_big),
         np.clip(_big, 0.2, 0.8), np.var(_big, axis=0, keepdims=True).repeat(2, axis=0),
         np.einsum('ij,kj->ik', _big, _big), _big.reshape(512, 128, order='F'),
         np.cumsum(_big, axis=0)]
`,
      "[type(o._store).__name__ for o in _outs]",
    );
    expect(kinds).toEqual(Array(14).fill("CoreStorage"));
  });

  test("string and out-of-range elements are refused", () => {
    expect(raised("import numpy as np\nnp.array(['x'])")).toEqual([
      "TypeError",
      "str elements are not supported: nki-playground's trace-time numpy fallback holds only bool, integer and float elements",
    ]);
    expect(raised("import numpy as np\nnp.array([2**64])")[0]).toBe("OverflowError");
  });

  test("casting NaN or an out-of-range float to an integer dtype raises", () => {
    expect(raised("import numpy as np\nnp.array([np.nan]).astype(np.int32)")[0]).toBe("ValueError");
    expect(raised("import numpy as np\nnp.array([1e10]).astype(np.int32)")[1]).toContain("out of range for int32");
  });
});

describe("ensure_numpy()", () => {
  const SAVE = `
import sys
from nki_playground import standins as _numpy_compat
_saved = {k: v for k, v in sys.modules.items() if k == "numpy" or k.startswith("numpy.")}
for _k in _saved:
    del sys.modules[_k]
`;
  const RESTORE = `
for _k in [k for k in sys.modules if k == "numpy" or k.startswith("numpy.")]:
    del sys.modules[_k]
sys.modules.update(_saved)
if "/tmp/fakenp" in sys.path:
    sys.path.remove("/tmp/fakenp")
`;

  function withModulesSaved(code, expr) {
    try {
      return py(SAVE + code, expr);
    } finally {
      py(RESTORE);
    }
  }

  test("prefers a real numpy when one can be imported", () => {
    h.runtime.pyodide.FS.mkdirTree("/tmp/fakenp/numpy");
    h.runtime.pyodide.FS.writeFile("/tmp/fakenp/numpy/__init__.py", '__version__ = "9.9-fake"\n');
    const r = withModulesSaved(
      `sys.path.insert(0, "/tmp/fakenp")\n_mod = _numpy_compat.ensure_numpy()`,
      `[_mod.__version__, sys.modules["numpy"] is _mod, "numpy.random" in sys.modules, _numpy_compat.is_fallback(_mod)]`,
    );
    expect(r).toEqual(["9.9-fake", true, false, false]);
    expect(py("import numpy", "numpy.__version__")).toBe(FALLBACK_VERSION);
  });

  test("installs the fallback and its stub submodules when numpy cannot be imported", () => {
    const r = withModulesSaved(
      `_mod = _numpy_compat.ensure_numpy()`,
      `[_mod.__version__, sys.modules["numpy"] is _mod, sys.modules["numpy.random"] is _mod.random, _mod.__name__]`,
    );
    expect(r).toEqual([FALLBACK_VERSION, true, true, "numpy"]);
  });

  test("drops half-imported numpy.* modules left by a real numpy that failed to import", () => {
    h.runtime.pyodide.FS.mkdirTree("/tmp/fakenp/numpy");
    h.runtime.pyodide.FS.writeFile(
      "/tmp/fakenp/numpy/__init__.py",
      'import sys, types\nsys.modules["numpy.core"] = types.ModuleType("numpy.core")\nraise ImportError("broken build")\n',
    );
    const r = withModulesSaved(
      `sys.path.insert(0, "/tmp/fakenp")\n_mod = _numpy_compat.ensure_numpy()`,
      `[_numpy_compat.is_fallback(_mod), sys.modules["numpy.core"].__class__.__name__]`,
    );
    expect(r).toEqual([true, "PartialModule"]);
  });

  test("is idempotent: a second call returns the same module", () => {
    expect(
      py("from nki_playground.standins import ensure_numpy", "ensure_numpy() is ensure_numpy() is __import__('numpy')"),
    ).toBe(true);
  });
});

describe("kernel scripts", () => {
  test("a script importing numpy before neuronxcc.nki traces a kernel with numpy inputs", () => {
    const source = `
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def add_kernel(a, b):
    out = nl.ndarray(a.shape, dtype=np.float32, buffer=nl.shared_hbm)
    x = nl.load(a)
    y = nl.load(b)
    nl.store(out, value=nl.multiply(nl.add(x, y), np.float32(0.5), dtype=np.float32))
    return out

a = np.ones((4, 3), dtype=np.float16)
b = np.ones((4, 3), dtype=np.float16)
ir = nki.trace_kernel(add_kernel, a, b)
print("numpy", np.__version__, a.dtype, np.finfo(np.float32).max, np.max.__name__)
`;
    const r = h.run(source, "np_kernel.py");
    expect(r.err).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.out).toContain(`numpy ${FALLBACK_VERSION} float16 3.4028235e+38 max`);
    expect(r.traces.map((t) => t.kernel)).toEqual(["add_kernel"]);
    const text = r.traces[0].text;
    expect(text).toContain("%a: hbm f16[4,3]");
    expect(text).toContain("shared_hbm f32[4,3]");
    expect(text).toContain("0.5");
  });

  test("an unsupported numpy name in a script is reported at the user's line", () => {
    const r = h.run("import numpy as np\n\nx = np.random.beta(3)\n", "rand.py");
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain("rand.py:3");
    expect(r.err).toContain(`numpy.random.beta ${NOT_AVAILABLE}`);
  });
});
