// The one runtime: Pyodide + the nki_core wasm module + the neuronxcc.nki Python package.
//
// Environment-agnostic on purpose: no Node imports, no DOM. Everything that differs between
// Node (CLI, Vitest) and the browser worker is passed in by the caller (see node.mjs and
// web/src/worker.js).
import { unpackPythonCache } from "./python-cache.mjs";
import { bootPyodide } from "./snapshot.mjs";
import { decodeResults } from "./results.mjs";
import { decodeOutput, encodeInputs } from "./simulate.mjs";
import { printedTrace, traceEntry } from "./traces.mjs";

export { transferables } from "./results.mjs";
export { assembleTraces, traceEntry } from "./traces.mjs";

/** Where the Python package lives inside Pyodide's file system. */
export const PYTHON_ROOT = "/nki/python";

/** The Python front ends a boot imports (python/). */
export const FRONT_ENDS = ["neuronxcc.nki", "nki"];

/**
 * Boots Pyodide and the core in parallel, installs the Python package and imports the runner.
 *
 * @param {object} opts
 * @param {(opts: object) => Promise<any>} opts.loadPyodide  `loadPyodide` from the pyodide package.
 * @param {string} opts.indexURL  Folder (or URL) holding pyodide.asm.wasm and friends.
 * @param {(opts: object) => Promise<any>} opts.createCore  Default export of nki_core.mjs.
 * @param {object} [opts.coreOptions]  Module options for createCore (e.g. locateFile).
 * @param {Record<string,string>|Promise<Record<string,string>>} opts.pythonFiles
 *   {relativePath: source} of the package (or a promise of it, e.g. still downloading).
 * @param {Uint8Array|ArrayBuffer|null|Promise<Uint8Array|ArrayBuffer|null>|(() => Promise<Uint8Array|ArrayBuffer|null>)} [opts.pythonCache]
 *   The package compiled (python-cache.mjs; `nki-python.pyc` of the build): imports skip
 *   compiling. Optional; one that does not fit (damaged, another Python) is skipped and
 *   `runtime.pythonCache` says why. A function is called only when the boot needs the cache
 *   (no snapshot was used), so it need not be downloaded otherwise.
 * @param {Uint8Array|ArrayBuffer|null|Promise<Uint8Array|ArrayBuffer|null>} [opts.snapshot]  The
 *   build's memory snapshot (snapshot.mjs; `nki-snapshot.bin`): Pyodide starts with the packages
 *   already imported. Optional; one that does not fit (another Pyodide, other Python sources,
 *   damaged) is not used and `runtime.snapshot.reason` says why.
 * @param {string} [opts.pyodideVersion]  The `version` of the Pyodide module `loadPyodide` comes
 *   from: a snapshot for another one is refused before the interpreter starts (Pyodide itself
 *   refuses it later otherwise).
 * @param {(text: string) => void} [opts.stdout]  Receives Python stdout as it is written.
 * @param {(text: string) => void} [opts.stderr]  Receives Python stderr as it is written.
 * @param {"on"|"off"} [opts.simPlan]  The simulator's per-kernel plan for every run ("off": the
 *   plain interpreter; NKI_PLAYGROUND_SIM_PLAN in os.environ). Default: the environment's, on.
 */
