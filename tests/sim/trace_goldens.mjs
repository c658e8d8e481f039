// Writes tests/sim/goldens/<case>/kernel.json: the IR (printer's JSON form) of every case in
// goldens/cases.json, traced in Pyodide by the current Python surface and core. The native
// golden test (tests/core/sim_goldens_test.cpp) reads these. Run after make_goldens.py (which
// calls this), from the repository root: node tests/sim/trace_goldens.mjs
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { createNodeRuntime } from "../../runtime/node.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
process.chdir(root);
let err = "";
const runtime = await createNodeRuntime({ stdout: () => {}, stderr: (t) => (err += t) });
const py = runtime.pyodide;
// The repository at its own path inside Pyodide (runFile does the same for scripts).
const { exitCode } = runtime.runFile("tests/sim/sim_cases.py");
if (exitCode !== 0) throw new Error(`tests/sim/sim_cases.py failed:\n${err}`);
py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(`${root}tests/sim`)})\nimport sim_cases`);
const cases = JSON.parse(py.runPython("import json\njson.dumps(sim_cases.cases())"));
let failed = false;
for (const c of cases) {
  try {
    const ir = py.runPython(`sim_cases.trace(sim_cases.cases()[${cases.indexOf(c)}])`);
    writeFileSync(`tests/sim/goldens/${c.name}/kernel.json`, `${ir}\n`);
    console.log(`sim goldens: wrote tests/sim/goldens/${c.name}/kernel.json`);
  } catch (e) {
    console.error(`sim goldens: ${c.name}: ${e.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
