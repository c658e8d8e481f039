// Runtime diagnostics -> editor ranges (web/src/editor/diagnostics.js): 1-based line/col as the
// CLI prints them, the end when given, else the token at the start.
import { Text } from "@codemirror/state";
import { describe, expect, test } from "vitest";

import { checkDiagnostics, isNotice, rangeOf, simulatorDiagnostics, toLintDiagnostics } from "../../web/src/editor/diagnostics.js";

const doc = Text.of(["import neuronxcc.nki.language as nl", "", "if True:", "    nl.load(None)", "x = (1 +"]);
const text = (r) => doc.sliceString(r.from, r.to);

describe("diagnostic ranges", () => {
  test("line and column are 1-based; without an end the range is the token there", () => {
    expect(text(rangeOf(doc, { line: 4, col: 5 }))).toBe("nl.load");
    expect(rangeOf(doc, { line: 4, col: 5 }).from).toBe(doc.line(4).from + 4);
    expect(text(rangeOf(doc, { line: 4, col: 12 }))).toBe("(");
  });

  test("an end position is used when it is after the start", () => {
    expect(text(rangeOf(doc, { line: 4, col: 5, end_line: 4, end_col: 18 }))).toBe("nl.load(None)");
    expect(text(rangeOf(doc, { line: 3, col: 1, end_line: 4, end_col: 7 }))).toBe("if True:\n    nl");
    expect(text(rangeOf(doc, { line: 4, col: 5, end_line: 4, end_col: 5 }))).toBe("nl.load");
  });

  test("positions outside the document are clamped, never thrown", () => {
    expect(rangeOf(doc, { line: 99, col: 99 })).toEqual({ from: doc.length, to: doc.length });
    expect(rangeOf(doc, { line: 0, col: 0 }).from).toBe(0);
    expect(text(rangeOf(doc, { line: 4, col: 1 }))).toBe("    nl.load(None)"); // indentation: the line
    expect(rangeOf(doc, { line: 2, col: 1 })).toEqual({ from: doc.line(2).from, to: doc.line(2).from });
  });

  test("only the edited file's diagnostics become markers", () => {
    const diags = [
      { severity: "error", file: "kernel.py", line: 4, col: 5, class: "ValueError", message: "m" },
      { severity: "warning", file: "/lib/other.py", line: 1, col: 1, message: "elsewhere" },
      { severity: "warning", file: null, line: 5, col: 5, message: "no file" },
    ];
    const out = toLintDiagnostics(doc, diags, "kernel.py");
    expect(out.map((d) => [d.severity, d.message, d.source])).toEqual([
      ["error", "m", "ValueError"],
      ["warning", "no file", undefined],
    ]);
  });
});

describe("simulator warnings", () => {
  const unwritten = {
    message: "reading memory that was never written: 'store' reads `buf[64, 0]`, which no instruction wrote",
    file: "kernel.py",
    line: 4,
    col: 5,
    code: "unwritten-read",
  };

  test("become warning diagnostics with their code and the text the run printed", () => {
    const [d] = simulatorDiagnostics([{ warnings: [unwritten] }]);
    expect(d).toEqual({
      severity: "warning",
      file: "kernel.py",
      line: 4,
      col: 5,
      end_line: null,
      end_col: null,
      class: null,
      message: unwritten.message,
      code: "unwritten-read",
      rendered: `kernel.py:4:5: warning: ${unwritten.message}\n`,
    });
    const [marker] = toLintDiagnostics(doc, [d], "kernel.py");
    expect(marker.severity).toBe("warning");
    expect(text(marker)).toBe("nl.load");
  });

  test("a kernel simulated twice lists each warning once; other warnings stay", () => {
    const trip = { message: "dynamic loop trip count is 0", file: "kernel.py", line: 3, col: 1, code: "dynamic-trip" };
    const out = simulatorDiagnostics([{ warnings: [unwritten] }, { warnings: [unwritten, trip] }, {}]);
    expect(out.map((d) => d.code)).toEqual(["unwritten-read", "dynamic-trip"]);
    expect(simulatorDiagnostics(undefined)).toEqual([]);
  });

  test("a warning without a position or code keeps its nulls", () => {
    const [d] = simulatorDiagnostics([{ warnings: [{ message: "m", file: null, line: null, col: null }] }]);
    expect(d).toMatchObject({ line: null, col: null, code: null, rendered: "warning: m\n" });
  });
});

describe("failed checks and the playground's notes", () => {
  const check = (ok, line, err = 2) => ({ label: "np.allclose(out, ref)", ok, max_abs_err: err, file: "kernel.py", line, col: 7 });

  test("a failed comparison is an error at its line; passing ones and lines with an error are not", () => {
    const sims = [{ comparisons: [check(true, 3), check(false, 5), check(false, 5), check(false, 9, 0.125)] }];
    const raised = { severity: "error", file: "/x/kernel.py", line: 9, col: 1 };
    const out = checkDiagnostics(sims, [raised]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ severity: "error", file: "kernel.py", line: 5, col: 7, code: null });
    expect(out[0].message).toBe("check failed: expected and actual differ (max abs error 2); see the Simulation pane");
    expect(checkDiagnostics([{ comparisons: [{ ...check(false, 2), max_abs_err: null }] }])[0].message).toContain("shapes differ");
  });

  test("the playground's own notes are not problems", () => {
    expect(isNotice({ severity: "warning", message: "nki-playground: no Neuron device here; 'k' (auto) runs on the simulator" })).toBe(true);
    expect(isNotice({ severity: "warning", message: "shadowing local tensor" })).toBe(false);
    expect(isNotice({ severity: "error", message: "nki-playground: cannot read x" })).toBe(false);
  });
});
