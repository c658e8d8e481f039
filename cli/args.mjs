// Command-line parsing for the five commands. Pure: returns a plan or throws UsageError, so
// `--help` and mistakes answer before Pyodide boots.

export const EXIT = Object.freeze({ OK: 0, FAILED: 1, USAGE: 2, INTERNAL: 3 });

export const USAGE = `Usage:
  nki-playground run [--ir text|json] FILE.py [ARGS...]
  nki-playground trace [--format text|json|html] [-o OUT] FILE.py...
  nki-playground check [--update] PATH...
  nki-playground compare [--rtol R] [--atol A] [--json] OLD.py NEW.py
  nki-playground site OUT

run     Runs FILE.py like \`python FILE.py ARGS...\` with neuronxcc.nki backed by the
        nki-playground core (WebAssembly), streaming the script's stdout and stderr.
          --ir text   then print the IR text of every traced kernel (blank line between)
          --ir json   then print a JSON array of the traced kernels' IR
trace   Runs each FILE.py (one runtime, a fresh __main__ each) and prints the IR of
        every kernel traced. The scripts' own stdout goes to stderr unless -o is
        given, so stdout holds only the IR. A failing script's error is printed
        (file:line:col: error: ...) and its IR left out; the exit status is then 1.
          --format text   the IR text (default)
          --format json   a JSON array, one kernel's IR object per line, byte for byte
                          as the core's printer wrote it
          --format html   the static <nki-playground> embed: source, IR, region outline
                          (one element per FILE.py)
          -o OUT          write the result to OUT instead of stdout
check   Runs the NKI examples in Markdown (.md, .markdown) and reStructuredText (.rst)
        files or folders and compares them with their expected IR or output blocks,
        printing a diff for each mismatch.
          --update        rewrite the expected blocks with what the examples produce
compare Runs OLD.py and NEW.py (a kernel and its port, e.g. Beta 1 and \`import nki\`)
        as scripts, pairs their simulated kernel calls in order (the k-th of each; their
        inputs must be equal: seed the data alike) and compares every output element-wise:
        max abs and rel error, elements off, all-zero and NaN outputs flagged; then the
        instructions per engine and regions per kind of each side's IR. The scripts'
        stdout goes to stderr. Exit status 0 when every output matches within tolerance.
          --rtol R, --atol A   match when |new - old| <= atol + rtol * |old| per element
                               (default 1e-05 and 1e-08, np.allclose's)
          --json               print the report as JSON (docs/compare.md)
site    Writes the static files a docs site serves for live <nki-playground> examples
        into the folder OUT: the element, the full playground page, the errors pages,
        the Python package and Pyodide. OUT must be new, empty, or written by an
        earlier \`site\` (whose files are then replaced).

Options: -h, --help   show this help

Environment: run, trace, check and compare give the scripts the host's environment
(os.environ), e.g. NEURON_PLATFORM_TARGET_OVERRIDE=trn2 or NKI_PRECISE_FP=1, but
PATH, LD_LIBRARY_PATH and PYTHON*, which keep Pyodide's values (docs/cli.md).

Exit status:
  0  success
  1  the script failed (run: the script's own status), or an example failed to
     run or did not match (check), or check found no examples, or (compare) an
     output differs, the inputs differ, or a file failed or simulated nothing
  2  usage error (bad option, missing or unreadable file)
  3  internal error: a bug in nki-playground (the stack is printed)
`;

export class UsageError extends Error {}

const COMMANDS = new Set(["run", "trace", "check", "compare", "site"]);

/**
 * @param {string[]} argv  arguments after the script name
 * @returns {{command: "help"} | {command: "run", ir, file, args} |
 *   {command: "trace", format, out, files} | {command: "check", update, paths} |
 *   {command: "compare", old, new, rtol, atol, json} |
 *   {command: "site", out}}
 */
export function parseArgs(argv) {
  if (argv.length === 0) throw new UsageError("missing command");
  const [command, ...rest] = argv;
  if (["-h", "--help", "help"].includes(command)) return { command: "help" };
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command '${command}'`);

  const opts = { command };
  const positional = [];
  let i = 0;
  /** The value of `--name VALUE` or `--name=VALUE`. */
  const valueOf = (arg, name) => {
    if (arg !== name) return arg.slice(name.length + 1);
    if (i + 1 >= rest.length) throw new UsageError(`${name} expects a value`);
    return rest[++i];
  };
  const is = (arg, name) => arg === name || arg.startsWith(`${name}=`);

  for (; i < rest.length; i++) {
    const arg = rest[i];
    // `run` hands everything after FILE.py to the script untouched.
    if (command === "run" && positional.length === 1) break;
    if (arg === "-h" || arg === "--help") return { command: "help" };
    if (arg === "--") {
      i++;
      break;
    }
    if (command === "run" && is(arg, "--ir")) {
      opts.ir = oneOf(valueOf(arg, "--ir"), ["text", "json"], "--ir");
    } else if (command === "trace" && is(arg, "--format")) {
      opts.format = oneOf(valueOf(arg, "--format"), ["text", "json", "html"], "--format");
    } else if (command === "trace" && (arg === "-o" || is(arg, "--output"))) {
      opts.out = arg === "-o" ? valueOf(arg, "-o") : valueOf(arg, "--output");
    } else if (command === "check" && arg === "--update") {
      opts.update = true;
    } else if (command === "compare" && (is(arg, "--rtol") || is(arg, "--atol"))) {
      const name = arg.slice(0, 6);
      opts[name.slice(2)] = tolerance(valueOf(arg, name), name);
    } else if (command === "compare" && arg === "--json") {
      opts.json = true;
    } else if (arg.startsWith("-") && arg !== "-") {
      throw new UsageError(`unknown option '${arg}' for ${command}`);
    } else {
      positional.push(arg);
    }
  }
  positional.push(...rest.slice(i));

  if (command === "run") {
    if (positional.length === 0) throw new UsageError("missing FILE.py");
    return { command, ir: opts.ir ?? null, file: positional[0], args: positional.slice(1) };
  }
  if (command === "trace") {
    if (positional.length === 0) throw new UsageError("missing FILE.py");
    return { command, format: opts.format ?? "text", out: opts.out ?? null, files: positional };
  }
  if (command === "compare") {
    if (positional.length !== 2) throw new UsageError(positional.length < 2 ? "compare needs OLD.py and NEW.py" : "compare takes two files");
    return { command, old: positional[0], new: positional[1], rtol: opts.rtol, atol: opts.atol, json: Boolean(opts.json) };
  }
  if (command === "site") {
    if (positional.length !== 1) throw new UsageError(positional.length ? "site takes one folder" : "missing OUT");
    return { command, out: positional[0] };
  }
  if (positional.length === 0) throw new UsageError("missing PATH");
  return { command, update: Boolean(opts.update), paths: positional };
}

function tolerance(text, name) {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`${name} expects a number >= 0, got '${text}'`);
  }
  return value;
}

function oneOf(value, allowed, name) {
  if (!allowed.includes(value)) {
    throw new UsageError(`${name} expects ${allowed.map((a) => `'${a}'`).join(" or ")}, got '${value}'`);
  }
  return value;
}
