// The porting bench's comparison rules (runtime/compare.mjs), on hand-made run results: the
// element rule and its tolerance, NaN and zero outputs standing out, inputs that differ,
// pairing of calls and of traces, the IR counts. Pure: no runtime (cli-compare.test.js runs the
// real kernels).
import { describe, expect, test } from "vitest";

import { compareInputs, compareRuns, compareTensors, flagsOf, irCounts, jsonReplacer, traceOf } from "../../runtime/compare.mjs";
import { stats } from "../../runtime/results.mjs";

const TOL = { rtol: 1e-5, atol: 1e-8 };

/** A decoded tensor summary as results.mjs makes them. */
function tensor(name, values, shape = [values.length], dtype = "float32") {
  const data = Float32Array.from(values);
  return { name, shape, dtype, data, ...stats(data) };
}

function side(file, simulations, traces = [], exitCode = 0) {
  return { file, exitCode, traces, simulations };
}

function sim(kernel, inputs, outputs, extra = {}) {
  return { kernel, inputs, outputs, prints: [], warnings: [], comparisons: [], ...extra };
}

describe("compareTensors: the element rule", () => {
  test("equal values match with zero errors", () => {
    const r = compareTensors(tensor("out", [1, 2, 3]), tensor("out", [1, 2, 3]), TOL);
    expect(r).toMatchObject({ status: "match", max_abs: 0, max_rel: 0, mismatched: 0, worst: null });
  });

  test("|new - old| <= atol + rtol * |old| per element; the worst element is located", () => {
    const old = tensor("c", [1, 100, -4, 8], [2, 2]);
    const neu = tensor("c", [1, 100.01, -4, 7], [2, 2]);
    const r = compareTensors(old, neu, TOL);
    expect(r.status).toBe("mismatch");
    expect(r.mismatched).toBe(2);
    expect(r.max_abs).toBe(1);
    expect(r.max_rel).toBeCloseTo(1 / 8, 6);
    expect(r.worst).toEqual({ index: [1, 1], old: 8, new: 7 });
    // A looser tolerance accepts both.
    expect(compareTensors(old, neu, { rtol: 0.2, atol: 0 }).status).toBe("match");
    expect(compareTensors(old, neu, { rtol: 0, atol: 1 }).status).toBe("match");
    expect(compareTensors(old, neu, { rtol: 0, atol: 0.5 }).mismatched).toBe(1);
  });

  test("old 0 and new not: the relative error is Infinity (NumPy's report)", () => {
    const r = compareTensors(tensor("o", [0, 1]), tensor("o", [1e-9, 1]), TOL);
    expect(r.max_rel).toBe(Infinity);
    expect(r.status).toBe("match"); // within atol
  });

  test("NaN on one side is a mismatch of Infinity; NaN on both sides is equal", () => {
    const r = compareTensors(tensor("o", [1, NaN, NaN]), tensor("o", [NaN, NaN, 2]), TOL);
    expect(r.mismatched).toBe(2);
    expect(r.max_abs).toBe(Infinity);
    expect(r.worst.index).toEqual([0]);
    expect(r.new.flags).toEqual(["2 NaN"]);
  });

  test("other shapes, or no values kept, are not compared as if equal", () => {
    expect(compareTensors(tensor("o", [1, 2]), tensor("o", [1, 2, 3]), TOL)).toMatchObject({ status: "shape", detail: "float32[2] vs float32[3]" });
    const big = { name: "o", shape: [4096, 2048], dtype: "float32", data: null, min: null, max: null, mean: null };
    expect(compareTensors(big, big, TOL).status).toBe("no-data");
  });
});

describe("flags: what a broken port's output looks like", () => {
  test("all zeros, some NaN, all NaN", () => {
    expect(flagsOf(tensor("o", [0, 0, 0]))).toEqual(["all zeros"]);
    expect(flagsOf(tensor("o", [0, NaN, 1]))).toEqual(["1 NaN"]);
    expect(flagsOf(tensor("o", [NaN, NaN]))).toEqual(["all NaN"]);
    expect(flagsOf(tensor("o", [0, 1]))).toEqual([]);
  });
});

describe("compareInputs", () => {
  test("the same data under other parameter names is equal", () => {
    const r = compareInputs([tensor("a_input", [1, 2])], [tensor("a", [1, 2])]);
    expect(r).toMatchObject({ same: true, count: 1, names: ["a_input/a"], types: ["float32[2]"] });
  });

  test("other values, shapes, dtypes or counts differ, each said", () => {
    const r = compareInputs(
      [tensor("a", [1, 2]), tensor("b", [1, 2]), tensor("n", [3], [1], "int32")],
      [tensor("a", [1, 5]), tensor("b", [1, 2, 3]), tensor("n", [3], [1], "float32"), tensor("extra", [0])],
    );
    expect(r.same).toBe(false);
    expect(r.differences).toEqual([
      "3 inputs vs 4 inputs",
      "input 1 (a): other values (seed the data alike)",
      "input 2 (b): float32[2] vs float32[3]",
      "input 3 (n): int32[1] vs float32[1]",
    ]);
  });
});

