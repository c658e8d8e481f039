// nki.language reductions, normalisations, loop_reduce and the fp32/bfp16/finfo constants in real
// Pyodide over the real core, and two tutorial-shaped kernels (rmsnorm, softmax).
import { describe, expect, test } from "vitest";

import { F32, HEAD as NKI_HEAD, pythonHarness } from "./harness.js";

const HEAD = `import math\n${NKI_HEAD}`;
const py = pythonHarness("r.py", { head: HEAD, returnNone: true });
const { ir, expectError, run, script } = py;

describe("reductions", () => {
  test("sum/max/min/prod/all are tensor_reduce; a 2-D reduction is a (P, 1) column", () => {
    const l = ir(script("a", `    x = nl.load(a)
    s = nl.sum(x, axis=[1])
    mx = nl.max(x, axis=1, keepdims=True)
    mn = nl.min(x, axis=-1, dtype=nl.bfloat16)
    p = nl.prod(x, axis=(1,))
    c = x > 0.0
    al = nl.all(c, axis=[1])`, F32("128, 64")));
    expect(l).toContain("%s = vector.tensor_reduce %x {op = add, axis = [1]} : sbuf f32[128,1]");
    expect(l).toContain("%mx = vector.tensor_reduce %x {op = maximum, axis = [1], keepdims = 1} : sbuf f32[128,1]");
    expect(l).toContain("%mn = vector.tensor_reduce %x {op = minimum, axis = [1]} : sbuf bf16[128,1]");
    expect(l).toContain("%p = vector.tensor_reduce %x {op = multiply, axis = [1]} : sbuf f32[128,1]");
    expect(l).toContain("%al = vector.tensor_reduce %c {op = logical_and, axis = [1]} : sbuf bool[128,1]");
  });

  test("multi-axis reductions drop or keep the reduced axes; an indexed view reduces [2, 4]", () => {
    const l = ir(script("a", `    x = nl.load(a)
    s2 = nl.sum(x, axis=2)
    s12 = nl.sum(x, axis=[1, 2], keepdims=True)
    c, i, w, j, v = nl.mgrid[0:128, 0:2, 0:2, 0:4, 0:2]
    win = x[c, i * 2 + w, j * 2 + v]
    pool = nl.sum(win, axis=[2, 4])`, F32("128, 4, 8")));
    expect(l).toContain("%s2 = vector.tensor_reduce %x {op = add, axis = [2]} : sbuf f32[128,4]");
    expect(l).toContain("%s12 = vector.tensor_reduce %x {op = add, axis = [1,2], keepdims = 1} : sbuf f32[128,1,1]");
    expect(l.some((s) => /^%pool = vector\.tensor_reduce %x\[.*\] \{op = add, axis = \[2,4\]\} : sbuf f32\[128,2,4\]$/.test(s))).toBe(true);
  });

  test("mean is an fp32 sum scaled by 1/n; integer input gives float32", () => {
    const l = ir(script("a", `    x = nl.load(a)
    m = nl.mean(x, axis=[1])
    xi = nl.load(a, dtype=nl.int32)
    mi = nl.mean(xi, axis=[1], keepdims=True)`, F32("128, 64")));
    expect(l).toContain("%m_sum = vector.tensor_reduce %x {op = add, axis = [1]} : sbuf f32[128,1]");
    expect(l).toContain("%m = vector.tensor_scalar %m_sum, 0.015625 {op0 = multiply} : sbuf f32[128,1]");
    expect(l).toContain("%mi = vector.tensor_scalar %mi_sum, 0.015625 {op0 = multiply} : sbuf f32[128,1]");
  });

  test("var is the mean of squared deviations", () => {
    const l = ir(script("a", "    x = nl.load(a)\n    v = nl.var(x, axis=[1])", F32("128, 64")));
    expect(l).toContain("%v_mean_sum = vector.tensor_reduce %x {op = add, axis = [1], keepdims = 1} : sbuf f32[128,1]");
    expect(l).toContain("%v_diff = vector.tensor_scalar %x, %v_mean {op0 = subtract} : sbuf f32[128,64]");
    expect(l).toContain("%v_sq = scalar.activation %v_diff {op = square} : sbuf f32[128,64]");
    expect(l).toContain("%v = vector.tensor_scalar %v_sum, 0.015625 {op0 = multiply} : sbuf f32[128,1]");
  });

  test("softmax and rms_norm decompose into reduce / tensor_scalar / activation", () => {
    const l = ir(script("a, g", `    x = nl.load(a)
    w = nl.load(g)
    s = nl.softmax(x, axis=1)
    r = nl.rms_norm(x, w, axis=[1], n=64, epsilon=1e-5, dtype=nl.float32)`, `${F32("128, 64")}, ${F32("128, 64")}`));
    expect(l).toContain("%s_max = vector.tensor_reduce %x {op = maximum, axis = [1], keepdims = 1} : sbuf f32[128,1]");
    expect(l).toContain("%s_shifted = vector.tensor_scalar %x, %s_max {op0 = subtract} : sbuf f32[128,64]");
    expect(l).toContain("%s_exp = scalar.activation %s_shifted {op = exp} : sbuf f32[128,64]");
    expect(l).toContain("%s = vector.tensor_scalar %s_exp, %s_sum {op0 = divide} : sbuf f32[128,64]");
    expect(l).toContain("%r_meansq = vector.tensor_scalar %r_sumsq, 0.015625, 1e-05 {op0 = multiply, op1 = add} : sbuf f32[128,1]");
    expect(l).toContain("%r_inv_rms = scalar.activation %r_meansq {op = rsqrt} : sbuf f32[128,1]");
    expect(l).toContain("%r = vector.tensor_tensor %r_normed, %w {op = multiply} : sbuf f32[128,64]");
  });

  test("loop_reduce names the loops it accumulates across", () => {
    const l = ir(script("a", `    for i in nl.affine_range(4):
        for j in nl.affine_range(2):
            t = nl.load(a[i * 32 + nl.arange(32)[:, None], nl.arange(64)[None, :]])
            acc = nl.loop_reduce(t, op=np.add, loop_indices=[i, j], dtype=nl.float32)`, F32("128, 64")));
    expect(l).toContain("%acc = vector.loop_reduce %t {op = add, loops = [0,1]} : sbuf f32[32,64]");
  });

  const K = (body) => script("a", `    x = nl.load(a)\n${body}`, F32("128, 64"));
  const errors = [
    ["reducing the partition axis", K("    s = nl.sum(x, axis=0)"), "nl.sum(x, axis=0)",
      "ValueError: Reduction on partition axes is not supported"],
    ["an empty axis list", K("    s = nl.max(x, axis=[])"), "nl.max(x, axis=[])", "ValueError: Empty axis not supported"],
    ["an axis beyond the rank", K("    s = nl.mean(x, axis=2)"), "nl.mean(x, axis=2)",
      "ValueError: axis 2 is out of bounds for a tile of rank 2"],
    ["all_reduce (collectives)", K("    s = nl.all_reduce(x, np.add, program_axes=0)"), "nl.all_reduce(",
      "NotImplementedError: not supported in nki-playground yet: all_reduce"],
    ["loop_reduce with a non-ALU op", K("    s = nl.loop_reduce(x, op=nl.exp, loop_indices=[0])"), "nl.loop_reduce(",
      "NKISyntaxError: exp is not supported in 'loop_reduce'"],
  ];
  for (const [name, src, at, text] of errors) test(name, () => expectError(src, at, text));
});

