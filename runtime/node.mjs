// Node wrapper around runtime.mjs: Pyodide from node_modules, the core from build/wasm,
// the Python package from python, and runFile() over the host file system (NODEFS).
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

import { readPythonFiles, PYTHON_PACKAGE_DIR } from "./python-files.mjs";
import { createRuntime as createRuntimeWith } from "./runtime.mjs";
import { SNAPSHOT_FILE } from "./snapshot.mjs";

export { NkiScriptError } from "./runtime.mjs";

const require = createRequire(import.meta.url);

/** build/wasm/nki_core.mjs, resolved relative to this file (not to the cwd). */
export const DEFAULT_CORE_PATH = new URL("../build/wasm/nki_core.mjs", import.meta.url).pathname;

/**
 * The compiled Python package of the build (scripts/bundle-python.mjs): the newer of the
 * build's own copy and the site's (the npm package ships only the latter).
 */
export const DEFAULT_PYTHON_CACHE_PATH =
  ["../build/python/nki-python.pyc", "../build/site/nki-python.pyc"]
    .map((rel) => new URL(rel, import.meta.url).pathname)
    .filter((path) => existsSync(path))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] ?? null;

/**
 * The build's memory snapshot (scripts/make-snapshot.mjs): the newer of the build's own and
 * the site's copy (the npm package ships only the latter).
 */
export const DEFAULT_SNAPSHOT_PATH =
  [`../build/snapshot/${SNAPSHOT_FILE}`, `../build/site/${SNAPSHOT_FILE}`]
    .map((rel) => new URL(rel, import.meta.url).pathname)
    .filter((path) => existsSync(path))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] ?? null;

/**
 * Creates the runtime for Node.
 *
 * @param {object} [opts]
 * @param {(text: string) => void} [opts.stdout]  Defaults to process.stdout.
 * @param {(text: string) => void} [opts.stderr]  Defaults to process.stderr.
 * @param {string} [opts.corePath]  Path to nki_core.mjs (default build/wasm/nki_core.mjs).
 * @param {string} [opts.pythonRoot]  Package root holding neuronxcc/ (default python).
 * @param {string|null} [opts.pythonCachePath]  The compiled package (default: the build's;
 *   null: compile the sources on import). Modules whose source changed since are recompiled.
 * @param {string|null} [opts.snapshotPath]  The memory snapshot to boot from (default: the
 *   build's; null: boot Pyodide and import the package). One made from other sources than
 *   `pythonRoot`'s is not used; `runtime.snapshot` says whether it was and why not.
 * @param {Record<string, string|undefined>} [opts.env]  Environment variables Python's
 *   `os.environ` gets (`process.env`: what `python` would see; the CLI passes it), over
 *   Pyodide's own; names in RESERVED_ENV keep Pyodide's value. Default: none added.
 */
