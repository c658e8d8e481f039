// The simulator's figures, measured in one run: sim_bench built natively vs for WebAssembly
// (run by Node), and NumPy on the host (one thread) doing the same computation; the real-kernel
// cases next to their floors; the peak wasm heap of every case next to its tensors' bytes.
//   node scripts/bench_sim.mjs [--no-write] [--only case,case]   (also part of npm run bench)
// Needs build/native/sim_bench, build/wasm/sim_bench.cjs, build/wasm/nki_core.mjs (npm run
// build; the real kernels are traced by tests/sim/trace_bench.mjs first) and Debian's
// /usr/bin/python3 with NumPy.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
// SIM_BENCH_NATIVE / SIM_BENCH_WASM: other builds of sim_bench (e.g. a "before" figure).
const NATIVE = process.env.SIM_BENCH_NATIVE || `${ROOT}build/native/sim_bench`;
const WASM = process.env.SIM_BENCH_WASM || `${ROOT}build/wasm/sim_bench.cjs`;
const CORE = `${ROOT}build/wasm/nki_core.mjs`;
// Rounds of the whole set of cases (SIM_BENCH_ROUNDS; each case's best of them is reported).
const ROUNDS = Math.max(1, Number(process.env.SIM_BENCH_ROUNDS || 3));
export const SIM_START = "<!-- bench:sim:start -->";
export const SIM_END = "<!-- bench:sim:end -->";

// Built-in cases (kernels built in tests/sim/sim_bench.cpp): name, label, repeats, elements
// (per output element for bytes moved), bytes NumPy must at least move per element.
const MICRO = [
  ["matmul", "matmul 512×512×512 fp32 (PSUM tiles 128×512, K tiles of 128)", 15, 512 * 512],
  ["elementwise", "elementwise a + b over 128×65536 fp32 (128×512 tiles)", 15, 128 * 65536],
  ["softmax", "softmax over 128×4096 fp32 (max, subtract, exp, sum, divide)", 200, 128 * 4096],
  ["copy", "copy 128×65536 fp32 (load, store; 128×512 tiles)", 15, 128 * 65536],
  ["copy_large", "copy 128×262144 fp32 (as copy, 4× the bytes: 256 MiB of tensors)", 7, 128 * 262144],
  ["scan", "scan h = x·h + y along 128×16400 fp32 rows (tensor_tensor_scan, 128×2050 tiles)", 15, 128 * 16400],
];
// Real-kernel cases: traced from Python (tests/sim/bench_cases.json).
const REAL = JSON.parse(readFileSync(`${ROOT}tests/sim/bench_cases.json`, "utf8"));

