"""Real-NumPy oracle for tests/python/current_isa_ops.test.js: the inputs of each case and the
outputs NKI 0.6.0's documentation defines for them, computed here from the docs' formulas
(never from nki-playground). Run with /usr/bin/python3 (host NumPy); prints one JSON object
{case: {"inputs": {name: [dtype, nested list]}, "want": {name: nested list}}}."""
import json

import numpy as np

rs = np.random.RandomState(12)
cases = {}


def case(name, inputs, want):
    cases[name] = {
        "inputs": {k: [str(v.dtype), v.tolist()] for k, v in inputs.items()},
        "want": {k: np.asarray(v).tolist() for k, v in want.items()},
    }


def f32(*shape):
    return (rs.standard_normal(shape) * 4).round(3).astype(np.float32)


# nc_stream_shuffle: dst partition i of each quadrant copies src partition mask[i] of the same
# quadrant; 255 leaves it as it was.
src, old = f32(64, 8), f32(64, 8)
mask = [(31 - i) if i % 5 else 255 for i in range(32)]
out = old.copy()
for q in range(2):
    for i, m in enumerate(mask):
        if m != 255:
            out[q * 32 + i] = src[q * 32 + m]
case("stream_shuffle", {"src": src, "old": old}, {"out": out})
MASK = mask

# local_gather: each 16-partition core flattens its index slice partition first and takes
# runs of num_elem_per_idx elements at index * num_elem_per_idx (the doc test's formula).
per, valid = 2, 40
src = f32(32, 20)
idx = rs.randint(0, 10, size=(32, 3)).astype(np.uint16)
out = np.zeros((32, valid, per), np.float32)
for core in range(2):
    rows = slice(core * 16, core * 16 + 16)
    i1d = idx[rows].flatten(order="F")[:valid]
    out[rows] = np.take(src[rows].reshape(16, 10, per), i1d, axis=1)
case("local_gather", {"src": src, "index": (idx * per).astype(np.uint16)},
     {"out": out.reshape(32, valid * per)})

# nc_n_gather: per partition, the flattened free elements at the indices.
data = f32(16, 4, 8)
ind = rs.randint(0, 32, size=(16, 10)).astype(np.uint32)
out = np.take_along_axis(data.reshape(16, 32), ind.astype(np.int64), axis=1)
case("n_gather", {"data": data, "indices": ind}, {"out": out})

# nonzero_with_count: partitions 0, 16, ... list (index + offset) of their nonzero elements,
# padding_val after them and the count last; the other partitions keep their contents (7).
src = (rs.randint(0, 3, size=(32, 8)) * (rs.randint(0, 2, size=(32, 8)))).astype(np.float32)
out = np.full((32, 9), 7, np.int32)
for p in (0, 16):
    nz = [i + 16 for i in range(8) if src[p, i] != 0]
    out[p] = nz + [-1] * (8 - len(nz)) + [len(nz)]
case("nonzero", {"src": src}, {"out": out})

