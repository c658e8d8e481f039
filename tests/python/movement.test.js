// Data movement, views and constants in real Pyodide over the real core: the IR lines they
// produce and NKI's diagnostics at the user's line (indirect indexing and ncc:
// movement_indirect.test.js).
import { describe, expect, test } from "vitest";

import { F32, pythonHarness, script } from "./harness.js";

const { ir, expectError } = pythonHarness("mv.py");

describe("copies", () => {
  test("nl.copy evicts PSUM with a cast; nisa.tensor_copy honours engine=", () => {
    const l = ir(
      script(
        "x",
        `    t = nl.load(x)
    p = nisa.nc_matmul(t[:, 0:128], t)
    s = nl.copy(p, dtype=nl.bfloat16)
    g = nisa.tensor_copy(t, engine=nisa.gpsimd_engine)
    c = nisa.tensor_copy(t, dtype=nl.float16, engine=nisa.scalar_engine)`,
        F32("128, 512"),
      ),
    );
    expect(l).toContain("%s = vector.tensor_copy %p : sbuf bf16[128,512]");
    expect(l).toContain("%g = gpsimd.tensor_copy %t : sbuf f32[128,512]");
    expect(l).toContain("%c = scalar.tensor_copy %t : sbuf f16[128,512]");
  });

  test("a copy assigned through a permuted access pattern is one instruction (transpose2d)", () => {
    const l = ir(
      script(
        "x",
        `    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(6)[:, None, None]
    i_a = nl.arange(3)[None, :, None]
    i_b = nl.arange(4)[None, None, :]
    tile = nl.load(x[i_p, i_a * 4 + i_b])
    swapped = nl.ndarray((6, 12), dtype=x.dtype, buffer=nl.sbuf)
    swapped[i_p, i_b * 3 + i_a] = nl.copy(tile)
    nl.store(out, value=swapped)
    return out`,
        "nt.tensor[[6, 12], nl.int8]",
      ),
    );
    expect(l).toContain("%tile = dma.load %x[p, 4*f0 + f1] : sbuf i8[6,3,4]");
    expect(l).toContain("vector.tensor_copy %swapped[p, f0 + 3*f1], %tile");
  });

  test("a copy assigned into a PSUM tensor is written there directly", () => {
    const l = ir(
      script(
        "x",
        `    t = nl.load(x)
    ps = nl.ndarray((128, 64), nl.float32, buffer=nl.psum)
    ps[...] = nisa.tensor_copy(t)`,
        F32("128, 64"),
      ),
    );
    expect(l).toContain("vector.tensor_copy %ps, %t");
  });

  test("GpSimd cannot read PSUM", () => {
    const src = script(
      "x",
      "    t = nl.load(x)\n    p = nisa.nc_matmul(t, t)\n    c = nisa.tensor_copy(p, engine=nisa.gpsimd_engine)",
      F32("128, 128"),
    );
    expectError(
      src,
      "nisa.tensor_copy(p",
      "TypeError: Expected operand 'src' of 'tensor_copy' to be in address space 'sbuf', but got a tile in 'psum' instead.",
    );
  });
});

