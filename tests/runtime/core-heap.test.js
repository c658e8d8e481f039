// The wasm core alone (no Pyodide): failing calls must not leak. Emscripten 3.1.6 unwinds a
// JS throw without restoring the stack pointer or running destructors unless the bindings'
// guard + post-js invoker fix is in place (shared/docs/toolchain.md §1.4).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

import { beforeAll, describe, expect, test } from "vitest";

const CORE = fileURLToPath(new URL("../../build/wasm/nki_core.mjs", import.meta.url));
const OUTSIDE = "calling NKI API outside of NKI kernels is not supported.";

let core;
let listenersBefore;

beforeAll(async () => {
  if (!existsSync(CORE)) throw new Error(`${CORE} is missing; run \`npm run build\` first`);
  listenersBefore = ["uncaughtException", "unhandledRejection"].map((e) => process.listenerCount(e));
  const { default: createNkiCore } = await import(pathToFileURL(CORE).href);
  core = await createNkiCore();
});

/** Calls nki_ctx() with no trace active; returns the error message. */
function failingCall() {
  try {
    core.nki_ctx();
  } catch (err) {
    return err?.message ?? String(err);
  }
  return null;
}

describe("core module", () => {
  test("installs no process-wide exception listeners", () => {
    const after = ["uncaughtException", "unhandledRejection"].map((e) => process.listenerCount(e));
    expect(after).toEqual(listenersBefore);
  });

  test("nki_ctx outside a trace throws the NKI message", () => {
    expect(failingCall()).toContain(OUTSIDE);
  });

  test("many failing calls keep the wasm heap flat", () => {
    const inUse = typeof core.heap_in_use === "function" ? () => Number(core.heap_in_use()) : null;
    // Without a precise counter, use enough calls that a per-throw leak of even 32 B would
    // outgrow the initial 16 MiB heap.
    const calls = inUse ? 20_000 : 600_000;
    for (let i = 0; i < 1_000; i++) failingCall(); // warm-up: lazily allocated statics
    const memBefore = core.HEAPU8.length;
    const usedBefore = inUse?.();
    // A JS throw that skips the invoker's stackRestore leaks shadow stack on every call.
    const stackBefore = core.stackSave?.();
    const handlesBefore = core.count_emval_handles?.();
    let wrong = 0;
    for (let i = 0; i < calls; i++) if (!failingCall()?.includes(OUTSIDE)) wrong++;
    expect(wrong).toBe(0);
    expect(core.stackSave?.()).toBe(stackBefore);
    expect(core.count_emval_handles?.()).toBe(handlesBefore);
    expect(core.HEAPU8.length).toBe(memBefore);
    // Less than one byte per call: no per-call leak (allows a one-off lazy allocation).
    if (inUse) expect(inUse() - usedBefore).toBeLessThan(calls);
    // The module still works afterwards (a leaked stack would overflow long before).
    expect(failingCall()).toContain(OUTSIDE);
  });
});
