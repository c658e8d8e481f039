// nisa.nc_stream_shuffle and nisa.local_gather in real Pyodide over the real core: their IR,
// what the simulator computes (checked element by element against the documented semantics),
// and the diagnostics of arguments NKI rejects. Also: compile-time arguments given as
// expressions of loop variables (tile_position accepted, others a TypeError at the user's line).
import { describe, expect, test } from "vitest";

import { F32, HEAD, pythonHarness, script } from "./harness.js";

const py = pythonHarness("pm.py");
const { ir, expectError } = py;

function simulateOk(body) {
  const r = py.run(`${HEAD}${body}`);
  expect(py.err).toBe("");
  expect(r.exitCode).toBe(0);
  return r.out;
}

describe("nc_stream_shuffle", () => {
  test("traces as one Vector instruction writing dst, the mask as an attribute", () => {
    const l = ir(
      script(
        "a",
        `    t = nl.load(a)
    nisa.nc_stream_shuffle(src=t, dst=t, shuffle_mask=[(i + 1) % 32 for i in range(32)])
    return None`,
        F32("64, 8"),
      ),
    );
    expect(l.find((x) => x.startsWith("vector.nc_stream_shuffle"))).toBe(
      "vector.nc_stream_shuffle %t, %t {shuffle_mask = [" +
        [...Array(32).keys()].map((i) => (i + 1) % 32).join(",") +
        "]}",
    );
  });

  test("each quadrant copies the partitions its mask names; 255 leaves a partition as it was", () => {
    simulateOk(`
@nki.jit(mode="simulation")
def k(a, b):
    out = nl.ndarray((64, 4), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    d = nl.load(b)
    mask = [31 - i for i in range(32)]
    mask[5] = 255
    nisa.nc_stream_shuffle(src=t, dst=d, shuffle_mask=mask)
    nl.store(out, value=d)
    return out

a = np.arange(256, dtype=np.float32).reshape((64, 4))
b = -np.ones((64, 4), dtype=np.float32)
out = k(a, b)
for p in range(64):
    q, i = divmod(p, 32)
    want = b[p] if i == 5 else a[q * 32 + 31 - i]
    assert out[p].tolist() == want.tolist(), (p, out[p], want)
`);
  });

  test("a one-partition source broadcast to a quadrant", () => {
    simulateOk(`
@nki.jit(mode="simulation")
def k(a):
    out = nl.ndarray((32, 16), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    d = nl.ndarray((32, 16), dtype=a.dtype, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(src=t, dst=d, shuffle_mask=[0] * 32)
    nl.store(out, value=d)
    return out

a = np.arange(16, dtype=np.float32).reshape((1, 16))
out = k(a)
assert all(out[p].tolist() == a[0].tolist() for p in range(32))
`);
  });

  const SIG = "a";
  const ARGS = F32("64, 8");
  test.each([
    ["a mask of the wrong length", "shuffle_mask=[0] * 16", "ValueError: invalid arguments of 'nc_stream_shuffle': shuffle_mask must be a list of 32 integers"],
    ["a mask entry outside the quadrant", "shuffle_mask=[40] + [0] * 31", "ValueError: invalid arguments of 'nc_stream_shuffle': shuffle_mask[0] = 40 is not a partition of a quadrant (0 to 31, or 255 to keep the partition unmodified)"],
  ])("%s is NKI's error at the call", (_, arg, text) => {
    const src = script(SIG, `    t = nl.load(a)\n    nisa.nc_stream_shuffle(src=t, dst=t, ${arg})\n    return None`, ARGS);
    expectError(src, "nisa.nc_stream_shuffle", text);
  });

  test("a source quadrant the source does not have", () => {
    const src = script(
      SIG,
      `    t = nl.load(a[0:32, :])
    d = nl.ndarray((64, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_stream_shuffle(src=t, dst=d, shuffle_mask=list(range(32)))
    return None`,
      ARGS,
    );
    expectError(
      src,
      "nisa.nc_stream_shuffle",
      "ValueError: invalid arguments of 'nc_stream_shuffle': partition 32 of dst copies partition 32 of src t[32, 8], which has 32 partitions",
    );
  });
});

