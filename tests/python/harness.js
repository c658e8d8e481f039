// Shared set-up for the Python-surface tests: one real runtime per test file (Pyodide + the
// wasm core), a kernel-script template, IR lines of a trace, and the located-diagnostic check.
import { afterEach, beforeAll, expect } from "vitest";

import { createNodeRuntime } from "../../wasm/js/node.mjs";

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

/** `kernel k(sig)` with `body`, traced on `args`. */
export function script(sig, body, args, decorators = "@nki.jit\n") {
  return `${HEAD}${decorators}def k(${sig}):\n${body}\nnki.trace_kernel(k, ${args})\n`;
}

/** "line:col" (1-based) where `fragment` first appears in `src`. */
export function locate(src, fragment) {
  const ls = src.split("\n");
  for (let i = 0; i < ls.length; i++) {
    const c = ls[i].indexOf(fragment);
    if (c >= 0) return `${i + 1}:${c + 1}`;
  }
  throw new Error(`fragment not in snippet: ${fragment}`);
}

/**
 * Boots the runtime for the calling test file (beforeAll) and checks after each test that no
 * trace was left open. Scripts run as `filename`.
 */
export function pythonHarness(filename) {
  const h = { runtime: null, err: "" };
  beforeAll(async () => {
    h.runtime = await createNodeRuntime({ stdout: () => {}, stderr: (t) => (h.err += t) });
  });
  afterEach(() => {
    expect(h.runtime.core.nki_ctx_or_none()).toBe(null);
  });

  /** IR lines (locations stripped, trimmed) of a script that must trace cleanly. */
  h.ir = (src) => {
    h.err = "";
    const r = h.runtime.runSource(src, { filename });
    expect(r.exitCode, h.err).toBe(0);
    return r.traces
      .map((t) => t.text)
      .join("\n")
      .split("\n")
      .map((l) => l.replace(/\s+@ .*$/, "").trim());
  };

  /** The script fails with `text` at `at`, a caret under the line, and no internal names. */
  h.expectError = (src, at, text) => {
    h.err = "";
    const r = h.runtime.runSource(src, { filename });
    expect(r.exitCode).toBe(1);
    expect(h.err).toContain(`${filename}:${locate(src, at)}: error: ${text}`);
    expect(h.err).toMatch(/\n {4}\S.*\n {4} *\^/);
    expect(h.err).not.toMatch(
      /neuronxcc|\/nki\/python|_core\.py|_kernel\.py|_frontend|_control|_movement|_tensor_engine/,
    );
  };
  return h;
}
