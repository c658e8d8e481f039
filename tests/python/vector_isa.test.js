// nki.isa instructions of the Scalar, Vector and GpSimd engines in real Pyodide over the real
// core: the IR line each produces (docs/ops/math.md), the enums, and tutorial-shaped kernels
// (layernorm with bn_stats, SD attention's causal mask, mamba's scan). Diagnostics are in
// vector_isa_errors.test.js.
import { describe, expect, test } from "vitest";

import { F32, HEAD as NKI_HEAD, pythonHarness } from "./harness.js";

const HEAD = `import math\nimport json\n${NKI_HEAD}`;
const py = pythonHarness("v.py", { head: HEAD, returnNone: true });
const { ir, script } = py;

const XY = `${F32("128, 64")}, ${F32("128, 64")}`;
const LOAD = "    x = nl.load(a)\n    y = nl.load(b)\n";

describe("Scalar engine: activation", () => {
  test("op(data * scale + bias): scalar or (P,1) scale, (P,1) bias, dtype=", () => {
    const l = ir(script("a, b", `${LOAD}    bias = nisa.memset((128, 1), 0.5, dtype=nl.bfloat16)
    sc = nl.load(b[:, 0:1])
    e = nisa.activation(op=nl.exp, data=x, bias=bias, scale=0.125)
    t = nisa.activation(np.tanh, x, scale=sc, dtype=nl.bfloat16)
    c = nisa.activation(op=nl.copy, data=x)`, XY));
    expect(l).toContain("%bias = vector.memset {value = 0.5} : sbuf bf16[128,1]");
    expect(l).toContain("%e = scalar.activation %x, %bias, 0.125 {op = exp} : sbuf f32[128,64]");
    expect(l).toContain("%t = scalar.activation %x, %sc {op = tanh} : sbuf bf16[128,64]");
    expect(l).toContain("%c = scalar.activation %x {op = copy} : sbuf f32[128,64]");
  });

  test("reduce_op / reduce_res / reduce_cmd, and activation_reduce", () => {
    const l = ir(script("a, b", `${LOAD}    acc = nl.ndarray((128, 1), dtype=nl.float32)
    e = nisa.activation(op=np.exp, data=x, reduce_op=np.add, reduce_res=acc, reduce_cmd=nisa.reduce_cmd.reset_reduce)
    f = nisa.activation(op=np.exp, data=y, reduce_cmd=nisa.reduce_cmd.reduce)
    g = nisa.activation_reduce(op=nl.silu, data=x, reduce_op=nl.add, reduce_res=acc)`, XY));
    expect(l).toContain("%e = scalar.activation %x, %acc {op = exp, reduce_op = add, reduce_cmd = reset_reduce} : sbuf f32[128,64]");
    expect(l).toContain("%f = scalar.activation %y {op = exp, reduce_op = add, reduce_cmd = reduce} : sbuf f32[128,64]");
    expect(l).toContain("%g = scalar.activation %x, %acc {op = silu, reduce_op = add, reduce_cmd = reset_reduce} : sbuf f32[128,64]");
  });

  test("the JSON form names every operand's role (what the simulator reads)", () => {
    ir(`${HEAD}@nki.jit
def k(a, b):
    x = nl.load(a)
    acc = nl.ndarray((128, 1), dtype=nl.float32)
    bias = nl.load(b[:, 0:1])
    e = nisa.activation(op=nl.exp, data=x, bias=bias, scale=2.0, reduce_op=np.add, reduce_res=acc, reduce_cmd=nisa.reduce_cmd.reset_reduce)
    return None
t = nki.trace_kernel(k, ${XY})
ops = [o for o in json.loads(t.to_json())["body"]["body"] if o.get("opcode") == "activation"]
print([(o["role"], "scalar" in o) for o in ops[0]["operands"]], ops[0]["attrs"])
`);
    expect(py.out).toBe(
      "[('data', False), ('bias', False), ('scale', True), ('reduce_res', False)] " +
        "{'op': 'exp', 'reduce_op': 'add', 'reduce_cmd': 'reset_reduce'}\n",
    );
  });
});

