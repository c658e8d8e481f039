#!/usr/bin/env node
// nki-playground CLI: runs, traces and checks NKI kernels headless (Pyodide + the wasm core).
// The commands live in cli/; see `nki-playground --help`.
import { main } from "../cli/main.mjs";

main(process.argv.slice(2)).then((code) => {
  // Exit explicitly once stdout has drained: Pyodide may keep the event loop alive.
  process.exitCode = code;
  process.stdout.write("", () => process.exit(code));
});
