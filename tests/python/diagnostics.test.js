// One test per diagnostic the front end and the structural ops raise: NKI's exception class
// and exact message, reported at the user's line and column (found from a marker fragment in
// the snippet), the source line with a caret, no frames of our own package, and a clean trace
// state afterwards.
import { describe, expect, test } from "vitest";

import { HEAD as NKI_HEAD, locate, pythonHarness } from "./harness.js";

const HEAD = `${NKI_HEAD}from neuronxcc.nki.typing import scalar\n`;
const TRACE = (args) => `nki.trace_kernel(k, ${args})\n`;
const A = "nt.tensor[[256, 512], nl.float32]";

const py = pythonHarness("diag.py");

const cases = [
  {
    name: "if on a tile's contents",
    body: "    t = nl.load(a[0:128, :])\n    if t:\n        pass\n",
    at: "t:",
    at_prefix: "if ",
    text: "NKISyntaxError: dynamic control-flow depending on tensor value is not supported.",
  },
  {
    name: "if on nl.arange",
    body: "    i_p = nl.arange(128)[:, None]\n    if i_p < 3:\n        pass\n",
    at: "i_p < 3",
    text: "NKISyntaxError: Control-flow depending on `nl.arange` or `nl.mgrid` is not supported.",
  },
  {
    name: "pre-checked while",
    body: "    c = nl.load(a[0:1, 0:1])\n    go = scalar(c) < 3\n    while go:\n        go = scalar(c) < 3\n",
    at: "go:",
    at_prefix: "while ",
    text: "ValueError: Traditional while loops are not supported in NKI. Use the do-while pattern instead: start with 'cond = scalar(True)'",
  },
  {
    name: "do-while whose body never sets the condition",
    body: "    cond = scalar(True)\n    while cond:\n        t = nl.load(a[0:1, 0:1])\n",
    at: "while cond:",
    text: "ValueError: the do-while loop on `cond` must assign `cond` a scalar comparison",
  },
  {
    name: "tile used outside the loop that allocated it",
    body: "    for i in nl.affine_range(2):\n        t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])\n    u = nl.add(t, 1.0)\n",
    at: "nl.add(t, 1.0)",
    text: "NKISyntaxError: Local variable 't' is referenced outside of its parent scope LoopScope at diag.py:",
  },
  {
    name: "tile used after the if that allocated it",
    body: "    for i in nl.affine_range(2):\n        if i < 1:\n            t = nl.load(a[0:128, :])\n        u = nl.add(t, 1.0)\n",
    at: "nl.add(t, 1.0)",
    text: "NKISyntaxError: Local variable 't' is referenced outside of its parent scope IfScope at diag.py:",
  },
  {
    name: "gridded call inside a kernel",
    prelude: "@nki.jit\ndef inner(a):\n    return None\n",
    body: "    inner[2](a)\n",
    at: "inner[2](a)",
    text: "NKISyntaxError: Calling kernel with spmd grid (inner[2]) inside another kernel is not supported.",
  },
  {
    name: "`or` between loop conditions",
    body: "    for i in nl.affine_range(2):\n        if i < 1 or i > 0:\n            pass\n",
    at: "i < 1 or i > 0",
    text: "NKISyntaxError: a condition on loop variables or program ids has no truth value while tracing",
  },
  {
    name: "not-equal mask",
    body: "    i_p = nl.arange(128)[:, None]\n    t = nl.load(a[i_p, nl.arange(512)[None, :]], mask=(i_p != 3))\n",
    at: "nl.load(a[i_p",
    text: "NKISyntaxError: 'not equal' mask is not supported",
  },
  {
    name: "mask that is not a predicate",
    body: "    t = nl.load(a[0:128, :], mask=3)\n",
    at: "nl.load(a[0:128, :], mask=3)",
    text: "ValueError: NKI mask expressions must be affine expressions of static loop indices.",
  },
  {
    name: "mutable parameter not returned",
    sig: "def k(a: nt.mutable_tensor):",
    body: "    t = nl.load(a[0:128, :])\n    nl.store(a[0:128, :], t)\n",
    at: "def k(",
    text: "NKISyntaxError: Mutable kernel parameter not returned by `return` statement: `a`",
  },
  {
    name: "output never written",
    body: "    out = nl.ndarray((128, 512), nl.float32, buffer=nl.shared_hbm)\n    return out\n",
    at: "def k(",
    text: "ValueError: kernel output `out` is never written to",
  },
  {
    name: "shared_hbm inside a loop",
    body: "    for i in nl.affine_range(2):\n        out = nl.ndarray((128, 512), nl.float32, buffer=nl.shared_hbm)\n",
    at: "nl.ndarray((128, 512), nl.float32, buffer=nl.shared_hbm)",
    text: "RuntimeError: shared_hbm buffer can only be created top level kernel scope",
  },
  {
    name: "HBM tensor with an init value",
    body: "    z = nl.zeros((128, 512), nl.float32, buffer=nl.shared_hbm)\n",
    at: "nl.zeros(",
    text: "NKISyntaxError: Creating HBM tensor with init value is not supported.",
  },
  {
    name: "partition dimension over 128",
    body: "    z = nl.ndarray((256, 512), nl.float32, buffer=nl.sbuf)\n",
    at: "nl.ndarray(",
    text: "ValueError: number of partitions 256 exceed architecture limitation of 128.",
  },
  {
    name: "SBUF tile of rank 1",
    body: "    z = nl.ndarray((128,), nl.float32, buffer=nl.sbuf)\n",
    at: "nl.ndarray(",
    text: "ValueError: Insufficient rank",
  },
  {
    name: "store into an input parameter",
    body: "    t = nl.load(a[0:128, :])\n    nl.store(a[0:128, :], t)\n",
    at: "nl.store(a",
    text: "TypeError: Cannot update immutable parameter `a`",
  },
  {
    name: "program_id beyond the grid",
    grid: "[2]",
    body: "    p = nl.program_id(1)\n",
    at: "nl.program_id(1)",
    text: "IndexError: axis in `program_id` is out-of-bound(s) of the spmd launch grid (axis=1, grid rank 1)",
  },
  {
    name: "static out-of-bound access",
    body: "    for i in nl.affine_range(3):\n        t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])\n",
    at: "nl.load(",
    text: "IndexError: Out-of-bound access for tensor `a` on dimension 0: index range [0, 383] exceed dimension size of 256",
  },
  {
    name: "a mask makes a partial tile legal (and is shown)",
    body: "    for i in nl.affine_range(3):\n        r = i * 128 + nl.arange(128)[:, None]\n        t = nl.load(a[r, nl.arange(512)[None, :]], mask=(r < 256))\n        u = nl.load(a[r, nl.arange(512)[None, :]])\n",
    at: "nl.load(a[r, nl.arange(512)[None, :]])",
    text: "IndexError: Out-of-bound access for tensor `a` on dimension 0: index range [0, 383]",
  },
  {
    name: "load from SBUF",
    body: "    t = nl.ndarray((128, 8), nl.float32, buffer=nl.sbuf)\n    u = nl.load(t)\n",
    at: "nl.load(t)",
    text: "TypeError: Expected operand 'src' of 'load' to be in address space 'hbm', but got a tile in 'sbuf' instead.",
  },
  {
    name: "mixing basic and advanced indexing",
    body: "    t = nl.load(a[0:128, nl.arange(512)[None, :]])\n",
    at: "a[0:128, nl.arange",
    text: "NKISyntaxError: Mixing basic tensor indexing and advanced tensor indexing is not supported.",
  },
  {
    name: "1-d arange",
    body: "    t = nl.load(a[nl.arange(128), 0])\n",
    at: "a[nl.arange(128), 0]",
    text: "NKISyntaxError: indexing tensor `a` with 1d arange is not supported.",
  },
  {
    name: "too many indices",
    body: "    t = nl.load(a[0, 0, 0])\n",
    at: "a[0, 0, 0]",
    text: "IndexError: too many indices for tensor `a`",
  },
  {
    name: "unsupported dtype",
    body: "    t = nl.ndarray((128, 4), np.float64, buffer=nl.sbuf)\n",
    at: "nl.ndarray(",
    text: "TypeError: Unsupported dtype 'float64', expected one of the following dtypes:",
  },
  {
    name: "outside any kernel",
    script: `${HEAD}x = nl.load(nt.tensor[[128, 4], nl.float32])\n`,
    at: "nl.load(",
    text: "RuntimeError: calling NKI API outside of NKI kernels is not supported.",
  },
];

