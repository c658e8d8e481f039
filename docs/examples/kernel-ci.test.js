// An example of checking your own NKI kernels in CI with Vitest: copy this file into your
// project (`npm install --save-dev nki-playground vitest`), point it at your kernels, and run
// `npx vitest run`. It needs no Neuron hardware or SDK. Our own `npm test` runs this file.
import { beforeAll, describe, expect, test } from "vitest";

import { createNodeRuntime } from "nki-playground";

// Usually: readFileSync(new URL("../kernels/my_kernel.py", import.meta.url), "utf8").
const KERNEL = `
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def scale_rows(a, rows_per_tile=TILE):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(a.shape[0] // rows_per_tile):
        t = nl.load(a[i * rows_per_tile:(i + 1) * rows_per_tile, :])
        nl.store(out[i * rows_per_tile:(i + 1) * rows_per_tile, :], value=nl.multiply(t, 2.0))
    return out


nki.trace_kernel(scale_rows, nt.tensor[[ROWS, 64], nl.float32])
`;

let runtime;
let stderr = "";

beforeAll(async () => {
  // One runtime for the whole file: booting Pyodide takes a few seconds, runs take milliseconds.
  runtime = await createNodeRuntime({ stdout: () => {}, stderr: (text) => (stderr += text) });
});

/** Runs the kernel script for a shape and tile height; returns {exitCode, traces, stderr}. */
function traceFor(rows, tile) {
  stderr = "";
  const source = KERNEL.replace("ROWS", String(rows)).replace("TILE", String(tile));
  const result = runtime.runSource(source, { filename: "scale_rows.py" });
  return { ...result, stderr };
}

describe("scale_rows", () => {
  test("traces to one affine loop with one trip per 128-row tile", () => {
    const { exitCode, traces } = traceFor(512, 128);
    expect(exitCode).toBe(0);
    expect(traces.map((t) => t.kernel)).toEqual(["scale_rows"]);
    const { ir, text } = traces[0];
    expect(ir.version).toBe(1);
    expect(ir.loop_axes).toMatchObject([{ axis_type: "affine", trip_count: 4 }]);
    const opcodes = [];
    const walk = (region) => region.body.forEach((item) => ("region" in item ? walk(item) : opcodes.push(item.opcode)));
    walk(ir.body);
    expect(opcodes).toContain("load");
    expect(text).toContain("LoopScope affine %i in [0, 4) trip 4");
  });

  test("a tile taller than the 128 partitions is reported at the load's line", () => {
    const { exitCode, stderr } = traceFor(512, 256);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^scale_rows\.py:11:13: error: ValueError: number of partitions 256 exceed/m);
  });
});
