// Matmul and transposes in real Pyodide over the real core: nl.matmul / nisa.nc_matmul, PSUM
// accumulation folded into the matmul, operand masks, nl.transpose / nisa.nc_transpose, kernels
// shaped like the matmul tutorial and SD attention, and NKI's diagnostics at the user's line.
import { describe, expect, test } from "vitest";

import { BF, F32, HEAD, irLines, pythonHarness } from "./harness.js";

const py = pythonHarness("mm.py");
const { ir, irText, expectError, script } = py;

describe("nl.matmul and nisa.nc_matmul", () => {
  test("transpose_x=True is one nc_matmul into fp32 PSUM; the copy evicts with a cast", () => {
    const body = `    out = nl.ndarray((64, 512), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    i_p, i_f = nl.mgrid[0:128, 0:64]
    lhs = nl.load(lhsT[i_p, i_f])
    rhs_t = nl.load(rhs)
    res = nl.matmul(lhs, rhs_t, transpose_x=True)
    res_sb = nl.copy(res, dtype=out.dtype)
    nl.store(out, value=res_sb)
    return out`;
    const l = ir(script("lhsT, rhs", body, `${BF("128, 64")}, ${BF("128, 512")}`));
    expect(l).toContain("%res = tensor.nc_matmul %lhs, %rhs_t : psum f32[64,512]");
    expect(l).toContain("%res_sb = vector.tensor_copy %res : sbuf bf16[64,512]");
  });

  test("without transpose_x a TensorE transpose and its eviction come first", () => {
    const body = `    x_t = nl.load(x)
    y_t = nl.load(y)
    r = nl.matmul(x_t, y_t)`;
    const l = ir(script("x, y", body, `${F32("64, 128")}, ${F32("128, 256")}`));
    const i = l.indexOf("%x_t_T_psum = tensor.nc_transpose %x_t : psum f32[128,64]");
    expect(i).toBeGreaterThan(0);
    expect(l[i + 1]).toBe("%x_t_T = vector.tensor_copy %x_t_T_psum : sbuf f32[128,64]");
    expect(l[i + 2]).toBe("%r = tensor.nc_matmul %x_t_T, %y_t : psum f32[64,256]");
  });

  test("nisa.nc_matmul keywords, hints and PE tiling are attributes", () => {
    const body = `    a = nl.load(x)
    b = nl.load(y)
    c = nisa.nc_matmul(stationary=a, moving=b, is_moving_onezero=True, tile_position=(0, 64), tile_size=(64, 64))`;
    const l = ir(script("x, y", body, `${BF("64, 64")}, ${BF("64, 512")}`));
    expect(l).toContain(
      "%c = tensor.nc_matmul %a, %b {is_moving_onezero = 1, tile_position = [0,64], tile_size = [64,64]} : psum f32[64,512]",
    );
  });

  test("double_row perf mode contracts [K, 2, M] with [K, 2, N]", () => {
    const body = `    a = nl.load(x)
    b = nl.load(y)
    c = nisa.nc_matmul(a, b, perf_mode="double_row_gen3")`;
    const l = ir(script("x, y", body, `nt.tensor[[128, 2, 16], nl.float8_e5m2], nt.tensor[[128, 2, 512], nl.float8_e5m2]`));
    expect(l).toContain("%c = tensor.nc_matmul %a, %b {perf_mode = double_row_gen3} : psum f32[16,512]");
  });

  test("psum += nl.matmul and psum[...] += nisa.nc_matmul accumulate inside the matmul", () => {
    const body = `    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    acc2 = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    for kk in nl.affine_range(4):
        a = nl.load(x[kk * 128:(kk + 1) * 128, :])
        b = nl.load(y[kk * 128:(kk + 1) * 128, :])
        acc += nl.matmul(a, b, transpose_x=True)
        acc2[...] += nisa.nc_matmul(a, b)
    a0 = nl.load(x[0:128, :])
    b0 = nl.load(y[0:128, :])
    first = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    first[...] = nisa.nc_matmul(a0, b0)`;
    const text = irText(script("x, y", body, `${BF("512, 128")}, ${BF("512, 512")}`));
    const l = irLines(text);
    expect(l).toContain("tensor.nc_matmul %acc, %a, %b {accumulate = 1}");
    expect(l).toContain("tensor.nc_matmul %acc2, %a, %b {accumulate = 1}");
    expect(l).toContain("tensor.nc_matmul %first, %a0, %b0 {accumulate = 0}");
    expect(text).not.toContain("tensor_tensor");
  });

  test("operand masks move onto the result tile", () => {
    const body = `    i_f = nl.arange(128)[None, :]
    j_f = nl.arange(512)[None, :]
    a = nl.load(x)
    b = nl.load(y)
    r = nl.matmul(a[i_f <= 64], b[j_f < 256], transpose_x=True)`;
    const l = ir(script("x, y", body, `${BF("128, 128")}, ${BF("128, 512")}`));
    expect(l).toContain("%r = tensor.nc_matmul %a, %b {mask = (p <= 64) & (f < 256)} : psum f32[128,512]");
  });
});

