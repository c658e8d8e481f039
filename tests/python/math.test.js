// nki.language element-wise math, reductions and selects in real Pyodide over the real core: the
// IR lines each API produces (docs/ops/math.md) and NKI's diagnostics at the user's line.
import { describe, expect, test } from "vitest";

import { F32, HEAD, locate, pythonHarness } from "./harness.js";

const py = pythonHarness("m.py", { returnNone: true });
const { ir, expectError, script } = py;

const XY = `${F32("128, 64")}, ${F32("128, 64")}`;

const LOAD = `    x = nl.load(a)
    y = nl.load(b)
    xi = nl.load(a, dtype=nl.int32)
    yi = nl.load(b, dtype=nl.int32)
`;

describe("binary operators", () => {
  const ARITH = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "mod", "fmod"];
  const PRED = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
    "logical_and", "logical_or", "logical_xor"];
  const BITS = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"];

  test("tile ⊙ tile is one tensor_tensor per op; comparisons and logical ops give bool", () => {
    const body = [...ARITH, ...PRED].map((o) => `    r_${o} = nl.${o}(x, y)`)
      .concat(BITS.map((o) => `    r_${o} = nl.${o}(xi, yi)`), ["    r_power = nl.power(x, y)"]);
    const l = ir(script("a, b", LOAD + body.join("\n"), XY));
    for (const o of ARITH) expect(l).toContain(`%r_${o} = vector.tensor_tensor %x, %y {op = ${o}} : sbuf f32[128,64]`);
    for (const o of PRED) expect(l).toContain(`%r_${o} = vector.tensor_tensor %x, %y {op = ${o}} : sbuf bool[128,64]`);
    for (const o of BITS) expect(l).toContain(`%r_${o} = vector.tensor_tensor %xi, %yi {op = ${o}} : sbuf i32[128,64]`);
    // power is a GpSimd operator
    expect(l).toContain("%r_power = gpsimd.tensor_tensor %x, %y {op = power} : sbuf f32[128,64]");
  });

  test("integer add/subtract/multiply run exactly on GpSimd; dtype= casts", () => {
    const l = ir(script("a, b", `${LOAD}    s = nl.add(xi, yi)\n    h = nl.multiply(x, y, dtype=nl.bfloat16)`, XY));
    expect(l).toContain("%s = gpsimd.tensor_tensor %xi, %yi {op = add} : sbuf i32[128,64]");
    expect(l).toContain("%h = vector.tensor_tensor %x, %y {op = multiply} : sbuf bf16[128,64]");
  });

  test("a scalar operand is a tensor_scalar immediate; on the left it sets reverse0", () => {
    const l = ir(script("a, b", `${LOAD}    s = nl.subtract(x, 2.0)\n    r = nl.subtract(2.0, x)\n    m = nl.maximum(x, 0)`, XY));
    expect(l).toContain("%s = vector.tensor_scalar %x, 2.0 {op0 = subtract} : sbuf f32[128,64]");
    expect(l).toContain("%r = vector.tensor_scalar %x, 2.0 {op0 = subtract, reverse0 = 1} : sbuf f32[128,64]");
    expect(l).toContain("%m = vector.tensor_scalar %x, 0.0 {op0 = maximum} : sbuf f32[128,64]");
  });

  test("a (P,1) column broadcasts along the free dimension as a tensor_scalar vector operand", () => {
    const l = ir(script("a, b", `${LOAD}    col = nl.load(b[:, 0:1])\n    r = nl.multiply(x, col)\n    q = nl.divide(col, x)`, XY));
    expect(l).toContain("%r = vector.tensor_scalar %x, %col {op0 = multiply} : sbuf f32[128,64]");
    expect(l).toContain("%q = vector.tensor_scalar %x, %col {op0 = divide, reverse0 = 1} : sbuf f32[128,64]");
  });

  test("other free-dimension broadcasts read the smaller tile with a repeated index", () => {
    const l = ir(script("a, b", "    x = nl.load(a)\n    y = nl.load(b)\n    r = nl.add(x, y)",
      `${F32("128, 4, 16")}, ${F32("128, 1, 16")}`));
    expect(l).toContain("%r = vector.tensor_tensor %x, %y[p, 0, f1] {op = add} : sbuf f32[128,4,16]");
  });

  test("an indirectly indexed tile broadcasts with its index tile", () => {
    const l = ir(script("a", `    x = nl.load(a)
    idx = nisa.iota(nl.arange(128)[:, None], dtype=nl.int32)
    z = nl.ndarray((128, 4, 16), dtype=nl.float32)
    r = nl.add(z, x[idx[nl.arange(128)[:, None], 0], nl.arange(16)[None, :]])`, F32("128, 16")));
    expect(l).toContain("%r = vector.tensor_tensor %z, %x[%idx[p, 0], f1] {op = add} : sbuf f32[128,4,16]");
  });

  test("type promotion: weak Python scalars widen, NumPy scalars keep their type", () => {
    const l = ir(script("a", `    h = nl.load(a, dtype=nl.float16)
    w = h + 1.2
    s = h + np.float16(1.5)
    i = nl.load(a, dtype=nl.int16)
    f = i * 3
    g = nl.add(i, h)`, F32("128, 64")));
    expect(l).toContain("%w = vector.tensor_scalar %h, 1.2 {op0 = add} : sbuf f32[128,64]");
    expect(l).toContain("%s = vector.tensor_scalar %h, 1.5 {op0 = add} : sbuf f16[128,64]");
    expect(l).toContain("%f = vector.tensor_scalar %i, 3.0 {op0 = multiply} : sbuf i32[128,64]");
    expect(l).toContain("%g = vector.tensor_tensor %i, %h {op = add} : sbuf f16[128,64]");
  });

  test("the tile operators are the nl functions (<, !=, &, |, ^, <<, >>, **, %, -, abs, ~)", () => {
    const l = ir(script("a, b", `${LOAD}    lt = x < y
    ne = x != y
    both = (x < y) & (x > 0.0)
    o = xi | yi
    e = xi ^ 3
    sl = xi << 2
    sr = xi >> yi
    p = x ** 2
    rp = 2 ** x
    m = x % 3
    n = -x
    ab = abs(x)
    inv = ~xi`, XY));
    expect(l).toContain("%lt = vector.tensor_tensor %x, %y {op = less} : sbuf bool[128,64]");
    expect(l).toContain("%ne = vector.tensor_tensor %x, %y {op = not_equal} : sbuf bool[128,64]");
    expect(l).toContain("%both = vector.tensor_tensor %t, %t.1 {op = bitwise_and} : sbuf bool[128,64]");
    expect(l).toContain("%o = vector.tensor_tensor %xi, %yi {op = bitwise_or} : sbuf i32[128,64]");
    expect(l).toContain("%e = vector.tensor_scalar %xi, 3.0 {op0 = bitwise_xor} : sbuf i32[128,64]");
    expect(l).toContain("%sl = vector.tensor_scalar %xi, 2.0 {op0 = left_shift} : sbuf i32[128,64]");
    expect(l).toContain("%sr = vector.tensor_tensor %xi, %yi {op = right_shift} : sbuf i32[128,64]");
    expect(l).toContain("%p = gpsimd.tensor_scalar %x, 2.0 {op0 = power} : sbuf f32[128,64]");
    expect(l).toContain("%rp = gpsimd.tensor_scalar %x, 2.0 {op0 = power, reverse0 = 1} : sbuf f32[128,64]");
    expect(l).toContain("%m = vector.tensor_scalar %x, 3.0 {op0 = mod} : sbuf f32[128,64]");
    expect(l).toContain("%n = vector.tensor_scalar %x, -1.0 {op0 = multiply} : sbuf f32[128,64]");
    expect(l).toContain("%ab = scalar.activation %x {op = abs} : sbuf f32[128,64]");
    expect(l).toContain("%inv = vector.tensor_scalar %xi {op0 = invert} : sbuf i32[128,64]");
  });

  test("mask= goes on the instruction and guards its accesses", () => {
    const l = ir(script("a, b", `${LOAD}    i_p = nl.arange(128)[:, None]
    r = nl.add(x, y, mask=(i_p < 64))`, XY));
    expect(l).toContain("%r = vector.tensor_tensor %x, %y {op = add, mask = p < 64} : sbuf f32[128,64]");
  });
});

