// The pure part of web/src/sim/heatmap.js: grid layout, NaN-aware averaging, colours, numbers.
import { describe, expect, it } from "vitest";
import { colour, downsample, fmt, gridOf, MAX_SIDE } from "../../web/src/sim/heatmap.js";

describe("heatmap maths", () => {
  it("lays shapes out as rows × cols", () => {
    expect(gridOf([])).toEqual({ rows: 1, cols: 1 });
    expect(gridOf([7])).toEqual({ rows: 1, cols: 7 });
    expect(gridOf([128, 64])).toEqual({ rows: 128, cols: 64 });
    expect(gridOf([2, 3, 4])).toEqual({ rows: 6, cols: 4 });
    expect(gridOf([2, 3, 4, 5])).toEqual({ rows: 24, cols: 5 });
  });

  it("keeps small tensors as they are", () => {
    const data = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const { bins, bw, bh } = downsample(data, 2, 3);
    expect([bw, bh]).toEqual([3, 2]);
    expect([...bins]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("averages big tensors into at most MAX_SIDE bins per side, skipping NaNs", () => {
    const rows = 1024, cols = 2048;
    const data = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) data[r * cols + c] = r;
    const { bins, bw, bh } = downsample(data, rows, cols);
    expect([bw, bh]).toEqual([MAX_SIDE, MAX_SIDE]);
    // Bin row k holds rows 2k and 2k+1: mean 2k + 0.5, the same in every column.
    expect(bins[0]).toBe(0.5);
    expect(bins[5 * bw + 100]).toBe(10.5);
    expect(bins[(bh - 1) * bw + bw - 1]).toBe(1022.5);
    const withNan = Float32Array.from([NaN, 2, NaN, NaN]);
    const small = downsample(withNan, 1, 4, 2);
    expect(small.bw).toBe(2);
    expect(small.bins[0]).toBe(2); // NaN skipped
    expect(Number.isNaN(small.bins[1])).toBe(true); // only NaNs
  });

  it("maps [0, 1] onto the ramp and NaN to magenta; formats numbers shortly", () => {
    expect(colour(0)).toEqual([48, 18, 84]);
    expect(colour(1)).toEqual([250, 230, 40]);
    expect(colour(-3)).toEqual(colour(0));
    expect(colour(NaN)).toEqual([255, 0, 200]);
    const mid = colour(0.5);
    expect(mid).toEqual([32, 146, 140]);
    expect(fmt(7)).toBe("7");
    expect(fmt(-0.125)).toBe("-0.125");
    expect(fmt(1 / 3)).toBe("0.33333");
    expect(fmt(NaN)).toBe("nan");
    expect(fmt(-Infinity)).toBe("-inf");
    expect(fmt(null)).toBe("–");
  });
});

describe("slices and .npy files", () => {
  it("a slice keeps the picked planes, names them and maps elements back to the whole tensor", async () => {
    const { sliceOf } = await import("../../web/src/sim/heatmap.js");
    const data = Float32Array.from({ length: 2 * 3 * 2 * 2 }, (_, i) => i);
    const all = sliceOf(data, [2, 3, 2, 2], [null, null], "t");
    expect(all.data).toBe(data);
    const one = sliceOf(data, [2, 3, 2, 2], [1, null], "t");
    expect(one.shape).toEqual([3, 2, 2]);
    expect(one.label).toBe("t[1, :, :, :]");
    expect([...one.data]).toEqual(Array.from({ length: 12 }, (_, i) => 12 + i));
    expect(one.indexOf(5)).toEqual([1, 1, 0, 1]);
    const plane = sliceOf(data, [2, 3, 2, 2], [0, 2], "t");
    expect(plane.shape).toEqual([2, 2]);
    expect([...plane.data]).toEqual([8, 9, 10, 11]);
  });

  it("writes NumPy's .npy header and the values in the tensor's own dtype", async () => {
    const { toNpy, npyDtype } = await import("../../web/src/sim/npy.js");
    const bytes = toNpy(Float32Array.from([1, 2, 3, 4, 5, 6]), [2, 3], "int32");
    const len = bytes[8] | (bytes[9] << 8);
    expect((10 + len) % 64).toBe(0);
    const header = new TextDecoder().decode(bytes.subarray(10, 10 + len));
    expect(header).toMatch(/^\{'descr': '<i4', 'fortran_order': False, 'shape': \(2, 3\), \} *\n$/);
    expect([...new Int32Array(bytes.slice(10 + len).buffer)]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(npyDtype("bfloat16")).toBe("float32");
    const vec = new TextDecoder().decode(toNpy(Float32Array.from([1]), [1]).subarray(10, 64));
    expect(vec).toContain("'shape': (1,)");
  });
});
