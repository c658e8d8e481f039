// The porting bench: a kernel's two versions (a Beta 1 kernel and its port to the current
// language, or any two scripts) compared from their runs. Pure and environment-agnostic: the
// CLI (`nki-playground compare`) and the page's Compare tab call it on what runSource() /
// runFile() returned (docs/compare.md).
//
// The contract: each file is a script whose __main__ block simulates its kernel; the k-th
// simulated call of OLD is paired with the k-th of NEW, their inputs must be equal (the same
// seeded data), and each output of NEW is compared element-wise with the same output of OLD.

/** np.allclose's defaults: |new - old| <= atol + rtol * |old|. */
export const DEFAULT_TOLERANCE = Object.freeze({ rtol: 1e-5, atol: 1e-8 });

/**
 * @typedef {{file: string, language?: string, exitCode: number, traces: object[],
 *   simulations: object[]}} Side  one file's run (runSource's result plus its name/language)
 */

/**
 * Compares two runs.
 * @param {Side} old  the reference (usually the Beta 1 kernel)
 * @param {Side} neu  the port
 * @param {{rtol?: number, atol?: number}} [tolerance]
 * @returns {object} the report (docs/compare.md): {ok, verdict, tolerance, old, new, problems, pairs}
 */
export function compareRuns(old, neu, tolerance = {}) {
  const tol = { ...DEFAULT_TOLERANCE, ...definedOnly(tolerance) };
  const problems = [];
  for (const [word, side] of [["old", old], ["new", neu]]) {
    if (side.exitCode !== 0) {
      problems.push({ side: word, code: "failed", message: `${side.file} failed (exit status ${side.exitCode}): its error is above` });
    } else if (!side.simulations.length) {
      problems.push({
        side: word,
        code: "no-simulation",
        message: `${side.file} simulated no kernel: its __main__ block must call the kernel on NumPy arrays (nki.simulate_kernel, nki.simulate, or a jitted kernel called on arrays)`,
      });
    }
  }
  const n = Math.min(old.simulations.length, neu.simulations.length);
  if (old.exitCode === 0 && neu.exitCode === 0 && n && old.simulations.length !== neu.simulations.length) {
    problems.push({
      side: null,
      code: "simulation-count",
      message: `${old.file} simulated ${plural(old.simulations.length, "kernel call")}, ${neu.file} ${plural(neu.simulations.length, "kernel call")}: only the first ${n} are compared`,
    });
  }
  const pairs = [];
  for (let i = 0; i < n; i++) pairs.push(comparePair(i, old, neu, tol));
  const ok = !problems.length && pairs.length > 0 && pairs.every((p) => p.ok);
  return {
    ok,
    verdict: verdictOf(ok, problems, pairs),
    tolerance: tol,
    old: sideInfo(old),
    new: sideInfo(neu),
    problems,
    pairs,
  };
}

function definedOnly(o) {
  return Object.fromEntries(Object.entries(o || {}).filter(([, v]) => typeof v === "number" && Number.isFinite(v)));
}

function sideInfo(side) {
  return { file: side.file, language: side.language ?? null, exitCode: side.exitCode, simulations: side.simulations.length };
}

function verdictOf(ok, problems, pairs) {
  if (ok) return "match";
  if (problems.some((p) => p.code === "failed" || p.code === "no-simulation")) return "not compared";
  if (pairs.some((p) => !p.inputs.same)) return "inputs differ";
  return "mismatch";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The k-th simulations of the two runs, with the IR each ran. */
function comparePair(index, old, neu, tol) {
  const a = old.simulations[index];
  const b = neu.simulations[index];
  const inputs = compareInputs(a.inputs, b.inputs);
  const outputs = [];
  const problems = [];
  if (a.outputs.length !== b.outputs.length) {
    problems.push(`@${a.kernel} returned ${plural(a.outputs.length, "output")}, @${b.kernel} ${plural(b.outputs.length, "output")}: the first ${Math.min(a.outputs.length, b.outputs.length)} are compared`);
  }
  for (let j = 0; j < Math.min(a.outputs.length, b.outputs.length); j++) {
    outputs.push(compareTensors(a.outputs[j], b.outputs[j], tol));
  }
  if (!outputs.length) problems.push("nothing to compare: no outputs");
  const counts = compareCounts(traceOf(old, index), traceOf(neu, index), a, b);
  const ok = inputs.same && !problems.length && outputs.every((o) => o.status === "match");
  return { index, ok, old: { kernel: a.kernel }, new: { kernel: b.kernel }, inputs, outputs, problems, counts };
}

/** Inputs are equal when they agree in number, shapes, dtypes and values (NaN equals NaN). */
export function compareInputs(a, b) {
  const differences = [];
  if (a.length !== b.length) differences.push(`${plural(a.length, "input")} vs ${plural(b.length, "input")}`);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const names = x.name === y.name ? x.name : `${x.name}/${y.name}`;
    if (!sameShape(x.shape, y.shape) || x.dtype !== y.dtype) {
      differences.push(`input ${i + 1} (${names}): ${typeText(x)} vs ${typeText(y)}`);
    } else if (x.data && y.data && !sameValues(x.data, y.data)) {
      differences.push(`input ${i + 1} (${names}): other values (seed the data alike)`);
    }
  }
  const unchecked = a.some((x) => !x.data) || b.some((y) => !y.data);
  return {
    same: differences.length === 0,
    count: a.length,
    names: a.map((x, i) => (b[i] && b[i].name !== x.name ? `${x.name}/${b[i].name}` : x.name)),
    types: a.map(typeText),
    differences,
    ...(unchecked ? { unchecked: true } : {}),
  };
}

function sameShape(p, q) {
  return p.length === q.length && p.every((d, i) => d === q[i]);
}

