// Types of node.mjs (the Node entry point: `import { createRuntime } from ".../node.mjs"`).
import type { CreateNodeRuntimeOptions, Runtime } from "./runtime.js";

export type * from "./runtime.js";
export { NkiScriptError } from "./runtime.js";

export const DEFAULT_CORE_PATH: string;
/** The build's nki-python.pyc, or null when there is none. */
export const DEFAULT_PYTHON_CACHE_PATH: string | null;
/** The build's nki-snapshot.bin, or null when there is none. */
export const DEFAULT_SNAPSHOT_PATH: string | null;
/** Environment names that keep Pyodide's value: `env` does not replace them. */
export const RESERVED_ENV: { readonly names: readonly string[]; readonly prefixes: readonly string[] };
export function isReservedEnv(name: string): boolean;
export function createNodeRuntime(options?: CreateNodeRuntimeOptions): Promise<Runtime>;
/** The no-argument Node constructor for users' tests: an alias of createNodeRuntime. */
export function createRuntime(options?: CreateNodeRuntimeOptions): Promise<Runtime>;
