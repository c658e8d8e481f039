// Every nl.* / nisa.* API rejects keywords NKI does not take with Python's TypeError at the
// user's line (NKI's undocumented options that public kernels pass are accepted), and a Beta 1
// kernel that mixes in the current NKI language's forms is told so where it does.
import { describe, expect, test } from "vitest";

import { F32, pythonHarness, script } from "./harness.js";

const py = pythonHarness("kw.py");
const { ir, expectError } = py;

const ARGS = `${F32("128, 64")}, ${F32("128, 64")}`;
const kernel = (body) =>
  script("a, b", `    x = nl.load(a)\n    y = nl.load(b)\n    c = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.sbuf)\n${body}\n    return None`, ARGS);

describe("unknown keywords", () => {
  test.each([
    ["nl.exp", "    z = nl.exp(x, fast=True)", "nl.exp(", "TypeError: exp() got an unexpected keyword argument 'fast'"],
    ["nl.load", "    z = nl.load(a, dtyp=nl.bfloat16)", "nl.load(a, dtyp", "TypeError: load() got an unexpected keyword argument 'dtyp'"],
    ["nisa.tensor_scalar", "    z = nisa.tensor_scalar(x, nl.add, 1.0, operand=2.0)", "nisa.tensor_scalar(",
      "TypeError: tensor_scalar() got an unexpected keyword argument 'operand'"],
    ["nl.affine_range", "    for i in nl.affine_range(2, unroll=2):\n        pass", "nl.affine_range(",
      "TypeError: affine_range() got an unexpected keyword argument 'unroll'"],
  ])("%s", (_, body, at, text) => expectError(kernel(body), at, text));

  test("NKI's undocumented options that public kernels pass are accepted", () => {
    const l = ir(kernel(`    z = nl.exp(x, name="z")
    w = nisa.activation(op=nl.exp, data=x, buffer=nl.sbuf)
    for i in nl.affine_range(1, precise_schedule=True):
        v = nl.multiply(x, y, max_free_vec_size=512)`));
    expect(l.some((s) => s.includes("scalar.activation"))).toBe(true);
  });
});

describe("the current NKI language's forms in a Beta 1 kernel", () => {
  test("dst= is named as the current language's convention", () => {
    expectError(
      kernel("    nisa.tensor_tensor(dst=c, data1=x, data2=y, op=nl.add)"),
      "nisa.tensor_tensor(",
      "TypeError: tensor_tensor() got an unexpected keyword argument 'dst'; `dst=` first is the current NKI language's convention (`import nki`, nki.isa.tensor_tensor(dst, ...)): this kernel uses NKI Beta 1, whose nisa.tensor_tensor returns its result (`out = nisa.tensor_tensor(...)`)",
    );
  });

  test("a destination passed first is recognised by the arguments that then fit", () => {
    expectError(
      kernel("    nisa.activation(c, nl.exp, x)"),
      "nisa.activation(",
      "TypeError: activation(): too many positional arguments; `dst=` first is the current NKI language's convention",
    );
  });

  test("a Beta 1 call with a wrong argument count gets no such note", () => {
    const r = py.run(kernel("    z = nisa.activation(nl.exp)"));
    expect(r.exitCode).toBe(1);
    expect(py.err).toContain("TypeError: activation() missing 1 required positional argument: 'data'");
    expect(py.err).not.toContain("current NKI language");
  });

  test.each([
    ["nisa.dma_compute", "    nisa.dma_compute(c, [x, y], nl.add)"],
    ["nl.fori_loop", "    nl.fori_loop(0, 2, None)"],
  ])("%s, a current-language API, is named as one", (api, body) => {
    const [mod, name] = api.split(".");
    expectError(
      kernel(body),
      api,
      `AttributeError: NKI Beta 1 has no ${mod}.${name}: it is an API of the current NKI language`,
    );
  });

  test("other missing names keep Python's message", () => {
    const r = py.run(kernel("    nisa.no_such_op(x)"));
    expect(r.exitCode).toBe(1);
    expect(py.err).toContain(": error: AttributeError: module 'neuronxcc.nki.isa' has no attribute 'no_such_op'\n");
  });
});
