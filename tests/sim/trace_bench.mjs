// Runs tests/sim/trace_bench.py in Pyodide (the repository mounted at its own path): writes
// build/sim_bench/<case>.json, the IR of each real-kernel case of the simulator's benchmark.
// scripts/bench_sim.mjs runs this first.   node tests/sim/trace_bench.mjs [case...]
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../../runtime/node.mjs";

process.chdir(fileURLToPath(new URL("../..", import.meta.url)));
let err = "";
const runtime = await createNodeRuntime({
  stdout: (t) => process.stderr.write(t),
  stderr: (t) => (err += t),
});
const { exitCode } = runtime.runFile("tests/sim/trace_bench.py", process.argv.slice(2));
if (exitCode !== 0) throw new Error(`tests/sim/trace_bench.py failed:\n${err}`);
