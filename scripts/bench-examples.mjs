// Wall-clock time of each kernels/*.py run as a script (trace, simulate on seeded data, compare
// with NumPy, hand the results over), warm, in one Node runtime — the page's re-run of an
// example costs about this. Prints a Markdown table; no file is written.
//   node scripts/bench-examples.mjs [--runs N]
import { readdirSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../runtime/node.mjs";

const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 9;
process.chdir(fileURLToPath(new URL("..", import.meta.url)));

const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
const files = readdirSync("kernels").filter((f) => f.endsWith(".py")).sort();
console.log(`| example | first run | warm median of ${RUNS} | warm min | traces | simulations | comparisons ok |`);
console.log("|---|---|---|---|---|---|---|");
for (const file of files) {
  const times = [];
  let r;
  for (let k = 0; k <= RUNS; k++) {
    const t0 = performance.now();
    r = runtime.runFile(`kernels/${file}`);
    times.push(performance.now() - t0);
    if (r.exitCode !== 0) throw new Error(`kernels/${file} exited ${r.exitCode}`);
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  const ok = r.simulations.every((s) => s.comparisons.length && s.comparisons.every((c) => c.ok));
  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log(`| \`${file}\` | ${ms(times[0])} | ${ms(warm[warm.length >> 1])} | ${ms(warm[0])} | ` +
    `${r.traces.length} | ${r.simulations.length} | ${ok ? "yes" : "NO"} |`);
}
console.log(`\n${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(1)).join(" / ")}`);
