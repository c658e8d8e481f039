// NKI's diagnostics for the nki.isa Vector / Scalar / GpSimd instructions, in real Pyodide over the
// real core: exception class, message, the user's line:col, and no internal file names.
import { describe, expect, test } from "vitest";

import { F32, HEAD, locate, pythonHarness, script } from "./harness.js";

const py = pythonHarness("e.py");
const { expectError } = py;

/** A kernel over a (128, 64) float32 input `x` (SBUF) and `y` (a second load). */
function kernel(body, trn2 = false) {
  const decorators = trn2 ? '@nki.jit(platform_target="trn2")\n' : "@nki.jit\n";
  return script("a", `    x = nl.load(a)\n    y = nl.load(a)\n${body}`, F32("128, 64"), { decorators, returnNone: true });
}

const PSUM = "    ps = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)\n";
const CASES = {
  tensor_tensor: [
    ["partition counts differ", "    z = nl.ndarray((1, 64), dtype=nl.float32)\n    r = nisa.tensor_tensor(x, z, op=nl.add)",
      "nisa.tensor_tensor(", "ValueError: number of partitions (dimension 0 size of a tile) mismatch in parameters (data1[128, 64], data2[1, 64]) of 'tensor_tensor'"],
    ["element counts differ", "    r = nisa.tensor_tensor(x, y[:, 0:32], op=nl.add)", "nisa.tensor_tensor(",
      "ValueError: Parameter shapes (data1[128, 64], data2[128, 32]) of 'tensor_tensor' has mismatched shapes"],
    ["both inputs in PSUM", `${PSUM}    r = nisa.tensor_tensor(ps, ps, op=nl.add)`, "nisa.tensor_tensor(",
      "TypeError: Expected operand 'data2' of 'tensor_tensor' to be in address space 'sbuf', but got a tile in 'psum' instead."],
    ["a unary function as op", "    r = nisa.tensor_tensor(x, y, op=nl.exp)", "nisa.tensor_tensor(", "NKISyntaxError: exp is not supported in 'tensor_tensor'"],
    ["no op", "    r = nisa.tensor_tensor(x, y, op=None)", "nisa.tensor_tensor(", "ValueError: 'op' cannot be None."],
    ["the Scalar engine", "    r = nisa.tensor_tensor(x, y, op=nl.add, engine=nisa.scalar_engine)", "nisa.tensor_tensor(",
      "ValueError: Engine for tensor_tensor can only be Vector or GpSIMD or Unknown."],
    ["float add on GpSimd", "    r = nisa.tensor_tensor(x, y, op=nl.add, engine=nisa.gpsimd_engine)", "nisa.tensor_tensor(",
      "NKISyntaxError: add is not supported in 'tensor_tensor'"],
  ],
  tensor_scalar: [
    ["op1 without operand1", "    r = nisa.tensor_scalar(x, np.add, 1.0, op1=np.multiply)", "nisa.tensor_scalar(",
      "ValueError: operand1 and op1 input arguments must be both provided or both None."],
    ["arithmetic then bitvec", "    r = nisa.tensor_scalar(x, np.add, 1.0, op1=np.bitwise_and, operand1=3)", "nisa.tensor_scalar(",
      "ValueError: tensor_scalar op0/op1 must be both bitvec or both arithmetic operators."],
    ["the Tensor engine", "    r = nisa.tensor_scalar(x, np.add, 1.0, engine=nisa.tensor_engine)", "nisa.tensor_scalar(",
      "ValueError: Engine for tensor_scalar can only be Scalar or Vector or GpSIMD or Unknown."],
    ["rsqrt off GpSimd", "    r = nisa.tensor_scalar(x, nl.rsqrt, 0.0, engine=nisa.vector_engine)", "nisa.tensor_scalar(",
      "ValueError: 'rsqrt' engine must be GpSimd or Unknown."],
    ["abs off Vector", "    r = nisa.tensor_scalar(x, nl.abs, 0.0, engine=nisa.gpsimd_engine)", "nisa.tensor_scalar(",
      "ValueError: 'abs' engine must be Vector or Unknown."],
    ["the Scalar engine on trn1", "    r = nisa.tensor_scalar(x, np.multiply, 2.0, engine=nisa.scalar_engine)", "nisa.tensor_scalar(",
      "NKISyntaxError: 'tensor_scalar' on the Scalar engine does not support op0=multiply, op1=None"],
    ["an operand that is not (P, 1)", "    r = nisa.tensor_scalar(x, np.add, y[:, 0:2])", "nisa.tensor_scalar(",
      "ValueError: 'operand0' param of 'tensor_scalar' must be a scalar or a vector in partition dimension (one element per partition), operand0.shape=(128, 2)"],
    ["a scalar as data", "    r = nisa.tensor_scalar(1.0, np.add, 1.0)", "nisa.tensor_scalar(",
      "TypeError: 'data' of 'tensor_scalar' must be a tile, got a scalar"],
    ["tensor_scalar_reduce with reverse0", "    acc = nl.ndarray((128, 1), dtype=nl.float32)\n    r = nisa.tensor_scalar_reduce(data=x, op0=np.subtract, operand0=1.0, reduce_op=np.add, reduce_res=acc, reverse0=True)",
      "nisa.tensor_scalar_reduce(", "NotImplementedError: not supported in nki-playground yet: tensor_scalar_reduce(reverse0=True)"],
    ["tensor_scalar_reduce with a bitvec op", "    acc = nl.ndarray((128, 1), dtype=nl.float32)\n    r = nisa.tensor_scalar_reduce(data=x, op0=np.bitwise_and, operand0=1, reduce_op=np.add, reduce_res=acc)",
      "nisa.tensor_scalar_reduce(", "NKISyntaxError: bitwise_and is not supported in 'tensor_scalar_reduce'"],
  ],
  activation: [
    ["an int8 bias", "    b = nisa.memset((128, 1), 1.0, dtype=nl.int8)\n    r = nisa.activation(op=nl.exp, data=x, bias=b)", "nisa.activation(",
      "TypeError: 'bias' param of 'activation' must be a vector of type float32, float16, or bfloat16, got 'int8'"],
    ["a float16 scale", "    s = nisa.memset((128, 1), 1.0, dtype=nl.float16)\n    r = nisa.activation(op=nl.exp, data=x, scale=s)", "nisa.activation(",
      "TypeError: 'scale' param of 'activation' must be a scalar or vector of type float32, got 'float16'"],
    ["a (1, 64) scale", "    s = nisa.memset((1, 64), 1.0, dtype=nl.float32)\n    r = nisa.activation(op=nl.exp, data=x, scale=s)", "nisa.activation(",
      "NKISyntaxError: 'scale' param of 'activation' can only be a scalar or a vector in partition dimension, scale.shape=(1, 64)"],
    ["an ALU operator as the function", "    r = nisa.activation(op=np.add, data=x)", "nisa.activation(", "NKISyntaxError: add is not supported in 'activation'"],
    ["a max reduction on trn1", "    acc = nl.ndarray((128, 1), dtype=nl.float32)\n    r = nisa.activation_reduce(op=nl.exp, data=x, reduce_op=np.max, reduce_res=acc)",
      "nisa.activation_reduce(", "NKISyntaxError: maximum is not supported in 'activation_reduce'"],
    ["a float16 reduce_res in PSUM", "    acc = nl.ndarray((128, 1), dtype=nl.float16, buffer=nl.psum)\n    r = nisa.activation_reduce(op=nl.exp, data=x, reduce_op=np.add, reduce_res=acc)",
      "nisa.activation_reduce(", "ValueError: PSUM tensor for writes must be either 4-byte (FP32/int32) or BF16"],
    ["reciprocal with a bias on trn1", "    b = nl.load(a[:, 0:1])\n    r = nisa.activation(op=nl.reciprocal, data=x, bias=b)", "nisa.activation(",
      "ValueError: reciprocal must have bias=None for trn1."],
  ],
  reductions: [
    ["negate with a bitvec op", "    xi = nl.load(a, dtype=nl.int32)\n    r = nisa.tensor_reduce(np.bitwise_or, xi, axis=1, negate=True)", "nisa.tensor_reduce(",
      "NKISyntaxError: negate option can only be used with arithmetic ops, unsupported op=bitwise_or"],
    ["a non-reduction op", "    r = nisa.tensor_reduce(np.power, x, axis=1)", "nisa.tensor_reduce(", "NKISyntaxError: power is not supported in 'tensor_reduce'"],
    ["a bitvec reduction of floats", "    r = nisa.tensor_reduce(np.bitwise_and, x, axis=[1])", "nisa.tensor_reduce(",
      "NKISyntaxError: bitvec reduce op=bitwise_and requires an integer dtype (int32, uint8, uint16, uint32), got 'float32'"],
    ["the partition axis", "    r = nisa.tensor_reduce(np.add, x, axis=[0, 1])", "nisa.tensor_reduce(", "ValueError: Reduction on partition axes is not supported"],
    ["partition reduce with multiply", "    r = nisa.tensor_partition_reduce(np.multiply, x)", "nisa.tensor_partition_reduce(",
      "NKISyntaxError: par_reduce does not support operator=multiply"],
    ["partition reduce bitwise on int32", "    xi = nl.load(a, dtype=nl.int32)\n    r = nisa.tensor_partition_reduce(np.bitwise_or, xi)", "nisa.tensor_partition_reduce(",
      "NKISyntaxError: par_reduce bitvec op=bitwise_or requires an unsigned integer dtype (uint8, uint16, uint32), got 'int32'"],
    ["a bitvec scan", "    r = nisa.tensor_tensor_scan(x, y, 0.0, np.bitwise_and, np.add)", "nisa.tensor_tensor_scan(",
      "NKISyntaxError: bitwise_and is not supported in 'tensor_tensor_scan'"],
    ["bn_stats over 512 elements", "    w = nl.ndarray((128, 1024), dtype=nl.float32)\n    r = nisa.bn_stats(w)", "nisa.bn_stats(",
      "ValueError: 'data' of 'bn_stats' has 1024 elements per partition, but must be between 1 and 512"],
    ["bn_aggr of a non-multiple of 3", "    r = nisa.bn_aggr(x[:, 0:10])", "nisa.bn_aggr(",
      "ValueError: 'data' of 'bn_aggr' has 10 elements per partition, but must have a multiple of 3"],
    ["max8 of fewer than 8 elements", "    r = nisa.max8(src=x[:, 0:4])", "nisa.max8(",
      "ValueError: 'src' of 'max8' has 4 elements per partition, but must be between 8 and 16384"],
    ["nc_find_index8 into int32", "    m = nisa.max8(src=x)\n    r = nisa.nc_find_index8(data=x, vals=m, dtype=nl.int32)", "nisa.nc_find_index8(",
      "NKISyntaxError: nc_find_index8.dtype on trn1 dtype int32, supported: uint16, uint32"],
    ["sequence_bounds over 2 partitions", "    r = nisa.sequence_bounds(segment_ids=x[0:2, :])", "nisa.sequence_bounds(",
      "ValueError: 'segment_ids' of 'sequence_bounds' must have 1 partition(s), got 2"],
  ],
  selects: [
    ["affine_select with two predicates", "    i_p = nl.arange(128)[:, None]\n    i_f = nl.arange(64)[None, :]\n    r = nisa.affine_select((i_p >= i_f) & (i_p < 64), x, 0.0)",
      "nisa.affine_select(", "NKISyntaxError: 'affine_select' only supports single predicate, was provided 2"],
    ["affine_select with a tile on_false_value", "    i_p = nl.arange(128)[:, None]\n    i_f = nl.arange(64)[None, :]\n    r = nisa.affine_select(i_p >= i_f, x, y)",
      "nisa.affine_select(", "TypeError: 'on_false_value' of 'affine_select' must be a compile-time scalar, got a tile"],
    ["affine_select reading HBM", "    i_p = nl.arange(128)[:, None]\n    i_f = nl.arange(64)[None, :]\n    r = nisa.affine_select(i_p >= i_f, a, 0.0)",
      "nisa.affine_select(", "TypeError: Expected operand 'on_true_tile' of 'affine_select' to be in address space 'psum|sbuf', but got a tile in 'hbm' instead."],
    ["range_select on trn1", "    b = nl.load(a[:, 0:1])\n    r = nisa.range_select(on_true_tile=x, comp_op0=np.greater, comp_op1=np.less, bound0=b, bound1=b)",
      "nisa.range_select(", "NKISyntaxError: instruction 'range_select' requires target trn2 or newer, but the target is trn1"],
    ["range_select with a non-comparison", "    b = nl.load(a[:, 0:1])\n    r = nisa.range_select(on_true_tile=x, comp_op0=np.add, comp_op1=np.less, bound0=b, bound1=b)",
      "nisa.range_select(", "NKISyntaxError: add is not supported in 'range_select'", true],
    ["range_select with bf16 bounds", "    b = nl.load(a[:, 0:1], dtype=nl.bfloat16)\n    r = nisa.range_select(on_true_tile=x, comp_op0=np.greater, comp_op1=np.less, bound0=b, bound1=b)",
      "nisa.range_select(", "NKISyntaxError: range_select.bound0 on trn2 dtype bfloat16, supported: float32", true],
    ["select_reduce with a float predicate", "    nisa.select_reduce(dst=x, predicate=y, on_true=y, on_false=0.0)", "nisa.select_reduce(",
      "NKISyntaxError: select_reduce.predicate on trn1 dtype float32, supported: bool_, int8, uint8, int16, uint16, int32, uint32"],
    ["select_reduce with an int on_false", "    p = nl.load(a, dtype=nl.uint8)\n    nisa.select_reduce(dst=x, predicate=p, on_true=y, on_false=0)", "nisa.select_reduce(",
      "ValueError: on_false must be float32 when provided as a scalar, got int32"],
    ["select_reduce with a (P, 2) on_false", "    p = nl.load(a, dtype=nl.uint8)\n    nisa.select_reduce(dst=x, predicate=p, on_true=y, on_false=y[:, 0:2])", "nisa.select_reduce(",
      "ValueError: on_false's free dimension should be 1 (a vector), got 2"],
    ["select_reduce into another dtype", "    p = nl.load(a, dtype=nl.uint8)\n    d = nl.ndarray((128, 64), dtype=nl.bfloat16)\n    nisa.select_reduce(dst=d, predicate=p, on_true=y, on_false=0.0)",
      "nisa.select_reduce(", "ValueError: dst dtype must match instruction output dtype in 'select_reduce': dst is bfloat16, the instruction writes float32"],
    ["select_reduce resetting without reducing", "    p = nl.load(a, dtype=nl.uint8)\n    nisa.select_reduce(dst=x, predicate=p, on_true=y, on_false=0.0, reduce_cmd=nisa.reduce_cmd.reset)",
      "nisa.select_reduce(", "NKISyntaxError: reset is not supported in 'select_reduce'"],
    ["a float predicate", "    nisa.tensor_copy_predicated(src=y, dst=x, predicate=y)", "nisa.tensor_copy_predicated(",
      "ValueError: `predicate` must be a boolean or integer tile"],
    ["src and dst dtypes differ", "    p = nl.load(a, dtype=nl.uint8)\n    s = nl.load(a, dtype=nl.bfloat16)\n    nisa.tensor_copy_predicated(src=s, dst=x, predicate=p)",
      "nisa.tensor_copy_predicated(", "ValueError: `src` and `dst` must have the same dtype"],
    ["an int scalar into a float dst", "    p = nl.load(a, dtype=nl.uint8)\n    nisa.tensor_copy_predicated(src=1, dst=x, predicate=p)", "nisa.tensor_copy_predicated(",
      "ValueError: Scalar `src` must be float if `dst` is float"],
    ["reverse_pred with a tile src", "    p = nl.load(a, dtype=nl.uint8)\n    nisa.tensor_copy_predicated(src=y, dst=x, predicate=p, reverse_pred=True)",
      "nisa.tensor_copy_predicated(", "ValueError: `reverse_pred` only supported if `src` is scalar input."],
  ],
  other: [
    ["a scan without operators", "    r = nisa.tensor_tensor_scan(x, y, 0.0, None, np.add)", "nisa.tensor_tensor_scan(",
      "ValueError: 'op0' and 'op1' cannot be None."],
    ["iota without a dtype", "    r = nisa.iota(nl.arange(128)[:, None], None)", "nisa.iota(", "ValueError: 'dtype' cannot be None."],
    ["an operator that is a number", "    r = nisa.tensor_reduce(3, x, axis=1)", "nisa.tensor_reduce(",
      "TypeError: 'op' of 'tensor_reduce' must be an operator such as nl.add or np.add"],
    ["an unknown reduce_cmd", "    r = nisa.activation(op=nl.exp, data=x, reduce_cmd=7)", "nisa.activation(",
      "ValueError: unknown reduce_cmd 7"],
    ["memset on the Scalar engine", "    r = nisa.memset((128, 4), 0.0, dtype=nl.float32, engine=nisa.scalar_engine)", "nisa.memset(",
      "ValueError: Engine for memset can only be Vector or GpSIMD or Unknown."],
    ["nc_stream_shuffle with 31 mask entries", "    nisa.nc_stream_shuffle(x, y, list(range(31)))", "nisa.nc_stream_shuffle(",
      "ValueError: invalid arguments of 'nc_stream_shuffle': shuffle_mask must be a list of 32 integers"],
    ["local_gather with float indices", "    r = nisa.local_gather(x, y)", "nisa.local_gather(",
      "TypeError: 'index' of 'local_gather' has dtype 'float32', expected one of the following dtypes: uint16"],
    ["builtin_custom_op", "    nisa.builtin_custom_op('f', 'lib.so', 1, 1, [x], [y])", "nisa.builtin_custom_op(",
      "NotImplementedError: not supported in nki-playground yet: builtin_custom_op"],
  ],
};

for (const [group, cases] of Object.entries(CASES)) {
  describe(group, () => {
    for (const [name, body, at, text, trn2] of cases)
      test(name, () => expectError(kernel(body, trn2), at, text));
  });
}

test("a nisa instruction outside a kernel raises NKI's outside-kernel error", () => {
  const src = `${HEAD}x = nt.tensor[[128, 64], nl.float32]\nr = nisa.tensor_reduce(np.add, x, axis=1)\n`;
  const r = py.run(src);
  expect(r.exitCode).toBe(1);
  expect(py.err).toContain(`e.py:${locate(src, "nisa.tensor_reduce(")}: error: RuntimeError: calling NKI API outside of NKI kernels is not supported.`);
});