export async function createRuntime({
  loadPyodide,
  indexURL,
  createCore,
  coreOptions = {},
  pythonFiles: pythonFilesGiven,
  pythonCache: pythonCacheGiven = null,
  snapshot: snapshotGiven = null,
  pyodideVersion,
  stdout = () => {},
  stderr = () => {},
  simPlan,
}) {
  checkSimPlan(simPlan, "createRuntime");
  if (typeof loadPyodide !== "function") throw new TypeError("createRuntime: loadPyodide is required");
  if (typeof createCore !== "function") throw new TypeError("createRuntime: createCore is required");
  if (!pythonFilesGiven || typeof pythonFilesGiven !== "object") {
    throw new TypeError("createRuntime: pythonFiles ({relativePath: text}) is required");
  }

  // The package may still be downloading (a promise): Pyodide and the core boot meanwhile.
  // The compiled package is wanted only by a boot without the snapshot.
  let cacheWanted = null;
  const wantCache = () =>
    (cacheWanted ??= Promise.resolve(typeof pythonCacheGiven === "function" ? pythonCacheGiven() : pythonCacheGiven));
  if (snapshotGiven == null) wantCache();
  const [booted, core, pythonFiles] = await Promise.all([
    bootPyodide({ loadPyodide, indexURL, snapshot: snapshotGiven, pythonFiles: pythonFilesGiven, pyodideVersion, onFallback: wantCache }),
    createCore({ ...coreOptions }),
    pythonFilesGiven,
  ]);
  const { pyodide } = booted;
  const pythonCache = booted.snapshot.used ? null : await wantCache();
  if (!pythonFiles || typeof pythonFiles !== "object") {
    throw new TypeError("createRuntime: pythonFiles ({relativePath: text}) is required");
  }

  // Raw writers: Python's writes reach the sinks unbatched (a `print(x, end="")` shows up
  // without waiting for a newline). TextDecoder in stream mode keeps multi-byte characters
  // that straddle two writes intact.
  // trace()/simulate() also collect the text of their own run (`captured`).
  let captured = null;
  pyodide.setStdout(rawWriter((text) => {
    if (captured) captured.stdout += text;
    stdout(text);
  }));
  pyodide.setStderr(rawWriter((text) => {
    if (captured) captured.stderr += text;
    stderr(text);
  }));

  writePythonFiles(pyodide.FS, pythonFiles);
  // From a snapshot every module is imported already: the compiled package would not be read.
  const cacheInfo = booted.snapshot.used
    ? { installed: 0, skipped: "not needed: booted from the snapshot" }
    : installPythonCache(pyodide, pythonCache);
  if (booted.snapshot.used) callPython(pyodide, "nki_playground.snapshot", "restored");
  // `import nki_core` works for scripts and tests; the packages reach the core only through
  // nki_playground.door, which is attached to it here (the door needs no core at import, so the
  // packages could be imported before this — a snapshot boot re-attaches a new core).
  pyodide.registerJsModule("nki_core", core);
  pyodide.runPython(`import sys\nif ${JSON.stringify(PYTHON_ROOT)} not in sys.path: sys.path.insert(0, ${JSON.stringify(PYTHON_ROOT)})`);
  attachCore(pyodide, core);

  // Kept for the runtime's lifetime; it is the only long-lived PyProxy we hold.
  const runner = pyodide.pyimport("nki_playground.runner");
  // The front ends are imported at boot, as scripts will import them (the runner imports none:
  // each joins it when imported).
  pyodide.runPython(FRONT_ENDS.map((name) => `import ${name}`).join("\n"));
  // Python's own sys.stdout is line-buffered; swap in write-through wrappers over fds 1/2 so
  // every write reaches the sinks as it happens (partial lines included, stdout/stderr order
  // preserved). _nki_flush is a safety net for scripts that install their own buffered streams.
  const flush = pyodide.runPython(`
import io, sys
def _nki_stream(fd):
    return io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding="utf-8",
                            errors="backslashreplace", write_through=True)
sys.stdout, sys.stderr = _nki_stream(1), _nki_stream(2)
def _nki_flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
_nki_flush`);
  // NKI_PLAYGROUND_SIM_PLAN as `simPlan` sets it (the simulate glue reads os.environ as each
  // simulation starts): the runtime's, and one simulate() call's; returns the value it replaced.
  const setSimPlan = pyodide.runPython(`
import os
def _nki_sim_plan(value):
    old = os.environ.get("NKI_PLAYGROUND_SIM_PLAN")
    if value is None:
        os.environ.pop("NKI_PLAYGROUND_SIM_PLAN", None)
    else:
        os.environ["NKI_PLAYGROUND_SIM_PLAN"] = value
    return old
_nki_sim_plan`);
  if (simPlan !== undefined) setSimPlan(simPlan);
  /** Runs `fn` with NKI_PLAYGROUND_SIM_PLAN set to `value`, then puts back what it was. */
  function withSimPlan(value, who, fn) {
    checkSimPlan(value, who);
    const before = setSimPlan(value);
    try {
      return fn();
    } finally {
      setSimPlan(before); // (undefined: None, the variable removed)
    }
  }

  /** Runs one call into Python with argv as a Python list; always flushes and frees. */
  function withArgv(argv, fn) {
    const pyArgv = pyodide.toPy(argv.map(String));
    try {
      return fn(pyArgv);
    } finally {
      pyArgv.destroy();
      flush();
    }
  }

  /**
   * The run's kernels, from the core's run session (core/run/run_session.h), and ends the run.
   * Each entry is printed once in the core; `irJson` is the printer's own text of `ir` (the
   * CLI's JSON, the worker's and the docs pre-render's are these bytes), parsed once for `ir`.
   */
  function takeTraces() {
    const traces = [];
    const n = core.run_kernel_count();
    for (let i = 0; i < n; i++) traces.push(kernelEntry(core, i));
    core.end_run();
    return traces;
  }

  /**
   * Hands what Python holds of the last run (take_results(): the JSON text and the tensors'
   * bytes) to `decode(text, blob)`, returns what it returns, and clears it. `blob` is a view of
   * the Python bytes in Pyodide's memory, valid only during `decode` (the decoders copy what
   * they keep), so the tensors' bytes are not copied out of Python first.
   */
  function takeRaw(decode = () => undefined) {
    const pair = runner.take_results();
    try {
      const text = pair.get(0);
      const bytes = pair.get(1);
      let view = null;
      try {
        view = bytes.getBuffer("u8");
        return decode(text, view.data);
      } finally {
        view?.release();
        bytes.destroy();
      }
    } finally {
      pair.destroy();
    }
  }

  /** Runs `fn` with the run's stdout/stderr collected; returns [fn's value, {stdout, stderr}]. */
  function capturing(fn) {
    const saved = captured;
    captured = { stdout: "", stderr: "" };
    const mine = captured;
    try {
      return [fn(), mine];
    } finally {
      captured = saved;
    }
  }

  /** What the run recorded (traces, diagnostics, simulations), handed over and cleared. */
  function finish(exitCode, stream) {
    return { exitCode: Number(exitCode), ...takeRaw(decodeResults), traces: stream.take() };
  }

  const runtime = {
    pyodide,
    core,
    /** What became of `pythonCache`: `{installed: files, skipped?: why none were}`. */
    pythonCache: cacheInfo,
    /** What became of `snapshot`: `{used: true, bytes, modules}` or `{used: false, reason}`. */
    snapshot: booted.snapshot,

    /**
     * Runs kernel source like `python filename *argv`. Python prints errors itself; they
     * also come back structured in `diagnostics`.
     * @returns {{exitCode: number, traces: object[], diagnostics: object[], simulations: object[]}}
     */
    runSource(source, { filename = "kernel.py", argv = [], onTrace, printed = false, simPlan } = {}) {
      if (simPlan !== undefined) {
        return withSimPlan(simPlan, "runSource", () => runtime.runSource(source, { filename, argv, onTrace, printed }));
      }
      takeRaw(); // drop what an earlier, interrupted run left behind
      const stream = traceStream(core, onTrace, printed, takeTraces);
      core.begin_run(stream.listener);
      const exitCode = withArgv(argv, (pyArgv) => runner.run_source(String(source), String(filename), pyArgv));
      return stream.rethrow(finish(exitCode, stream));
    },

    /**
     * Runs the script and returns every kernel it traced. Throws NkiScriptError (with the
     * diagnostics, exit code and stderr) when the script fails.
     */
    trace(source, opts) {
      const [r, text] = capturing(() => runtime.runSource(source, opts));
      if (r.exitCode !== 0) throw new NkiScriptError(r, text.stderr);
      return r.traces;
    },

    /**
     * Defines the script's kernels (its `__main__` block does not run), simulates one on
     * `inputs` and returns its outputs in their own dtypes (docs/js-api.md). Throws
     * NkiScriptError when the script, the kernel's trace or the simulation fails.
     */
    simulate(source, inputs, { kernel = "", filename = "kernel.py", grid = [], simPlan } = {}) {
      if (simPlan !== undefined) {
        return withSimPlan(simPlan, "simulate", () => runtime.simulate(source, inputs, { kernel, filename, grid }));
      }
      const { spec, blob } = encodeInputs(inputs);
      const gridList = Array.isArray(grid) ? grid : [grid];
      takeRaw();
      core.begin_run(undefined);
      const [exitCode, text] = capturing(() => {
        try {
          // The Uint8Array crosses as a JsProxy; Python copies it once (to_bytes).
          return Number(
            runner.simulate_source(String(source), String(filename), String(kernel ?? ""),
              JSON.stringify(spec), blob, JSON.stringify(gridList)),
          );
        } finally {
          flush();
        }
      });
      // Only the outputs' bytes are decoded (in their own dtypes); the other tensor summaries
      // of the run are not needed here.
      let outputs = null;
      const parsed = takeRaw((json, blob) => {
        const p = JSON.parse(json);
        if (exitCode === 0) outputs = p.simulations[p.simulations.length - 1].outputs.map((o) => decodeOutput(o, blob));
        return p;
      });
      const r = { exitCode, ...parsed, traces: takeTraces() };
      if (exitCode !== 0) throw new NkiScriptError(r, text.stderr);
      const sim = r.simulations[r.simulations.length - 1];
      return {
        outputs,
        prints: sim.prints,
        warnings: sim.warnings,
        traces: r.traces,
        stdout: text.stdout,
        stderr: text.stderr,
      };
    },

    /**
     * Runs a file already present in Pyodide's file system (the Node wrapper replaces this
     * with one that mounts the host file system first).
     */
    runPyodideFile(path, argv = [], { onTrace, printed = false } = {}) {
      takeRaw();
      const stream = traceStream(core, onTrace, printed, takeTraces);
      core.begin_run(stream.listener);
      const exitCode = withArgv(argv, (pyArgv) => runner.run_file(String(path), pyArgv));
      return stream.rethrow(finish(exitCode, stream));
    },

    runFile() {
      throw new Error("runFile needs a host file system; use createNodeRuntime()");
    },
  };
  return runtime;
}

