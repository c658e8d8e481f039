// The figures that come from their own scripts (browser, CLI, examples), for `npm run bench`.
// Each script prints Markdown on stdout; this runs it as a child process (a fresh Chromium or
// Node each time, nothing shared with the caller's runtime) and puts its output into its own
// marked section of BENCHMARKS.md, so one run refreshes every figure and a failing script
// leaves its old section in place with a note.
import { spawnSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** name → {title, script, args, intro}: the order is the order in BENCHMARKS.md. */
export const SECTIONS = {
  page: {
    title: "Playground page (Chromium)",
    script: "scripts/bench-page.mjs",
    args: ["--runs", "21"],
    intro:
      "The built site in Debian's Chromium, served by `scripts/serve.mjs` (gzip, ETags) next to a " +
      "bare Pyodide page on the same server in the same run. Cold = a fresh browser profile; warm " +
      "= a reload in the same profile. Targets (issue 5): ready ≤ 1.2× bare Pyodide, editor usable " +
      "≤ 0.5 s, re-run (edit → IR shown) p50 ≤ 100 ms tensor_add and ≤ 300 ms attention, ≤ 150 KB " +
      "gzip before the runtime starts.",
  },
  flood: {
    title: "Page under a flood of output (Chromium)",
    script: "scripts/bench-flood.mjs",
    args: ["--runs", "5"],
    intro:
      "The built site at 1440×900 (issue 14, item 1). Before the fix one message per write reached the page and " +
      "appended to one text node: 10^5 printed lines froze the tab for over 2 minutes and 2·10^6 drove the " +
      "renderer to 9.3 GB. Now the worker batches and caps a run's output (2,000,000 characters) and the page " +
      "draws a bounded number of lines a frame. Targets: a frame within 100 ms while 10^6 lines are printed, " +
      "Stop within 1 s, memory bounded. The wall-clock gaps include time the main thread waited for a core on " +
      "a shared machine (load average below); the CPU figure is the page's own work.",
  },
  views: {
    title: "View components (Chromium)",
    script: "scripts/bench-views.mjs",
    args: [],
    intro: "The IR, region and simulation panes on a 20,000-line IR (target: first render ≤ 300 ms).",
  },
  embed: {
    title: "Embeds (Chromium)",
    script: "scripts/bench-browser-embed.mjs",
    args: ["--runs", "3"],
    intro:
      "The `<nki-playground>` demo page (`build/site/docs-demo/`). Targets (issue 6): 0 bytes of " +
      "runtime before Run, element code ≤ 30 KB gzip; Run → live IR compared with the full page.",
  },
  examples: {
    title: "Example scripts (Node)",
    script: "scripts/bench-examples.mjs",
    args: [],
    intro: "Each `kernels/*.py` run whole (trace, simulate on seeded data, compare) in one warm runtime.",
  },
  port: {
    title: "Porting bench: Beta 1 kernels against their ports (Node)",
    script: "scripts/bench-port.mjs",
    args: ["--runs", "15"],
    intro:
      "Issue 12: each current-language example (`kernels/*_nki.py`, `import nki`) against the Beta 1 " +
      "version of the same kernel, on the same seeded inputs, in one warm Node runtime, measured in " +
      "turn (old, new, old, new, …) so the machine's load falls on both alike. Trace = a trace " +
      "without data (`nt.tensor[...]` placeholders); simulate = a simulated call on the arrays, its " +
      "trace included, as a user's call (`nki.simulate_kernel` / `nki.simulate`). IR instructions " +
      "are the printed IR's; executed, what the simulator ran (a loop body once per iteration). " +
      "The current language unrolls Python loops and traces an LNC2 kernel once per core, so the " +
      "same work is more instructions to build and to plan.",
  },
  cli: {
    title: null, // bench_cli.mjs prints its own heading and markers
    script: "scripts/bench_cli.mjs",
    args: ["--no-write"],
    intro: "",
  },
};

const start = (name) => `<!-- bench:${name}:start -->`;
const end = (name) => `<!-- bench:${name}:end -->`;

/** Runs one section's script; returns its Markdown block (markers included). */
export function runSection(name) {
  const s = SECTIONS[name];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [s.script, ...s.args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  process.stderr.write(`bench: ${name} (${s.script}) ${r.status === 0 ? "done" : "FAILED"} in ${secs} s\n`);
  if (r.status !== 0) return null;
  let body = r.stdout.trim();
  if (s.title === null) {
    // The script wrote its own markers; keep only what is between them.
    body = body.slice(body.indexOf(start(name)) + start(name).length, body.lastIndexOf(end(name))).trim();
  } else {
    const load = os.loadavg()[0].toFixed(1);
    body = `## ${s.title}\n\n${s.intro}\n\n${body}\n\n_Load average at the end of this section: ${load}._`;
  }
  return `${start(name)}\n${body}\n${end(name)}`;
}

/** Replaces (or appends) a section in the BENCHMARKS.md text. */
export function withSection(doc, name, block) {
  const a = doc.indexOf(start(name));
  const b = doc.indexOf(end(name));
  if (a >= 0 && b > a) return doc.slice(0, a) + block + doc.slice(b + end(name).length);
  return `${doc.trimEnd()}\n\n${block}\n`;
}