describe("transposes", () => {
  test("nl.transpose: small tiles on the Vector engine, larger ones through PSUM", () => {
    const body = `    s = nl.load(x[0:32, 0:16])
    st = nl.transpose(s)
    b = nl.load(x)
    bt = nl.transpose(b, dtype=nl.bfloat16)`;
    const l = ir(script("x", body, F32("128, 96")));
    expect(l).toContain("%st = vector.nc_transpose %s : sbuf f32[16,32]");
    expect(l).toContain("%b_T_psum = tensor.nc_transpose %b : psum f32[96,128]");
    expect(l).toContain("%bt = vector.tensor_copy %b_T_psum : sbuf bf16[96,128]");
  });

  test("nisa.nc_transpose: engine=, collapsed free axes, dtype adds a cast", () => {
    const body = `    a = nl.load(x)
    t1 = nisa.nc_transpose(a)
    t2 = nisa.nc_transpose(a[0:32, 0, 0:2], engine=nisa.vector_engine)
    t3 = nisa.nc_transpose(a, dtype=nl.bfloat16)`;
    const l = ir(script("x", body, F32("128, 4, 16")));
    expect(l).toContain("%t1 = tensor.nc_transpose %a : psum f32[64,128]");
    expect(l).toContain("%t2 = vector.nc_transpose %a[p, 0, f] : sbuf f32[2,32]");
    expect(l).toContain("%t3 = vector.tensor_copy %a_T : sbuf bf16[64,128]");
  });
});

