// The CLI's entry: parse, dispatch, and map every outcome to a documented exit status
// (cli/args.mjs EXIT). bin/nki-playground.mjs only calls main() and exits.
import { readFileSync, statSync, writeFileSync } from "node:fs";

import { EXIT, USAGE, UsageError, parseArgs } from "./args.mjs";
import { checkPaths } from "./check.mjs";
import { formatTraces } from "./trace-format.mjs";

/**
 * Runs the CLI. Never throws: bugs become EXIT.INTERNAL with their stack on stderr.
 * @param {string[]} argv  arguments after the script name
 * @returns {Promise<number>} the exit status
 */
export async function main(argv) {
  try {
    const plan = parseArgs(argv);
    if (plan.command === "help") {
      process.stdout.write(USAGE);
      return EXIT.OK;
    }
    if (plan.command === "run") return await runCommand(plan);
    if (plan.command === "trace") return await traceCommand(plan);
    if (plan.command === "site") return await siteCommand(plan);
    if (plan.command === "compare") return await compareCommand(plan);
    return await checkPaths(plan, { createRuntime: bootRuntime });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`nki-playground: ${err.message}\n\n${USAGE}`);
      return EXIT.USAGE;
    }
    // A missing build is a set-up problem: its message says what to do, a stack would not.
    const text = err?.code === "NKI_NOT_BUILT" ? err.message : `internal error: ${err?.stack ?? err}`;
    process.stderr.write(`nki-playground: ${text}\n`);
    return EXIT.INTERNAL;
  }
}

async function siteCommand({ out }) {
  const { writeSite } = await import("./site.mjs");
  const { files, bytes } = writeSite(out);
  process.stdout.write(
    `nki-playground site: ${files} files, ${(bytes / 1e6).toFixed(1)} MB -> ${out}\n` +
      `Serve it with your docs; on each page with examples add\n` +
      `  <script type="module" src="<the URL of ${out}>/element/nki-playground.js"></script>\n`,
  );
  return EXIT.OK;
}

/**
 * Boots the Node runtime; imported late so `--help` and usage errors answer instantly. Every
 * command that runs Python boots here: the script sees the host's environment as `python`
 * would (but the names Pyodide keeps, runtime/node.mjs RESERVED_ENV).
 */
async function bootRuntime(sinks) {
  const { createNodeRuntime } = await import("../runtime/node.mjs");
  return createNodeRuntime({ ...sinks, env: process.env });
}

/** A file the user named must exist and be a file; anything else is a usage error. */
function requireFile(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new UsageError(`cannot open '${file}': no such file`);
  }
  if (!stat.isFile()) throw new UsageError(`cannot run '${file}': not a file`);
}

async function compareCommand(plan) {
  [plan.old, plan.new].forEach(requireFile);
  const { compareFiles } = await import("./compare.mjs");
  return compareFiles(plan, { createRuntime: bootRuntime, write: (t) => process.stdout.write(t) });
}

async function runCommand({ ir, file, args }) {
  requireFile(file);
  const runtime = await bootRuntime({});
  const { exitCode, traces } = runtime.runFile(file, args);
  if (ir) process.stdout.write(formatTraces(ir, traces));
  return exitCode;
}

async function traceCommand({ format, out, files }) {
  files.forEach(requireFile);
  // stdout carries the IR unless it goes to a file: the scripts' prints move to stderr.
  const scriptOut = out ? (t) => process.stdout.write(t) : (t) => process.stderr.write(t);
  const runtime = await bootRuntime({ stdout: scriptOut });
  const prerender = format === "html" ? (await import("../render/prerender.js")).prerender : null;
  const traces = [];
  const html = [];
  let status = EXIT.OK;
  for (const file of files) {
    const result = runtime.runFile(file, []);
    if (result.exitCode !== 0) {
      // Its diagnostics are already on stderr (`file:line:col: error: ...`).
      process.stderr.write(`nki-playground: ${file} failed (exit status ${result.exitCode}); its IR is left out\n`);
      status = EXIT.FAILED;
      continue;
    }
    traces.push(...result.traces);
    if (prerender) {
      const source = readFileSync(file, "utf8");
      // The path as typed, the name the run used: the live element re-running the embed under
      // this filename reproduces the embedded JSON byte for byte (locations included).
      html.push(prerender({ source, filename: file, traces: result.traces }));
    }
  }
  const text = prerender ? html.join("") : formatTraces(format, traces);
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
  return status;
}
