// Indirect (runtime) indexing and the ncc direct-allocation APIs in real Pyodide over the real
// core: the IR lines they produce and NKI's diagnostics at the user's line.
import { describe, expect, test } from "vitest";

import { F32, HEAD, I32, pythonHarness, script } from "./harness.js";

const py = pythonHarness("mv.py");
const { ir, expectError } = py;

describe("indirect indexing", () => {
  test("gathers and scatters by an index tile in SBUF (loaded or from iota)", () => {
    const l = ir(
      script(
        "data, idx",
        `    out = nl.ndarray((64, 512), dtype=data.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(64)[:, None]
    i_f = nl.arange(512)[None, :]
    idx_tile = nl.load(idx[i_p])
    rows = nl.load(data[idx_tile[i_p, 0], i_f])
    even = nisa.iota(2 * nl.arange(64)[:, None], dtype=np.int32)
    rows2 = nl.load(data[even, i_f])
    nl.store(out[idx_tile, i_f], value=rows2)
    return out`,
        `${F32("128, 512")}, ${I32("64")}`,
      ),
    );
    expect(l).toContain("%idx_tile = dma.load %idx[p] : sbuf i32[64,1]");
    expect(l).toContain("%rows = dma.load %data[%idx_tile[p, 0], f] : sbuf f32[64,512]");
    expect(l).toContain("%rows2 = dma.load %data[%even[p, 0], f] : sbuf f32[64,512]");
    expect(l).toContain("dma.store %out[%idx_tile[p, 0], f], %rows2");
  });

  test("atomic_rmw adds through an index tile; dynamic-offset copies", () => {
    const l = ir(
      script(
        "data, idx",
        `    out = nl.ndarray((128, 512), dtype=data.dtype, buffer=nl.shared_hbm)
    value = nl.load(data)
    ix = nl.load(idx)
    nl.atomic_rmw(out[ix, nl.arange(512)[None, :]], value=value, op=np.add)
    col = nisa.tensor_copy_dynamic_src(value[nl.arange(128)[:, None], ix[0, 0]])
    nisa.tensor_copy_dynamic_dst(dst=value[nl.arange(128)[:, None], ix[1, 0]], src=col)
    return out`,
        `${F32("128, 512")}, ${I32("128, 1")}`,
      ),
    );
    expect(l).toContain("dma.atomic_rmw %out[%ix[p, 0], f], %value {op = add}");
    expect(l).toContain("%col = vector.tensor_copy_dynamic_src %value[p, %ix[0, 0]] : sbuf f32[128,1]");
    expect(l).toContain("vector.tensor_copy_dynamic_dst %value[p, %ix[1, 0]], %col");
  });

  test("a dynamic free-dimension offset plus an index expression (tensor_copy_dynamic_src)", () => {
    const l = ir(
      script(
        "src, offsets",
        `    out = nl.ndarray([128, 32], dtype=src.dtype, buffer=nl.shared_hbm)
    ip, iz = nl.mgrid[0:128, 0:1]
    s_sb = nl.load(src)
    off_sb: nt.tensor[1, 32] = nl.load(offsets)
    res: nt.tensor[128, 32] = nl.ndarray([128, 32], dtype=src.dtype, buffer=nl.sbuf)
    for j in nl.affine_range(off_sb.shape[1]):
        res[ip, j] = nisa.tensor_copy_dynamic_src(s_sb[ip, off_sb[0, j] + iz])
    nl.store(out, value=res)
    return out`,
        `${F32("128, 256")}, ${I32("1, 32")}`,
      ),
    );
    expect(l).toContain("vector.tensor_copy_dynamic_src %res[p, %j], %s_sb[p, %off_sb[0, %j] + f]");
  });

  test("gather_flattened per partition", () => {
    const l = ir(
      script(
        "data",
        `    t = nl.load(data)
    ind = nl.zeros((32, 10), dtype=nl.uint32)
    g = nl.gather_flattened(data=t, indices=ind)`,
        F32("32, 64"),
      ),
    );
    expect(l).toContain("%g = gpsimd.gather_flattened %t, %ind : sbuf f32[32,10]");
  });

  const SIG = "data, idx";
  const ARGS = `${F32("128, 512")}, ${I32("128, 1")}`;
  const cases = [
    {
      name: "index on a free dimension",
      body: "    ix = nl.load(idx)\n    t = nl.load(data[nl.arange(128)[:, None], ix])",
      at: "data[nl.arange",
      text: "NKISyntaxError: Indirect indexing on free dimension not supported, must be partition dimension or block dimension.",
    },
    {
      name: "index tile not in SBUF",
      body: "    ix = nl.load(idx)\n    ps = nl.ndarray((128, 1), nl.int32, buffer=nl.psum)\n    t = nl.load(data[ps, nl.arange(512)[None, :]])",
      at: "data[ps",
      text: "NKISyntaxError: Indirect indices tile must be on SBUF.",
    },
    {
      name: "indirect load_transpose2d",
      body: "    ix = nl.load(idx)\n    t = nl.load_transpose2d(data[ix, nl.arange(128)[None, :]])",
      at: "nl.load_transpose2d(",
      text: "NKISyntaxError: cannot use indirect indexing access with the current NKI API for data[128, 128]",
    },
    {
      name: "indirect dma_transpose",
      body: "    ix = nl.load(idx)\n    t = nisa.dma_transpose(data[ix, nl.arange(128)[None, :]])",
      at: "nisa.dma_transpose(",
      text: "NKISyntaxError: cannot use indirect indexing access with the current NKI API for data[128, 128]",
    },
    {
      name: "an mgrid-built index tile",
      body: "    i_p, i_f = nl.mgrid[0:128, 0:512]\n    ix = nl.load(idx)\n    t = nl.load(data[ix[i_p, 0], i_f])",
      at: "data[ix[i_p",
      text: "NKISyntaxError: indirect index tile 'ix[128, 512]' must hold one index per partition (shape [128, 1]): build its index expression with nl.arange(...)[:, None], not nl.mgrid",
    },
    {
      name: "atomic_rmw with another op",
      body: "    out = nl.ndarray((128, 512), dtype=data.dtype, buffer=nl.shared_hbm)\n    v = nl.load(data)\n    ix = nl.load(idx)\n    nl.atomic_rmw(out[ix, nl.arange(512)[None, :]], value=v, op=np.multiply)\n    return out",
      at: "nl.atomic_rmw(",
      text: "NKISyntaxError: atomic_rmw `op` param only supports 'add' operation currently. An unsupported op=multiply",
    },
    {
      name: "atomic_rmw without an index tile",
      body: "    out = nl.ndarray((128, 512), dtype=data.dtype, buffer=nl.shared_hbm)\n    v = nl.load(data)\n    nl.atomic_rmw(out, value=v, op=np.add)\n    return out",
      at: "nl.atomic_rmw(",
      text: "NKISyntaxError: atomic_rmw `dst` only supports indirect dynamic indexing currently. Use a tile to index.",
    },
    {
      name: "gather_flattened with int32 indices",
      body: "    t = nl.load(data)\n    ix = nl.load(idx)\n    g = nl.gather_flattened(t, ix)",
      at: "nl.gather_flattened(",
      text: "TypeError: 'indices' of 'gather_flattened' has dtype 'int32', expected one of the following dtypes: uint32",
    },
  ];
  for (const c of cases) {
    test(c.name, () => expectError(script(SIG, c.body, ARGS), c.at, c.text));
  }
});

