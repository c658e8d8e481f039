// NumPy coverage, measured: every np.* name that the repository's kernels and docs use (and a
// local copy of the public NKI corpora, when $NKI_CORPUS names one; never committed)
// resolves in the stand-in and is exercised by a golden case that agrees with real NumPy
// (tests/numpy_golden, made with Debian's NumPy). Names are extracted by
// tests/numpy_golden/np_names.py, run with the host's Python.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GOLDEN_DIR = `${ROOT}tests/numpy_golden/`;
const GOLDENS = JSON.parse(readFileSync(`${GOLDEN_DIR}numpy_goldens.json`, "utf8")).cases;
const CORPUS = process.env.NKI_CORPUS ?? "";
const HAVE_CORPUS = CORPUS !== "" && existsSync(CORPUS);
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

/** `{name: [files]}` of the np.* names used under `paths`. */
function namesIn(paths) {
  const out = execFileSync(PYTHON, [`${GOLDEN_DIR}np_names.py`, "--json", ...paths], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out);
}

/** The golden cases that name `np.<name>` (followed by a non-identifier character). */
function casesFor(name) {
  const escaped = name.replace(/\./g, "\\.");
  const re = new RegExp(`\\b(?:np|numpy)\\.${escaped}(?![A-Za-z0-9_])`);
  return GOLDENS.map((c, i) => [c, i]).filter(([c]) => re.test(c.expr));
}

const h = pythonHarness("coverage.py");
const { py } = h;
let notCovered;

beforeAll(() => {
  const FS = h.runtime.pyodide.FS;
  FS.mkdirTree("/tmp/numpy_golden");
  for (const name of ["golden_cases.py", "golden_cases_more.py", "golden_cases_cover.py", "golden_cases_ml.py"]) {
    FS.writeFile(`/tmp/numpy_golden/${name}`, readFileSync(`${GOLDEN_DIR}${name}`, "utf8"));
  }
  py(`
import sys
sys.path.insert(0, "/tmp/numpy_golden")
import golden_cases, golden_cases_cover
import numpy as np
_env = golden_cases.make_env(np)

def _resolves(name):
    obj = np
    try:
        for part in name.split("."):
            obj = getattr(obj, part)
    except Exception as e:
        return type(e).__name__ + ": " + str(e)[:120]
    return None
`);
  notCovered = py("", "golden_cases_cover.NOT_COVERED");
});

/** Checks every name: it resolves, golden cases name it, and those cases agree with NumPy. */
function checkNames(names) {
  const problems = [];
  let cases = 0;
  for (const name of Object.keys(names)) {
    if (name in notCovered) continue;
    const missing = py("", `_resolves(${JSON.stringify(name)})`);
    if (missing) {
      problems.push(`${name}: ${missing} (used in ${names[name][0]})`);
      continue;
    }
    const found = casesFor(name);
    if (!found.length) {
      problems.push(`${name}: no golden case names np.${name} (used in ${names[name][0]})`);
      continue;
    }
    for (const [c] of found) {
      cases++;
      const got = JSON.parse(py("", `__import__("json").dumps(golden_cases.evaluate(np, ${JSON.stringify(c.expr)}, _env))`));
      if (!sameResult(c.expected, got)) problems.push(`${name}: ${c.expr} gave ${JSON.stringify(got)}`);
    }
  }
  return { problems, cases };
}

/** Exact, but floats to 1e-6 relative (as numpy_fallback.test.js compares). */
function sameResult(want, got) {
  if (typeof want === "number" && typeof got === "number") {
    return want === got || Math.abs(want - got) <= 1e-6 * Math.max(Math.abs(want), Math.abs(got));
  }
  if (Array.isArray(want)) return Array.isArray(got) && want.length === got.length && want.every((w, i) => sameResult(w, got[i]));
  if (want && typeof want === "object") {
    return !!got && typeof got === "object" && Object.keys(want).length === Object.keys(got).length &&
      Object.keys(want).every((k) => sameResult(want[k], got[k]));
  }
  return want === got;
}

describe("np.* names of the repository's own kernels and docs", () => {
  test("each resolves in the stand-in and its golden cases agree with real NumPy", () => {
    const names = namesIn([`${ROOT}kernels`, `${ROOT}docs`]);
    expect(Object.keys(names).length).toBeGreaterThan(10);
    expect(names).toHaveProperty("allclose");
    const { problems, cases } = checkNames(names);
    expect(problems).toEqual([]);
    expect(cases).toBeGreaterThan(Object.keys(names).length);
  });

  test("the extractor sees aliases, from-imports and doc code blocks", () => {
    const src = "import numpy as xp\nfrom numpy import pad as p\nimport numpy.random as npr\n" +
      "y = xp.flip(p(a, 1)); npr.default_rng(0).normal(); xp.add.reduce(a)\n";
    py(`import importlib.util as _u\n_s = _u.spec_from_file_location("np_names", "/tmp/np_names.py")`);
    h.runtime.pyodide.FS.writeFile("/tmp/np_names.py", readFileSync(`${GOLDEN_DIR}np_names.py`, "utf8"));
    py(`_m = _u.module_from_spec(_u.spec_from_file_location("np_names", "/tmp/np_names.py"))
_s.loader.exec_module(_m)
_md = "text\\n\`\`\`python\\nimport numpy as np\\nnp.tril(x)\\n\`\`\`\\n"`);
    expect(py("", `sorted(_m.names_in_source(${JSON.stringify(src)}))`)).toEqual([
      "add.reduce", "flip", "pad", "random", "random.default_rng",
    ]);
    expect(py("", `[sorted(_m.names_in_source(b)) for b in _m.python_blocks("x.md", _md)]`)).toEqual([["tril"]]);
  });
});

describe.skipIf(!HAVE_CORPUS)(`np.* names of the public NKI corpora in $NKI_CORPUS (${CORPUS || "unset"})`, () => {
  test("each resolves in the stand-in and its golden cases agree with real NumPy", () => {
    const names = namesIn([CORPUS]);
    expect(Object.keys(names).length).toBeGreaterThan(50);
    const { problems } = checkNames(names);
    expect(problems).toEqual([]);
  });

  test("the names not covered yet still raise the stand-in's clear error", () => {
    for (const name of Object.keys(notCovered)) {
      expect(py("", `_resolves(${JSON.stringify(name)})`) ?? `${name} resolves`).toMatch(/^AttributeError: .*not available/);
    }
  });
});