describe("unary functions", () => {
  const ACT = ["abs", "sign", "exp", "log", "cos", "sin", "tan", "tanh", "arctan", "sqrt", "rsqrt",
    "reciprocal", "sigmoid", "relu", "gelu", "gelu_dx", "gelu_apprx_tanh", "gelu_apprx_sigmoid",
    "silu", "silu_dx", "erf", "erf_dx", "softplus", "mish", "square"];

  test("transcendental functions are Scalar-engine activations; dtype= casts the output", () => {
    const body = ACT.map((f) => `    u_${f} = nl.${f}(x)`).join("\n") + "\n    e16 = nl.exp(x, dtype=nl.float16)";
    const l = ir(script("a", `    x = nl.load(a)\n${body}`, F32("128, 64")));
    for (const f of ACT) expect(l).toContain(`%u_${f} = scalar.activation %x {op = ${f}} : sbuf f32[128,64]`);
    expect(l).toContain("%e16 = scalar.activation %x {op = exp} : sbuf f16[128,64]");
  });

  test("negative, logical_not and invert are Vector tensor_scalar ops", () => {
    const l = ir(script("a", `    x = nl.load(a)
    xi = nl.load(a, dtype=nl.uint8)
    n = nl.negative(x)
    ln = nl.logical_not(x)
    iv = nl.invert(xi)`, F32("128, 64")));
    expect(l).toContain("%n = vector.tensor_scalar %x, -1.0 {op0 = multiply} : sbuf f32[128,64]");
    expect(l).toContain("%ln = vector.tensor_scalar %x {op0 = logical_not} : sbuf bool[128,64]");
    expect(l).toContain("%iv = vector.tensor_scalar %xi {op0 = invert} : sbuf u8[128,64]");
  });

  test("floor, ceil and trunc are built from the ALU's mod and fmod", () => {
    const l = ir(script("a", "    x = nl.load(a)\n    f = nl.floor(x)\n    c = nl.ceil(x)\n    t = nl.trunc(x)", F32("128, 64")));
    expect(l).toContain("%f_frac = vector.tensor_scalar %x, 1.0 {op0 = mod} : sbuf f32[128,64]");
    expect(l).toContain("%f = vector.tensor_tensor %x, %f_frac {op = subtract} : sbuf f32[128,64]");
    expect(l).toContain("%c_frac = vector.tensor_scalar %x, -1.0, 1.0 {op0 = multiply, op1 = mod} : sbuf f32[128,64]");
    expect(l).toContain("%c = vector.tensor_tensor %x, %c_frac {op = add} : sbuf f32[128,64]");
    expect(l).toContain("%t_frac = vector.tensor_scalar %x, 1.0 {op0 = fmod} : sbuf f32[128,64]");
    expect(l).toContain("%t = vector.tensor_tensor %x, %t_frac {op = subtract} : sbuf f32[128,64]");
  });
});

