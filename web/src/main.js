// Boot: ask for the page chunk, create the runtime worker (its script and Pyodide's loader
// download while the page chunk does), mount the editor, then let the worker boot
// (./boot-order.js): the runtime's downloads and compiles would otherwise compete with the
// editor becoming usable. This chunk is small on purpose: the worker must not wait for
// CodeMirror to download.
import { AFTER_EDITOR } from "./boot-order.js";
import { setStatus } from "./app/status.js";
import { createWorkerClient } from "./worker-client.js";

// The page chunk (CodeMirror, panes) is what the reader waits for: asked for first.
const pageChunk = import("./app/page.js");

let page = null;
let early = null; // the last stage before the page was there (an error message must not be lost)
let first = null; // the first worker, until it is told to boot

const client = createWorkerClient({
  createWorker() {
    // Only the first worker waits for the editor; a later one (the warm spare, a replacement)
    // boots at once.
    const name = first === null ? AFTER_EDITOR : "nki-playground";
    const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name });
    first ??= worker;
    return worker;
  },
  onStatus(state, message) {
    // For scripts/bench-page.mjs: the first time a runtime is ready, since navigation start.
    if (state === "ready" && !performance.getEntriesByName("nki:runtime-ready").length) {
      performance.mark("nki:runtime-ready");
    }
    if (page) return page.onStatus(state, message);
    early = [state, message];
    setStatus(state);
  },
  onOutput: (stream, text) => page?.onOutput(stream, text), // only during runs: the page exists
  onIdleCrash: (message) => page?.onIdleCrash(message),
});

// The first localStorage read of a tab opens the storage (a blocking call of ~20 ms on a fresh
// profile): made here, while the page chunk downloads, instead of in the page's start-up.
try {
  localStorage.length;
} catch {
  // storage disabled: the page starts with its defaults (app/state.js)
}

try {
  const { startPage } = await pageChunk;
  page = await startPage(client);
  if (early) page.onStatus(...early);
} finally {
  // Also when the page failed to load: the runtime still boots (and its errors are shown).
  first.postMessage({ type: "start" });
}