describe("Vector / GpSimd element-wise instructions", () => {
  test("tensor_tensor picks Vector, or GpSimd for power and integer add; engine= is honoured", () => {
    const l = ir(script("a, b", `${LOAD}    xi = nl.load(a, dtype=nl.int32)
    t = nisa.tensor_tensor(x, y, op=np.maximum)
    p = nisa.tensor_tensor(x, y, op=np.power)
    i = nisa.tensor_tensor(xi, xi, op=nl.add)
    v = nisa.tensor_tensor(xi, xi, op=nl.add, engine=nisa.vector_engine, dtype=nl.float32)`, XY));
    expect(l).toContain("%t = vector.tensor_tensor %x, %y {op = maximum} : sbuf f32[128,64]");
    expect(l).toContain("%p = gpsimd.tensor_tensor %x, %y {op = power} : sbuf f32[128,64]");
    expect(l).toContain("%i = gpsimd.tensor_tensor %xi, %xi {op = add} : sbuf i32[128,64]");
    expect(l).toContain("%v = vector.tensor_tensor %xi, %xi {op = add} : sbuf f32[128,64]");
  });

  test("tensor_scalar: two operators, vector operands, reverse, rsqrt on GpSimd", () => {
    const l = ir(script("a, b", `${LOAD}    col = nl.load(b[:, 0:1])
    t = nisa.tensor_scalar(x, np.subtract, col, op1=np.multiply, operand1=2.0)
    r = nisa.tensor_scalar(data=x, op0=np.subtract, operand0=1.0, reverse0=True, dtype=nl.float16)
    q = nisa.tensor_scalar(x, nl.rsqrt, 0.0)
    s = nisa.tensor_scalar(x, np.multiply, 3.0, engine=nisa.vector_engine)`, XY));
    expect(l).toContain("%t = vector.tensor_scalar %x, %col, 2.0 {op0 = subtract, op1 = multiply} : sbuf f32[128,64]");
    expect(l).toContain("%r = vector.tensor_scalar %x, 1.0 {op0 = subtract, reverse0 = 1} : sbuf f16[128,64]");
    expect(l).toContain("%q = gpsimd.tensor_scalar %x, 0.0 {op0 = rsqrt} : sbuf f32[128,64]");
    expect(l).toContain("%s = vector.tensor_scalar %x, 3.0 {op0 = multiply} : sbuf f32[128,64]");
  });

  test("on trn2 (platform_target) the Scalar engine runs tensor_scalar multiply→add", () => {
    const l = ir(script("a, b", `${LOAD}    s = nisa.tensor_scalar(x, np.multiply, 2.0, op1=np.add, operand1=1.0, engine=nisa.scalar_engine)
    print(nisa.get_nc_version() == nisa.nc_version.gen3)`, XY).replace("@nki.jit", '@nki.jit(platform_target="trn2")'));
    expect(l).toContain("%s = scalar.tensor_scalar %x, 2.0, 1.0 {op0 = multiply, op1 = add} : sbuf f32[128,64]");
    expect(py.out).toBe("True\n");
  });

  test("scalar_tensor_tensor, tensor_scalar_reduce, reciprocal, dropout", () => {
    const l = ir(script("a, b", `${LOAD}    acc = nl.ndarray((128, 1), dtype=nl.float32)
    s = nisa.scalar_tensor_tensor(data=x, op0=np.subtract, operand0=1.0, op1=np.multiply, operand1=y)
    r = nisa.tensor_scalar_reduce(data=x, op0=np.multiply, operand0=2.0, reduce_op=np.max, reduce_res=acc)
    c = nisa.reciprocal(x)
    d = nisa.dropout(x, prob=0.5)
    p = nisa.dropout(x, acc)`, XY));
    expect(l).toContain("%s = vector.scalar_tensor_tensor %x, 1.0, %y {op0 = subtract, op1 = multiply} : sbuf f32[128,64]");
    expect(l).toContain("%r = vector.tensor_scalar_reduce %x, 2.0, %acc {op0 = multiply, reduce_op = maximum} : sbuf f32[128,64]");
    expect(l).toContain("%c = vector.reciprocal %x : sbuf f32[128,64]");
    expect(l).toContain("%d = vector.dropout %x, 0.5 : sbuf f32[128,64]");
    expect(l).toContain("%p = vector.dropout %x, %acc : sbuf f32[128,64]");
  });

  test("iota and memset build constants in SBUF", () => {
    const l = ir(script("a", `    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(64)[None, :]
    io = nisa.iota(i_p * 64 + 2 * i_f, dtype=nl.int32)
    for j in nl.affine_range(4):
        lj = nisa.iota(j, dtype=nl.float32)
    m = nisa.memset((nl.par_dim(128), 64), nl.fp32.min, dtype=nl.float32, engine=nisa.gpsimd_engine)
    z = nisa.memset((128, 4), 0, dtype=nl.bfloat16)`, F32("128, 64")));
    expect(l).toContain("%io = gpsimd.iota {expr = 64*p + 2*f, affine = [0,2,0,64,2,1,2]} : sbuf i32[128,64]");
    expect(l).toContain("%lj = gpsimd.iota {expr = %j, affine = [0,0,0,1]} : sbuf f32[1,1]");
    expect(l).toContain("%m = gpsimd.memset {value = -3.4028234663852886e+38} : sbuf f32[128,64]");
    expect(l).toContain("%z = vector.memset {value = 0.0} : sbuf bf16[128,4]");
  });
});

