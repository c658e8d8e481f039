// The simulator's figures, measured in one run: sim_bench built natively vs for WebAssembly
// (run by Node), and NumPy on the host (one thread) doing the same computation; plus the wasm
// heap the matmul case needs next to the bytes of its tensors.
//   node scripts/bench_sim.mjs [--no-write]     (also part of npm run bench)
// Needs build/native/sim_bench, build/wasm/sim_bench.cjs (npm run build) and Debian's
// /usr/bin/python3 with NumPy.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NATIVE = `${ROOT}build/native/sim_bench`;
const WASM = `${ROOT}build/wasm/sim_bench.cjs`;
export const SIM_START = "<!-- bench:sim:start -->";
export const SIM_END = "<!-- bench:sim:end -->";

const CASES = [
  ["matmul", "matmul 512×512×512 fp32 (PSUM tiles 128×512, K tiles of 128)", 15],
  ["elementwise", "elementwise a + b over 128×65536 fp32 (128×512 tiles)", 15],
  ["softmax", "softmax over 128×4096 fp32 (max, subtract, exp, sum, divide)", 200],
];

function runJson(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

const fmt = (ms) => (ms >= 100 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`);
const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;

/** Measures every case; returns the Markdown section (between SIM_START and SIM_END). */
export function simulatorSection() {
  for (const [path, hint] of [[NATIVE, "npm run build"], [WASM, "npm run build"], ["/usr/bin/python3", "apt-get install python3-numpy"]]) {
    if (!existsSync(path)) throw new Error(`${path} is missing (${hint})`);
  }
  // NumPy single-threaded; OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset only for this command.
  const npEnv = { ...process.env, OPENBLAS_NUM_THREADS: "1" };
  delete npEnv.OPENBLAS_CORETYPE;
  delete npEnv.OPENBLAS_L2_SIZE;
  const rows = [];
  let heapRow = null;
  let numpyVersion = "";
  for (const [name, label, repeats] of CASES) {
    // Interleaved, so drift on a shared machine hits all three alike.
    const native = runJson(NATIVE, [name, String(repeats)])[0];
    const wasm = runJson(process.execPath, [WASM, name, String(repeats)])[0];
    const np = runJson("/usr/bin/python3", [`${ROOT}tests/sim/bench_numpy.py`, name], npEnv)[0];
    numpyVersion = np.numpy;
    process.stderr.write(`sim bench ${name}: native ${fmt(native.best_ms)}, wasm ${fmt(wasm.best_ms)}, numpy ${fmt(np.best_ms)}\n`);
    rows.push([
      label,
      fmt(native.best_ms),
      fmt(wasm.best_ms),
      `${(wasm.best_ms / native.best_ms).toFixed(2)}×`,
      fmt(np.best_ms),
      `${(native.best_ms / np.best_ms).toFixed(2)}×`,
      `${(wasm.best_ms / np.best_ms).toFixed(2)}×`,
    ]);
    if (name === "matmul") heapRow = wasm;
  }
  const table = [
    "| case | simulator native | simulator wasm (Node) | wasm / native (target ≤ 1.5×) | NumPy (1 thread) | native / NumPy | wasm / NumPy (target ≤ 2× elementwise, softmax) |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
  const memory = [
    "| matmul 512×512×512 memory | bytes |",
    "|---|---|",
    `| its tensors (A, B, C: fp32) | ${mib(heapRow.tensor_bytes)} |`,
    `| simulator's peak of allocated tensor storage (HBM + SBUF + PSUM) | ${mib(heapRow.sim_peak_bytes)} (${(heapRow.sim_peak_bytes / heapRow.tensor_bytes).toFixed(2)}×) |`,
    `| peak wasm heap growth while building and running it (all allocations; sbrk high-water mark) | ${mib(heapRow.heap_bytes)} (${(heapRow.heap_bytes / heapRow.tensor_bytes).toFixed(2)}×) |`,
  ];
  return [
    SIM_START,
    "## Simulator",
    "",
    "`tests/sim/sim_bench.cpp` built twice from one source — natively (g++ -O3) and for WebAssembly",
    "(em++ -O3 -msimd128, run by Node) — runs each kernel as the Python surface would trace it; the",
    "time is `Simulator::run()` on inputs already in its memory, best of the repeats after a warm-up.",
    `NumPy ${numpyVersion} on the host computes the same result (\`tests/sim/bench_numpy.py\`,`,
    "`OPENBLAS_NUM_THREADS=1`); the simulator is single-threaded too.",
    "",
    ...table,
    "",
    ...memory,
    SIM_END,
  ].join("\n");
}

/** Replaces (or appends) the simulator section of BENCHMARKS.md text `doc`. */
export function withSimulatorSection(doc, section) {
  if (doc.includes(SIM_START) && doc.includes(SIM_END))
    return doc.slice(0, doc.indexOf(SIM_START)) + section + doc.slice(doc.indexOf(SIM_END) + SIM_END.length);
  return `${doc.trimEnd()}\n\n${section}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const section = simulatorSection();
  console.log(section);
  if (!process.argv.includes("--no-write")) {
    const path = `${ROOT}BENCHMARKS.md`;
    writeFileSync(path, withSimulatorSection(readFileSync(path, "utf8"), section));
    console.log(`\nwrote ${path}`);
  }
}