describe("compareRuns", () => {
  const trace = (kernel, simulated, body) => ({ kernel, simulated, ir: { body } });
  const body = (kind, ...items) => ({ region: 0, kind, body: items });
  const op = (engine) => ({ op: 0, opcode: "x", engine });

  test("a match: pairs in order, counts per engine and region kind side by side", () => {
    const oldTrace = trace("k_old", false, body("KernelScope", op("dma"), body("LoopScope", op("vector"), op("dma"))));
    const newTrace = trace("k_new", true, body("KernelScope", op("dma"), op("dma"), op("none")));
    const r = compareRuns(
      side("old.py", [sim("k_old", [tensor("a", [1])], [tensor("out", [2])], { executed: 9 })], [oldTrace]),
      side("new.py", [sim("k_new", [tensor("a", [1])], [tensor("out", [2])], { executed: 3 })], [newTrace]),
    );
    expect(r).toMatchObject({ ok: true, verdict: "match", problems: [] });
    expect(r.pairs[0].counts).toEqual({
      traced: { old: true, new: true },
      instructions: { old: 3, new: 3 },
      regions: { old: 2, new: 1 },
      engines: [
        { key: "dma", old: 2, new: 2 },
        { key: "none", old: 0, new: 1 },
        { key: "vector", old: 1, new: 0 },
      ],
      regionKinds: [
        { key: "KernelScope", old: 1, new: 1 },
        { key: "LoopScope", old: 1, new: 0 },
      ],
      executed: { old: 9, new: 3 },
    });
  });

  test("inputs that differ make the verdict, even when the outputs agree", () => {
    const r = compareRuns(
      side("old.py", [sim("k", [tensor("a", [1])], [tensor("out", [2])])]),
      side("new.py", [sim("k", [tensor("a", [7])], [tensor("out", [2])])]),
    );
    expect(r).toMatchObject({ ok: false, verdict: "inputs differ" });
    expect(r.pairs[0].inputs.differences).toEqual(["input 1 (a): other values (seed the data alike)"]);
  });

  test("a failed script, or one that simulates nothing, is not compared", () => {
    const r = compareRuns(side("old.py", [], [], 1), side("new.py", []));
    expect(r.verdict).toBe("not compared");
    expect(r.problems.map((p) => [p.side, p.code])).toEqual([["old", "failed"], ["new", "no-simulation"]]);
    expect(r.pairs).toEqual([]);
  });

  test("different numbers of calls or outputs are problems; the common ones are compared", () => {
    const one = sim("k", [], [tensor("out", [1]), tensor("extra", [1])]);
    const r = compareRuns(side("old.py", [one, one]), side("new.py", [sim("k", [], [tensor("out", [1])])]));
    expect(r.ok).toBe(false);
    expect(r.problems[0].message).toBe("old.py simulated 2 kernel calls, new.py 1 kernel call: only the first 1 are compared");
    expect(r.pairs[0].problems).toEqual(["@k returned 2 outputs, @k 1 output: the first 1 are compared"]);
    expect(r.pairs[0].outputs[0].status).toBe("match");
  });

  test("tolerance flags override the defaults; JSON keeps non-finite numbers as strings", () => {
    const r = compareRuns(side("o", [sim("k", [], [tensor("x", [0, 1])])]), side("n", [sim("k", [], [tensor("x", [NaN, 1.5])])]), { atol: 1, rtol: undefined });
    expect(r.tolerance).toEqual({ rtol: 1e-5, atol: 1 });
    const json = JSON.parse(JSON.stringify(r, jsonReplacer));
    expect(json.pairs[0].outputs[0].max_abs).toBe("Infinity");
    expect(json.pairs[0].outputs[0].mismatched).toBe(1);
  });
});

describe("traceOf / irCounts", () => {
  test("a simulation runs the simulated trace of its kernel, else the last listed", () => {
    const traces = [{ kernel: "k", simulated: false, id: 0 }, { kernel: "k", simulated: true, id: 1 }, { kernel: "j", simulated: false, id: 2 }];
    const run = { traces, simulations: [{ kernel: "k" }, { kernel: "j" }, { kernel: "k" }] };
    expect(traceOf(run, 0).id).toBe(1);
    expect(traceOf(run, 1).id).toBe(2);
    expect(traceOf(run, 2).id).toBe(1); // traced to the same IR again: listed once
    expect(traceOf({ traces: [], simulations: [{ kernel: "k" }] }, 0)).toBeNull();
    expect(irCounts(null)).toEqual({ instructions: 0, regions: 0, engines: {}, regionKinds: {} });
  });
});
