// web/src/link/linking.js — the linking the page and the embeds share — over the link index of a
// real trace (real Pyodide + the real wasm core), with recording stand-ins for the editor and
// the panes (their own behaviour is tested in Chromium).
import { readFileSync } from "node:fs";

import { beforeAll, describe, expect, it } from "vitest";

import { createLinkIndex } from "../../web/src/link/link-index.js";
import { createLinking } from "../../web/src/link/linking.js";
import { pythonHarness } from "../python/harness.js";

const SOURCE = readFileSync(new URL("../../kernels/causal_blocks.py", import.meta.url), "utf8");
const lineOf = (needle) => SOURCE.split("\n").findIndex((l) => l.includes(needle)) + 1;

const py = pythonHarness("causal_blocks.py");
let link;

beforeAll(() => {
  const { exitCode, traces, err } = py.run(SOURCE);
  expect(exitCode, err).toBe(0);
  link = createLinkIndex(traces);
});

/** A linking attached to stand-ins that keep what they were last told. */
function setUp({ withLink = true } = {}) {
  const seen = { source: null, selected: [], ir: null, scrolledTo: null, regions: null };
  const editor = {
    highlightLines: (lines) => (seen.source = [...lines]),
    select: (line, col) => seen.selected.push([line, col]),
  };
  const ir = {
    highlight: ({ lines, regionId }) => (seen.ir = { lines: [...lines].sort((a, b) => a - b), regionId }),
    scrollToLine: (i) => (seen.scrolledTo = i),
  };
  const regions = { highlight: (ids) => (seen.regions = [...ids]) };
  const marks = { ir: { dataset: {} }, regions: { dataset: {} }, source: { dataset: {} } };
  const linking = createLinking();
  linking.attach({ editor, ir, regions, marks, getLink: () => (withLink ? link : null), cursorLine: 1 });
  return { linking, seen, marks };
}

describe("createLinking", () => {
  it("a source line lights its IR lines and regions (innermost first) and marks them", () => {
    const { linking, seen, marks } = setUp();
    const line = lineOf("nisa.affine_select(");
    linking.cursorLine(line);
    const irLines = link.irLinesForSourceLine(line);
    const regions = link.regionsForSourceLine(line);
    expect(irLines.length).toBeGreaterThan(0);
    expect(seen.ir).toEqual({ lines: irLines, regionId: regions[0] });
    expect(seen.scrolledTo).toBe(Math.min(...irLines));
    expect(seen.regions).toEqual(regions);
    expect(seen.source).toEqual([]);
    expect(marks.ir.dataset.linkedLines).toBe(irLines.join(","));
    expect(marks.regions.dataset.linkedRegions).toBe(regions.join(","));
    expect(marks.source.dataset.linkedLines).toBe("");
  });

  it("hovering another line shows it; leaving the editor goes back to the cursor line", () => {
    const { linking, seen } = setUp();
    const cursor = lineOf("nisa.affine_select(");
    const other = lineOf("for ki in");
    linking.cursorLine(cursor);
    linking.hoverLine(other);
    expect(seen.regions).toEqual(link.regionsForSourceLine(other));
    linking.hoverLine(null);
    expect(seen.regions).toEqual(link.regionsForSourceLine(cursor));
    expect(linking.cursor).toBe(cursor);
  });

  it("an IR line click moves the cursor to its source line and lights that line and its region", () => {
    const { linking, seen, marks } = setUp();
    const line = lineOf("nisa.affine_select(");
    const [index] = link.irLinesForSourceLine(line);
    linking.irLineClick(index);
    expect(seen.selected).toEqual([[line, 0]]);
    expect(seen.ir).toEqual({ lines: [index], regionId: link.regionForIrLine(index) });
    expect(seen.regions).toEqual([link.regionForIrLine(index)]);
    expect(seen.source).toEqual([line]);
    expect(marks.source.dataset.linkedLines).toBe(String(line));
  });

  it("hovering an IR line lights its source line only when it is in the user's file", () => {
    const { linking, seen } = setUp();
    linking.irLineHover({ loc: { file: "causal_blocks.py", line: 7 } });
    expect(seen.source).toEqual([7]);
    linking.irLineHover({ loc: { file: "/lib/python3.13/site-packages/x.py", line: 9 } });
    expect(seen.source).toEqual([]);
  });

  it("a region click selects its first source line and lights its span and IR block; hover does not select", () => {
    const { linking, seen } = setUp();
    const loop = [...link.regions.values()].find((r) => r.kind === "LoopScope");
    const [first, last] = link.irRangeForRegion(loop.id);
    const { startLine, endLine } = link.sourceSpanForRegion(loop.id);
    linking.regionHover(loop.id);
    expect(seen.selected).toEqual([]);
    linking.regionClick(loop.id);
    expect(seen.selected).toEqual([[startLine, 0]]);
    expect(seen.ir.lines).toEqual(Array.from({ length: last - first + 1 }, (_, k) => first + k));
    expect(seen.ir.regionId).toBe(loop.id);
    expect(seen.regions).toEqual([loop.id]);
    expect(seen.source).toEqual(Array.from({ length: endLine - startLine + 1 }, (_, k) => startLine + k));
  });

  it("a simulator position moves the cursor only for the user's file", () => {
    const { linking, seen } = setUp();
    linking.sourceClick({ file: "/lib/numpy.py", line: 3, col: 1 });
    linking.sourceClick({ file: "causal_blocks.py", line: 12, col: 5 });
    expect(seen.selected).toEqual([[12, 5]]);
  });

  it("before a run (no link index) nothing is lit", () => {
    const { linking, seen } = setUp({ withLink: false });
    linking.cursorLine(5);
    linking.regionClick("0:0");
    expect(seen).toEqual({ source: null, selected: [], ir: null, scrolledTo: null, regions: null });
  });
});