describe("where, dropout, random numbers", () => {
  test("nl.where is a Vector select of tiles or a scalar", () => {
    const l = ir(script("a, b", `${LOAD}    c = x > y
    w = nl.where(c, x, y)
    z = nl.where(c, x, 0.0, dtype=nl.bfloat16)`, XY));
    expect(l).toContain("%w = vector.select %c, %x, %y : sbuf f32[128,64]");
    expect(l).toContain("%z = vector.select %c, %x, 0.0 : sbuf bf16[128,64]");
  });

  test("nl.dropout, nl.rand and nl.random_seed", () => {
    const l = ir(script("a", `    x = nl.load(a)
    nl.random_seed(7)
    d = nl.dropout(x, 0.25)
    r = nl.rand((128, 64), dtype=nl.bfloat16)
    rate = nl.load(a[0:1, 0:1])
    d2 = nl.dropout(x, rate)`, F32("128, 64")));
    expect(l).toContain("vector.random_seed 7.0");
    expect(l).toContain("%d = vector.dropout %x, 0.25 : sbuf f32[128,64]");
    expect(l).toContain("%r = vector.rand : sbuf bf16[128,64]");
    expect(l).toContain("%d2 = vector.dropout %x, %rate[0, f] : sbuf f32[128,64]");
  });
});