describe("reductions, scans and statistics", () => {
  test("tensor_reduce with negate and keepdims; partition reduce; scan", () => {
    const l = ir(script("a, b", `${LOAD}    xu = nl.load(a, dtype=nl.uint32)
    n = nisa.tensor_reduce(np.max, x, axis=[1], negate=True)
    kd = nisa.tensor_reduce(op=np.add, data=x, axis=(1,), keepdims=True, dtype=nl.bfloat16)
    bo = nisa.tensor_reduce(np.bitwise_or, xu, axis=1)
    pr = nisa.tensor_partition_reduce(np.max, x)
    sc = nisa.tensor_tensor_scan(x, y, initial=0, op0=np.multiply, op1=np.add)
    init = nl.load(b[:, 0:1])
    rv = nisa.tensor_tensor_scan(x, y, init, np.add, np.subtract, reverse1=True)`, XY));
    expect(l).toContain("%n = vector.tensor_reduce %x {op = maximum, axis = [1], negate = 1} : sbuf f32[128,1]");
    expect(l).toContain("%kd = vector.tensor_reduce %x {op = add, axis = [1], keepdims = 1} : sbuf bf16[128,1]");
    expect(l).toContain("%bo = vector.tensor_reduce %xu {op = bitwise_or, axis = [1]} : sbuf u32[128,1]");
    expect(l).toContain("%pr = gpsimd.tensor_partition_reduce %x {op = maximum} : sbuf f32[1,64]");
    expect(l).toContain("%sc = vector.tensor_tensor_scan %x, %y, 0.0 {op0 = multiply, op1 = add} : sbuf f32[128,64]");
    expect(l).toContain("%rv = vector.tensor_tensor_scan %x, %y, %init {op0 = add, op1 = subtract, reverse1 = 1} : sbuf f32[128,64]");
  });

  test("bn_stats gives 6 values per partition, bn_aggr folds them into mean and variance", () => {
    const l = ir(script("a", `    x = nl.load(a)
    st = nisa.bn_stats(x)
    mv = nisa.bn_aggr(st, dtype=nl.bfloat16)`, F32("128, 512")));
    expect(l).toContain("%st = vector.bn_stats %x : sbuf f32[128,6]");
    expect(l).toContain("%mv = vector.bn_aggr %st : sbuf bf16[128,2]");
  });

  test("max8, nc_find_index8, nc_match_replace8, sequence_bounds", () => {
    const l = ir(script("a, b", `${LOAD}    m = nisa.max8(src=x)
    i = nisa.nc_find_index8(data=x, vals=m, dtype=nl.uint16)
    idx = nl.ndarray((128, 8), dtype=nl.uint32)
    r = nisa.nc_match_replace8(data=x, vals=m, imm=0.0, dst_idx=idx)
    s = nisa.sequence_bounds(segment_ids=nl.load(a[0:1, :], dtype=nl.int32))`, XY));
    expect(l).toContain("%m = vector.max8 %x : sbuf f32[128,8]");
    expect(l).toContain("%i = vector.nc_find_index8 %x, %m : sbuf u16[128,8]");
    expect(l).toContain("%r = vector.nc_match_replace8 %x, %m, 0.0, %idx : sbuf f32[128,64]");
    expect(l).toContain("%s = gpsimd.sequence_bounds %t : sbuf i32[1,2,64]");
  });
});

