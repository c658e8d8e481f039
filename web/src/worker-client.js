// The page's side of the runtime worker: boots it, runs one script at a time, and recovers
// from a run that never finishes (Stop, time limit) or a worker that dies.
//
// Python cannot be interrupted from outside without SharedArrayBuffer (which needs
// cross-origin isolation headers we cannot count on), so a stuck run is ended by terminating
// the whole worker. A second, "spare" worker boots in the background once the first is
// ready, so that recovery is swapping in an already-warm runtime instead of a cold boot.
import { assembleTraces, traceEntry } from "../../runtime/traces.mjs";

const SPARE_DELAY_MS = 1000;

/**
 * @typedef {{kind: "done", result: object, elapsedMs: number}
 *   | {kind: "stopped", reason: "stop" | "timeout", started: boolean, elapsedMs: number}
 *   | {kind: "crashed", message: string, elapsedMs: number}
 *   | {kind: "failed", message: string, elapsedMs: number}
 *   | {kind: "busy"}} RunOutcome
 */

/**
 * @param {object} opts
 * @param {() => Worker} opts.createWorker  Starts a fresh runtime worker.
 * @param {(state: string, message?: string) => void} [opts.onStatus]  Stages of the active worker.
 * @param {(stream: "stdout"|"stderr"|"note", text: string) => void} [opts.onOutput]  Output of the
 *   run, in order ("note": the worker's own word, e.g. that the output was cut at its cap).
 * @param {(message: string) => void} [opts.onIdleCrash]  The worker died between runs (it was
 *   replaced already); a crash during a run resolves that run as "crashed" instead.
 * @param {number} [opts.timeLimitMs]  A run longer than this is stopped (0: no limit).
 * @param {boolean} [opts.warmSpare]  Keep a second worker booted for fast recovery.
 */
export function createWorkerClient({
  createWorker,
  onStatus = () => {},
  onOutput = () => {},
  onIdleCrash = () => {},
  timeLimitMs = 10_000,
  warmSpare = true,
}) {
  let active = null;
  let spare = null;
  let run = null; // {id, source, filename, onTrace, traces, resolve, startedAt, timer}
  let nextId = 1;

  function spawn() {
    const slot = { worker: createWorker(), state: "downloading", message: undefined };
    slot.worker.onmessage = ({ data }) => onMessage(slot, data);
    slot.worker.onerror = (event) => {
      event.preventDefault?.();
      onCrash(slot, event.message || "the runtime worker stopped unexpectedly");
    };
    return slot;
  }

  function activate(slot) {
    active = slot;
    onStatus(slot.state, slot.message);
    if (slot.state === "ready") afterReady();
  }

  function afterReady() {
    // A moment later, so the spare's boot (CPU-heavy) does not slow the first run after ready.
    if (warmSpare && !spare) setTimeout(() => { if (!spare) spare = spawn(); }, SPARE_DELAY_MS);
    if (run && !run.posted) post();
  }

  function onMessage(slot, data) {
    if (data.type === "status") {
      slot.state = data.state;
      slot.message = data.message;
      if (slot !== active) return;
      onStatus(data.state, data.message);
      if (data.state === "ready") afterReady();
      else if (data.state === "error" && run) {
        finish({ kind: "failed", message: data.message ?? "the runtime failed to load" });
      }
      return;
    }
    if (slot !== active || !run || data.id !== run.id) return;
    if (data.type === "output") for (const [stream, text] of data.chunks) onOutput(stream, text);
    else if (data.type === "trace") {
      // Each trace arrives once, in the core's printed form; its entry is built here, once.
      const trace = traceEntry(data.trace);
      run.traces[data.index] = trace;
      run.onTrace?.(trace);
    } else if (data.type === "done") {
      // `done` refers to the streamed traces: the result holds those same entries.
      const { type, id, traces: refs, ...rest } = data;
      let traces;
      try {
        traces = assembleTraces(run.traces, refs);
      } catch (err) {
        finish({ kind: "failed", message: err.message });
        return;
      }
      finish({ kind: "done", result: { ...rest, traces } });
    } else if (data.type === "failed") finish({ kind: "failed", message: data.message });
  }

  function onCrash(slot, message) {
    slot.worker.terminate();
    if (slot === spare) {
      spare = null; // booted again after the next ready
      return;
    }
    if (slot !== active) return;
    const during = run !== null;
    if (during) finish({ kind: "crashed", message });
    replaceActive();
    if (!during) onIdleCrash(message);
  }

  function replaceActive() {
    active.worker.terminate();
    const next = spare ?? spawn();
    spare = null;
    activate(next);
    // The spare was used: the next one boots now (a second Stop soon after the first is common),
    // not after the usual delay that keeps a first boot's spare off the first run.
    if (warmSpare && !spare && next.state === "ready") spare = spawn();
  }

  function post() {
    run.posted = true;
    run.startedAt = performance.now();
    if (limit > 0) run.timer = setTimeout(() => stop("timeout"), limit);
    active.worker.postMessage({ type: "run", id: run.id, source: run.source, filename: run.filename });
  }

  function finish(outcome) {
    const current = run;
    run = null;
    clearTimeout(current.timer);
    const elapsedMs = current.startedAt === undefined ? 0 : performance.now() - current.startedAt;
    current.resolve({ ...outcome, elapsedMs });
  }

  /**
   * Ends the run in flight by replacing the worker. A run still waiting for the runtime to boot
   * is only dropped: the booting worker is innocent, and replacing it would start the boot over
   * ("starting Python…" for seconds instead of the ready that was on its way).
   */
  function stop(reason = "stop") {
    if (!run) return false;
    const posted = run.posted;
    finish({ kind: "stopped", reason, started: posted });
    if (posted) replaceActive();
    return true;
  }

  let limit = timeLimitMs;
  activate(spawn());

  return {
    /**
     * @param {object} [opts]
     * @param {(trace: object) => void} [opts.onTrace]  Each kernel's trace as soon as the worker
     *   has it (before the outcome); the outcome's `traces` are these same objects (their
     *   `simulated` flag brought up to date).
     * @returns {Promise<RunOutcome>} a second run while one is in flight is refused ("busy").
     */
    run(source, filename, { onTrace } = {}) {
      if (run) return Promise.resolve({ kind: "busy" });
      return new Promise((resolve) => {
        run = { id: nextId++, source, filename, onTrace, traces: [], resolve, posted: false };
        // Before the runtime is ready the run waits; its time limit starts when it is posted.
        if (active.state === "ready") post();
      });
    },
    stop,
    get running() {
      return run !== null;
    },
    get state() {
      return active.state;
    },
    get timeLimitMs() {
      return limit;
    },
    set timeLimitMs(ms) {
      limit = ms;
    },
    /** True when a warm runtime is waiting to take over after a stop. */
    get spareReady() {
      return spare?.state === "ready";
    },
    dispose() {
      if (run) finish({ kind: "stopped", reason: "stop" });
      active.worker.terminate();
      spare?.worker.terminate();
    },
  };
}