function runJson(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", env, maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

const fmt = (ms) => (ms >= 100 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`);
const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const x = (r) => `${r.toFixed(2)}×`;

/** Measures every case; returns the Markdown section (between SIM_START and SIM_END). */
export function simulatorSection({ only = null } = {}) {
  for (const [path, hint] of [[NATIVE, "npm run build"], [WASM, "npm run build"], [CORE, "npm run build"], ["/usr/bin/python3", "apt-get install python3-numpy"]]) {
    if (!existsSync(path)) throw new Error(`${path} is missing (${hint})`);
  }
  const want = (name) => !only || only.includes(name) || ["matmul", "copy", "copy_large", "scan"].includes(name);
  const real = REAL.filter((c) => want(c.name));
  const trace = spawnSync(process.execPath, [`${ROOT}tests/sim/trace_bench.mjs`, ...real.map((c) => c.name)], { cwd: ROOT, encoding: "utf8" });
  if (trace.status !== 0) throw new Error(`tests/sim/trace_bench.mjs failed:\n${trace.stderr}`);
  // NumPy single-threaded; OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset only for this command.
  const npEnv = { ...process.env, OPENBLAS_NUM_THREADS: "1" };
  delete npEnv.OPENBLAS_CORETYPE;
  delete npEnv.OPENBLAS_L2_SIZE;
  let numpyVersion = "";
  const measure = (name, args) => {
    // Interleaved, so drift on a shared machine hits all three alike.
    const native = runJson(NATIVE, args)[0];
    const wasm = runJson(process.execPath, [WASM, ...args])[0];
    const np = runJson("/usr/bin/python3", [`${ROOT}tests/sim/bench_numpy.py`, name], npEnv)[0];
    numpyVersion = np.numpy;
    if (native.hash !== wasm.hash) throw new Error(`${name}: native and wasm outputs differ (${native.hash} vs ${wasm.hash})`);
    process.stderr.write(`sim bench ${name}: native ${fmt(native.best_ms)}, wasm ${fmt(wasm.best_ms)}, numpy ${fmt(np.best_ms)} (warm inputs ${fmt(np.warm_best_ms)})\n`);
    return { native, wasm, np, npWarm: { best_ms: np.warm_best_ms } };
  };
  // Every case once per round, the rounds one after the other, and each case's best run of
  // any round kept (per program: native, wasm, NumPy): this machine's speed drifts by a third
  // over minutes, and a slow spell then costs a case one round, not its figure.
  const better = (a, b) => (!a || b.best_ms < a.best_ms ? b : a);
  const keep = (into, m) => {
    for (const k of ["native", "wasm", "np", "npWarm"]) into[k] = better(into[k], m[k]);
  };
  const micro = {};
  const results = {};
  for (let round = 0; round < ROUNDS; ++round) {
    for (const [name, label, repeats, elements] of MICRO) {
      if (!want(name)) continue;
      micro[name] ??= { label, elements };
      keep(micro[name], measure(name, [name, String(repeats)]));
    }
    for (const c of real) {
      results[c.name] ??= { ...c };
      keep(results[c.name], measure(c.name, ["--kernel", `build/sim_bench/${c.name}.json`, String(c.repeats)]));
    }
  }
  // The simulator's own rates, on wasm: matmul FLOP/s (2 per multiply-add) and copy bytes/s
  // (bytes read + written by the load / store kernel).
  const mm = micro.matmul.wasm;
  const flopRate = (2 * mm.matmul_macs) / (mm.best_ms / 1e3);
  // Copy bandwidth depends on how much is moved (what stays in the last-level cache): a
  // kernel's bytes are costed at the rate of the copy case nearest its size (log scale).
  const copies = [micro.copy.wasm, micro.copy_large.wasm].map((c) => ({ bytes: c.tensor_bytes, rate: c.tensor_bytes / (c.best_ms / 1e3) }));
  const copyRate = copies[0].rate;
  const copyAt = (bytes) => copies.reduce((a, b) => (Math.abs(Math.log(b.bytes / bytes)) < Math.abs(Math.log(a.bytes / bytes)) ? b : a));
  // Sequential dependent steps per second (the scan case: one recurrence step per element).
  const scan = micro.scan.wasm;
  const scanRate = scan.scan_steps / (scan.best_ms / 1e3);

  const microTable = [
    "| case | simulator native | simulator wasm (Node) | wasm / native (target ≤ 1.5×) | NumPy (1 thread) | native / NumPy | wasm / NumPy (target ≤ 1.2× elementwise, softmax; ≤ 0.5× matmul) | NumPy, warm inputs | wasm / NumPy, warm inputs | bytes moved per element (simulator / its tensors) |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...Object.values(micro).map((m) =>
      `| ${m.label} | ${fmt(m.native.best_ms)} | ${fmt(m.wasm.best_ms)} | ${x(m.wasm.best_ms / m.native.best_ms)} | ${fmt(m.np.best_ms)} | ${x(m.native.best_ms / m.np.best_ms)} | ${x(m.wasm.best_ms / m.np.best_ms)} | ${fmt(m.npWarm.best_ms)} | ${x(m.wasm.best_ms / m.npWarm.best_ms)} | ${(m.wasm.bytes_moved / m.elements).toFixed(1)} / ${(m.wasm.tensor_bytes / m.elements).toFixed(1)} |`),
  ];
  const realTable = [
    "| kernel | simulator native | simulator wasm (Node) | wasm / native | NumPy (1 thread) | wasm / NumPy (target ≤ 1×) | wasm / NumPy, warm inputs | floor (wasm rates) | wasm / floor (target ≤ 2×) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...Object.values(results).map((r) => {
      const flopFloor = ((2 * r.wasm.matmul_macs) / flopRate) * 1e3;
      const scanFloor = (r.wasm.scan_steps / scanRate) * 1e3;
      const byteFloor = (r.wasm.tensor_bytes / copyAt(r.wasm.tensor_bytes).rate) * 1e3;
      const floor = Math.max(flopFloor + scanFloor, byteFloor);
      const parts = [];
      if (r.wasm.matmul_macs) parts.push(`${((2 * r.wasm.matmul_macs) / 1e9).toFixed(1)} GFLOP`);
      if (r.wasm.scan_steps) parts.push(`${(r.wasm.scan_steps / 1e6).toFixed(1)} M scan steps`);
      const what = flopFloor + scanFloor >= byteFloor
        ? `${fmt(floor)} (${parts.join(" + ")})`
        : `${fmt(floor)} (${mib(r.wasm.tensor_bytes)} at ${(copyAt(r.wasm.tensor_bytes).rate / 1e9).toFixed(1)} GB/s)`;
      return `| ${r.label} | ${fmt(r.native.best_ms)} | ${fmt(r.wasm.best_ms)} | ${x(r.wasm.best_ms / r.native.best_ms)} | ${fmt(r.np.best_ms)} | ${x(r.wasm.best_ms / r.np.best_ms)} | ${x(r.wasm.best_ms / r.npWarm.best_ms)} (${fmt(r.npWarm.best_ms)}) | ${what} | ${x(r.wasm.best_ms / floor)} |`;
    }),
  ];
  const memTable = [
    "| case | its tensors (inputs + outputs) | simulator's peak tensor storage | peak wasm heap (target ≤ 1.5× its tensors) |",
    "|---|---|---|---|",
    ...[...Object.entries(micro), ...Object.entries(results)].map(([name, m]) => {
      const w = m.wasm;
      return `| ${name} | ${mib(w.tensor_bytes)} | ${mib(w.sim_peak_bytes)} (${x(w.sim_peak_bytes / w.tensor_bytes)}) | ${mib(w.heap_bytes)} (${x(w.heap_bytes / w.tensor_bytes)}) |`;
    }),
  ];
  return [
    SIM_START,
    "## Simulator",
    "",
    "`tests/sim/sim_bench.cpp`, built natively (g++ -O3) and for WebAssembly (em++ -O3 -msimd128, run",
    `by Node), times \`Simulator::run()\`: best of the repeats after a warm-up, over ${ROUNDS} rounds of all cases;`,
    `native and wasm outputs are the same bytes. NumPy ${numpyVersion} (\`tests/sim/bench_numpy.py\`, one thread)`,
    "computes the same result. Both start each run from freshly written inputs (dirty in the cache);",
    "\"warm inputs\" is NumPy on arrays left untouched between repeats. Bytes moved: what the executed",
    "instructions read and wrote (`RunLog::bytes_moved`), per output element.",
    "",
    ...microTable,
    "",
    "Real kernels (`tests/sim/bench_cases.json`), traced by the Python surface (`tests/sim/trace_bench.mjs`)",
    "and simulated from their IR; NumPy runs a plain implementation of the same math. The floor is the",
    `larger of compute — matmul FLOPs at the matmul case's rate (${(flopRate / 1e9).toFixed(1)} GFLOP/s) plus serial scan steps at`,
    `the scan case's (${(scanRate / 1e6).toFixed(0)} M steps/s) — and memory: the tensors' bytes at the nearest copy case's bandwidth`,
    `(${(copyRate / 1e9).toFixed(1)} GB/s at 64 MiB, ${(copies[1].rate / 1e9).toFixed(1)} GB/s at 256 MiB). Element-wise and transcendental work is not counted.`,
    "",
    ...realTable,
    "",
    ...memTable,
    "",
    `_Load average at the end of this section: ${os.loadavg()[0].toFixed(1)}._`,
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
  const i = process.argv.indexOf("--only");
  const section = simulatorSection({ only: i >= 0 ? process.argv[i + 1].split(",") : null });
  console.log(section);
  if (!process.argv.includes("--no-write")) {
    const path = `${ROOT}BENCHMARKS.md`;
    writeFileSync(path, withSimulatorSection(readFileSync(path, "utf8"), section));
    console.log(`\nwrote ${path}`);
  }
}