function sameValues(p, q) {
  if (p.length !== q.length) return false;
  for (let i = 0; i < p.length; i++) {
    const u = p[i];
    const v = q[i];
    if (u !== v && !(u !== u && v !== v)) return false;
  }
  return true;
}

export function typeText(t) {
  return `${t.dtype}[${(t.shape || []).join(", ")}]`;
}

/**
 * One output of each side, element-wise: |new - old| <= atol + rtol * |old| per element, NaN
 * equal to NaN and an infinity to itself. `max_rel` is max |new - old| / |old| (Infinity where
 * old is 0 and new is not, as NumPy's assert_allclose reports it). `flags` say what stands out
 * on each side: all zeros, NaNs (never-written memory reads NaN), all NaN.
 */
export function compareTensors(old, neu, { rtol, atol }) {
  const base = {
    name: old.name === neu.name ? old.name : `${old.name}/${neu.name}`,
    old: summary(old),
    new: summary(neu),
    size: old.data ? old.data.length : null,
    max_abs: null,
    max_rel: null,
    mismatched: null,
    worst: null,
  };
  if (!sameShape(old.shape, neu.shape)) return { ...base, status: "shape", detail: `${typeText(old)} vs ${typeText(neu)}` };
  if (!old.data || !neu.data) return { ...base, status: "no-data", detail: "too large to keep its values (over 4M elements)" };
  const x = old.data;
  const y = neu.data;
  let maxAbs = 0;
  let maxRel = 0;
  let mismatched = 0;
  let worst = -1;
  let worstScore = -1;
  for (let i = 0; i < x.length; i++) {
    const u = x[i];
    const v = y[i];
    if (u === v) continue;
    const uNaN = u !== u;
    const vNaN = v !== v;
    if (uNaN && vNaN) continue;
    const d = uNaN || vNaN ? Infinity : Math.abs(v - u);
    if (d > maxAbs) maxAbs = d;
    const rel = u === 0 || uNaN ? Infinity : d / Math.abs(u);
    if (rel > maxRel) maxRel = rel;
    const bad = !(d <= atol + rtol * Math.abs(u));
    if (bad) mismatched++;
    // The element shown as the worst: the first failing one with the largest difference.
    const score = bad ? d : -1;
    if (bad && score > worstScore) {
      worstScore = score;
      worst = i;
    }
  }
  return {
    ...base,
    status: mismatched ? "mismatch" : "match",
    max_abs: maxAbs,
    max_rel: maxRel,
    mismatched,
    worst: worst < 0 ? null : { index: unravel(worst, old.shape), old: x[worst], new: y[worst] },
  };
}

function summary(t) {
  return {
    dtype: t.dtype,
    shape: t.shape,
    min: t.min ?? null,
    max: t.max ?? null,
    mean: t.mean ?? null,
    nan_count: t.nan_count ?? 0,
    flags: flagsOf(t),
  };
}

/** What a porting mistake looks like in an output: all zeros (nki-samples#134), NaNs. */
export function flagsOf(t) {
  const flags = [];
  const n = t.data ? t.data.length : (t.shape || []).reduce((p, d) => p * d, 1);
  if (t.nan_count) flags.push(t.nan_count === n ? "all NaN" : `${t.nan_count} NaN`);
  else if (t.min === 0 && t.max === 0) flags.push("all zeros");
  return flags;
}

function unravel(flat, shape) {
  const index = new Array(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    index[d] = flat % shape[d];
    flat = Math.floor(flat / shape[d]);
  }
  return index;
}

/**
 * The trace a run's index-th simulation ran: the traces of its kernel, the simulated ones if
 * any (a kernel traced to the same IR again is listed once, so the count may be smaller: the
 * last one then).
 */
export function traceOf(side, index) {
  const sim = side.simulations[index];
  const same = side.traces.filter((t) => t.kernel === sim.kernel);
  if (!same.length) return null;
  const simulated = same.filter((t) => t.simulated);
  const pool = simulated.length ? simulated : same;
  const k = side.simulations.slice(0, index).filter((s) => s.kernel === sim.kernel).length;
  return pool[Math.min(k, pool.length - 1)];
}

/** Instructions per engine and regions per kind in a trace's IR (its JSON form). */
export function irCounts(trace) {
  const engines = {};
  const regions = {};
  let instructions = 0;
  let regionCount = 0;
  const walk = (node) => {
    if (node.kind !== undefined && Array.isArray(node.body)) {
      regions[node.kind] = (regions[node.kind] ?? 0) + 1;
      regionCount++;
      for (const child of node.body) walk(child);
    } else if (node.opcode !== undefined) {
      const engine = node.engine || "none";
      engines[engine] = (engines[engine] ?? 0) + 1;
      instructions++;
    }
  };
  if (trace?.ir?.body) walk(trace.ir.body);
  return { instructions, regions: regionCount, engines, regionKinds: regions };
}

function compareCounts(oldTrace, newTrace, oldSim, newSim) {
  const a = irCounts(oldTrace);
  const b = irCounts(newTrace);
  const rows = (p, q) =>
    [...new Set([...Object.keys(p), ...Object.keys(q)])].sort().map((key) => ({ key, old: p[key] ?? 0, new: q[key] ?? 0 }));
  return {
    traced: { old: Boolean(oldTrace), new: Boolean(newTrace) },
    instructions: { old: a.instructions, new: b.instructions },
    regions: { old: a.regions, new: b.regions },
    engines: rows(a.engines, b.engines),
    regionKinds: rows(a.regionKinds, b.regionKinds),
    executed: { old: oldSim.executed ?? null, new: newSim.executed ?? null },
  };
}

/** `value` for JSON: non-finite numbers as the strings "Infinity", "-Infinity", "NaN". */
export function jsonReplacer(key, value) {
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}
