// render/tokens.js over every golden IR line: lossless, and the classes the page's colours
// and the CLI's static HTML rely on land where they should.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tokenizeIrLine } from "../../render/tokens.js";

const goldenDir = fileURLToPath(new URL("../golden/", import.meta.url));
const goldens = readdirSync(goldenDir).filter((f) => f.endsWith(".ir"));
const CLASSES = new Set(["kw", "op", "val", "num", "attr", "loc", "type", "punct", ""]);

// [text, cls] pairs of a line, whitespace-only plain tokens dropped for readable expectations.
const pairs = (line) =>
  tokenizeIrLine(line)
    .filter((t) => !(t.cls === "" && !t.text.trim()))
    .map((t) => [t.text.trim(), t.cls]);
const clsOf = (line, text) => pairs(line).filter(([t]) => t === text).map(([, c]) => c);

describe("tokenizeIrLine", () => {
  it("finds the goldens", () => {
    expect(goldens.length).toBeGreaterThanOrEqual(10);
  });

  for (const name of goldens) {
    it(`gives back every line of ${name} with known classes`, () => {
      const lines = readFileSync(goldenDir + name, "utf8").split("\n");
      for (const line of lines) {
        const tokens = tokenizeIrLine(line);
        expect(tokens.map((t) => t.text).join("")).toBe(line);
        for (const t of tokens) {
          expect(CLASSES.has(t.cls), `${t.cls} in ${line}`).toBe(true);
          expect(t.text.length).toBeGreaterThan(0);
        }
        // A line with a source position ends in exactly one loc token.
        const locs = tokens.filter((t) => t.cls === "loc");
        if (/@ \S+:\d+:\d+$/.test(line)) {
          expect(locs.length).toBe(1);
          expect(tokens[tokens.length - 1].cls).toBe("loc");
        } else {
          expect(locs.length).toBe(0);
        }
        // Every instruction line (its op is engine.opcode or ndarray) has exactly one op token.
        const ops = tokens.filter((t) => t.cls === "op");
        expect(ops.length).toBeLessThanOrEqual(1);
        if (/^\s*(%\S+ = )?[a-z]+\.[a-z_]+ /.test(line)) expect(ops.length).toBe(1);
      }
    });
  }

  it("colours the kernel header", () => {
    const line = readFileSync(goldenDir + "tensor_add.ir", "utf8").split("\n")[0];
    expect(pairs(line).slice(0, 6)).toEqual([
      ["kernel", "kw"], ["@tensor_add", "val"], ["(", "punct"], ["%a_input", "val"],
      [":", "punct"], ["hbm f32[256,1024]", "type"],
    ]);
    expect(clsOf(line, "grid")).toEqual(["kw"]);
    expect(clsOf(line, "2")).toEqual(["num"]);
    expect(pairs(line).at(-1)).toEqual(["@ tensor_add.py:15:1", "loc"]);
  });

  it("colours a loop header", () => {
    const line = "    LoopScope affine %j in [0, 2) trip 2 {                              @ tensor_add.py:22:14";
    expect(pairs(line)).toEqual([
      ["LoopScope", "kw"], ["affine", "kw"], ["%j", "val"], ["in", "kw"], ["[", "punct"],
      ["0", "num"], [",", "punct"], ["2", "num"], [")", "punct"], ["trip", "kw"], ["2", "num"],
      ["{", "punct"], ["@ tensor_add.py:22:14", "loc"],
    ]);
  });

  it("colours an instruction with attributes, a mask and a type", () => {
    const text = readFileSync(goldenDir + "layernorm_bn.ir", "utf8");
    const line = text.split("\n").find((l) => l.includes("%t.2 = vector.tensor_scalar"));
    expect(line).toBeDefined();
    expect(clsOf(line, "%t.2")).toEqual(["val"]);
    expect(clsOf(line, "vector.tensor_scalar")).toEqual(["op"]);
    expect(clsOf(line, "%mean_var")).toEqual(["val"]);
    expect(clsOf(line, "1e-05")).toEqual(["num"]);
    expect(clsOf(line, "op0")).toEqual(["attr"]);
    expect(clsOf(line, "mask")).toEqual(["attr"]);
    expect(clsOf(line, "add")).toEqual([""]);
    expect(clsOf(line, "sbuf f32[128,1]")).toEqual(["type"]);
    expect(pairs(line).at(-1)[1]).toBe("loc");
  });

  it("colours an opcode without engine, the region kinds and a while condition", () => {
    expect(clsOf("    %out = ndarray : shared_hbm f32[128,64]   @ a.py:1:1", "ndarray")).toEqual(["op"]);
    const text = readFileSync(goldenDir + "halve_until_small.ir", "utf8");
    const line = text.split("\n").find((l) => l.includes("WhileScope"));
    expect(pairs(line).slice(0, 6)).toEqual([
      ["WhileScope", "kw"], ["continue_if", "kw"], ["%probe", "val"], [">=", "punct"],
      ["1.0", "num"], ["{", "punct"],
    ]);
    for (const kind of ["KernelScope", "AllocationScope", "IfScope"]) {
      expect(clsOf(`  ${kind} {`, kind)).toEqual(["kw"]);
    }
    const stage = pairs("    ScopeRegion stage stage_id=1 execution_order=-2 {");
    expect(stage).toEqual([
      ["ScopeRegion", "kw"], ["stage", "kw"], ["stage_id", "attr"], ["=", "punct"], ["1", "num"],
      ["execution_order", "attr"], ["=", "punct"], ["-2", "num"], ["{", "punct"],
    ]);
  });

  it("keeps HTML-looking kernel names as plain text", () => {
    const line = "kernel @<b>x</b>(%a: hbm f32[2]) {  @ k.py:1:1";
    const tokens = tokenizeIrLine(line);
    expect(tokens.map((t) => t.text).join("")).toBe(line);
    expect(tokens.at(-1)).toEqual({ text: "@ k.py:1:1", cls: "loc" });
  });
});
