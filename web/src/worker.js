// Module worker: owns Pyodide + the core so the page never blocks.
//
// Protocol (all messages are plain objects):
//   page -> worker  {type: "run", id, source, filename}
//   worker -> page  {type: "status", state: "ready" | "error", message?}
//                   {type: "stdout" | "stderr", text}
//                   {type: "done", id, exitCode, traces}
//                   {type: "failed", id, message}      (internal error, not a script error)
import createCore from "nki-core";
import { createRuntime, transferables } from "../../wasm/js/runtime.mjs";

const BASE = new URL(import.meta.env.BASE_URL, self.location.href);

async function boot() {
  const pyodideUrl = new URL("pyodide/pyodide.mjs", BASE).href;
  const [{ loadPyodide }, pythonFiles] = await Promise.all([
    import(/* @vite-ignore */ pyodideUrl),
    fetch(new URL("nki-python.json", BASE)).then((r) => {
      if (!r.ok) throw new Error(`nki-python.json: HTTP ${r.status}`);
      return r.json();
    }),
  ]);
  return createRuntime({
    loadPyodide,
    indexURL: new URL("pyodide/", BASE).href,
    createCore,
    pythonFiles,
    stdout: (text) => self.postMessage({ type: "stdout", text }),
    stderr: (text) => self.postMessage({ type: "stderr", text }),
  });
}

const runtimeReady = boot();
runtimeReady.then(
  () => self.postMessage({ type: "status", state: "ready" }),
  (err) => self.postMessage({ type: "status", state: "error", message: String(err?.stack ?? err) }),
);

self.onmessage = async ({ data }) => {
  if (data?.type !== "run") return;
  try {
    const runtime = await runtimeReady;
    const result = runtime.runSource(data.source, { filename: data.filename });
    self.postMessage({ type: "done", id: data.id, ...result }, transferables(result.simulations));
  } catch (err) {
    self.postMessage({ type: "failed", id: data.id, message: String(err?.message ?? err) });
  }
};
