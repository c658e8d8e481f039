// `compare OLD.py NEW.py`: the porting bench. Runs both scripts in one runtime, compares their
// simulations with runtime/compare.mjs and prints the report as a table (or JSON). The
// contract and the report's fields: docs/compare.md.
import { readFileSync } from "node:fs";

import { EXIT } from "./args.mjs";
import { compareRuns, jsonReplacer, typeText } from "../runtime/compare.mjs";
import { detectLanguage } from "../render/language.js";

/**
 * @param {{old: string, new: string, rtol?: number, atol?: number, json: boolean}} plan
 * @param {{createRuntime: (sinks: object) => Promise<object>, write: (text: string) => void}} env
 * @returns {Promise<number>} EXIT.OK when every output matches, else EXIT.FAILED
 */
export async function compareFiles(plan, { createRuntime, write }) {
  // stdout holds the report: the scripts' prints go to stderr.
  const runtime = await createRuntime({ stdout: (t) => process.stderr.write(t) });
  const side = (file) => {
    const language = detectLanguage(readFileSync(file, "utf8")).label;
    const { exitCode, traces, simulations } = runtime.runFile(file, []);
    return { file, language, exitCode, traces, simulations };
  };
  const old = side(plan.old);
  const neu = side(plan.new);
  const report = compareRuns(old, neu, { rtol: plan.rtol, atol: plan.atol });
  write(plan.json ? `${JSON.stringify(report, jsonReplacer, 2)}\n` : formatReport(report));
  return report.ok ? EXIT.OK : EXIT.FAILED;
}

/** The report as text: the files, one block per compared call, the verdict last. */
export function formatReport(report) {
  const out = [];
  const { rtol, atol } = report.tolerance;
  out.push(
    table([
      ["old", report.old.file, report.old.language ?? "", calls(report.old.simulations)],
      ["new", report.new.file, report.new.language ?? "", calls(report.new.simulations)],
    ]),
  );
  out.push(`tolerance  |new - old| <= ${num(atol)} + ${num(rtol)} * |old| per element`);
  for (const p of report.problems) out.push(`problem: ${p.message}`);
  for (const pair of report.pairs) out.push("", ...pairBlock(pair));
  out.push("", verdictLine(report));
  return `${out.join("\n")}\n`;
}

function calls(n) {
  return `${n} simulated call${n === 1 ? "" : "s"}`;
}

function pairBlock(pair) {
  const lines = [`call ${pair.index + 1}: @${pair.old.kernel} -> @${pair.new.kernel}`];
  const ins = pair.inputs;
  if (ins.same) {
    const list = ins.names.map((n, i) => `${n} ${ins.types[i]}`).join(", ");
    lines.push(`  inputs   ${ins.count} equal${ins.unchecked ? " in shape and dtype (values too large to check)" : ""}: ${list || "none"}`);
  } else {
    lines.push("  inputs   DIFFER, so the outputs cannot be expected to agree:");
    for (const d of ins.differences) lines.push(`    ${d}`);
  }
  for (const p of pair.problems) lines.push(`  problem: ${p}`);
  if (pair.outputs.length) {
    const rows = [["output", "type", "max abs", "max rel", "elements off", "old", "new", "verdict"]];
    for (const o of pair.outputs) {
      rows.push([
        o.name,
        typeText({ dtype: o.new.dtype, shape: o.new.shape }),
        num(o.max_abs),
        num(o.max_rel),
        o.mismatched === null ? "-" : `${o.mismatched}/${o.size}`,
        stats(o.old),
        stats(o.new),
        o.status === "shape" ? `shape ${o.detail}` : o.status === "no-data" ? "not compared (too large)" : o.status,
      ]);
    }
    lines.push(...table(rows).split("\n").map((l) => `  ${l}`));
    for (const o of pair.outputs) {
      if (o.worst) {
        lines.push(`  worst    ${o.name}[${o.worst.index.join(", ")}]: old ${num(o.worst.old)}, new ${num(o.worst.new)}`);
      }
      for (const word of ["old", "new"]) {
        for (const f of o[word].flags) lines.push(`  note     ${word} ${o.name} ${flagText(f)}`);
      }
    }
  }
  lines.push("", ...table(countRows(pair.counts)).split("\n").map((l) => `  ${l}`));
  return lines;
}

function flagText(flag) {
  if (flag === "all zeros") return "is all zeros (a kernel that writes nothing to its output, nki-samples#134, looks like this)";
  const what = flag === "all NaN" ? "is all NaN" : `holds ${flag} values`;
  return `${what} (never-written memory reads NaN in the simulator)`;
}

function countRows(c) {
  const rows = [["IR", "old", "new"]];
  const traced = (w) => (c.traced[w] ? null : "?");
  rows.push(["instructions", traced("old") ?? String(c.instructions.old), traced("new") ?? String(c.instructions.new)]);
  for (const e of c.engines) rows.push([`  ${e.key === "none" ? "no engine" : e.key}`, String(e.old), String(e.new)]);
  rows.push(["regions", traced("old") ?? String(c.regions.old), traced("new") ?? String(c.regions.new)]);
  for (const r of c.regionKinds) rows.push([`  ${r.key}`, String(r.old), String(r.new)]);
  if (c.executed.old !== null || c.executed.new !== null) {
    rows.push(["executed (simulated)", String(c.executed.old ?? "-"), String(c.executed.new ?? "-")]);
  }
  return rows;
}

function verdictLine(report) {
  const outputs = report.pairs.flatMap((p) => p.outputs);
  const off = outputs.filter((o) => o.status !== "match").length;
  if (report.ok) {
    return `match: ${calls(report.pairs.length).replace("simulated ", "")}, ${outputs.length} output${outputs.length === 1 ? "" : "s"} within tolerance`;
  }
  if (report.verdict === "not compared") return "not compared: see the problems above";
  if (report.verdict === "inputs differ") return "inputs differ: give both scripts the same data (same seed, shapes and dtypes)";
  return `mismatch: ${off} of ${outputs.length} output${outputs.length === 1 ? "" : "s"} ${off === 1 ? "differs" : "differ"}${report.problems.length ? "; see the problems above" : ""}`;
}

function stats(s) {
  const parts = [`min ${num(s.min)}`, `max ${num(s.max)}`, `mean ${num(s.mean)}`];
  if (s.flags.length) parts.push(`[${s.flags.join(", ")}]`);
  return parts.join(" ");
}

/** A number short enough for a table cell. */
export function num(v) {
  if (v === null || v === undefined) return "-";
  if (typeof v !== "number") return String(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v);
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e6) return String(Number(v.toPrecision(4)));
  return Number(v.toPrecision(3)).toExponential();
}

/** Rows of cells as left-aligned columns, two spaces apart. */
function table(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ").trimEnd()).join("\n");
}
