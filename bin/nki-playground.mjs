#!/usr/bin/env node
// nki-playground CLI: runs an NKI kernel script headless (Pyodide + the wasm core) and
// prints the traced IR. See `nki-playground --help`.
import { existsSync, statSync } from "node:fs";

const USAGE = `Usage: nki-playground run [--ir text|json] FILE.py [ARGS...]

Runs FILE.py like \`python FILE.py ARGS...\` with neuronxcc.nki backed by the
nki-playground core (WebAssembly), streaming the script's stdout and stderr.

Options (before FILE.py):
  --ir text    after the run, print the IR text of every traced kernel
               (one block per kernel, separated by a blank line)
  --ir json    after the run, print a JSON array of the traced kernels' IR
  -h, --help   show this help

Exit status: the script's exit status (non-zero if it raised); 2 for usage errors.
`;

function usageError(message) {
  process.stderr.write(`nki-playground: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Parses argv (without node and the script); returns {command, ir, file, args} or exits. */
function parseArgs(argv) {
  if (argv.length === 0) usageError("missing command");
  if (argv[0] === "-h" || argv[0] === "--help" || argv[0] === "help") {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const [command, ...rest] = argv;
  if (command !== "run") usageError(`unknown command '${command}'`);
  let ir = null;
  let i = 0;
  for (; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "-h" || arg === "--help") {
      process.stdout.write(USAGE);
      process.exit(0);
    } else if (arg === "--ir" || arg.startsWith("--ir=")) {
      ir = arg === "--ir" ? rest[++i] : arg.slice("--ir=".length);
      if (ir !== "text" && ir !== "json") usageError(`--ir expects 'text' or 'json', got '${ir ?? ""}'`);
    } else if (arg === "--") {
      i++;
      break;
    } else if (arg.startsWith("-")) {
      usageError(`unknown option '${arg}'`);
    } else {
      break;
    }
  }
  const file = rest[i];
  if (file === undefined) usageError("missing FILE.py");
  return { command, ir, file, args: rest.slice(i + 1) };
}

async function main() {
  const { ir, file, args } = parseArgs(process.argv.slice(2));
  if (!existsSync(file)) {
    process.stderr.write(`nki-playground: cannot open '${file}': no such file\n`);
    process.exit(2);
  }
  if (!statSync(file).isFile()) {
    process.stderr.write(`nki-playground: cannot run '${file}': not a file\n`);
    process.exit(2);
  }
  // Imported late so `--help` and usage errors answer instantly.
  const { createNodeRuntime } = await import("../wasm/js/node.mjs");
  const runtime = await createNodeRuntime();
  const { exitCode, traces } = runtime.runFile(file, args);
  if (ir === "text") {
    process.stdout.write(traces.map((t) => t.text.replace(/\n?$/, "\n")).join("\n"));
  } else if (ir === "json") {
    process.stdout.write(JSON.stringify(traces.map((t) => t.ir), null, 2) + "\n");
  }
  return exitCode;
}

main().then(
  (code) => {
    // Exit explicitly: Pyodide may keep the event loop alive.
    process.exitCode = code;
    process.stdout.write("", () => process.exit(code));
  },
  (err) => {
    // Set-up problems get their message; anything else is a bug and keeps its stack.
    const text = err?.code === "NKI_NOT_BUILT" ? err.message : (err?.stack ?? String(err));
    process.stderr.write(`nki-playground: ${text}\n`);
    process.exit(1);
  },
);
