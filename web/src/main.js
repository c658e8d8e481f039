// Boot: start the runtime worker first, then load the page (editor, panes) while Pyodide
// downloads. This chunk is small on purpose: the worker must not wait for CodeMirror.
import { setStatus } from "./app/status.js";
import { createWorkerClient } from "./worker-client.js";

let page = null;
let early = null; // the last stage before the page was there (an error message must not be lost)

const client = createWorkerClient({
  createWorker: () => new Worker(new URL("./worker.js", import.meta.url), { type: "module" }),
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

const { startPage } = await import("./app/page.js");
page = await startPage(client);
if (early) page.onStatus(...early);