/** `simPlan` is "on", "off" or not given. */
function checkSimPlan(value, who) {
  if (value !== undefined && value !== "on" && value !== "off") {
    throw new TypeError(`${who}: simPlan must be "on" or "off", not ${JSON.stringify(value)}`);
  }
}

/**
 * A script that failed under trace() or simulate(): `message` is what it printed for its
 * errors (the rendered diagnostics), with the structured `diagnostics`, `exitCode`, `stderr`.
 */
export class NkiScriptError extends Error {
  constructor(result, stderr) {
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    const message = errors.length
      ? errors.map((d) => d.rendered).join("").trimEnd()
      : stderr.trimEnd() || `the script exited with code ${result.exitCode}`;
    super(message);
    this.name = "NkiScriptError";
    this.exitCode = result.exitCode;
    this.diagnostics = result.diagnostics;
    this.stderr = stderr;
    this.traces = result.traces;
  }
}

/**
 * Entry `i` of the core's run session as a trace: `{kernel, text, records, regions, ir,
 * simulated, irJson}` (docs/js-api.md). The core hands over the printer's texts; each is parsed once.
 */
function kernelEntry(core, i) {
  const e = core.run_kernel(i);
  return traceEntry(e, e.text);
}

/**
 * The core's listener for a run's `onTrace` (none without one: the core then prints nothing
 * until the run's traces are taken), and the run's final `traces` (`take()`, which ends the
 * run). The core calls the listener with the index of each new kernel of its run session as the
 * kernel is finished; `onTrace` gets its trace entry, which is then also the final list's entry
 * (the same object, read and parsed once), or with `printed` its printed form (./traces.mjs) and
 * index, to post as it is: the final `traces` are then references `{index, simulated}` to the
 * streamed entries, nothing is sent twice. The listener never throws: an exception thrown by
 * `onTrace` must not surface inside the user's script (it would read as the script's own error
 * at the kernel call), nor cross the core's C++ frames, so it is kept and rethrown once the run
 * is over.
 */
