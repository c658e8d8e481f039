// Module worker: owns Pyodide + the core so the page never blocks.
//
// Protocol (plain objects; the shared contract is in web/README.md):
//   page -> worker  {type: "run", id, source, filename}
//                   {type: "start"}   (only to a worker named AFTER_EDITOR, ./boot-order.js: boot now)
//   worker -> page  {type: "status", state: "downloading" | "starting" | "ready" | "error", message?}
//                   {type: "output", id, chunks: [[stream, text], ...]}   (the run's stdout and
//                       stderr, batched and capped by ./output-batch.js; stream "stdout",
//                       "stderr" or "note" — what the cap says; id: the run writing, or null)
//                   {type: "trace", id, index, trace}   (each kernel's trace as soon as it is
//                       made, before "done", in the core's printed form: runtime/traces.mjs)
//                   {type: "done", id, exitCode, traces, diagnostics, simulations}   (traces:
//                       [{index, simulated}], references to the streamed ones, sent once)
//                   {type: "failed", id, message}      (internal error, not a script error)
//
// A run that never returns (an infinite loop in the user's script) is not handled here: the
// page terminates this worker and starts another (web/src/worker-client.js).
import createCore from "nki-core";
import { createRuntime, transferables } from "../../runtime/runtime.mjs";
import { SNAPSHOT_FILE } from "../../runtime/snapshot.mjs";
import { AFTER_EDITOR } from "./boot-order.js";
import { createOutputBatcher } from "./output-batch.js";

// The site root (pyodide/, nki-python.json, nki-snapshot.bin) is one folder above this worker's own URL in every
// build: the page's bundle sits in assets/, the element's in element/ (and the dev server
// serves this file from src/). Relative to itself, not to a configured base, so the site works
// from any sub-path (/, /docs/playground/, ...) without a rebuild.
const BASE = new URL("../", self.location.href);

/** A run's stdout/stderr, as few messages and at most OUTPUT_CAP characters per run. */
const output = createOutputBatcher({ post: (message) => self.postMessage(message) });

const status = (state, message) => self.postMessage({ type: "status", state, message });

/**
 * The page's first worker (named AFTER_EDITOR by ./main.js) holds its boot until the page
 * posts {type: "start"}: the editor mounts first, without the runtime's downloads, wasm
 * compiles and 20 MB snapshot competing with it for the machine (issue 5: editor usable
 * ≤ 0.5 s). Every other worker (the warm spare, the element's) boots at once.
 */
const startSignal =
  self.name === AFTER_EDITOR
    ? new Promise((resolve) => {
        const onStart = ({ data }) => {
          if (data?.type !== "start") return;
          self.removeEventListener("message", onStart);
          resolve();
        };
        self.addEventListener("message", onStart);
      })
    : null;

async function boot() {
  status("downloading");
  // Pyodide's loader is small: fetched while the page mounts its editor.
  const pyodideModule = import(/* @vite-ignore */ new URL("pyodide/pyodide.mjs", BASE).href);
  pyodideModule.catch(() => {}); // reported below
  await startSignal;
  // The package and the memory snapshot download while Pyodide fetches and compiles its own
  // files; Pyodide restores the snapshot instead of starting Python and importing the package.
  const pythonFiles = fetch(new URL("nki-python.json", BASE)).then((r) => {
    if (!r.ok) throw new Error(`nki-python.json: HTTP ${r.status}`);
    return r.json();
  });
  const snapshotResponse = fetch(new URL(SNAPSHOT_FILE, BASE)).catch((err) => err);
  // The compiled package only saves time, and only a boot without the snapshot needs it:
  // fetched only then (without it the sources are compiled on import).
  let cacheError = null;
  const pythonCache = () =>
    fetch(new URL("nki-python.pyc", BASE)).then(
      (r) => (r.ok ? r.arrayBuffer() : ((cacheError = `HTTP ${r.status}`), null)),
      (err) => ((cacheError = String(err?.message ?? err)), null),
    );
  pythonFiles.catch(() => {}); // reported through createRuntime below
  // Whether there is a snapshot is known from its response's status, before Pyodide starts (a
  // site without one then boots exactly as a plain one); its bytes may still be arriving.
  const [{ loadPyodide, version }, response] = await Promise.all([pyodideModule, snapshotResponse]);
  const snapshot = response.ok ? response.arrayBuffer() : null;
  const missing = response.ok ? null : response instanceof Error ? `not loaded (${response.message})` : `HTTP ${response.status}`;
  status("starting");
  const runtime = await createRuntime({
    loadPyodide,
    pyodideVersion: version,
    indexURL: new URL("pyodide/", BASE).href,
    createCore,
    pythonFiles,
    pythonCache,
    snapshot,
    stdout: (text) => output.write("stdout", text),
    stderr: (text) => output.write("stderr", text),
  });
  // breakpoint() would start pdb, which reads a keyboard the worker does not have ("(Pdb)",
  // then OSError: [Errno 29] I/O error). Say so instead, and let the script go on.
  runtime.pyodide.runPython(`
import sys
def _nki_breakpoint(*args, **kwargs):
    sys.stderr.write("nki-playground: breakpoint(): the Python debugger is not available in the "
                     "browser (a running script gets no keyboard input); the script goes on. Show "
                     "values with print() (nl.device_print() inside a simulated kernel), or run the "
                     "file with the CLI: npx nki-playground run FILE.py\\n")
sys.breakpointhook = _nki_breakpoint
del _nki_breakpoint`);
  // Said once per boot: a page that boots slower than it should says why.
  if (!runtime.snapshot.used) {
    const skipped = cacheError ?? runtime.pythonCache.skipped;
    console.warn(
      `nki-playground: ${SNAPSHOT_FILE} not used (${missing ?? runtime.snapshot.reason}); Python was started and the package imported` +
        (skipped ? ` and compiled (nki-python.pyc not used: ${skipped})` : ""),
    );
  }
  return runtime;
}

const runtimeReady = boot();
runtimeReady.then(
  () => status("ready"),
  (err) => status("error", String(err?.stack ?? err)),
);

self.onmessage = async ({ data }) => {
  if (data?.type !== "run") return;
  try {
    const runtime = await runtimeReady;
    output.start(data.id);
    // Thin on purpose: everything the page shows comes from runSource's result object.
    // Each trace goes out once, as it is made, so the page shows the IR while the script is
    // still simulating: the core's printed texts as they are (not parsed here; copying a
    // string is all a post costs), and `done` refers to them by index.
    const onTrace = (trace, index) => {
      output.flush(); // what was printed before the trace comes first
      self.postMessage({ type: "trace", id: data.id, index, trace });
    };
    const result = runtime.runSource(data.source, { filename: data.filename, onTrace, printed: true });
    output.end();
    // Tensor data (Float32Array) moves instead of being copied.
    self.postMessage({ ...result, type: "done", id: data.id }, transferables(result.simulations));
  } catch (err) {
    output.end();
    self.postMessage({ type: "failed", id: data.id, message: String(err?.message ?? err) });
  }
};
