// The one runtime of a page: every <nki-playground> on it shares this module's worker
// (Pyodide + core boot once, ~10 MB downloaded once, one Python heap). It lives in the lazily
// loaded part, so a page whose reader never clicks Run never creates it.
//
// The page's worker client does the lifecycle (staged status, Stop and the time limit by
// replacing the worker); it runs one script at a time, so runs from several elements queue
// here, each getting the output of its own run only.
import { createWorkerClient } from "../worker-client.js";

let client = null;
let queue = Promise.resolve();
let current = null; // {owner, onOutput} of the run in flight
let lastStatus = { state: "downloading", message: undefined };
const statusListeners = new Set();

/** Counters the tests and the benchmark read (window.__nkpRuntime). */
export const runtimeStats = { workersCreated: 0, runs: 0 };

function createWorker() {
  runtimeStats.workersCreated++;
  // Vite bundles ../worker.js for this pattern; the URL is relative to this chunk, so the
  // site can live under any path. The worker finds pyodide/ and nki-python.json one folder up
  // (web/src/worker.js resolves them against its own URL).
  return new Worker(new URL("../worker.js", import.meta.url), { type: "module", name: "nki-playground" });
}

function sharedClient() {
  client ??= createWorkerClient({
    createWorker,
    // A docs page can hold many embeds; a second warm Pyodide (~100 MB) for faster recovery
    // after Stop is not worth it there.
    warmSpare: false,
    onStatus(state, message) {
      lastStatus = { state, message };
      for (const listener of statusListeners) listener(state, message);
    },
    onOutput(stream, text) {
      current?.onOutput(stream, text);
    },
  });
  return client;
}

/** Boots the page's runtime worker now (idempotent), so it downloads while the editor loads. */
export function startRuntime() {
  sharedClient();
}

/** Calls `listener(state, message)` now and on every runtime stage change; returns an unsubscribe. */
export function watchRuntimeStatus(listener) {
  sharedClient();
  listener(lastStatus.state, lastStatus.message);
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/**
 * Queues one run of `source` for `owner` (an element). `onTrace(trace)`: each kernel's trace
 * as soon as it is made (the outcome's traces are those same entries).
 * @returns {Promise<import("../worker-client.js").RunOutcome>}
 */
export function runShared(owner, source, filename, onOutput, onTrace) {
  const c = sharedClient();
  const outcome = queue.then(async () => {
    current = { owner, onOutput };
    runtimeStats.runs++;
    try {
      return await c.run(source, filename, { onTrace });
    } finally {
      current = null;
    }
  });
  queue = outcome.catch(() => {});
  return outcome;
}

/** Stops `owner`'s run if it is the one in flight (the worker is replaced). */
export function stopShared(owner) {
  if (current?.owner !== owner) return false;
  return client.stop("stop");
}

if (typeof window !== "undefined") window.__nkpRuntime = runtimeStats;