function traceStream(core, onTrace, printed, takeTraces) {
  if (typeof onTrace !== "function") {
    return { listener: undefined, take: takeTraces, rethrow: (result) => result };
  }
  let error = null;
  const streamed = [];
  return {
    listener(i) {
      if (error) return;
      try {
        if (printed) {
          streamed[i] = true;
          onTrace(printedTrace(core, i), i);
        } else {
          onTrace((streamed[i] = kernelEntry(core, i)));
        }
      } catch (err) {
        error = { err };
      }
    },
    take() {
      const traces = [];
      const n = core.run_kernel_count();
      for (let i = 0; i < n; i++) {
        // Only the flag can have changed since the entry was streamed (a later copy of the
        // kernel was traced without simulating).
        const simulated = core.run_kernel(i).simulated;
        if (printed) traces.push({ index: i, simulated });
        else if (streamed[i]) traces.push(Object.assign(streamed[i], { simulated }));
        else traces.push(kernelEntry(core, i));
      }
      core.end_run();
      return traces;
    },
    rethrow(result) {
      if (error) throw error.err;
      return result;
    },
  };
}

/** Connects the Python door (nki_playground.door) to the core module. */
function attachCore(pyodide, core) {
  callPython(pyodide, "nki_playground.door", "attach", core);
}