describe("local_gather", () => {
  const KERNEL = `
@nki.jit(mode="simulation")
def k(src, index, per_idx, valid):
    out = nl.ndarray((32, valid // 16, 16, per_idx), dtype=src.dtype, buffer=nl.shared_hbm)
    s = nl.load(src)
    ix = nl.load(index)
    g: nt.tensor[32, valid // 16, 16, per_idx] = nisa.local_gather(s, ix, per_idx, valid)
    nl.store(out, value=g)
    return out
`;

  test("each 16-partition group gathers runs of its own rows at its indices, partition first", () => {
    simulateOk(`${KERNEL}
src = np.arange(32 * 64, dtype=np.float32).reshape((32, 64))
np.random.seed(3)
index = (np.random.randint(0, 31, size=(32, 3)) * 2).astype(np.uint16)
out = k(src, index, 2, 32)
for p in range(32):
    core = p // 16 * 16
    flat = [int(index[core + kk % 16, kk // 16]) for kk in range(32)]
    got = out[p].reshape((32, 2))
    for kk in range(32):
        assert got[kk].tolist() == src[p, flat[kk]:flat[kk] + 2].tolist(), (p, kk)
`);
  });

  test.each([
    ["int32 indices", "ix = nl.load(index).view(nl.int32)", "nisa.local_gather(s, ix[:, 0:2])", "TypeError: 'index' of 'local_gather' has dtype 'int32', expected one of the following dtypes: uint16"],
    ["num_elem_per_idx 3", "ix = nl.load(index)", "nisa.local_gather(s, ix, 3)", "ValueError: invalid arguments of 'local_gather': num_elem_per_idx must be one of 1, 2, 4, 8, 16, 32, got 3"],
    ["too many valid indices", "ix = nl.load(index)", "nisa.local_gather(s, ix, 1, 100)", "ValueError: invalid arguments of 'local_gather': num_valid_indices must be between 1 and 64 (the indices in a core's 16 partitions of index, at most 4096), got 100"],
  ])("%s is NKI's error at the call", (_, load, call, text) => {
    const src = script(
      "src, index",
      `    s = nl.load(src)\n    ${load}\n    g = ${call}\n    return None`,
      `${F32("32, 64")}, nt.tensor[[32, 4], nl.uint16]`,
    );
    expectError(src, "nisa.local_gather", text);
  });
});

describe("compile-time arguments that depend on loop variables", () => {
  test("nc_matmul's tile_position may (NKI's doc test does); the IR prints the expression", () => {
    const l = ir(
      script(
        "g, h",
        `    for i in nl.affine_range(4):
        x = nl.load(g)
        y = nl.load(h)
        r = nisa.nc_matmul(x, y, tile_position=((i % 2) * 64, 0), tile_size=(64, 64))
    return None`,
        `${F32("64, 64")}, ${F32("64, 512")}`,
      ),
    );
    expect(l).toContain(
      "%r = tensor.nc_matmul %x, %y {tile_position = [64*(%i mod 2), 0], tile_size = [64,64]} : psum f32[64,512]",
    );
  });

  test("a tile_position that reaches past the PE array for some iteration is NKI's error", () => {
    const src = script(
      "g, h",
      `    for i in nl.affine_range(4):
        x = nl.load(g)
        y = nl.load(h)
        r = nisa.nc_matmul(x, y, tile_position=(i * 32, 0), tile_size=(64, 64))
    return None`,
      `${F32("64, 64")}, ${F32("64, 512")}`,
    );
    expectError(src, "nisa.nc_matmul", "ValueError: invalid tile_position/tile_size of 'nc_matmul': the tile must lie within the 128 x 128 PE array");
  });

  test.each([
    ["an axis", "y = nl.sum(t, axis=i)", "nl.sum", "TypeError: 'axis' of 'sum' must be a compile-time integer, got an expression of loop variables or program ids"],
    ["a reduce_cmd", "y = nisa.activation(op=nl.exp, data=t, reduce_cmd=i)", "nisa.activation", "TypeError: 'reduce_cmd' of 'activation' must be a compile-time integer, got an expression of loop variables or program ids"],
  ])("%s from a loop variable is a TypeError at the user's line", (_, line, at, text) => {
    const src = script("a", `    for i in nl.affine_range(2):\n        t = nl.load(a)\n        ${line}\n    return None`, F32("128, 512"));
    expectError(src, at, text);
  });
});
