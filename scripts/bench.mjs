// npm run bench: start-up, trace time and module size, measured in one run on this machine.
// Prints a Markdown table and refreshes the "Latest run" section of BENCHMARKS.md.
//
//   node scripts/bench.mjs [--runs N] [--boots N] [--only core,sim,page,flood,views,embed,examples,port,cli] [--no-write]
//
// The browser, CLI and example figures come from their own scripts (scripts/bench-sections.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import { SECTIONS, runSection, withSection } from "./bench-sections.mjs";
import { simulatorSection, withSimulatorSection } from "./bench_sim.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WASM = `${ROOT}build/wasm/nki_core.wasm`;
const CORE_MJS = `${ROOT}build/wasm/nki_core.mjs`;
const KERNEL = `${ROOT}kernels/tensor_add.py`;
const BENCHMARKS = `${ROOT}BENCHMARKS.md`;
const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

// --- child mode: one cold start in a fresh process, prints milliseconds ---------------------
if (process.argv[2] === "--child") {
  const what = process.argv[3];
  const t0 = performance.now();
  if (what === "pyodide") {
    const require = createRequire(import.meta.url);
    const { loadPyodide } = await import("pyodide");
    await loadPyodide({ indexURL: dirname(require.resolve("pyodide/package.json")) + sep });
  } else if (what === "runtime" || what === "runtime-plain") {
    const { createNodeRuntime } = await import("../runtime/node.mjs");
    const plain = what === "runtime-plain"; // without the memory snapshot: the boot before it
    const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {}, ...(plain && { snapshotPath: null }) });
    if (runtime.snapshot.used === plain) throw new Error(`${what}: snapshot ${runtime.snapshot.used ? "used" : `not used (${runtime.snapshot.reason})`}`);
    // Ready means a kernel can be traced: force the runner's imports to have happened.
    if (runtime.runSource("import neuronxcc.nki\n").exitCode !== 0) throw new Error("runtime not usable");
  } else {
    throw new Error(`unknown child mode ${what}`);
  }
  process.stdout.write(`${performance.now() - t0}\n`);
  process.exit(0);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmtMs = (ms) => (ms >= 100 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`);
const fmtKB = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function coldStart(what) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", what], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`${what} boot failed:\n${r.stderr}`);
  return Number(r.stdout.trim());
}

const onlyArg = process.argv.indexOf("--only");
const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1].split(",")) : null;
const want = (name) => !only || only.has(name);
for (const name of only ?? []) {
  if (name !== "core" && name !== "sim" && !(name in SECTIONS)) throw new Error(`--only: unknown section ${name}`);
}

for (const [path, hint] of [[WASM, "npm run build"], [KERNEL, "kernels/tensor_add.py"]]) {
  if (!existsSync(path)) throw new Error(`${path} is missing (${hint})`);
}

/** Steps 1–4: start-up, trace time and module size, in this process and its children. */
async function coreSection() {
  const boots = arg("--boots", 5);
  const runs = Math.max(20, arg("--runs", 50));

  // 1. Cold starts, interleaved so drift hits both alike.
  const pyodideMs = [];
  const runtimeMs = [];
  const plainMs = [];
  for (let i = 0; i < boots; i++) {
    pyodideMs.push(coldStart("pyodide"));
    runtimeMs.push(coldStart("runtime"));
    plainMs.push(coldStart("runtime-plain"));
    process.stderr.write(
      `boot ${i + 1}/${boots}: pyodide ${fmtMs(pyodideMs.at(-1))}, runtime ${fmtMs(runtimeMs.at(-1))}, without the snapshot ${fmtMs(plainMs.at(-1))}\n`,
    );
  }

  // 2. Trace time in a warm runtime.
  const { createNodeRuntime } = await import("../runtime/node.mjs");
  let scriptOut = "";
  const runtime = await createNodeRuntime({ stdout: (t) => (scriptOut += t), stderr: (t) => (scriptOut += t) });
  const source = readFileSync(KERNEL, "utf8");
  const traceMs = [];
  for (let i = 0; i < runs + 3; i++) {
    scriptOut = "";
    const t0 = performance.now();
    const { exitCode, traces } = runtime.runSource(source, { filename: "tensor_add.py" });
    const dt = performance.now() - t0;
    if (exitCode !== 0 || traces.length === 0) throw new Error(`tracing tensor_add.py failed:\n${scriptOut}`);
    if (i >= 3) traceMs.push(dt); // first runs warm the import caches
  }
  const irLines = runtime.runSource(source, { filename: "tensor_add.py" }).traces.reduce((n, t) => n + t.records.length, 0);

  // 3. Trace time of every example kernel against the null backend, and boundary calls per
  //    instruction (scripts/bench_trace.py, run inside the same runtime).
  const kernelFiles = readdirSync(`${ROOT}kernels`).filter((f) => f.endsWith(".py")).sort();
  scriptOut = "";
  const cwd = process.cwd();
  process.chdir(ROOT);
  const benchRun = runtime.runFile("scripts/bench_trace.py", [String(runs), ...kernelFiles.map((f) => `kernels/${f}`)]);
  process.chdir(cwd);
  if (benchRun.exitCode !== 0) throw new Error(`bench_trace.py failed:\n${scriptOut}`);
  const perKernel = scriptOut
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));

  // 4. Sizes.
  const wasm = readFileSync(WASM);
  const mjs = readFileSync(CORE_MJS);
  const gz = (buf) => gzipSync(buf, { level: 9 }).length;

  const bootP = median(pyodideMs);
  const bootR = median(runtimeMs);
  const bootPlain = median(plainMs);
  const { DEFAULT_SNAPSHOT_PATH } = await import("../runtime/node.mjs");
  if (!DEFAULT_SNAPSHOT_PATH) throw new Error("no memory snapshot (npm run build)");
  const snapshot = readFileSync(DEFAULT_SNAPSHOT_PATH);
  const sortedTrace = [...traceMs].sort((a, b) => a - b);
  const rows = [
    ["Pyodide boot (`loadPyodide` only), median of " + boots, fmtMs(bootP)],
    ["Runtime ready from the memory snapshot (Pyodide + core + the packages imported), median of " + boots, fmtMs(bootR)],
    ["Ready / bare boot (target ≤ 0.6×)", `${(bootR / bootP).toFixed(2)}×`],
    ["Runtime ready without the snapshot (Python started, the packages imported from `nki-python.pyc`), median of " + boots, fmtMs(bootPlain)],
    ["… / bare boot", `${(bootPlain / bootP).toFixed(2)}×`],
    ["`nki-snapshot.bin` raw / gzip -9 (read at every boot)", `${fmtKB(snapshot.length)} / ${fmtKB(gz(snapshot))}`],
    [`Run \`kernels/tensor_add.py\` whole (trace, simulate, compare; warm), median of ${runs}`, fmtMs(median(traceMs))],
    ["… fastest / slowest run", `${fmtMs(sortedTrace[0])} / ${fmtMs(sortedTrace.at(-1))}`],
    ["… IR lines printed per run", String(irLines)],
    ["`nki_core.wasm` raw / gzip -9", `${fmtKB(wasm.length)} / ${fmtKB(gz(wasm))}`],
    ["`nki_core.mjs` raw / gzip -9", `${fmtKB(mjs.length)} / ${fmtKB(gz(mjs))}`],
  ];
  const pyodideVersion = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("pyodide/package.json"), "utf8")).version;
  const osName = (() => {
    try {
      return readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]*)/m)?.[1] ?? os.type();
    } catch {
      return os.type();
    }
  })();
  const machine = `${osName}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.versions.node}, Pyodide ${pyodideVersion}`;
  const date = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC";

  const ratio = (k) => k.full_ms / k.floor_ms;
  const kernelRows = perKernel.map((k) => [
    `\`${k.kernel}\` (${k.file.replace("kernels/", "")})`,
    String(k.instructions),
    fmtMs(k.full_ms),
    fmtMs(k.floor_ms),
    `${ratio(k).toFixed(2)}×`,
    (k.core_calls / k.instructions).toFixed(2),
  ]);
  const totalCalls = perKernel.reduce((n, k) => n + k.core_calls, 0);
  const totalInsts = perKernel.reduce((n, k) => n + k.instructions, 0);
  const worstRatio = Math.max(...perKernel.map(ratio));
  const table = [
    "| measure | value |",
    "|---|---|",
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
    "",
    `Trace time per example kernel (warm, median of ${runs}), against the null backend, and boundary calls:`,
    "",
    "| kernel | instructions | trace | null backend (floor) | trace / floor (target ≤ 3×) | core calls per instruction (target ≤ 2) |",
    "|---|---|---|---|---|---|",
    ...kernelRows.map((r) => `| ${r.join(" | ")} |`),
    `| **all kernels** | ${totalInsts} | | | worst ${worstRatio.toFixed(2)}× | ${(totalCalls / totalInsts).toFixed(2)} |`,
  ].join("\n");
  console.log(`\n${table}\n\n${machine}`);
    return `${START}\n## Latest run\n\n${date} — ${machine}\n\n${table}\n${END}`;
}

