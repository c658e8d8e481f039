// web/src/link/link-index.js on the traces of real kernels (real Pyodide + the real wasm core).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.mjs";
import { createLinkIndex } from "../../web/src/link/link-index.js";

const kernel = (name) => readFileSync(new URL(`../../kernels/${name}.py`, import.meta.url), "utf8");
// Line number (1-based) of the first source line containing `needle`.
const lineOf = (source, needle) => source.split("\n").findIndex((l) => l.includes(needle)) + 1;

let runtime;
const traced = {};
// causal_blocks twice (512 and 256 rows) in one script: two traces whose per-trace region ids
// collide, the case the global ids exist for.
const causalTwice =
  kernel("causal_blocks") + "\n    nki.trace_kernel(causal_blocks, nt.tensor[[256, 256], nl.float32])\n";

beforeAll(async () => {
  runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
  const run = (source, filename) => {
    const { exitCode, traces } = runtime.runSource(source, { filename });
    expect(exitCode).toBe(0);
    return traces;
  };
  traced.causal = run(kernel("causal_blocks"), "causal_blocks.py");
  traced.twice = run(causalTwice, "causal_blocks.py");
  traced.add = run(kernel("tensor_add"), "tensor_add.py");
  traced.halve = run(kernel("halve_until_small"), "halve_until_small.py");
});