describe("DMA", () => {
  test("dma_copy records its options; load_transpose2d and dma_transpose swap axes", () => {
    const l = ir(
      script(
        "a",
        `    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=a, dst_rmw_op=np.add, oob_mode=nisa.oob_mode.skip)
    lt = nl.load_transpose2d(a[0:64, :])
    dt = nisa.dma_transpose(a[0:64, :])
    d3 = nisa.dma_transpose(nl.load(a[0:8, :]).reshape((8, 4, 32)))
    return out`,
        F32("128, 128"),
      ),
    );
    expect(l).toContain("dma.dma_copy %out, %a {dst_rmw_op = add, oob_mode = skip}");
    expect(l).toContain("%lt = dma.load_transpose2d %a[p, f] : sbuf f32[128,64]");
    expect(l).toContain("%dt = dma.dma_transpose %a[p, f] {axes = [1,0]} : sbuf f32[128,64]");
    expect(l).toContain("%d3 = dma.dma_transpose %t.1 {axes = [2,1,0]} : sbuf f32[32,4,8]");
  });

  const cases = [
    {
      name: "dma_copy into an input",
      body: "    nisa.dma_copy(dst=a, src=a)",
      at: "nisa.dma_copy(",
      text: "TypeError: Cannot update immutable parameter `a`",
    },
    {
      name: "dma_copy of mismatched sizes",
      body: "    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)\n    nisa.dma_copy(dst=out, src=a)\n    return out",
      at: "nisa.dma_copy(",
      text: "NKISyntaxError: src and dst must have the same shape, src.shape=[128, 128] dst.shape=[128, 64]",
    },
    {
      name: "dma_transpose with axes NKI does not offer",
      body: "    t = nisa.dma_transpose(a[0:64, :], axes=(0, 1))",
      at: "nisa.dma_transpose(",
      text: "ValueError: dma_transpose does not support axes=[0, 1]; the supported permutation for this rank is [1, 0]",
    },
    {
      name: "load_transpose2d of a 3-d tensor",
      args: F32("4, 8, 16"),
      body: "    t = nl.load_transpose2d(a)",
      at: "nl.load_transpose2d(a)",
      text: "ValueError: parameter 'a[4, 8, 16]' of 'load_transpose2d' exceed max supported number of dimensions of 2.",
    },
  ];
  for (const c of cases) {
    test(c.name, () => expectError(script("a", c.body, c.args ?? F32("128, 128")), c.at, c.text));
  }
});

describe("views and shapes", () => {
  test("reshape of an HBM input, broadcast_to, view, astype, expand_dims, assert_shape", () => {
    const l = ir(
      script(
        "x, g",
        `    t = nl.load(x)
    g_tile = nl.load(g.reshape((1, 512)))
    g_all = g_tile.broadcast_to((128, 512))
    g_all2 = nl.broadcast_to(g_tile, shape=(128, 512))
    y = nl.multiply(t, g_all)
    raw = x.view(nl.int32)
    half = t.astype(nl.float16)
    col = nl.expand_dims(t[:, 0], 2)
    same = t.assert_shape((128, 512))`,
        `${F32("128, 512")}, ${F32("512")}`,
      ),
    );
    expect(l).toContain("%g.1 = reshape %g : hbm f32[1,512]");
    expect(l).toContain("%g_tile = dma.load %g.1 : sbuf f32[1,512]");
    expect(l).toContain("%g_all = broadcast_to %g_tile[0, f] : sbuf f32[128,512]");
    expect(l).toContain("%g_all2 = broadcast_to %g_tile[0, f] : sbuf f32[128,512]");
    expect(l).toContain("%raw = view %x : hbm i32[128,512]");
    expect(l).toContain("%half = vector.tensor_copy %t : sbuf f16[128,512]");
  });

  test("nt.tensor annotations are checked like NKI", () => {
    const body = "    t: nt.tensor[128, 512] = nl.load(x)\n    u: nt.tensor[128, 128] = nl.copy(t)";
    expectError(
      script("x", body, F32("128, 512")),
      "nl.copy(t)",
      "TypeError: shape of `u[128, 512]` does not match the expected shape of [128, 128]",
    );
  });

  const cases = [
    {
      name: "reshape changing the element count",
      body: "    r = x.reshape((3, 100))",
      at: "x.reshape",
      text: "ValueError: cannot reshape 'x[128, 512]' into shape [3, 100]: it has 65536 elements",
    },
    {
      name: "reshape of a tile across its partitions",
      body: "    t = nl.load(x)\n    r = t.reshape((64, 1024))",
      at: "t.reshape",
      text: "ValueError: cannot reshape 't[128, 512]' into shape [64, 1024]: an SBUF/PSUM tile keeps its partition dimension (dimension 0)",
    },
    {
      name: "broadcast to an incompatible shape",
      body: "    t = nl.load(x[0:2, :])\n    b = t.broadcast_to((128, 512))",
      at: "t.broadcast_to",
      text: "ValueError: shapes of parameters (t[2, 512], shape[128, 512]) of 'broadcast_to' cannot be broadcast together",
    },
    {
      name: "expand_dims before the last axis",
      body: "    t = nl.load(x)\n    e = nl.expand_dims(t, 1)",
      at: "nl.expand_dims(t, 1)",
      text: "ValueError: expand_dims only inserts axes after the last dimension of a tile; axis=1 is not supported for 't[128, 512]'",
    },
    {
      name: "assert_shape mismatch",
      body: "    t = nl.load(x)\n    t.assert_shape((128, 256))",
      at: "t.assert_shape",
      text: "NKISyntaxError: tile shape mismatch, expected '[128, 256]', got '[128, 512]'",
    },
    {
      name: "reshape to a non-positive dimension",
      body: "    r = x.reshape((0, 128))",
      at: "x.reshape",
      text: "ValueError: cannot reshape 'x[128, 512]' into shape [0, 128]: dimensions must be positive",
    },
    {
      name: "reshape of part of a tensor",
      body: "    r = x[0:64, :].reshape((128, 256))",
      at: "x[0:64, :].reshape",
      text: "NotImplementedError: not supported in nki-playground yet: reshape of a part of a tensor (reshape the whole tensor, then index the result)",
    },
    {
      name: "view as a dtype that does not divide the row",
      body: "    t = nl.load(x[:, 0:1])\n    v = t.view(nl.float8_e4m3).view(nl.int32).view(nl.float16)\n    w = nl.load(x[:, 0:3]).view(nl.int32)\n    u = nl.ndarray((128, 3), nl.int8, buffer=nl.sbuf).view(nl.int32)",
      at: "nl.ndarray((128, 3), nl.int8",
      text: "ValueError: cannot view 'u[128, 3]' as int32: the bytes of its last dimension do not divide into int32 elements",
    },
    {
      name: "tensor_copy on the Tensor engine",
      body: "    t = nl.load(x)\n    c = nisa.tensor_copy(t, engine=nisa.tensor_engine)",
      at: "nisa.tensor_copy(t",
      text: "ValueError: 'tensor_copy' runs on the Vector, Scalar or GpSimd engine, not the tensor engine",
    },
    {
      name: "reshape writes through to an immutable input",
      body: "    t = nl.load(x)\n    nl.store(x.reshape((512, 128)), t.reshape((128, 512)))",
      at: "nl.store(",
      text: "TypeError: Cannot update immutable parameter `x.1`",
    },
  ];
  for (const c of cases) {
    test(c.name, () => expectError(script("x", c.body, F32("128, 512")), c.at, c.text));
  }
});

