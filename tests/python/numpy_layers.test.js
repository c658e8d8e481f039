// The NumPy stand-in is layered like NumPy (python/numpy_standin/README.md): no import circle,
// counting function-level imports as edges; at most 15 function-level imports of stand-in
// modules, each with its reason; methods set on the array and scalar types in one place
// (_methods); nothing imported outside the standard library but nki_playground's two leaves.
// Measured by tests/python/numpy_layers.py, run with the host's Python.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const report = JSON.parse(
  execFileSync(PYTHON, [`${ROOT}tests/python/numpy_layers.py`], { encoding: "utf8" }),
);

describe("the NumPy stand-in's layers", () => {
  test("no import circle, function-level imports counted", () => {
    expect(report.circles).toEqual([]);
  });

  test("at most 15 function-level imports of stand-in modules, each with a reason", () => {
    expect(report.function_level.length).toBeLessThanOrEqual(15);
    expect(report.function_level.filter((f) => !f.reason)).toEqual([]);
  });

  test("the array type sits below everything that computes with arrays", () => {
    const below = report.imports["numpy_standin._ndarray"].filter((m) => m.startsWith("numpy_standin."));
    expect(below.sort()).toEqual([
      "numpy_standin._core_storage",
      "numpy_standin._dtypes",
      "numpy_standin._errors",
      "numpy_standin._storage",
    ]);
  });

  test("methods are set on ndarray and the scalar types only by _methods.attach", () => {
    expect(report.attachments).toEqual([]);
    const methods = readFileSync(`${ROOT}python/numpy_standin/_methods.py`, "utf8");
    expect(methods).toMatch(/^attach\(ndarray, ARRAY_METHODS\)$/m);
    expect(methods).toMatch(/^attach\(generic, SCALAR_METHODS\)$/m);
  });

  test("imports: the standard library and nki_playground's door and dtype_values only", () => {
    expect(report.outside).toEqual(["nki_playground"]);
    const reached = new Set(
      Object.values(report.imports)
        .flat()
        .filter((m) => m.startsWith("nki_playground")),
    );
    expect([...reached].sort()).toEqual(["nki_playground.door", "nki_playground.dtype_values"]);
  });
});