describe("simulated", () => {
  test("an indirect gather, a broadcast and a scatter move the rows the index tile names", () => {
    const src = `${HEAD}
@nki.jit
def k(data, idx, g):
    out = nl.ndarray((4, 8), dtype=data.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(4)[:, None]
    i_f = nl.arange(8)[None, :]
    ix = nl.load(idx)
    rows = nl.load(data[ix[i_p, 0], i_f])
    scale = nl.load(g.reshape((1, 8))).broadcast_to((4, 8))
    nl.store(out, value=nl.multiply(rows, scale))
    return out

data = np.arange(128, dtype=np.float32).reshape((16, 8))
idx = np.array([[3], [0], [9], [14]], dtype=np.int32)
g = np.arange(8, dtype=np.float32) + 1
out = nki.simulate_kernel(k, data, idx, g)
for r in range(4):
    for f in range(8):
        assert float(out[r, f]) == float(data[int(idx[r, 0]), f]) * float(g[f]), (r, f)
`;
    py.err = "";
    const r = py.runtime.runSource(src, { filename: "mv.py" });
    expect(py.err).toBe("");
    expect(r.exitCode).toBe(0);
  });
});

describe("simulated dynamic offsets", () => {
  const kernel = `${HEAD}
@nki.jit
def k(src, offsets):
    out = nl.ndarray([128, 16], dtype=src.dtype, buffer=nl.shared_hbm)
    ip, iz = nl.mgrid[0:128, 0:4]
    s_sb = nl.load(src)
    off_sb = nl.load(offsets)
    res = nl.ndarray([128, 16], dtype=src.dtype, buffer=nl.sbuf)
    for j in nl.affine_range(4):
        res[ip, j * 4 + iz] = nisa.tensor_copy_dynamic_src(s_sb[ip, off_sb[0, j] + iz])
    nl.store(out, value=res)
    return out

src = np.arange(128 * 64, dtype=np.float32).reshape((128, 64))
`;

  test("a run-time offset plus a static part that varies along the tile copies each window", () => {
    py.err = "";
    const r = py.runtime.runSource(
      `${kernel}offs = [3, 10, 20, 60]
out = nki.simulate_kernel(k, src, np.array([offs], dtype=np.int32))
for p in (0, 77, 127):
    for j in range(4):
        for z in range(4):
            assert float(out[p, 4 * j + z]) == float(src[p, offs[j] + z]), (p, j, z)
`,
      { filename: "mv.py" },
    );
    expect(py.err).toBe("");
    expect(r.exitCode).toBe(0);
  });

  test("a window reaching past the free dimension is NKI's out-of-bound error at the copy", () => {
    py.err = "";
    const r = py.runtime.runSource(
      `${kernel}nki.simulate_kernel(k, src, np.array([[3, 10, 20, 61]], dtype=np.int32))
`,
      { filename: "mv.py" },
    );
    expect(r.exitCode).not.toBe(0);
    expect(py.err).toContain(
      "mv.py:16:31: error: IndexError: Out-of-bound access for tensor `s_sb` on dimension 1: index range [64, 64] exceed dimension size of 64",
    );
  });
});

