// Hand-written types for runtime (Emscripten 3.1.6 cannot emit TypeScript definitions).

/** One printed IR line with its source link (the printer's record sink). */
export interface IrRecord {
  text: string;
  depth: number;
  op_id: number;
  region_id: number;
  loc: string;
}

/** One region's summary, as the printer wrote it (docs/ir-format.md, region records). */
export interface RegionRecord {
  region: number;
  parent: number | null;
  depth: number;
  kind: string;
  /** Its opening line without ` {` and location; `kernel @name` for the kernel's region. */
  label: string;
  /** What it was opened with: the label after the kind. */
  detail: string;
  /** The kernel's region only: argument types and grid, `(f32[128,64]) grid [2]`. */
  signature?: string;
  /** A LoopScope's loop axis id (the IR's `loop_axes`). */
  axis?: number;
  /** Index of its opening line record. */
  line: number;
  /** Instructions in it and in every region inside it. */
  instructions: number;
  engines: string[];
  loc: { file: string; line: number; col: number } | null;
  span: { file: string; start_line: number; end_line: number } | null;
}

/** One traced kernel, as the core's run session hands it over (core/run/run_session.h). */
export interface KernelTrace {
  kernel: string;
  /** Plain-text IR; equals the records' text joined. */
  text: string;
  records: IrRecord[];
  /** One summary per region, parents first (the kernel's region first). */
  regions: RegionRecord[];
  /** The versioned JSON form of the kernel's IR. */
  ir: Record<string, unknown>;
  /**
   * The printer's own text of `ir`, byte for byte (JSON.stringify(ir) may differ in number
   * and escape formatting). The CLI's `--format json` and the docs pre-render emit this.
   */
  irJson: string;
  /**
   * True when the kernel was traced only to be simulated (nki.simulate_kernel, a kernel called
   * with arrays); false when the script traced it for its IR (nki.trace_kernel) — a kernel
   * traced again to the same IR is listed once.
   */
  simulated: boolean;
}

/** The error that ended a script, or a warning it printed (positions 1-based). */
export interface Diagnostic {
  severity: "error" | "warning";
  file: string | null;
  line: number | null;
  /** Column as the CLI prints it (1-based). */
  col: number | null;
  end_line: number | null;
  end_col: number | null;
  /** The Python exception / warning class name, e.g. "SyntaxError", "UserWarning". */
  class: string;
  message: string;
  /** Stable id of the diagnostic (the errors page), null when unknown. */
  code: string | null;
  /** Exactly the text the run printed for it (stderr). */
  rendered: string;
}

/** A tensor of a simulation: its values as float32, row-major, and NaN-aware statistics. */
export interface TensorSummary {
  name: string;
  shape: number[];
  /** The tensor's own dtype (data is always float32). */
  dtype: string;
  min: number | null;
  max: number | null;
  mean: number | null;
  /** Present (> 0) when some values are NaN; the statistics skip them. */
  nan_count?: number;
  /** null above 4M elements (then the statistics are null too). */
  data: Float32Array | null;
}

export interface SourcePosition {
  file: string | null;
  line: number | null;
  col: number | null;
}

/** `np.allclose` / `np.array_equal` / `np.testing.assert_*` on a simulated output. */
export interface Comparison extends SourcePosition {
  /** The source line of the call (or "compare"). */
  label: string;
  ok: boolean;
  /** max |expected - actual| (Infinity when NaN on one side only); null if not comparable. */
  max_abs_err: number | null;
  expected: TensorSummary;
  actual: TensorSummary;
}

/** One simulated kernel call. */
export interface Simulation {
  kernel: string;
  inputs: TensorSummary[];
  outputs: TensorSummary[];
  /** nl.device_print output, as printed to stdout. */
  prints: Array<SourcePosition & { text: string }>;
  /** The simulator's warnings (e.g. reads of never-written memory), as printed to stderr. */
  warnings: Array<SourcePosition & { message: string }>;
  comparisons: Comparison[];
  /** Instructions the simulator executed (a loop body once per iteration). */
  executed?: number;
  /** device_print executions past the simulator's limit (1,000 prints, 2^20 values): not kept. */
  prints_dropped?: number;
  /** Simulator warnings past its limit (100 a run): not kept. */
  warnings_dropped?: number;
}

export interface RunResult {
  /** The script's exit status: 0 on success, non-zero if it raised or called sys.exit(n). */
  exitCode: number;
  /**
   * Every kernel traced during the run, in order (with RunOptions `printed`: references
   * `{index, simulated}` to the traces onTrace was given).
   */
  traces: KernelTrace[];
  /** The error that ended the script (if any) and the warnings it printed, in order. */
  diagnostics: Diagnostic[];
  /** Every simulated kernel call, in order. */
  simulations: Simulation[];
}

