// runSource({onTrace}): each kernel's trace reaches the caller as soon as it is finalized, while
// the script goes on — real Pyodide and the real wasm core. The final `traces` are unchanged.
import { describe, expect, test } from "vitest";

import { assembleTraces, traceEntry } from "../../runtime/traces.mjs";
import { pythonHarness } from "../python/harness.js";

const HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

@nki.jit
def double(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out, value=nl.add(t, t))
    return out

@nki.jit
def negate(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.negative(nl.load(a)))
    return out
`;

const py = pythonHarness("s.py");

/** Runs with an onTrace that notes what the script had printed when each trace arrived. */
function streamed(src) {
  const seen = [];
  const result = py.run(src, "s.py", { onTrace: (trace) => seen.push({ trace, stdoutThen: py.out }) });
  return { result, seen };
}

describe("onTrace", () => {
  test("called when the trace is made, before the rest of the script runs", () => {
    const { result, seen } = streamed(`${HEAD}
print("before")
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
print("between")
nki.trace_kernel(negate, nt.tensor[[128, 64], nl.float32])
print("after")
`);
    expect(result.exitCode).toBe(0);
    expect(seen.map((s) => s.trace.kernel)).toEqual(["double", "negate"]);
    expect(seen[0].stdoutThen).toBe("before\n");
    expect(seen[1].stdoutThen).toBe("before\nbetween\n");
    expect(py.out).toBe("before\nbetween\nafter\n");
  });

  test("each streamed trace is the final entry: text, records, ir, irJson, simulated", () => {
    const { result, seen } = streamed(`${HEAD}
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
x = np.arange(128 * 32, dtype=np.float32).reshape(128, 32)
nki.simulate_kernel(negate, x)
`);
    expect(result.traces).toHaveLength(2);
    expect(seen.map((s) => s.trace)).toEqual(result.traces);
    expect(seen[0].trace.simulated).toBe(false);
    expect(seen[1].trace.simulated).toBe(true);
    expect(seen[1].trace.irJson).toBe(result.traces[1].irJson);
    expect(JSON.parse(seen[1].trace.irJson)).toEqual(seen[1].trace.ir);
  });

  test("a kernel traced again to the same IR is reported once; a new shape is new", () => {
    const { result, seen } = streamed(`${HEAD}
for _ in range(3):
    nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
nki.trace_kernel(double, nt.tensor[[128, 32], nl.float32])
`);
    expect(seen).toHaveLength(2);
    expect(result.traces).toHaveLength(2);
    expect(seen.map((s) => s.trace.text)).toEqual(result.traces.map((t) => t.text));
    expect(seen[0].trace.text).not.toBe(seen[1].trace.text);
  });

  test("without onTrace the run returns the same traces", () => {
    const src = `${HEAD}
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
`;
    const plain = py.run(src);
    const { result } = streamed(src);
    expect(plain.exitCode).toBe(0);
    expect(result.exitCode).toBe(0);
    expect(plain.traces).toHaveLength(1);
    expect(result.traces).toEqual(plain.traces);
  });

  test("a trace made before the script fails is streamed; the run still reports the error", () => {
    const { result, seen } = streamed(`${HEAD}
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
raise ValueError("later")
`);
    expect(result.exitCode).toBe(1);
    expect(seen.map((s) => s.trace.kernel)).toEqual(["double"]);
    expect(result.traces.map((t) => t.kernel)).toEqual(["double"]);
    expect(result.diagnostics[0].class).toBe("ValueError");
  });

  test("an exception in onTrace is not the script's: the script finishes, then it is thrown", () => {
    const src = `${HEAD}
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
print("went on")
`;
    expect(() =>
      py.run(src, "s.py", {
        onTrace: () => {
          throw new Error("listener broke");
        },
      }),
    ).toThrow("listener broke");
    expect(py.out).toBe("went on\n");
    // The runtime is usable afterwards, and the old hook is gone.
    const calls = [];
    const r = py.run(src, "s.py", { onTrace: (t) => calls.push(t.kernel) });
    expect(r.exitCode).toBe(0);
    expect(calls).toEqual(["double"]);
  });

  test("each streamed entry is the final entry itself, not a second copy", () => {
    const { result, seen } = streamed(`${HEAD}
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
nki.trace_kernel(negate, nt.tensor[[128, 64], nl.float32])
`);
    expect(result.traces).toHaveLength(2);
    result.traces.forEach((t, i) => expect(t).toBe(seen[i].trace));
  });
});

describe("onTrace with printed: one form, sent once", () => {
  const SRC = `${HEAD}
x = np.arange(128 * 32, dtype=np.float32).reshape(128, 32)
nki.simulate_kernel(negate, x)
nki.trace_kernel(double, nt.tensor[[128, 64], nl.float32])
nki.trace_kernel(negate, nt.tensor[[128, 32], nl.float32])
`;

  test("each trace arrives once as the core's texts; the result refers to it by index", () => {
    const got = [];
    const result = py.run(SRC, "s.py", { printed: true, onTrace: (trace, index) => got.push({ trace, index }) });
    expect(result.exitCode).toBe(0);
    expect(got.map((g) => g.index)).toEqual([0, 1]);
    for (const { trace } of got) {
      expect(Object.keys(trace).sort()).toEqual(["ir", "kernel", "records", "regions", "simulated"]);
      for (const key of ["records", "regions", "ir"]) expect(typeof trace[key]).toBe("string");
    }
    // negate was simulated, then traced again to the same IR without simulating.
    expect(got[0].trace.simulated).toBe(true);
    expect(result.traces).toEqual([
      { index: 0, simulated: false },
      { index: 1, simulated: false },
    ]);
  });

  test("the entries built from the printed form are the plain run's traces, byte for byte", () => {
    const got = [];
    const refs = py.run(SRC, "s.py", { printed: true, onTrace: (trace, index) => (got[index] = traceEntry(trace)) }).traces;
    const plain = py.run(SRC).traces;
    const assembled = assembleTraces(got, refs);
    expect(assembled).toEqual(plain);
    expect(assembled.map((t) => t.text)).toEqual(plain.map((t) => t.text));
    expect(assembled.map((t) => t.irJson)).toEqual(plain.map((t) => t.irJson));
    expect(assembled[0]).toBe(got[0]);
    expect(() => assembleTraces([], refs)).toThrow("the run's trace 0 was not streamed");
  });
});
