// `npm pack` / `npm publish` run this first (the "prepack" script): the package ships build
// outputs that git does not track, so a pack from a fresh checkout without a build must fail
// loudly instead of producing a package whose runtime cannot start.
import { existsSync, lstatSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const required = [
  ["build/wasm/nki_core.mjs", "npm run build"],
  ["build/wasm/nki_core.wasm", "npm run build"],
  ["build/site/nki-python.pyc", "npm run build"],
  ["build/site/nki-snapshot.bin", "npm run build"],
  ["python/neuronxcc/nki/__init__.py", "a complete checkout"],
  ["render/tokens.js", "a complete checkout"],
];
const missing = required.filter(([path]) => !existsSync(root + path));
for (const [path, fix] of missing) process.stderr.write(`prepack: ${path} is missing (needs ${fix})\n`);
// npm leaves symlinked folders out of the tarball silently (a git worktree sharing its build
// folder has them): the package would install fine and fail at its first run.
const linked = ["build", "build/wasm"].filter((p) => existsSync(root + p) && lstatSync(root + p).isSymbolicLink());
for (const path of linked) process.stderr.write(`prepack: ${path} is a symlink, which npm pack skips; pack from a checkout with a real build\n`);
missing.push(...linked);
// The embeddable element ("./element") is built by web/vite.element.config.js into
// build/site/element/ (with the site); a pack without it still serves the runtime and the CLI.
if (!existsSync(root + "build/site/element/nki-playground.js")) {
  process.stderr.write("prepack: note: build/site/element/ not built; the ./element export is empty\n");
}
process.exit(missing.length ? 1 : 0);
