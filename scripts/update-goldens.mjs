// Regenerates tests/golden/<kernel>.ir: the printer's text for every kernel each script in
// kernels/ traces when run as `python kernels/<file>.py` — not the traces its main block makes
// to simulate the kernel on small data (`simulated`), unless it has no others. Review the diff
// like code.
//   node scripts/update-goldens.mjs          (npm run golden)
import { readdirSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../runtime/node.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
process.chdir(root);
const runtime = await createNodeRuntime({ stdout: () => {} });
let failed = false;
for (const file of readdirSync("kernels").filter((f) => f.endsWith(".py")).sort()) {
  const { exitCode, traces } = runtime.runFile(`kernels/${file}`);
  if (exitCode !== 0 || traces.length === 0) {
    console.error(`golden: kernels/${file} exited ${exitCode} with ${traces.length} trace(s)`);
    failed = true;
    continue;
  }
  const out = `tests/golden/${basename(file, ".py")}.ir`;
  const kept = goldenTraces(traces);
  writeFileSync(out, kept.map((t) => t.text).join("\n"));
  console.log(`golden: wrote ${out} (${kept.length} kernel(s))`);
}
process.exit(failed ? 1 : 0);

/** The traces a golden holds (tests/python/surface.test.js applies the same rule). */
export function goldenTraces(traces) {
  const shown = traces.filter((t) => !t.simulated);
  return shown.length ? shown : traces;
}