describe("tutorial-shaped kernels", () => {
  test("layernorm v2: bn_stats per 512-chunk with a mask, bn_aggr, tensor_scalar subtract→multiply", () => {
    const l = ir(`${HEAD}@nki.jit
def layernorm_v2(x_t, gamma, beta, eps=1e-5):
    rows, hidden = x_t.shape
    y_t = nl.ndarray(x_t.shape, dtype=x_t.dtype, buffer=nl.shared_hbm)
    chunk = nl.tile_size.bn_stats_fmax
    n_chunks = math.ceil(hidden / chunk)
    ip = nl.arange(128)[:, None]
    jf = nl.arange(hidden)[None, :]
    jc = nl.arange(chunk)[None, :]
    js = nl.arange(6)[None, :]
    g = nl.load(gamma.reshape((1, hidden))[nl.arange(1)[:, None], jf]).broadcast_to((128, hidden))
    for r in nl.affine_range(math.ceil(rows / 128)):
        rows_in = r * 128 + ip < rows
        tile = nl.load(x_t[r * 128 + ip, jf], mask=rows_in)
        stats = nl.ndarray((128, 6 * n_chunks), dtype=nl.float32)
        for c in nl.affine_range(n_chunks):
            stats[ip, c * 6 + js] = nisa.bn_stats(tile[ip, c * chunk + jc], mask=(c * chunk + jc < hidden))
        mv = nisa.bn_aggr(stats)
        rstd = nl.rsqrt(mv[ip, 1] + eps)
        normed = nisa.tensor_scalar(data=tile, op0=np.subtract, operand0=mv[ip, 0], op1=np.multiply, operand1=rstd)
        nl.store(y_t[r * 128 + ip, jf], value=normed * g, mask=rows_in)
    return y_t
nki.trace_kernel(layernorm_v2, ${F32("300, 1000")}, ${F32("1000")}, ${F32("1000")})
`);
    expect(l).toContain("%t = vector.bn_stats %tile[p, 512*%c + f] {mask = 512*%c + f < 1000} : sbuf f32[128,6]");
    expect(l).toContain("%mv = vector.bn_aggr %stats : sbuf f32[128,2]");
    expect(l).toContain("%rstd = scalar.activation %t.1 {op = rsqrt} : sbuf f32[128,1]");
    expect(l).toContain("%normed = vector.tensor_scalar %tile, %mv[p, 0], %rstd {op0 = subtract, op1 = multiply} : sbuf f32[128,1000]");
  });

  test("SD attention: affine_select causal mask, tensor_reduce(np.max, negate=True), exp with bias", () => {
    const l = ir(`${HEAD}@nki.jit
def causal_softmax(scores):
    seq = scores.shape[0]
    out = nl.ndarray((seq, seq), dtype=nl.float32, buffer=nl.shared_hbm)
    iq = nl.arange(128)[:, None]
    ik = nl.arange(seq)[None, :]
    for qt in nl.affine_range(seq // 128):
        qk = nl.load(scores[qt * 128 + iq, ik])
        masked = nisa.affine_select(pred=(qt * 128 + iq - ik >= 0), on_true_tile=qk, on_false_value=nl.fp32.min)
        neg_max = nisa.tensor_reduce(np.max, data=masked, axis=(1,), dtype=np.float32, negate=True)
        total = nl.ndarray((128, 1), dtype=nl.float32)
        e = nisa.activation(op=np.exp, data=masked, bias=neg_max, scale=1.0, reduce_op=np.add, reduce_res=total, reduce_cmd=nisa.reduce_cmd.reset_reduce)
        p = nisa.tensor_scalar(e, np.multiply, nisa.reciprocal(total))
        nl.store(out[qt * 128 + iq, ik], value=p)
    return out
nki.trace_kernel(causal_softmax, ${F32("256, 256")})
`);
    expect(l).toContain("%masked = gpsimd.affine_select %qk, -3.4028234663852886e+38 {pred = 128*%qt + p - f >= 0, cmp = >=, affine = [0,0,0,128,2,0,1,2,1,-1]} : sbuf f32[128,256]");
    expect(l).toContain("%neg_max = vector.tensor_reduce %masked {op = maximum, axis = [1], negate = 1} : sbuf f32[128,1]");
    expect(l).toContain("%e = scalar.activation %masked, %neg_max, %total {op = exp, reduce_op = add, reduce_cmd = reset_reduce} : sbuf f32[128,256]");
    expect(l).toContain("%p = vector.tensor_scalar %e, %t {op0 = multiply} : sbuf f32[128,256]");
  });

  test("mamba: activation(exp, scale=A_i) and tensor_tensor_scan(initial=0, multiply, add)", () => {
    const l = ir(`${HEAD}@nki.jit
def mamba_step(delta, u, a, b):
    channels, seq = delta.shape
    out = nl.ndarray((channels, seq), dtype=nl.float32, buffer=nl.shared_hbm)
    ip = nl.arange(channels)[:, None]
    it = nl.arange(seq)[None, :]
    d = nl.load(delta)
    du = d * nl.load(u)
    acc = nl.zeros((channels, seq), dtype=nl.float32)
    for s in nl.affine_range(a.shape[1]):
        a_i = nl.load(a[ip, s])
        b_i = nl.load(b[s, it]).broadcast_to((channels, seq))
        decay = nisa.activation(op=nl.exp, data=d, scale=a_i)
        h = nisa.tensor_tensor_scan(decay, du * b_i, initial=0, op0=np.multiply, op1=np.add)
        acc[...] += h
    nl.store(out, value=acc)
    return out
nki.trace_kernel(mamba_step, ${F32("128, 512")}, ${F32("128, 512")}, ${F32("128, 16")}, ${F32("16, 512")})
`);
    expect(l).toContain("%decay = scalar.activation %d, %a_i {op = exp} : sbuf f32[128,512]");
    expect(l).toContain("%h = vector.tensor_tensor_scan %decay, %t.1, 0.0 {op0 = multiply, op1 = add} : sbuf f32[128,512]");
  });
});

describe("enums", () => {
  test("nisa.engine, reduce_cmd, nc_version and the engine aliases carry NKI's values", () => {
    ir(`${HEAD}print(int(nisa.engine.tensor), int(nisa.engine.vector), int(nisa.engine.scalar), int(nisa.engine.gpsimd), int(nisa.engine.sync), int(nisa.engine.unknown))
print(nisa.vector_engine is nisa.engine.vector, nisa.unknown_engine is nisa.engine.unknown, nisa.dma_engine.value)
print([int(c) for c in (nisa.reduce_cmd.idle, nisa.reduce_cmd.reset, nisa.reduce_cmd.reduce, nisa.reduce_cmd.reset_reduce)])
print(nisa.get_nc_version() is nisa.nc_version.gen2, int(nisa.nc_version.gen3))
`);
    expect(py.out).toBe("1 5 2 3 6 0\nTrue True 4\n[0, 1, 2, 3]\nTrue 3\n");
  });
});