describe("constants and creation", () => {
  test("shared_constant keeps data; identities are shared; *_like copy shapes", () => {
    const l = ir(
      script(
        "x",
        `    c = nl.shared_constant(np.identity(4, dtype=np.int8), dtype=nl.bfloat16)
    c2 = nl.shared_constant([[1.5, 2.0], [3.0, 4.0]])
    i1 = nl.shared_identity_matrix(128)
    i2 = nl.shared_identity_matrix(128)
    t = nl.load(i2)
    z = nl.zeros_like(t, dtype=nl.float32)
    e = nl.empty_like(t, buffer=nl.psum)
    blocks = nl.ndarray((2, nl.par_dim(128), 64), nl.float32, buffer=nl.sbuf)
    bz = nl.zeros_like(blocks)`,
        F32("128, 512"),
      ),
    );
    expect(l).toContain("%c = shared_constant : shared_hbm bf16[4,4]");
    expect(l).toContain("%c2 = shared_constant : shared_hbm f32[2,2]");
    expect(l).toContain("%i1 = shared_identity_matrix : shared_hbm u8[128,128]");
    expect(l.filter((x) => x.includes("shared_identity_matrix")).length).toBe(1);
    expect(l).toContain("%t = dma.load %i1 : sbuf u8[128,128]");
    expect(l).toContain("%z = vector.zeros {value = 0.0} : sbuf f32[128,128]");
    expect(l).toContain("%e = ndarray : psum u8[128,128]");
    expect(l).toContain("%bz = vector.zeros {value = 0.0} : sbuf f32[2,128,64]");
  });
});