export async function createNodeRuntime({
  stdout = (text) => process.stdout.write(text),
  stderr = (text) => process.stderr.write(text),
  corePath = process.env.NKI_CORE_PATH || DEFAULT_CORE_PATH,
  pythonRoot = PYTHON_PACKAGE_DIR,
  pythonCachePath = DEFAULT_PYTHON_CACHE_PATH,
  snapshotPath = DEFAULT_SNAPSHOT_PATH,
  env = null,
  simPlan,
} = {}) {
  if (!existsSync(corePath)) {
    throw Object.assign(new Error(`${corePath} not found; build it first (npm run build)`), {
      code: "NKI_NOT_BUILT",
    });
  }
  const indexURL = dirname(require.resolve("pyodide/package.json")) + sep;
  const [{ loadPyodide, version }, { default: createCore }] = await Promise.all([
    import("pyodide"),
    import(pathToFileURL(corePath).href),
  ]);
  const runtime = await createRuntimeWith({
    loadPyodide,
    pyodideVersion: version,
    indexURL,
    createCore,
    pythonFiles: readPythonFiles(pythonRoot),
    pythonCache: () => (pythonCachePath && existsSync(pythonCachePath) ? readFileSync(pythonCachePath) : null),
    snapshot: snapshotPath && existsSync(snapshotPath) ? readFileSync(snapshotPath) : null,
    stdout,
    stderr,
    simPlan,
  });
  if (env) setEnvironment(runtime.pyodide, env);

  // Pyodide's own top-level folders: the host's are not visible there.
  const RESERVED = ["/lib", "/nki", "/dev", "/proc", "/sys"];
  const reserved = (path) => RESERVED.find((p) => path === p || path.startsWith(p + "/"));
  let hostMounted = false;
  /**
   * Mounts every top-level host folder (but Pyodide's own) at the same path, once, so a
   * script reads what `python` would: `../data/x.npy`, a sibling folder on sys.path.
   */
  function mountHost() {
    if (hostMounted) return;
    hostMounted = true;
    const FS = runtime.pyodide.FS;
    for (const name of readdirSync("/")) {
      const dir = "/" + name;
      if (reserved(dir)) continue;
      try {
        if (!statSync(dir).isDirectory()) continue;
        FS.mkdirTree(dir);
        FS.mount(FS.filesystems.NODEFS, { root: dir }, dir);
      } catch {
        // unreadable on the host (permissions): not visible to the script either
      }
    }
  }

  /**
   * Runs a host file like `python hostPath *argv`: the host's files are visible at the same
   * absolute paths (but under Pyodide's own /lib, /nki, /dev, /proc, /sys), the cwd is the
   * host's. The path is passed on as typed, so error locations read the way the user wrote
   * it (`kernels/x.py:9:13`).
   */
  runtime.runFile = (hostPath, argv = [], opts = {}) => {
    const cwd = process.cwd();
    const scriptDir = realpathSync(dirname(isAbsolute(hostPath) ? hostPath : resolve(cwd, hostPath)));
    if (!statSync(scriptDir).isDirectory()) throw new Error(`not a directory: ${scriptDir}`);
    for (const dir of [cwd, scriptDir]) {
      const hit = reserved(dir);
      if (hit) {
        throw new Error(`cannot run from ${dir}: ${hit} is a reserved path inside Pyodide, where ` +
          "the host's files are not visible; run from another folder");
      }
    }
    mountHost();
    runtime.pyodide.FS.chdir(cwd);
    return runtime.runPyodideFile(hostPath, argv, opts);
  };

  return runtime;
}

/**
 * Environment names a host value does not replace inside Pyodide: `PATH` and `LD_LIBRARY_PATH`
 * (Pyodide's "/" and the folders it loads its shared libraries from: host executables and
 * libraries cannot run there) and every `PYTHON*` name (read by the interpreter once, at its
 * start-up, before a host value could apply: a host `PYTHONPATH` would claim a sys.path that
 * is not the one in use, `PYTHONINSPECT` is Pyodide's own). docs/js-api.md, docs/cli.md.
 */
export const RESERVED_ENV = Object.freeze({ names: ["LD_LIBRARY_PATH", "PATH"], prefixes: ["PYTHON"] });

/** Whether `name` keeps Pyodide's value (RESERVED_ENV). */
export function isReservedEnv(name) {
  return RESERVED_ENV.names.includes(name) || RESERVED_ENV.prefixes.some((p) => name.startsWith(p));
}

/** Sets every variable of `env` but the reserved ones in Python's os.environ. */
function setEnvironment(pyodide, env) {
  const given = Object.entries(env).filter(([name, value]) =>
    typeof value === "string" && /^[^=\0]+$/.test(name) && !value.includes("\0") && !isReservedEnv(name));
  if (!given.length) return;
  pyodide.runPython(`import json as _json, os as _os\n_os.environ.update(_json.loads(${JSON.stringify(JSON.stringify(Object.fromEntries(given)))}))\ndel _json, _os`);
}

/**
 * The Node runtime for users' tests and scripts: `await createRuntime()` (same options as
 * createNodeRuntime). docs/js-api.md.
 */
export const createRuntime = createNodeRuntime;