/** Calls `module.name(...args)` in Python, holding no proxy afterwards. */
function callPython(pyodide, module, name, ...args) {
  const m = pyodide.pyimport(module);
  const fn = m[name];
  try {
    fn(...args);
  } finally {
    fn.destroy();
    m.destroy();
  }
}

function rawWriter(sink) {
  const decoder = new TextDecoder("utf-8");
  return {
    write(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      if (text) sink(text);
      return bytes.length;
    },
  };
}

/** Writes the package's sources `{relativePath: text}` under PYTHON_ROOT. */
export function writePythonFiles(FS, files) {
  for (const [rel, text] of Object.entries(files)) {
    const clean = rel.replace(/\\/g, "/").replace(/^\/+/, "");
    if (clean.split("/").includes("..")) throw new Error(`python file outside the package: ${rel}`);
    const path = `${PYTHON_ROOT}/${clean}`;
    FS.mkdirTree(parentDir(path));
    FS.writeFile(path, text);
  }
}

/**
 * Writes the compiled package's `.pyc` files beside the sources (in their `__pycache__`
 * folders), where the import system finds them. Returns what happened:
 * `{installed: number of files, skipped?: why none were}`.
 */
function installPythonCache(pyodide, cache) {
  if (cache == null) return { installed: 0, skipped: "no compiled package given" };
  let unpacked;
  try {
    unpacked = unpackPythonCache(cache);
  } catch (err) {
    return { installed: 0, skipped: String(err?.message ?? err) };
  }
  const tag = pyodide.runPython("import sys\nsys.implementation.cache_tag");
  if (unpacked.cacheTag !== tag) {
    return { installed: 0, skipped: `compiled for ${unpacked.cacheTag}, this Python is ${tag}` };
  }
  let installed = 0;
  for (const [rel, bytes] of Object.entries(unpacked.files)) {
    const parts = rel.split("/");
    // Only `.pyc` files in `__pycache__` folders of the package: nothing else is overwritten.
    if (parts.includes("..") || parts.at(-2) !== "__pycache__" || !rel.endsWith(".pyc")) continue;
    const path = `${PYTHON_ROOT}/${rel}`;
    pyodide.FS.mkdirTree(parentDir(path));
    pyodide.FS.writeFile(path, bytes);
    installed++;
  }
  return { installed };
}

function parentDir(path) {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}
