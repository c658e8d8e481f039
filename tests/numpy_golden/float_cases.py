"""The inputs of the low-precision float goldens (float_goldens.json), shared by the generator
(make_float_goldens.py, real NumPy) and the checks (the NumPy stand-in in Pyodide, the JS
decoder in Node, the simulator's casts). Standard library only; deterministic.

- ``f32_probes()``: float32 bit patterns — every exponent with mantissas around bfloat16's
  rounding cut (ties, one below, one above, odd and even kept parts); the float8 range (2**-30
  to 2**18, so every float8 format's subnormals and overflow) with every top-4 mantissa and
  ties / near-ties at every cut from 18 to 23 dropped bits; zeros, infinities, NaNs, the
  float32 extremes; and pseudo-random patterns.
- ``f64_probes()``: doubles halfway between neighbours of every float8 format (and of
  bfloat16 in a few binades), exactly and off by 2**-40 and 2**-20 relative (where rounding
  through float32 first would differ), and doubles beyond float32's range.
"""
import math
import struct

FORMATS = ("bfloat16", "float8_e4m3", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu")


def f32_probes():
    out = []
    for sign in (0, 1 << 31):
        for e in range(256):
            for hi in (0, 1, 0x40, 0x7F):
                for tail in (0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF):
                    out.append(sign | e << 23 | hi << 16 | tail)
        for e in range(127 - 30, 127 + 19):
            for top in range(16):
                base = sign | e << 23 | top << 19
                out += [base, base | 1, base | 0x7FFFF]
                for cut in range(18, 24):
                    tie = (base & ~((1 << cut) - 1)) | 1 << (cut - 1)
                    out += [tie - 1, tie, tie + 1]
        for bits in (0, 1, 2, 0x7FFFFF, 0x800000, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FC00000,
                     0x7FFFFFFF, 0x3F800000):
            out.append(sign | bits)
    state = 0x2545F491
    for _ in range(8192):  # xorshift32
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state)
    return out


def _grid(name):
    """The positive finite values of format ``name``, from its definition (ascending)."""
    exp_bits, man_bits = {"bfloat16": (8, 7), "float8_e4m3": (4, 3), "float8_e4m3fn": (4, 3),
                          "float8_e5m2": (5, 2), "float8_e8m0fnu": (8, 0)}[name]
    bias = (1 << (exp_bits - 1)) - 1
    if man_bits == 0:
        return [math.ldexp(1.0, e - bias) for e in range(255)]
    top = (1 << exp_bits) - 1 if name != "float8_e4m3fn" else 1 << exp_bits
    vals = [math.ldexp(m, 1 - bias - man_bits) for m in range(1 << man_bits)]
    for e in range(1, top):
        vals += [math.ldexp((1 << man_bits) | m, e - bias - man_bits) for m in range(1 << man_bits)]
    if name == "float8_e4m3fn":
        vals = vals[:-1]  # S.1111.111 is NaN
    return vals


def f64_probes():
    out = []
    for name in FORMATS:
        grid = _grid(name)
        if name == "bfloat16":  # a few binades: subnormal, around 1, near max
            grid = grid[:200] + [v for v in grid if 0.5 <= v <= 4] + grid[-200:]
        for lo, hi in zip(grid, grid[1:]):
            mid = (lo + hi) / 2
            for rel in (0.0, 2.0 ** -40, -2.0 ** -40, 2.0 ** -20, -2.0 ** -20):
                v = mid * (1 + rel)
                out += [v, -v]
        top = grid[-1]
        for v in (top * 1.0625, top * 1.125, top * 1.25, top * 2, grid[0] / 2, grid[0] / 3):
            out += [v, -v]
    f32max = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
    out += [1e39, -1e39, 1e-50, -1e-50, 1e308, 5e-324, f32max * (1 + 2.0 ** -25),
            f32max * (1 + 2.0 ** -24), f32max * (1 + 2.0 ** -23)]
    return out