const section = want("core") ? await coreSection() : null;

// 5. The simulator: native vs wasm vs NumPy (scripts/bench_sim.mjs), its own section.
const simSection = want("sim") ? simulatorSection() : null;
if (simSection) console.log(`\n${simSection}`);

// 6. Browser, example and CLI figures, each from its own script.
const extra = [];
for (const name of Object.keys(SECTIONS)) {
  if (!want(name)) continue;
  const block = runSection(name);
  if (block) {
    console.log(`\n${block}`);
    extra.push([name, block]);
  }
}

if (!process.argv.includes("--no-write")) {
  const intro = `# Benchmarks

Written by \`npm run bench\` (scripts/bench.mjs), which measures everything in one run on the
machine it runs on, so compare figures within a run rather than across machines.

- **Pyodide boot**: a fresh \`node\` process importing \`pyodide\` and awaiting \`loadPyodide()\`
  — the floor any Python-in-wasm start-up pays.
- **Runtime ready**: a fresh process creating the full runtime (\`createNodeRuntime()\`: Pyodide
  restored from the build's memory snapshot with the Python packages already imported, and the
  core loaded in parallel), until a script can run. **Without the snapshot**: the same with
  \`snapshotPath: null\` — Python started and the packages imported (from \`nki-python.pyc\`), the
  boot before the snapshot existed. The ratios to the bare boot are what the project adds to (or
  saves on) Pyodide's start.
- **Run tensor_add.py**: \`runSource\` of \`kernels/tensor_add.py\` in an already-warm runtime
  (parse, trace, print, simulate its 256×1024 inputs, compare with NumPy, results handed to JS),
  wall time per run; median over the runs after 3 warm-ups. Trace alone: the per-kernel table.
- **Trace per kernel**: each script in \`kernels/\` is run once with the tracer hooked to capture
  its traces; each trace is then repeated (after 30 warm-up runs, so V8 has tiered the wasm up)
  with the real core and with a *null backend* that replays the core's recorded replies without
  doing any work. The null backend is the floor: the same Python front end, JSON encoding and
  decoding, but no core. **Core calls per instruction** counts every Python→core call of one
  trace (opening, ops, scopes, closing) over the instructions the kernel emits.
- **Module size**: the wasm core as built (\`build/wasm\`), raw and gzip level 9 (zlib), i.e.
  roughly what a browser downloads.

`;
  let doc = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, "utf8") : intro;
  if (section && doc.includes(START) && doc.includes(END)) {
    doc = doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length);
  } else if (section) {
    doc = `${doc.trimEnd()}\n\n${section}\n`;
  }
  if (simSection) doc = withSimulatorSection(doc, simSection);
  for (const [name, block] of extra) doc = withSection(doc, name, block);
  writeFileSync(BENCHMARKS, doc);
  console.log(`\nwrote ${BENCHMARKS}`);
}
process.exit(0);
