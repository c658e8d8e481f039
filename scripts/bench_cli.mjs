// The CLI's figure: `nki-playground trace` over every kernel in kernels/ in one process,
// against one process per kernel (what a naive CI loop does), wall time of whole commands.
// Refreshes the "CLI" section of BENCHMARKS.md.
//   node scripts/bench_cli.mjs [--runs N] [--no-write]
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BENCHMARKS = `${ROOT}BENCHMARKS.md`;
const START = "<!-- bench:cli:start -->";
const END = "<!-- bench:cli:end -->";
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 3;
const KERNELS = readdirSync(`${ROOT}kernels`)
  .filter((f) => f.endsWith(".py"))
  .sort()
  .map((f) => `kernels/${f}`);

/** Wall milliseconds of `nki-playground trace ...files` (throws if it fails). */
function trace(files) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["bin/nki-playground.mjs", "trace", "--format", "json", ...files], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`trace ${files.join(" ")} failed:\n${r.stderr}`);
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

// Shared machines skew both figures alike; the load says how much to trust the absolute ones.
const load = os.loadavg()[0].toFixed(1);
const oneProcess = [];
const perKernel = [];
for (let i = 0; i < RUNS; i++) {
  oneProcess.push(trace(KERNELS));
  perKernel.push(KERNELS.reduce((sum, k) => sum + trace([k]), 0));
}
const one = median(oneProcess);
const each = median(perKernel);

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const when = new Date().toISOString().slice(0, 16).replace("T", " ");
const section = `${START}
## CLI

\`nki-playground trace --format json\` over the ${KERNELS.length} kernels in \`kernels/\`, wall time of
whole commands (process start, Pyodide boot, traces, output), median of ${RUNS}; ${when} UTC,
${os.cpus().length} × ${cpu}, Node ${process.versions.node}, load average ${load} at the start.

| how | wall time |
|---|---|
| one process: \`trace kernels/*.py\` | ${seconds(one)} |
| one process per kernel (${KERNELS.length} runs) | ${seconds(each)} |
| per-kernel / one process | ${(each / one).toFixed(1)}× |
${END}`;

process.stdout.write(section + "\n");
if (!process.argv.includes("--no-write")) {
  const text = readFileSync(BENCHMARKS, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + section + text.slice(end + END.length)
      : `${text.replace(/\n*$/, "\n\n")}${section}\n`;
  writeFileSync(BENCHMARKS, next);
}