describe("neuronxcc.nki.compiler", () => {
  test("direct allocations are recorded on the allocating instruction; directives accepted", () => {
    const l = ir(
      script(
        "x",
        `    sb = nl.ndarray((2, nl.par_dim(128), 64), nl.float32,
                    buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    ps = nl.ndarray((2, nl.par_dim(128), 512), nl.float32,
                    buffer=ncc.psum.alloc(lambda idx, p, f: (idx[0] % 2, 0, 0)))
    au = nl.ndarray((128, 64), nl.float32, buffer=ncc.sbuf.auto_alloc())
    with ncc.no_reorder():
        t = nl.load(x)
    with ncc.allocation_scope():
        u = nl.load(x)
    for i in nl.sequential_range(2, directives=ncc.multi_buffer(2)):
        sb[i] = nl.load(x)`,
        F32("128, 64"),
        "@ncc.enable_stack_allocator\n@ncc.skip_middle_end_transformations\n@nki.jit\n",
      ),
    );
    expect(l).toContain(
      "%sb = ndarray {alloc = sbuf.mod_alloc, base_addr = 0, num_free_tiles = [2]} : sbuf f32[2,128,64]",
    );
    expect(l).toContain("%ps = ndarray {alloc = psum.alloc, tiles = [0,0,0,1,0,0]} : psum f32[2,128,512]");
    expect(l).toContain("%au = ndarray : sbuf f32[128,64]");
    expect(l).toContain("ScopeRegion no_reorder {");
    expect(l[l.indexOf("ScopeRegion no_reorder {") + 1]).toBe("%t = dma.load %x : sbuf f32[128,64]");
    expect(l).toContain("AllocationScope {");
  });

  test("an init value with direct allocation is NKI's error", () => {
    const src = script(
      "x",
      "    z = nl.zeros((128, 64), nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=0))",
      F32("128, 64"),
    );
    expectError(
      src,
      "nl.zeros(",
      "NKISyntaxError: Creating SBUF/PSUM tensor with init value is not supported in allocated NKI kernels.",
    );
  });
});