export interface RunOptions {
  /** Name used in tracebacks and IR locations. Default `kernel.py`. */
  filename?: string;
  /** `sys.argv[1:]` for the script. */
  argv?: string[];
  /**
   * Called with each kernel's trace as soon as it is recorded, while the script goes on (the
   * page shows the IR before a long simulation ends). It is the entry of the final `traces`
   * itself (the same object); a kernel traced again to the same IR is reported once. Its
   * `simulated` is what was known then; the final list brings it up to date. An exception it
   * throws is rethrown by the run once the script is over (the script does not see it).
   * With `printed`, it gets the trace's printed form and index instead.
   */
  onTrace?: ((trace: KernelTrace) => void) | ((trace: PrintedTrace, index: number) => void);
  /**
   * For a caller that passes the traces on (the browser worker posts them to the page): onTrace
   * gets each trace in the core's printed form, unparsed, with its index, and the result's
   * `traces` are references `{index, simulated}` to those (each trace crosses once). The
   * receiving side builds the entries with `traceEntry` and the list with `assembleTraces`
   * (runtime/traces.mjs). Only with `onTrace`.
   */
  printed?: boolean;
  /** The simulator's plan for this run only ("off": the plain interpreter); default the runtime's. */
  simPlan?: "on" | "off";
}

/** A trace as the core prints it: records, regions and ir are the printer's JSON texts. */
export interface PrintedTrace {
  kernel: string;
  simulated: boolean;
  records: string;
  regions: string;
  ir: string;
}

/** A nested JS array of numbers, e.g. `[[1, 2], [3, 4]]` (float32). */
export type NestedNumbers = number[] | NestedNumbers[];

/**
 * One simulate() input: a tensor (`{data, shape, dtype?}` — dtype defaults to the typed
 * array's, float32 for number[]), a typed array (1-D), a nested array (float32) or a scalar.
 * bfloat16 and the float8 types: `data` is their raw codes (Uint16Array / Uint8Array) or
 * values to round (Float32Array, Float64Array, number[]), cast as ml_dtypes casts.
 */
export type SimulateInput =
  | { data: ArrayLike<number> | BigInt64Array | BigUint64Array | NestedNumbers; shape?: number[]; dtype?: string }
  | Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | NestedNumbers
  | number
  | boolean;

export interface SimulateOptions {
  /** The kernel's name in the script; default: its only `@nki.jit` kernel. */
  kernel?: string;
  /** Name used in diagnostics and IR locations. Default `kernel.py`. */
  filename?: string;
  /** SPMD launch grid, e.g. `[2]` for `kernel[2](...)`. Default: a plain call. */
  grid?: number[] | number;
  /** The simulator's plan for this call only ("off": the plain interpreter); default the runtime's. */
  simPlan?: "on" | "off";
}

export interface SimulatedOutput {
  name: string;
  shape: number[];
  dtype: string;
  /** Row-major values in the output's own dtype (Float32Array for bfloat16/float16/fp8). */
  data: Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array
    | Uint32Array | BigInt64Array | BigUint64Array;
  /** bfloat16 and float8 outputs: their raw codes (Uint16Array for bfloat16, else Uint8Array). */
  bits?: Uint16Array | Uint8Array;
}

export interface SimulateResult {
  outputs: SimulatedOutput[];
  prints: Simulation["prints"];
  warnings: Simulation["warnings"];
  traces: KernelTrace[];
  /** What the run printed. */
  stdout: string;
  stderr: string;
}

/** A script that failed under trace()/simulate(); `message` is its rendered diagnostics. */
export class NkiScriptError extends Error {
  name: "NkiScriptError";
  exitCode: number;
  diagnostics: Diagnostic[];
  stderr: string;
  traces: KernelTrace[];
}

/** The Emscripten module (`createNkiCore()`), as far as the runtime relies on it. */
export interface NkiCoreModule {
  HEAPU8: Uint8Array;
  nki_ctx(): unknown;
  [name: string]: unknown;
}

export type TextSink = (text: string) => void;

