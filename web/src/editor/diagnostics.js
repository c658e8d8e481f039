// Diagnostics from the runtime ({line, col, end_line, end_col, severity, message, code}, 1-based
// line and column as the CLI prints them) turned into document ranges for CodeMirror's lint
// markers. Pure: takes a CodeMirror Text (or anything with .lines / .line(n)).

const WORD = /[\w.]/;

/** Offset of a 1-based line/column, clamped into the document. */
export function offsetOf(doc, line, col) {
  const l = doc.line(Math.min(Math.max(1, line | 0), doc.lines));
  const c = Math.max(1, col | 0 || 1);
  return Math.min(l.from + c - 1, l.to);
}

/**
 * The range a diagnostic covers: [from, to). `end_col` is exclusive, like Python's
 * end_col_offset (+1 for the 1-based column). Without an end, it runs to the end of the token
 * at the start position (or one character, or to the end of the line for a position in
 * leading blanks).
 */
export function rangeOf(doc, diag) {
  const from = offsetOf(doc, diag.line ?? 1, diag.col ?? 1);
  if (diag.end_line != null && diag.end_col != null) {
    const to = offsetOf(doc, diag.end_line, diag.end_col);
    if (to > from) return { from, to };
  }
  const line = doc.lineAt(from);
  const text = line.text;
  let i = from - line.from;
  if (i >= text.length) return { from, to: from };
  if (!WORD.test(text[i])) {
    // Column 1 of an indented line (an error about the whole statement): mark the line.
    if (/\s/.test(text[i])) return { from, to: line.to };
    return { from, to: from + 1 };
  }
  while (i < text.length && WORD.test(text[i])) i++;
  return { from, to: line.from + i };
}

/** CodeMirror lint Diagnostics for the runtime's diagnostics of `filename`. */
export function toLintDiagnostics(doc, diagnostics, filename) {
  return diagnostics
    .filter((d) => !d.file || !filename || baseName(d.file) === baseName(filename))
    .map((d) => ({
      ...rangeOf(doc, d),
      severity: d.severity === "warning" ? "warning" : "error",
      source: d.class ?? undefined,
      message: d.message ?? "",
    }));
}

export function baseName(path) {
  return String(path).replace(/\\/g, "/").split("/").pop();
}

/**
 * The simulator's warnings of a run (`simulations[i].warnings`, e.g. a read of never-written
 * memory) as diagnostics of the same shape as the run's own, so the editor marks them and the
 * Problems list links them to the errors page by code. A kernel simulated several times repeats
 * its warnings: each (position, code, message) is listed once.
 */
export function simulatorDiagnostics(simulations) {
  const seen = new Set();
  const out = [];
  for (const sim of simulations ?? []) {
    for (const w of sim.warnings ?? []) {
      const key = JSON.stringify([w.file, w.line, w.col, w.code, w.message]);
      if (seen.has(key)) continue;
      seen.add(key);
      const where = w.file != null && w.line != null ? `${w.file}:${w.line}:${w.col}: ` : "";
      out.push({
        severity: "warning",
        file: w.file ?? null,
        line: w.line ?? null,
        col: w.col ?? null,
        end_line: null,
        end_col: null,
        class: null,
        message: w.message ?? "",
        code: w.code ?? null,
        rendered: `${where}warning: ${w.message ?? ""}\n`,
      });
    }
  }
  return out;
}

/**
 * The failed checks of a run (`simulations[i].comparisons` with `ok` false: an `np.allclose`
 * that said False, a failed `assert_allclose`) as error diagnostics at the check's line, so a
 * wrong kernel reads as a failure in the editor and the Problems list, not as a success. A line
 * that already has an error (a failed assert raised one) is not listed twice.
 */
export function checkDiagnostics(simulations, diagnostics = []) {
  const taken = new Set(diagnostics.filter((d) => d.severity === "error").map((d) => `${baseName(d.file ?? "")}:${d.line}`));
  const out = [];
  for (const sim of simulations ?? []) {
    for (const c of sim.comparisons ?? []) {
      const key = `${baseName(c.file ?? "")}:${c.line}`;
      if (c.ok || taken.has(key)) continue;
      taken.add(key);
      const err = typeof c.max_abs_err === "number" ? `max abs error ${formatError(c.max_abs_err)}` : "shapes differ";
      const message = `check failed: expected and actual differ (${err}); see the Simulation pane`;
      out.push({
        severity: "error",
        file: c.file ?? null,
        line: c.line ?? null,
        col: c.col ?? null,
        end_line: null,
        end_col: null,
        class: null,
        message,
        code: null,
        rendered: `${c.file ?? ""}:${c.line ?? "?"}:${c.col ?? "?"}: error: ${message}\n`,
      });
    }
  }
  return out;
}

function formatError(v) {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(5)));
}

/**
 * The playground's own notes among a run's warnings ("nki-playground: no Neuron device here…",
 * printed once per runtime): information about the playground, not a problem of the user's
 * code. They stay in Output; the Problems list and the editor leave them out.
 */
export function isNotice(d) {
  return d.severity === "warning" && typeof d.message === "string" && d.message.startsWith("nki-playground: ");
}

// `@nki.jit`, `@jit(...)`, `@nki.baremetal`, `@nki.benchmark(...)`, `@nki.profile`: the
// decorators that make a kernel. Applies to both NKI front ends (`neuronxcc.nki` and `nki`).
const KERNEL_DECORATOR = /^\s*@(?:[A-Za-z_][\w]*\.)*(?:jit|baremetal|benchmark|profile)\b/;

/** Names of the kernels `source` defines (decorated functions), in order; a heuristic on text. */
export function definedKernels(source) {
  const names = [];
  let decorated = false;
  for (const line of String(source).split("\n")) {
    if (KERNEL_DECORATOR.test(line)) decorated = true;
    else if (decorated) {
      const m = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(line);
      if (m) {
        names.push(m[1]);
        decorated = false;
      } else if (/^[^\s@#)]/.test(line)) decorated = false; // not a decorator's continuation
    }
  }
  return names;
}
