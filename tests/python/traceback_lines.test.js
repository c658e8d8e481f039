// The front end rewrites a kernel's AST; the Python frames of an exception raised in a kernel
// must still show the user's own line and columns (what `traceback` prints), not a line of
// the block around it.
import { describe, expect, test } from "vitest";

import { HEAD, locate, pythonHarness } from "./harness.js";

const py = pythonHarness("tb.py");

/**
 * Runs kernel `body` (simulated on a [128, 4] input) and returns "line:col-endcol" of the
 * innermost frame in tb.py, the exception's nki_loc as "line:col", and the frame's text line.
 */
function frame(body) {
  const src = `${HEAD}import traceback
@nki.jit
def k(a):
    out = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.shared_hbm)
${body}
    return out
try:
    nki.simulate_kernel(k, np.ones((128, 4), np.float32))
except Exception as e:
    f = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "tb.py"][-1]
    loc = getattr(e, "nki_loc", None)
    print(f"{f.lineno}:{f.colno + 1}-{f.end_colno + 1}|{loc and f'{loc[1]}:{loc[2]}'}|{f.line}")
`;
  const r = py.run(src);
  expect(r.exitCode, py.err).toBe(0);
  const [span, loc, line] = py.out.trim().split("|");
  return { src, span, loc, line };
}

describe("the frame of an exception raised in a rewritten kernel", () => {
  test("`if t:` on a tile: the if's line, the caret under t", () => {
    const { src, span, loc, line } = frame(`    t = nl.load(a)
    if t:
        t = t + 1.0
        t = t * 2.0
    nl.store(out, t)`);
    const at = locate(src, "t:", "if ");
    expect(span).toBe(`${at}-${Number(at.split(":")[1]) + 1}`);
    expect(loc).toBe(at);
    expect(line).toBe("if t:");
  });

  test("`elif t:` after a Python condition: the elif's line", () => {
    const { src, span, loc } = frame(`    t = nl.load(a)
    n = 3
    if n < 2:
        t = t + 1.0
    elif t:
        t = t * 2.0
    else:
        t = t - 1.0
    nl.store(out, t)`);
    const at = locate(src, "t:", "elif ");
    expect(span.split("-")[0]).toBe(at);
    expect(loc).toBe(at);
  });

  test("a statement inside a traced predicate block: its own line, not the block's", () => {
    const { src, span, line } = frame(`    t = nl.load(a)
    for i in nl.affine_range(2):
        if i == 0:
            u = nl.exp(t, fast=True)
            v = nl.add(t, 1.0)
    nl.store(out, t)`);
    expect(span.split("-")[0]).toBe(locate(src, "nl.exp("));
    expect(line).toBe("u = nl.exp(t, fast=True)");
  });

  test("a kernel's wrong return value: at its return statement, not where it was called", () => {
    const src = `${HEAD}@nki.jit
def k(a):
    out = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, nl.load(a))
    return out, a.shape
nki.simulate_kernel(k, np.ones((128, 4), np.float32))
`;
    py.expectError(src, "out, a.shape", "TypeError: kernel 'k' returned tuple; a kernel returns HBM tensors");
  });

  test("`while t:` on a tile: the while's line", () => {
    const { src, span, loc } = frame(`    t = nl.load(a)
    while t:
        t = t + 1.0
        t = t * 2.0
    nl.store(out, t)`);
    expect(span.split(":")[0]).toBe(locate(src, "while t:").split(":")[0]);
    expect(loc.split(":")[0]).toBe(span.split(":")[0]);
  });
});
