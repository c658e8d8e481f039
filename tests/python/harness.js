// Shared set-up for the Python-surface tests: one real runtime per test file (Pyodide + the
// wasm core), a kernel-script template, IR lines of a trace, and the located-diagnostic check.
import { afterEach, beforeAll, expect } from "vitest";

import { createNodeRuntime } from "../../runtime/node.mjs";

export const HEAD = `import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt
import neuronxcc.nki.compiler as ncc
`;

export const F32 = (s) => `nt.tensor[[${s}], nl.float32]`;
export const I32 = (s) => `nt.tensor[[${s}], nl.int32]`;
export const BF = (s) => `nt.tensor[[${s}], nl.bfloat16]`;

/**
 * `kernel k(sig)` with `body`, traced on `args`, after `head` (default HEAD). `returnNone` ends
 * the body with `return None` (so a body may end inside a block).
 */
export function script(sig, body, args, { head = HEAD, decorators = "@nki.jit\n", returnNone = false } = {}) {
  const end = returnNone ? "\n    return None" : "";
  return `${head}${decorators}def k(${sig}):\n${body}${end}\nnki.trace_kernel(k, ${args})\n`;
}

/**
 * "line:col" (1-based) where `fragment` first appears in `src`; with `prefix`, where `fragment`
 * starts in the first `prefix + fragment` (to tell apart a fragment that also stands earlier).
 */
export function locate(src, fragment, prefix = "") {
  const ls = src.split("\n");
  for (let i = 0; i < ls.length; i++) {
    const c = ls[i].indexOf(prefix + fragment);
    if (c >= 0) return `${i + 1}:${c + prefix.length + 1}`;
  }
  throw new Error(`fragment not in snippet: ${prefix + fragment}`);
}

/** IR text → its lines, the trailing `@ file:line:col` stripped, trimmed. */
export function irLines(text) {
  return text.split("\n").map((l) => l.replace(/\s+@ .*$/, "").trim());
}

/** Our own files and modules: none of them may show in a diagnostic meant for the user. */
const INTERNAL_NAMES =
  /neuronxcc|\/nki\/python|_core\.py|_kernel\.py|_frontend|_control|_movement|_tensor_engine|_math|_reduction|_vector|_ops\.py/;

/**
 * Boots the runtime for the calling test file (beforeAll) and checks after each test that no
 * trace was left open. Scripts run as `filename`; `h.script` builds them with the file's `head`
 * and `returnNone` (see script()). `h.out` / `h.err` hold the last run's stdout / stderr.
 */
export function pythonHarness(filename, { head = HEAD, returnNone = false } = {}) {
  const h = { runtime: null, out: "", err: "" };
  beforeAll(async () => {
    h.runtime = await createNodeRuntime({ stdout: (t) => (h.out += t), stderr: (t) => (h.err += t) });
  });
  afterEach(() => {
    expect(h.runtime.core.nki_ctx_or_none()).toBe(null);
  });

  h.script = (sig, body, args) => script(sig, body, args, { head, returnNone });

  /**
   * Runs `src` as a script named `name` (default the file's) with fresh out/err; returns
   * runSource's result with that run's `out` and `err`. `options` go to runSource (onTrace).
   */
  h.run = (src, name = filename, options = {}) => {
    h.out = "";
    h.err = "";
    const r = h.runtime.runSource(src, { ...options, filename: name });
    return { ...r, out: h.out, err: h.err };
  };

  /** Runs Python statements `code` in the runtime, then returns the value of `expr` as JS. */
  h.py = (code, expr = "None") => {
    h.runtime.pyodide.runPython(code);
    const v = h.runtime.pyodide.runPython(expr);
    if (v && typeof v.toJs === "function") {
      const js = v.toJs({ dict_converter: Object.fromEntries });
      v.destroy();
      return js;
    }
    return v;
  };

  /** The IR text (with locations) of a script that must trace cleanly. */
  h.irText = (src) => {
    const r = h.run(src);
    expect(r.exitCode, h.err).toBe(0);
    return r.traces.map((t) => t.text).join("\n");
  };

  /** IR lines (locations stripped, trimmed) of a script that must trace cleanly. */
  h.ir = (src) => irLines(h.irText(src));

  /**
   * The script fails with `text` at `at` (see locate() for `prefix`), a caret under the line,
   * and no internal names.
   */
  h.expectError = (src, at, text, { prefix = "" } = {}) => {
    const r = h.run(src);
    expect(r.exitCode).toBe(1);
    expect(h.err).toContain(`${filename}:${locate(src, at, prefix)}: error: ${text}`);
    expect(h.err).toMatch(/\n {4}\S.*\n {4} *\^/);
    expect(h.err).not.toMatch(INTERNAL_NAMES);
  };
  return h;
}