# topk: a 16-partition group's snake (position s at partition s % 16, column s // 16) of n
# values; its K largest, ascending, written back as a snake with their positions.
n, k = 42, 8
vals = np.zeros((32, 3), np.float32)
for base in (0, 16):
    perm = rs.permutation(48).astype(np.float32) - 20  # distinct, exact in bfloat16
    for s in range(48):
        vals[base + s % 16, s // 16] = perm[s]
val_out = np.zeros((32, k), np.float32)
idx_out = np.zeros((32, k), np.uint32)
for base in (0, 16):
    snake = np.array([vals[base + s % 16, s // 16] for s in range(n)])
    top = np.argsort(-snake, kind="stable")[:k][::-1]  # ascending values
    for j, s in enumerate(top):
        val_out[base + j % 16, j // 16] = snake[s]
        idx_out[base + j % 16, j // 16] = s
case("topk", {"src": vals}, {"val": val_out, "idx": idx_out})

# tensor_scalar_cumulative: reg = op1(op0(x, imm0), reg), dst = reg along each partition.
x = f32(8, 16)
col = f32(8, 1)
init = f32(8, 1)
cum = np.cumsum(x * np.float32(2.0), axis=1, dtype=np.float32)
mx = np.maximum.accumulate(np.concatenate([init, x + col], axis=1), axis=1)[:, 1:]
chain = np.cumsum(np.concatenate([x, x], axis=1), axis=1, dtype=np.float32)[:, 16:]
case("cumulative", {"x": x, "col": col, "init": init},
     {"cum": cum, "max": mx, "chain": chain})

# dma_compute: dst = srcs[0] + srcs[1] + ... (fp32); read-modify-write dst = dst + src.
a, b, c = f32(8, 16), f32(8, 16), f32(8, 16)
case("dma_compute", {"a": a, "b": b, "c": c}, {"sum": a + b + c, "rmw": (a + b) + c})

# activate2: op((data op0 imm0) op1 imm1) with the six (op0, op1) pairs, prelu's relu_param,
# and the accumulator's reduction.
x, col = f32(8, 16) / 4, f32(8, 1)
e = np.exp(x * np.float32(0.5) + np.float32(-1.0)).astype(np.float32)
r = np.maximum(col - x, 0)
pr = x * np.float32(3.0) - np.float32(0.5)
pr = np.where(pr >= 0, pr, np.float32(0.1) * pr)
case("activate2", {"x": x, "col": col},
     {"exp": e, "sum": e.sum(axis=1, keepdims=True), "relu": r, "prelu": pr})


# rng: XORWOW per lane (words x0..x4 and the counter d); Vector lanes hold four generators,
# element i of a partition drawing from generator i % 4; narrower integers keep the low bits.
def xorwow(w):
    t, s = w[4], w[0]
    w[4], w[3], w[2], w[1] = w[3], w[2], w[1], s
    t ^= t >> 2
    t = (t ^ (t << 1)) & 0xFFFFFFFF
    t ^= s ^ ((s << 4) & 0xFFFFFFFF)
    w[0] = t
    w[5] = (w[5] + 362437) & 0xFFFFFFFF
    return (t + w[5]) & 0xFFFFFFFF


seeds_g = rs.randint(1, 2**31, size=(4, 6)).astype(np.uint32)
seeds_v = rs.randint(1, 2**31, size=(2, 24)).astype(np.uint32)
g = [[int(v) for v in row] for row in seeds_g]
draws_g = np.array([[xorwow(g[p]) for _ in range(10)] for p in range(4)], np.uint32)
v = [[int(x) for x in row] for row in seeds_v]
draws_v = np.zeros((2, 8), np.uint16)
for p in range(2):
    gens = [v[p][6 * i:6 * i + 6] for i in range(4)]
    for f in range(8):
        draws_v[p, f] = xorwow(gens[f % 4]) & 0xFFFF
    v[p] = sum(gens, [])
case("rng", {"seeds_g": seeds_g, "seeds_v": seeds_v},
     {"draws_g": draws_g, "state_g": np.array(g, np.uint32), "draws_v": draws_v,
      "state_v": np.array(v, np.uint32)})



# quantize_mx: groups of 8 partitions x 4 elements (one x4 element) share the scale
# X = 2^(floor(log2(max|v|)) - (Emax - 1)), Emax = 8 for float8_e4m3fn; dst lane j (byte j) is
# v / X rounded to float8_e4m3fn (nearest, ties to an even code); the e8m0 scale (its exponent
# + 127) of data partitions 32q + 8r ... sits at partition 32q + r.
def e4m3fn_value(code):
    sign = -1.0 if code & 0x80 else 1.0
    e, m = (code >> 3) & 15, code & 7
    if e == 15 and m == 7:
        return None  # NaN
    return sign * (m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


E4M3FN = [(c, e4m3fn_value(c)) for c in range(256) if e4m3fn_value(c) is not None]


def to_e4m3fn(x):
    best = min(E4M3FN, key=lambda cv: (abs(cv[1] - x), cv[0] & 1, cv[0] & 0x80 != (0x80 if x < 0 else 0)))
    return best[0]


def bf16(a):
    b = np.asarray(a, np.float32).view(np.uint32)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32)


src = bf16(f32(32, 8) * 3)
src[8:16, 4:8] = 0  # an all-zero group
words = np.zeros((32, 2), np.uint32)
scale = np.zeros((32, 2), np.uint8)
for p0 in range(0, 32, 8):
    for f in range(2):
        grp = src[p0:p0 + 8, 4 * f:4 * f + 4]
        amax = float(np.abs(grp).max())
        e = -127 if amax == 0 else int(np.floor(np.log2(amax))) - 7
        scale[(p0 // 8), f] = e + 127
        for p in range(p0, p0 + 8):
            w = 0
            for j in range(4):
                w |= to_e4m3fn(float(grp[p - p0, j]) / 2.0 ** e) << (8 * j)
            words[p, f] = w
case("quantize_mx", {"src": src}, {"words": words, "scale": scale[:4]})

# nc_matmul_mx: each x4 operand dequantized (lane j of element (p, f) = its fp8 value times
# 2^(scale[32q + r, f] - 127)), then dst[m, n] = sum over partitions and lanes of
# stationary[(p, j), m] * moving[(p, j), n].
def rand_words(shape):
    b = rs.randint(0, 256, size=shape + (4,))
    b[(b & 0x7F) == 0x7F] = 0x38  # no NaN codes
    return (b[..., 0] | b[..., 1] << 8 | b[..., 2] << 16 | b[..., 3] << 24).astype(np.uint32), b


def dequant(b, sc):
    P, F = b.shape[:2]
    out = np.zeros((4 * P, F))
    for p in range(P):
        for f in range(F):
            x = 2.0 ** (int(sc[p - p % 32 + (p % 32) // 8, f]) - 127)
            for j in range(4):
                out[4 * p + j, f] = e4m3fn_value(int(b[p, f, j])) * x
    return out


st_w, st_b = rand_words((32, 8))
mv_w, mv_b = rand_words((32, 16))
st_s = rs.randint(122, 130, size=(32, 8)).astype(np.uint8)
mv_s = rs.randint(122, 130, size=(32, 16)).astype(np.uint8)
prod = dequant(st_b, st_s).T @ dequant(mv_b, mv_s)
case("matmul_mx", {"st": st_w, "mv": mv_w, "st_s": st_s, "mv_s": mv_s}, {"out": prod})

# core_barrier / sendrecv (kernel[2]): core c writes its half of a shared tensor (x * (c + 1)),
# both meet, then each reads the other's half; sendrecv swaps the cores' tiles.
x = f32(8, 16)
halves = np.concatenate([x[:4] * 1, x[4:] * 2])
case("lnc", {"x": x}, {"barrier": np.concatenate([halves[4:], halves[:4]]),
                        "swap": np.concatenate([x[4:], x[:4]])})
print(json.dumps({"mask": MASK, "cases": cases}))