describe("tutorial-shaped kernels", () => {
  test("tiled matmul with hoisted loads into block-dimension SBUF tensors", () => {
    const body = `    K, M = lhsT.shape
    _, N = rhs.shape
    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
    for m in nl.affine_range(M // 128):
        lhsT_tiles = nl.ndarray((K // 128, nl.par_dim(128), 128), dtype=lhsT.dtype, buffer=nl.sbuf)
        for k in nl.affine_range(K // 128):
            lhsT_tiles[k] = nl.load(lhsT[k * 128:(k + 1) * 128, m * 128:(m + 1) * 128])
        for n in nl.affine_range(N // 512):
            rhs_tiles = nl.ndarray((K // 128, nl.par_dim(128), 512), dtype=rhs.dtype, buffer=nl.sbuf)
            for k in nl.affine_range(K // 128):
                rhs_tiles[k] = nl.load(rhs[k * 128:(k + 1) * 128, n * 512:(n + 1) * 512])
            res_psum = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(K // 128):
                res_psum += nl.matmul(lhsT_tiles[k], rhs_tiles[k], transpose_x=True)
            res_sb = nl.copy(res_psum, dtype=result.dtype)
            nl.store(result[m * 128:(m + 1) * 128, n * 512:(n + 1) * 512], value=res_sb)
    return result`;
    const l = ir(script("lhsT, rhs", body, `${BF("256, 256")}, ${BF("256, 1024")}`));
    expect(l).toContain("tensor.nc_matmul %res_psum, %lhsT_tiles[%k.2, p, f], %rhs_tiles[%k.2, p, f] {accumulate = 1}");
    expect(l).toContain("%res_sb = vector.tensor_copy %res_psum : sbuf bf16[128,512]");
    expect(l).toContain("dma.store %result[128*%m + p, 512*%n + f], %res_sb");
  });

  test("SD-attention shapes: load_transpose2d, nc_matmul(stationary=, moving=) into PSUM, nc_transpose", () => {
    const body = `    d_head = q.shape[1]
    out = nl.ndarray((128, d_head), dtype=q.dtype, buffer=nl.shared_hbm)
    q_t = nl.load_transpose2d(q[0:128, :])
    k_t = nl.load_transpose2d(k_ref[0:512, :])
    qk = nl.ndarray((nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.psum)
    qk[...] = nisa.nc_matmul(stationary=q_t, moving=k_t)
    probs = nl.copy(qk, dtype=nl.bfloat16)
    probs_t = nl.ndarray((4, nl.par_dim(128), 128), dtype=nl.bfloat16, buffer=nl.sbuf)
    for j in nl.affine_range(4):
        tp = nisa.nc_transpose(probs[:, j * 128:(j + 1) * 128])
        probs_t[j] = nl.copy(tp)
    v_t = nl.load(v[0:128, :], dtype=nl.bfloat16)
    att = nl.zeros((128, d_head), nl.float32, buffer=nl.psum)
    for j in nl.affine_range(4):
        att += nisa.nc_matmul(stationary=probs_t[j], moving=v_t)
    nl.store(out, value=nl.copy(att, dtype=out.dtype))
    return out`;
    const l = ir(script("q, k_ref, v", body, `${F32("4096, 64")}, ${F32("4096, 64")}, ${F32("4096, 64")}`));
    expect(l).toContain("%q_t = dma.load_transpose2d %q[p, f] : sbuf f32[64,128]");
    expect(l).toContain("tensor.nc_matmul %qk, %q_t, %k_t {accumulate = 0}");
    expect(l).toContain("%tp = tensor.nc_transpose %probs[p, 128*%j + f] : psum bf16[128,128]");
    expect(l).toContain("vector.tensor_copy %probs_t[%j, p, f], %tp");
    expect(l).toContain("tensor.nc_matmul %att, %probs_t[%j.1, p, f], %v_t {accumulate = 1}");
  });
});

describe("simulated", () => {
  test("PSUM accumulation over K and the transposing nl.matmul give x @ y", () => {
    const src = `${HEAD}
@nki.jit
def mm(lhsT, rhs, x):
    K, M = lhsT.shape
    N = rhs.shape[1]
    out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    out2 = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
    for k in nl.affine_range(K // 128):
        a = nl.load(lhsT[k * 128:(k + 1) * 128, :])
        b = nl.load(rhs[k * 128:(k + 1) * 128, :])
        acc += nl.matmul(a, b, transpose_x=True)
    nl.store(out, value=nl.copy(acc))
    r = nl.matmul(nl.load(x), nl.load(rhs[0:128, :]))
    nl.store(out2, value=nl.copy(r))
    return out, out2

K, M, N = 256, 64, 32
a = (np.arange(K * M, dtype=np.float32).reshape((K, M)) % 7) - 3
b = (np.arange(K * N, dtype=np.float32).reshape((K, N)) % 5) - 2
x = (np.arange(M * 128, dtype=np.float32).reshape((M, 128)) % 3) - 1
c, c2 = nki.simulate_kernel(mm, a, b, x)
# Plain lists first: element access on the stand-in's arrays is a core call each.
A, B, X, C, C2 = a.tolist(), b.tolist(), x.tolist(), c.tolist(), c2.tolist()
for m in range(M):
    for n in range(N):
        want = sum(A[k][m] * B[k][n] for k in range(K))
        assert C[m][n] == want, (m, n, C[m][n], want)
        want2 = sum(X[m][k] * B[k][n] for k in range(128))
        assert C2[m][n] == want2, (m, n, C2[m][n], want2)
`;
    const r = py.run(src);
    expect(py.err).toBe("");
    expect(r.exitCode).toBe(0);
  });
});

