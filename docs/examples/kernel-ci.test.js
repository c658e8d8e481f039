// An example of checking your own NKI kernels in CI with Vitest: copy this file into your
// project (`npm install --save-dev nki-playground vitest`), point it at your kernels, and run
// `npx vitest run`. It needs no Neuron hardware or SDK. Our own `npm test` runs this file, and
// the package test runs it from a freshly installed copy of the package.
import { beforeAll, describe, expect, test } from "vitest";

import { NkiScriptError, createRuntime } from "nki-playground";

// Usually: readFileSync(new URL("../kernels/scale_rows.py", import.meta.url), "utf8").
const KERNEL = `
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_rows(a, rows_per_tile=128):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(a.shape[0] // rows_per_tile):
        rows = slice(i * rows_per_tile, (i + 1) * rows_per_tile)
        t = nl.load(a[rows, :])
        nl.store(out[rows, :], value=nl.multiply(t, 2.0))
    return out
`;

/** The kernel plus a main block that traces it for one input shape and tile height. */
function script(rows, tile) {
  return `${KERNEL}
import neuronxcc.nki.typing as nt
nki.trace_kernel(scale_rows, nt.tensor[[${rows}, 64], nl.float32], rows_per_tile=${tile})
`;
}

let runtime;

beforeAll(async () => {
  // One runtime for the whole file: booting Pyodide takes a few seconds, a trace milliseconds.
  runtime = await createRuntime({ stdout: () => {}, stderr: () => {} });
}, 60_000); // Vitest's default hook timeout (10 s) is too short for a boot on a busy CI runner

describe("scale_rows", () => {
  test("traces to one affine loop with one trip per 128-row tile", () => {
    const [trace] = runtime.trace(script(512, 128), { filename: "scale_rows.py" });
    expect(trace.kernel).toBe("scale_rows");
    // The JSON form (docs/ir-format.md) is the one to assert on; the text is for people.
    expect(trace.ir.version).toBe(1);
    expect(trace.ir.loop_axes).toMatchObject([{ axis_type: "affine", trip_count: 4 }]);
    const opcodes = [];
    const walk = (region) => region.body.forEach((item) => ("region" in item ? walk(item) : opcodes.push(item.opcode)));
    walk(trace.ir.body);
    expect(opcodes).toEqual(["ndarray", "load", "tensor_scalar", "store"]);
  });

  test("doubles every element (simulated)", () => {
    const x = Float32Array.from({ length: 256 * 64 }, (_, i) => Math.sin(i));
    const [out] = runtime.simulate(KERNEL, [{ data: x, shape: [256, 64] }]).outputs;
    expect(out.shape).toEqual([256, 64]);
    expect(Array.from(out.data)).toEqual(Array.from(x, (v) => Math.fround(v * 2)));
  });

  test("a tile taller than the 128 partitions is reported at the load's line", () => {
    let error;
    try {
      runtime.trace(script(512, 256), { filename: "scale_rows.py" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NkiScriptError);
    expect(error.message).toMatch(/^scale_rows\.py:11:13: error: ValueError: number of partitions 256 exceed/m);
  });
});