describe("createLinkIndex", () => {
  it("lists every record's line, with a blank line between kernels", () => {
    const one = createLinkIndex(traced.causal);
    expect(one.lines.map((l) => l.text).join("\n") + "\n").toBe(traced.causal[0].text);
    const two = createLinkIndex(traced.twice);
    expect(traced.twice.length).toBe(2);
    const n0 = traced.twice[0].records.length;
    expect(two.lines.length).toBe(n0 + 1 + traced.twice[1].records.length);
    expect(two.lines[n0]).toMatchObject({ text: "", loc: null, region: null });
    expect(two.sourceLineForIrLine(n0)).toBeNull();
    expect(two.regionForIrLine(n0)).toBeNull();
    expect(two.lines[n0 + 1].text.startsWith("kernel @causal_blocks")).toBe(true);
    expect(two.file).toBe("causal_blocks.py");
  });

  it("builds the region tree with kinds, axes, counts and engines", () => {
    const idx = createLinkIndex(traced.causal);
    const root = idx.regions.get("0:0");
    expect(root).toMatchObject({ kind: "KernelScope", parent: null, trace: 0, label: expect.stringContaining("kernel @causal_blocks") });
    const ir = traced.causal[0].ir;
    // Every instruction of the kernel counted once at the root.
    const countOps = (n) => (n.body || []).reduce((s, c) => s + (c.region !== undefined ? countOps(c) : 1), 0);
    expect(root.instructionCount).toBe(countOps(ir.body));
    expect(root.instructionCount).toBe(traced.causal[0].records.filter((r) => r.op_id >= 0).length);
    expect([...root.engines].sort()).toEqual(["dma", "gpsimd", "vector"]);
    const loops = [...idx.regions.values()].filter((r) => r.kind === "LoopScope");
    expect(loops.map((r) => [r.axis.name, r.tripCount, r.axis.axis_type])).toEqual([
      ["qi", 4, "affine"], ["ki", 4, "affine"],
    ]);
    expect(loops[0].label).toBe("LoopScope affine %qi in [0, 4) trip 4");
    const ifs = [...idx.regions.values()].filter((r) => r.kind === "IfScope");
    expect(ifs.map((r) => r.label)).toEqual(["IfScope %ki < %qi", "IfScope %ki == %qi", "IfScope %ki > %qi"]);
    expect(ifs.map((r) => r.instructionCount)).toEqual([2, 3, 2]);
    expect([...ifs[1].engines].sort()).toEqual(["dma", "gpsimd"]);
    // Parent/child links agree.
    for (const r of idx.regions.values()) {
      for (const c of r.children) expect(idx.regions.get(c).parent).toBe(r.id);
    }
  });

  it("links a source line to its IR lines and regions, and back", () => {
    const src = kernel("causal_blocks");
    const idx = createLinkIndex(traced.causal);
    const affine = lineOf(src, "nisa.affine_select(");
    const lines = idx.irLinesForSourceLine(affine);
    expect(lines.length).toBe(1);
    expect(idx.lines[lines[0]].text).toContain("gpsimd.affine_select");
    expect(idx.sourceLineForIrLine(lines[0])).toEqual({ file: "causal_blocks.py", line: affine, col: 24 });
    const regs = idx.regionsForSourceLine(affine);
    expect(regs.length).toBe(1);
    expect(idx.regions.get(regs[0]).label).toBe("IfScope %ki == %qi");
    expect(idx.regionForIrLine(lines[0])).toBe(regs[0]);
    // The inner loop's line opens the loop and its AllocationScope: innermost first.
    const inner = lineOf(src, "for ki in");
    expect(idx.regionsForSourceLine(inner).map((id) => idx.regions.get(id).kind)).toEqual(["AllocationScope", "LoopScope"]);
    expect(idx.regionPath(affine).map((p) => p.kind)).toEqual([
      "KernelScope", "LoopScope", "AllocationScope", "LoopScope", "AllocationScope", "IfScope",
    ]);
    // A line with no IR of its own (rows = ...) lies in the inner loop's span.
    const rows = lineOf(src, "rows = qi");
    expect(idx.irLinesForSourceLine(rows)).toEqual([]);
    expect(idx.regionPath(rows).at(-1).kind).toBe("AllocationScope");
    expect(idx.regionPath(rows).length).toBe(5);
    expect(idx.irLinesForSourceLine(affine, "elsewhere.py")).toEqual([]);
  });

  it("gives each region its IR block and source span", () => {
    const src = kernel("causal_blocks");
    const idx = createLinkIndex(traced.causal);
    const ifEq = [...idx.regions.values()].find((r) => r.label === "IfScope %ki == %qi");
    const [first, last] = idx.irRangeForRegion(ifEq.id);
    expect(idx.lines[first].text.trim().startsWith("IfScope %ki == %qi {")).toBe(true);
    expect(idx.lines[last].text.trim()).toBe("}");
    expect(last - first).toBe(4);
    expect(idx.sourceSpanForRegion(ifEq.id)).toEqual({
      file: "causal_blocks.py", startLine: lineOf(src, "if ki == qi"), endLine: lineOf(src, "nl.store(out[rows, cols], value=kept)"),
    });
    const root = idx.irRangeForRegion("0:0");
    expect(root).toEqual([0, idx.lines.length - 1]);
    const outer = [...idx.regions.values()].find((r) => r.kind === "LoopScope");
    expect(idx.sourceSpanForRegion(outer.id)).toEqual({
      file: "causal_blocks.py", startLine: lineOf(src, "for qi in"), endLine: lineOf(src, "nl.full((BLOCK"),
    });
    expect(idx.irRangeForRegion("9:9")).toBeNull();
    expect(idx.sourceSpanForRegion("9:9")).toBeNull();
  });

  it("keeps region ids unique across traces", () => {
    const idx = createLinkIndex(traced.twice);
    const ids = [...idx.regions.keys()];
    expect(ids.filter((id) => id.startsWith("0:")).length).toBe(ids.filter((id) => id.startsWith("1:")).length);
    const loops = [...idx.regions.values()].filter((r) => r.kind === "LoopScope");
    expect(loops.map((r) => [r.id.split(":")[0], r.tripCount])).toEqual([["0", 4], ["0", 4], ["1", 2], ["1", 2]]);
    // One source line, IR lines in both kernels, each in its own trace's region.
    const affine = lineOf(causalTwice, "nisa.affine_select(");
    const lines = idx.irLinesForSourceLine(affine);
    expect(lines.length).toBe(2);
    expect(lines.map((i) => idx.regionForIrLine(i).split(":")[0])).toEqual(["0", "1"]);
    expect(idx.regionsForSourceLine(affine).length).toBe(2);
    for (const i of lines) {
      const [a, b] = idx.irRangeForRegion(idx.regionForIrLine(i));
      expect(a <= i && i <= b).toBe(true);
    }
  });

  it("covers grids, while loops and the user-file choice", () => {
    const add = createLinkIndex(traced.add);
    const loop = [...add.regions.values()].find((r) => r.kind === "LoopScope");
    expect(loop).toMatchObject({ tripCount: 2, instructionCount: 4 });
    expect([...loop.engines].sort()).toEqual(["dma", "vector"]);
    const halve = createLinkIndex(traced.halve);
    const w = [...halve.regions.values()].find((r) => r.kind === "WhileScope");
    expect(w.label).toBe("WhileScope continue_if %probe >= 1.0");
    expect(w.tripCount).toBeNull();
    expect(w.instructionCount).toBe(2); // the halving multiply (written into the tile itself) and the probe
    const other = createLinkIndex(traced.add, { file: "other.py" });
    expect(other.file).toBe("other.py");
    expect(other.lines.every((_, i) => other.sourceLineForIrLine(i) === null)).toBe(true);
    expect(other.sourceSpanForRegion("0:0")).toBeNull();
  });

  it("handles no traces", () => {
    const idx = createLinkIndex([]);
    expect(idx.lines).toEqual([]);
    expect(idx.regions.size).toBe(0);
    expect(idx.regionPath(3)).toEqual([]);
    expect(idx.sourceLineForIrLine(0)).toBeNull();
  });
});
