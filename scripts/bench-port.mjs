// The porting bench's figures (issue 12): trace time and simulate time of each current-language
// example (kernels/*_nki.py) against the Beta 1 version of the same kernel, on the same seeded
// inputs, in one warm Node runtime, the two measured in turn (old, new, old, new, …) so the
// machine's load falls on both alike. Prints a Markdown table; no file is written.
//   node scripts/bench-port.mjs [--runs N]
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { irCounts, traceOf } from "../runtime/compare.mjs";
import { createNodeRuntime } from "../runtime/node.mjs";

const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 15;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

// [Beta 1 file, its port]: the kernels, their launch and the inputs their main blocks make.
const PAIRS = [
  { inputs: "add", old: ["tensor_add.py", "tensor_add", 2], new: ["tensor_add_nki.py", "tensor_add_nki", 2] },
  { inputs: "matmul", old: ["matmul_tiled.py", "matmul_tiled", 0], new: ["matmul_nki.py", "matmul_nki", 0] },
  { inputs: "rows", old: ["dynamic_rows.py", "dynamic_rows", 0], new: ["dynamic_rows_nki.py", "dynamic_rows_nki", 0] },
];

// Runs in the runtime: defines both files' kernels (no __main__), then times, in turn, a trace
// without data (placeholders, as nki.trace_kernel takes them) and a simulated call on the
// arrays (trace included, as a user's call); prints one JSON line of seconds.
const HARNESS = `
import json, runpy, sys, time
import numpy as np

def inputs(kind):
    np.random.seed(0)
    if kind == "add":
        return [np.random.standard_normal((256, 1024)).astype(np.float32) for _ in range(2)]
    if kind == "matmul":
        return [np.random.standard_normal((256, 128)).astype(np.float32),
                np.random.standard_normal((256, 512)).astype(np.float32)]
    x = np.random.standard_normal((512, 64)).astype(np.float32)
    return [x, np.array([[384]], dtype=np.int32)]

def side(path, name, launch):
    kernel = runpy.run_path(path, run_name="bench")[name]
    k = kernel[launch] if launch else kernel
    # A trace without data: placeholders of the inputs' shapes and dtypes (nt.tensor[...]).
    if "_nki" in path:
        import nki
        import nki.language as nl
        import nki.typing as nt
        from nki import _kernel
        def trace(args):
            _kernel.trace(k.fn, placeholders(nt, nl, args), {}, lnc=k.lnc).close()
        return trace, lambda args: nki.simulate(k)(*args)
    import neuronxcc.nki as bnki
    import neuronxcc.nki.language as bnl
    import neuronxcc.nki.typing as bnt
    return ((lambda args: bnki.trace_kernel(k, *placeholders(bnt, bnl, args))),
            (lambda args: bnki.simulate_kernel(k, *args)))

def placeholders(nt, nl, args):
    return [nt.tensor[list(a.shape), getattr(nl, str(a.dtype))] for a in args]

spec = json.loads(sys.argv[1])
args = inputs(spec["inputs"])
sides = [side(spec["root"] + "kernels/" + f, n, l) for f, n, l in (spec["old"], spec["new"])]
times = {"trace": [[], []], "simulate": [[], []]}
for k in range(spec["runs"] + 1):
    for what, at in (("trace", 0), ("simulate", 1)):
        for s, fns in enumerate(sides):
            t0 = time.perf_counter()
            fns[at](args)
            if k:  # the first round warms the caches up
                times[what][s].append(time.perf_counter() - t0)
print(json.dumps(times))
`;

// runFile sees the host's files (the kernels) at their own paths; runSource would not.
const harness = join(mkdtempSync(join(os.tmpdir(), "nkp-bench-port-")), "bench_port.py");
writeFileSync(harness, HARNESS);
let printed = "";
const runtime = await createNodeRuntime({ stdout: (t) => (printed += t), stderr: () => {} });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (s) => `${(s * 1000).toFixed(1)} ms`;

console.log(`| kernel | language | trace (median of ${RUNS}) | simulate (median of ${RUNS}) | IR instructions | executed | port / Beta 1: trace | simulate |`);
console.log("|---|---|---|---|---|---|---|---|");
for (const pair of PAIRS) {
  const spec = JSON.stringify({ ...pair, runs: RUNS, root: ROOT });
  printed = "";
  const r = runtime.runFile(harness, [spec]);
  if (r.exitCode !== 0) throw new Error(`bench-port: ${pair.old[0]} / ${pair.new[0]} exited ${r.exitCode}: ${JSON.stringify(r.diagnostics.map((d) => d.rendered))}`);
  // The JSON line is the harness's last line of stdout.
  const times = JSON.parse(printed.trim().split("\n").at(-1));
  // The simulated calls alternate old, new: the first of each side names its trace and counts.
  const sims = r.simulations;
  const counts = [0, 1].map((s) => {
    const sim = sims[s];
    const trace = traceOf({ traces: r.traces, simulations: sims }, s);
    return { instructions: irCounts(trace).instructions, executed: sim?.executed ?? null };
  });
  const row = (s, [file], label, ratio) =>
    `| \`${file}\` | ${label} | ${ms(median(times.trace[s]))} | ${ms(median(times.simulate[s]))} | ` +
    `${counts[s].instructions} | ${counts[s].executed ?? "–"} | ${ratio} |`;
  const x = (what) => `${(median(times[what][1]) / median(times[what][0])).toFixed(2)}×`;
  console.log(row(0, pair.old, "NKI Beta 1", " | "));
  console.log(row(1, pair.new, "NKI 0.6.0", `${x("trace")} | ${x("simulate")}`));
}
console.log(`\n${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(1)).join(" / ")}`);