describe("matmul and transpose diagnostics", () => {
  const cases = [
    {
      name: "moving free size over 512",
      sig: "x, y",
      args: `${BF("128, 128")}, ${BF("128, 1024")}`,
      body: "    a = nl.load(x)\n    b = nl.load(y)\n    c = nl.matmul(a, b, transpose_x=True)",
      at: "nl.matmul(a, b",
      text: "ValueError: size of dimension 1 in 'b[128, 1024]' of 'matmul' exceed architecture limitation of 512.",
    },
    {
      name: "stationary free size over 128",
      sig: "x, y",
      args: `${BF("128, 256")}, ${BF("128, 512")}`,
      body: "    a = nl.load(x)\n    b = nl.load(y)\n    c = nisa.nc_matmul(a, b)",
      at: "nisa.nc_matmul(a, b)",
      text: "ValueError: size of dimension 1 in 'a[128, 256]' of 'nc_matmul' exceed architecture limitation of 128.",
    },
    {
      name: "contraction dimensions differ",
      sig: "x, y",
      args: `${BF("64, 128")}, ${BF("32, 512")}`,
      body: "    a = nl.load(x)\n    b = nl.load(y)\n    c = nl.matmul(a, b)",
      at: "nl.matmul(a, b)",
      text: "ValueError: Parameter shapes (a[64, 128], b[32, 512]) of 'matmul' are incompatible for matrix multiplication with transpose_x=False",
    },
    {
      name: "partition counts differ",
      sig: "x, y",
      args: `${BF("128, 64")}, ${BF("64, 512")}`,
      body: "    a = nl.load(x)\n    b = nl.load(y)\n    c = nisa.nc_matmul(a, b)",
      at: "nisa.nc_matmul(a, b)",
      text: "ValueError: number of partitions (dimension 0 size of a tile) mismatch in parameters (a[128, 64], b[64, 512]) of 'nc_matmul'",
    },
    {
      name: "matmul of a PSUM operand",
      sig: "x, y",
      args: `${BF("128, 128")}, ${BF("128, 512")}`,
      body: "    a = nl.load(x)\n    b = nl.load(y)\n    c = nisa.nc_matmul(a, b)\n    d = nisa.nc_matmul(a, c)",
      at: "nisa.nc_matmul(a, c)",
      text: "TypeError: Expected operand 'moving' of 'nc_matmul' to be in address space 'sbuf', but got a tile in 'psum' instead.",
    },
    {
      name: "integer matmul input",
      sig: "x",
      args: "nt.tensor[[128, 128], nl.int32]",
      body: "    a = nl.load(x)\n    c = nisa.nc_matmul(a, a)",
      at: "nisa.nc_matmul(a, a)",
      text: "TypeError: 'stationary' of 'nc_matmul' has dtype 'int32', expected one of the following dtypes: float8_e4m3, float8_e5m2, bfloat16, float16, tfloat32, float32",
    },
    {
      name: "transpose of a 3-d tile",
      sig: "x",
      args: F32("64, 32, 2"),
      body: "    a = nl.load(x)\n    t = nl.transpose(a)",
      at: "nl.transpose(a)",
      text: "ValueError: parameter 'a[64, 32, 2]' of 'transpose' exceed max supported number of dimensions of 2.",
    },
    {
      name: "transpose wider than 128",
      sig: "x",
      args: F32("128, 512"),
      body: "    a = nl.load(x)\n    t = nl.transpose(a)",
      at: "nl.transpose(a)",
      text: "ValueError: size of dimension 1 in 'a[128, 512]' of 'transpose' exceed architecture limitation of 128.",
    },
    {
      name: "Vector-engine transpose over 32 x 32",
      sig: "x",
      args: F32("64, 16"),
      body: "    a = nl.load(x)\n    t = nisa.nc_transpose(a, engine=nisa.vector_engine)",
      at: "nisa.nc_transpose(a",
      text: "ValueError: size of dimension 0 in 'a[64, 16]' of 'nc_transpose' exceed architecture limitation of 32.",
    },
    {
      name: "Tensor-engine transpose of a PSUM tile",
      sig: "x",
      args: F32("64, 64"),
      body: "    a = nl.load(x)\n    p = nisa.nc_matmul(a, a)\n    t = nisa.nc_transpose(p, engine=nisa.tensor_engine)",
      at: "nisa.nc_transpose(p",
      text: "TypeError: Expected operand 'data' of 'nc_transpose' to be in address space 'sbuf', but got a tile in 'psum' instead.",
    },
    {
      name: "matmul result assigned into a bf16 PSUM tile",
      sig: "x",
      args: BF("128, 128"),
      body: "    a = nl.load(x)\n    ps = nl.ndarray((128, 128), nl.bfloat16, buffer=nl.psum)\n    ps[...] = nisa.nc_matmul(a, a)",
      at: "ps[...] = nisa",
      text: "TypeError: PSUM tensor for non-transpose writes must be a 4-byte dtype (FP32/int32)",
    },
    {
      name: "PSUM tile larger than one bank",
      sig: "x",
      args: F32("128, 128"),
      body: "    acc = nl.zeros((128, 1024), nl.float32, buffer=nl.psum)",
      at: "nl.zeros((128, 1024)",
      text: "ValueError: PSUM tile 'acc[128, 1024]' needs 4096 bytes per partition, more than one PSUM bank",
    },
    {
      name: "operand mask on the contraction axis",
      sig: "x",
      args: BF("128, 128"),
      body: "    i_p = nl.arange(128)[:, None]\n    a = nl.load(x)\n    r = nl.matmul(a[i_p < 64], a, transpose_x=True)",
      at: "nl.matmul(a[i_p",
      text: "NotImplementedError: not supported in nki-playground yet: an operand mask on the contraction axis of a matmul operand",
    },
    {
      name: "nc_transpose result assigned into an fp16 PSUM tile",
      sig: "x",
      args: "nt.tensor[[64, 64], nl.float16]",
      body: "    a = nl.load(x)\n    ps = nl.ndarray((64, 64), nl.float16, buffer=nl.psum)\n    ps[...] = nisa.nc_transpose(a, engine=nisa.tensor_engine)",
      at: "ps[...] = nisa",
      text: "TypeError: PSUM tensor for writes must be either 4-byte (FP32/int32) or BF16",
    },
    {
      name: "PE tile that does not hold the stationary tile",
      sig: "x",
      args: BF("128, 128"),
      body: "    a = nl.load(x)\n    c = nisa.nc_matmul(a, a, tile_position=(0, 0), tile_size=(64, 128))",
      at: "nisa.nc_matmul(a, a, tile",
      text: "ValueError: invalid tile_position/tile_size of 'nc_matmul': the stationary tile 'a[128, 128]' does not fit a PE tile of 64 x 128",
    },
    {
      name: "double_row operands of the wrong shape",
      sig: "x",
      args: BF("128, 128"),
      body: "    a = nl.load(x)\n    c = nisa.nc_matmul(a, a, perf_mode='double_row_gen3')",
      at: "nisa.nc_matmul(a, a, perf",
      text: "ValueError: perf_mode='double_row_gen3' of 'nc_matmul' needs stationary of shape [K, 2, F], got 'a[128, 128]'",
    },
    {
      name: "nc_transpose on the GpSimd engine",
      sig: "x",
      args: F32("32, 32"),
      body: "    a = nl.load(x)\n    t = nisa.nc_transpose(a, engine=nisa.gpsimd_engine)",
      at: "nisa.nc_transpose(a",
      text: "ValueError: 'nc_transpose' runs on the Tensor or Vector engine, not the gpsimd engine",
    },
    {
      name: "an operand mask outside matmul",
      sig: "x",
      args: F32("128, 128"),
      body: "    i_f = nl.arange(128)[None, :]\n    a = nl.load(x)\n    b = nl.add(a[i_f < 3], 1.0)",
      at: "nl.add(a[i_f",
      text: "TypeError: operand masking (`tile[predicate]`) is only supported for the operands of nl.matmul and nisa.nc_matmul; pass mask= to other APIs",
    },
  ];
  for (const c of cases) {
    test(c.name, () => expectError(script(c.sig, c.body, c.args), c.at, c.text));
  }
});