describe("diagnostics at the user's line", () => {
  const K = (body, args = F32("128, 64")) => script("a", `    x = nl.load(a)\n${body}`, args);
  const cases = [
    ["an HBM operand", K("    e = nl.exp(a)"), "nl.exp(a)",
      "TypeError: Expected operand 'x' of 'exp' to be in address space 'psum|sbuf', but got a tile in 'hbm' instead."],
    ["partition counts that differ", K("    z = nl.ndarray((64, 64), dtype=nl.float32)\n    r = nl.add(x, z)"),
      "nl.add(x, z)",
      "ValueError: number of partitions (dimension 0 size of a tile) mismatch in parameters (x[128, 64], y[64, 64]) of 'add'"],
    ["free shapes that do not broadcast", K("    z = nl.ndarray((128, 3), dtype=nl.float32)\n    r = nl.maximum(x, z)"),
      "nl.maximum(x, z)",
      "ValueError: Parameter shapes (x[128, 64], y[128, 3]) of 'maximum' could not be broadcast together with shapes"],
    ["a tile operator with incompatible shapes", K("    z = nl.ndarray((128, 3), dtype=nl.float32)\n    r = x < z"),
      "x < z", "ValueError: Parameter shapes (x[128, 64], y[128, 3]) of 'less' could not be broadcast"],
    ["a bitvec operator on floats", K("    r = nl.bitwise_and(x, x)"), "nl.bitwise_and(x, x)",
      "NKISyntaxError: bitvec operator bitwise_and requires integer operands, but operand 'x' has dtype 'float32'"],
    ["invert of a float tile", K("    r = ~x"), "~x",
      "NKISyntaxError: bitvec operator invert requires integer operands, but operand 'x' has dtype 'float32'"],
    ["two scalars", K("    r = nl.add(1, 2)"), "nl.add(1, 2)", "TypeError: 'add' needs at least one tile operand"],
    ["a scalar to a unary function", K("    r = nl.exp(2.0)"), "nl.exp(2.0)",
      "TypeError: Expected operand 'x' of 'exp' to be a tile, got a scalar"],
    ["power reading PSUM (GpSimd)", K("    p = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)\n    r = nl.power(p, 2.0)"),
      "nl.power(p, 2.0)",
      "TypeError: Expected operand 'x' of 'power' to be in address space 'sbuf', but got a tile in 'psum' instead."],
    ["nl.where with mismatched partitions", K("    c = nl.ndarray((64, 64), dtype=nl.uint8)\n    r = nl.where(c, x, 0.0)"),
      "nl.where(c, x, 0.0)",
      "ValueError: number of partitions (dimension 0 size of a tile) mismatch in parameters (condition[64, 64], x[128, 64]) of 'where'"],
    ["a dropout rate that is not a vector", K("    r = nl.dropout(x, x)"), "nl.dropout(x, x)",
      "ValueError: 'rate' param of 'dropout' must be a scalar or a vector in partition dimension (one element per partition), rate.shape=(128, 64)"],
  ];
  for (const [name, src, at, text] of cases) test(name, () => expectError(src, at, text));

  test("an nl math API outside a kernel raises NKI's outside-kernel error", () => {
    const src = `${HEAD}x = nt.tensor[[128, 64], nl.float32]\ny = nl.exp(x)\n`;
    const r = py.run(src);
    expect(r.exitCode).toBe(1);
    expect(py.err).toContain(`m.py:${locate(src, "nl.exp(")}: error: RuntimeError: calling NKI API outside of NKI kernels is not supported.`);
  });
});