describe("constants (usable outside kernels)", () => {
  test("nl.fp32.min is the bit pattern 0xff7fffff; nl.bfp16.min is 0xff80; nl.finfo", () => {
    const r = run(`${HEAD}import struct
print(hex(struct.unpack("<I", struct.pack("<f", nl.fp32.min))[0]), nl.fp32.min == -3.4028234663852886e38)
print(nisa.fp32.min is nl.fp32.min, nl.bfp16.min)
f = nl.finfo(nl.bfloat16)
print(f.bits, f.eps, f.max, nl.finfo(nl.float16).max, nl.finfo(np.float32).tiny)
try:
    nl.finfo(nl.int32)
except ValueError as e:
    print("ValueError", e)
`);
    expect(r.exitCode, py.err).toBe(0);
    expect(py.out).toBe(
      "0xff7fffff True\nTrue -inf\n16 0.0078125 3.3895313892515355e+38 65504.0 1.1754943508222875e-38\n" +
        "ValueError data type 'int32' not inexact\n",
    );
  });
});

describe("tutorial-shaped kernels", () => {
  test("rmsnorm: square, sum over [1], scalar divide, rsqrt, multiply by the (P,1) column", () => {
    const l = ir(`${HEAD}@nki.jit
def rmsnorm(a_tensor, g_tensor):
    out_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
    ix = nl.arange(128)[:, None]
    iy = nl.arange(a_tensor.shape[1])[None, :]
    g_tile = nl.load(g_tensor.reshape((1, g_tensor.shape[0]))[nl.arange(1)[:, None], iy]).broadcast_to((128, a_tensor.shape[1]))
    for i in nl.affine_range(math.ceil(a_tensor.shape[0] / 128)):
        a_tile = nl.load(a_tensor[i * 128 + ix, iy], mask=(i * 128 + ix < a_tensor.shape[0]))
        in_square = nl.square(a_tile)
        square_sum = nl.sum(in_square, axis=[1])
        mean = square_sum / a_tensor.shape[1]
        rms_reciprocal = nl.rsqrt(mean)
        out_tile = nl.multiply(a_tile, rms_reciprocal)
        out_tile[...] = nl.multiply(out_tile, g_tile, mask=(i * 128 + ix < a_tensor.shape[0]))
        nl.store(out_tensor[i * 128 + ix, iy], value=out_tile, mask=(i * 128 + ix < a_tensor.shape[0]))
    return out_tensor
nki.trace_kernel(rmsnorm, ${F32("250, 512")}, ${F32("512")})
`);
    expect(l).toContain("%in_square = scalar.activation %a_tile {op = square} : sbuf f32[128,512]");
    expect(l).toContain("%square_sum = vector.tensor_reduce %in_square {op = add, axis = [1]} : sbuf f32[128,1]");
    expect(l).toContain("%mean = vector.tensor_scalar %square_sum, 512.0 {op0 = divide} : sbuf f32[128,1]");
    expect(l).toContain("%rms_reciprocal = scalar.activation %mean {op = rsqrt} : sbuf f32[128,1]");
    expect(l).toContain("%out_tile = vector.tensor_scalar %a_tile, %rms_reciprocal {op0 = multiply} : sbuf f32[128,512]");
    // `out_tile[...] = nl.multiply(out_tile, ...)`: the multiply writes out_tile in place.
    expect(l.some((s) => s.startsWith("vector.tensor_tensor %out_tile, %out_tile, %g_tile") &&
      s.includes("{op = multiply, mask = 128*%i + p < 250}"))).toBe(true);
    expect(l.some((s) => s.includes("tensor_copy %out_tile"))).toBe(false);
  });

  test("softmax: max with keepdims, subtract, exp, sum, divide", () => {
    const l = ir(`${HEAD}@nki.jit
def softmax_kernel(in_tensor):
    out_tensor = nl.ndarray(in_tensor.shape, dtype=in_tensor.dtype, buffer=nl.shared_hbm)
    in_tile = nl.load(in_tensor)
    max_vals = nl.max(in_tile, axis=[1], keepdims=True)
    shifted = nl.subtract(in_tile, max_vals)
    exp_vals = nl.exp(shifted)
    sum_exp = nl.sum(exp_vals, axis=[1], keepdims=True)
    nl.store(out_tensor, value=exp_vals / sum_exp)
    return out_tensor
nki.trace_kernel(softmax_kernel, ${F32("128, 512")})
`);
    expect(l).toContain("%max_vals = vector.tensor_reduce %in_tile {op = maximum, axis = [1], keepdims = 1} : sbuf f32[128,1]");
    expect(l).toContain("%shifted = vector.tensor_scalar %in_tile, %max_vals {op0 = subtract} : sbuf f32[128,512]");
    expect(l).toContain("%exp_vals = scalar.activation %shifted {op = exp} : sbuf f32[128,512]");
    expect(l).toContain("%sum_exp = vector.tensor_reduce %exp_vals {op = add, axis = [1], keepdims = 1} : sbuf f32[128,1]");
    expect(l).toContain("%t = vector.tensor_scalar %exp_vals, %sum_exp {op0 = divide} : sbuf f32[128,512]");
  });
});