describe("diagnostics", () => {
  for (const c of cases) {
    test(c.name, () => {
      const src =
        c.script ??
        `${HEAD}${c.prelude ?? ""}@nki.jit\n${c.sig ?? "def k(a):"}\n${c.body}${TRACE(c.grid ? `k${c.grid}, ${A}`.replace(/^k/, "") : A)}`
          .replace("nki.trace_kernel(k, [2], ", "nki.trace_kernel(k[2], ");
      py.expectError(src, c.at, c.text, { prefix: c.at_prefix });
    });
  }
});

describe("warnings", () => {
  test("rebinding a tensor inside a loop warns at the assignment", () => {
    const src = `${HEAD}import warnings\nwarnings.simplefilter("always")\n@nki.jit\ndef k(a):\n    t = nl.zeros((128, 512), nl.float32)\n    for i in nl.affine_range(2):\n        t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(512)[None, :]])\n    return None\n${TRACE(A)}`;
    const r = py.run(src);
    expect(r.exitCode).toBe(0);
    const line = locate(src, "        t = nl.load").split(":")[0];
    expect(py.err).toContain(`diag.py:${line}: UserWarning: shadowing local tensor 'float32 t[128, 512]' with a new object, use 't[...] =' if you want to update the existing object`);
  });

  test("block dimensions are accepted with NKI's deprecation warning", () => {
    const src = `${HEAD}import warnings\nwarnings.simplefilter("always")\n@nki.jit\ndef k(a):\n    buf = nl.ndarray((2, nl.par_dim(128), 512), nl.float32, buffer=nl.sbuf)\n    t = nl.load(a[0:128, :])\n    return None\n${TRACE(A)}`;
    const r = py.run(src);
    expect(r.exitCode).toBe(0);
    const line = locate(src, "buf = nl.ndarray").split(":")[0];
    expect(py.err).toContain(`diag.py:${line}: DeprecationWarning: Block dimension is deprecated.`);
  });
});
