// Hand-written types for wasm/js (Emscripten 3.1.6 cannot emit TypeScript definitions).

/** One printed IR line with its source link (the printer's record sink). */
export interface IrRecord {
  text: string;
  depth: number;
  op_id: number;
  region_id: number;
  loc: string;
}

/** One traced kernel, as returned by `neuronxcc.nki._runner.take_traces()`. */
export interface KernelTrace {
  kernel: string;
  /** Plain-text IR; equals the records' text joined. */
  text: string;
  records: IrRecord[];
  /** The versioned JSON form of the kernel's IR. */
  ir: Record<string, unknown>;
}

export interface RunResult {
  /** The script's exit status: 0 on success, non-zero if it raised or called sys.exit(n). */
  exitCode: number;
  /** Every kernel traced during the run, in order. */
  traces: KernelTrace[];
}

export interface RunOptions {
  /** Name used in tracebacks and IR locations. Default `kernel.py`. */
  filename?: string;
  /** `sys.argv[1:]` for the script. */
  argv?: string[];
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
  /** Runs kernel source like `python filename *argv`. Python prints its own errors to stderr. */
  runSource(source: string, options?: RunOptions): RunResult;
  /** Like runSource, returning only the traces. */
  trace(source: string, options?: RunOptions): KernelTrace[];
  /** Runs a file that is already in Pyodide's file system. */
  runPyodideFile(path: string, argv?: string[]): RunResult;
  /**
   * Runs a host file (Node only; throws in other environments). The cwd and the script's
   * folder are mounted at the same absolute paths and the path is passed on as typed.
   */
  runFile(hostPath: string, argv?: string[]): RunResult;
}

export interface CreateRuntimeOptions {
  loadPyodide: (options: { indexURL?: string }) => Promise<any>;
  /** Folder or URL holding pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json. */
  indexURL?: string;
  /** The default export of nki_core.mjs. */
  createCore: (moduleOptions?: object) => Promise<NkiCoreModule>;
  /** Emscripten module options, e.g. `{locateFile}`. */
  coreOptions?: object;
  /** `{relativePath: source}` of every `*.py` under wasm/python. */
  pythonFiles: Record<string, string>;
  /** Receives stdout text as Python writes it (partial lines included). */
  stdout?: TextSink;
  stderr?: TextSink;
}

export const PYTHON_ROOT: "/nki/python";
export function createRuntime(options: CreateRuntimeOptions): Promise<Runtime>;

export interface CreateNodeRuntimeOptions {
  /** Default: process.stdout. */
  stdout?: TextSink;
  /** Default: process.stderr. */
  stderr?: TextSink;
  /** Path to nki_core.mjs. Default: build/wasm/nki_core.mjs in the repository. */
  corePath?: string;
  /** Package root holding neuronxcc/. Default: wasm/python in the repository. */
  pythonRoot?: string;
}

export function createNodeRuntime(options?: CreateNodeRuntimeOptions): Promise<Runtime>;