export interface Runtime {
  /** The Pyodide instance (`loadPyodide()` result). */
  pyodide: any;
  core: NkiCoreModule;
  /** Whether the boot restored the memory snapshot, and why not when it did not. */
  snapshot: { used: true; bytes: number; modules: number } | { used: false; reason: string };
  /** What became of the compiled package: files installed, or why none were. */
  pythonCache: { installed: number; skipped?: string };
  /** Runs kernel source like `python filename *argv`. Python prints its own errors to stderr. */
  runSource(source: string, options?: RunOptions): RunResult;
  /**
   * Runs the script and returns every kernel it traced.
   * @throws NkiScriptError when the script fails (exit code ≠ 0).
   */
  trace(source: string, options?: RunOptions): KernelTrace[];
  /**
   * Defines the script's kernels (its `if __name__ == "__main__":` block does not run),
   * simulates one on `inputs` and returns its outputs.
   * @throws NkiScriptError for a failing script, an unknown kernel, a failed trace or simulation.
   * @throws TypeError for inputs that are not tensors/numbers.
   */
  simulate(source: string, inputs: SimulateInput[] | Record<string, SimulateInput>,
           options?: SimulateOptions): SimulateResult;
  /** Runs a file that is already in Pyodide's file system. */
  runPyodideFile(path: string, argv?: string[], options?: Pick<RunOptions, "onTrace">): RunResult;
  /**
   * Runs a host file (Node only; throws in other environments). The cwd and the script's
   * folder are mounted at the same absolute paths and the path is passed on as typed.
   */
  runFile(hostPath: string, argv?: string[], options?: Pick<RunOptions, "onTrace">): RunResult;
}

export interface CreateRuntimeOptions {
  loadPyodide: (options: { indexURL?: string }) => Promise<any>;
  /** Folder or URL holding pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json. */
  indexURL?: string;
  /** The default export of nki_core.mjs. */
  createCore: (moduleOptions?: object) => Promise<NkiCoreModule>;
  /** Emscripten module options, e.g. `{locateFile}`. */
  coreOptions?: object;
  /** `{relativePath: source}` of every `*.py` under python (or a promise of it). */
  pythonFiles: Record<string, string> | PromiseLike<Record<string, string>>;
  /** The `version` export of the Pyodide module `loadPyodide` comes from. */
  pyodideVersion?: string;
  /** The build's memory snapshot (`nki-snapshot.bin`), or a promise of it; used only if it fits. */
  snapshot?: Uint8Array | ArrayBuffer | null | PromiseLike<Uint8Array | ArrayBuffer | null>;
  /**
   * The compiled package (`nki-python.pyc`); a function is called only by a boot without the
   * snapshot.
   */
  pythonCache?: Uint8Array | ArrayBuffer | null | PromiseLike<Uint8Array | ArrayBuffer | null>
    | (() => PromiseLike<Uint8Array | ArrayBuffer | null> | Uint8Array | ArrayBuffer | null);
  /** Receives stdout text as Python writes it (partial lines included). */
  stdout?: TextSink;
  stderr?: TextSink;
  /**
   * The simulator's per-kernel plan (its fast paths: strips, fused runs, aliased copies, scans
   * computing their neighbours) for every simulation: "off" runs the plain interpreter, with the
   * same outputs (NKI_PLAYGROUND_SIM_PLAN=off). Default: the environment's, on.
   */
  simPlan?: "on" | "off";
}

export const PYTHON_ROOT: "/nki/python";
/** The ArrayBuffers of every tensor's data in `simulations` (a postMessage transfer list). */
export function transferables(simulations: Simulation[]): ArrayBuffer[];
/** The trace entry of a printed form (runSource's `printed`); its `text` is its records' lines. */
export function traceEntry(printed: PrintedTrace): KernelTrace;
/**
 * A run's final traces from the entries built as they streamed (by index) and its references:
 * the same objects, `simulated` brought up to date. Throws when one did not arrive.
 */
export function assembleTraces(streamed: KernelTrace[], refs: Array<{ index: number; simulated: boolean }>): KernelTrace[];
export function createRuntime(options: CreateRuntimeOptions): Promise<Runtime>;

export interface CreateNodeRuntimeOptions {
  /** Default: process.stdout. */
  stdout?: TextSink;
  /** Default: process.stderr. */
  stderr?: TextSink;
  /** Path to nki_core.mjs. Default: build/wasm/nki_core.mjs in the repository. */
  corePath?: string;
  /** Package root holding neuronxcc/. Default: python in the repository. */
  pythonRoot?: string;
  /** The compiled package. Default: the build's nki-python.pyc; null: compile on import. */
  pythonCachePath?: string | null;
  /** The memory snapshot. Default: the build's nki-snapshot.bin; null: boot Python. */
  snapshotPath?: string | null;
  /** Variables added to Python's os.environ (e.g. process.env), but PATH, LD_LIBRARY_PATH and
   * PYTHON* (node.mjs RESERVED_ENV). Default: none. */
  env?: Record<string, string | undefined>;
  /**
   * The simulator's per-kernel plan (its fast paths: strips, fused runs, aliased copies, scans
   * computing their neighbours) for every simulation: "off" runs the plain interpreter, with the
   * same outputs (NKI_PLAYGROUND_SIM_PLAN=off). Default: the environment's, on.
   */
  simPlan?: "on" | "off";
}

export function createNodeRuntime(options?: CreateNodeRuntimeOptions): Promise<Runtime>;
