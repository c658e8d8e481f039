"""Writes float_goldens.json: what ml_dtypes gives for the low-precision float formats of NKI —
the float32 value of every code of every format, and the code of every probe of
float_cases.py (float32 and float64 inputs) — derived here from the formats' definitions, by an
implementation of its own (nearest neighbour on each format's grid, exact rational arithmetic),
independent of nki_playground/dtype_values.py. Run with Debian's Python (it has NumPy):

    /usr/bin/python3 tests/numpy_golden/make_float_goldens.py

When ml_dtypes can be imported (none is packaged for Debian 12 and PyPI is not reachable here;
a local build of its source works), every result is also checked against it, exhaustively, and
the file records that it agreed.
"""
import base64
import bisect
import hashlib
import json
import math
import os
import struct
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float_cases  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "float_goldens.json")
LAYOUT = {"bfloat16": (8, 7, True), "float8_e4m3": (4, 3, True), "float8_e4m3fn": (4, 3, True),
          "float8_e5m2": (5, 2, True), "float8_e8m0fnu": (8, 0, False)}


def pack(data):
    return base64.b64encode(zlib.compress(bytes(data), 9)).decode("ascii")


class Spec:
    """A format from its definition: its grid of positive finite values (the code of each is its
    index there), its infinity and quiet NaN."""

    def __init__(self, name):
        self.name = name
        e, m, signed = LAYOUT[name]
        self.man, self.signed = m, signed
        self.bits = e + m + (1 if signed else 0)
        self.grid = float_cases._grid(name)
        self.code = {v: i for i, v in enumerate(self.grid)}
        self.has_inf = name in ("bfloat16", "float8_e4m3", "float8_e5m2")
        top = (1 << e) - 1
        self.inf = top << m
        self.nan = {"float8_e4m3fn": 0x7F, "float8_e8m0fnu": 0xFF}.get(
            name, (top << m) | (1 << (m - 1)) if m else 0)
        self.sign = 1 << (self.bits - 1) if signed else 0
        last = self.grid[-1]
        self.beyond = last * 2 if m == 0 else last + 2.0 ** (np.frexp(last)[1] - 1 - m)

    def decode_f32(self, c):
        """The float32 bit pattern of code ``c`` (a NaN: the quiet NaN of the code's sign; for
        bfloat16, the code shifted — a bfloat16 is the top half of a float32)."""
        if self.bits == 16:
            return c << 16
        neg = 0x80000000 if self.signed and c & self.sign else 0
        mag = c & (self.sign - 1) if self.signed else c
        if mag < len(self.grid):
            return struct.unpack("<I", struct.pack("<f", self.grid[mag]))[0] | neg
        if self.has_inf and mag == self.inf:
            return 0x7F800000 | neg
        return 0x7FC00000 | neg

    def encode(self, x):
        """The code of double ``x`` (bfloat16's caller rounds it to float32 first)."""
        neg = math.copysign(1.0, x) < 0
        if x != x:
            return self.nan | (self.sign if neg else 0)
        if not self.signed and (neg or x == 0):
            return self.nan
        a = abs(x)
        sgn = self.sign if neg else 0
        overflow = (self.inf if self.has_inf else self.nan) | sgn
        if a == math.inf:
            return overflow
        if a == 0:
            return sgn
        g = self.grid
        if a > g[-1]:
            lo, hi, hi_code = g[-1], self.beyond, len(g)
        else:
            i = bisect.bisect_left(g, a)
            if g[i] == a:
                return i | sgn
            if not self.signed and i <= 1:  # e8m0 up to 2**-127: 2**-127; up to 2**-126:
                return i                     # 2**-126 (ml_dtypes rounds up there)
            lo, hi, hi_code = g[i - 1], g[i], i
        d_lo, d_hi = a - lo, hi - a  # exact: lo <= a <= hi <= 2 lo (Sterbenz), or lo = 0
        if self.man == 0:  # e8m0: halfway rounds up
            up = d_hi <= d_lo
        else:  # ties to the even code
            up = d_hi < d_lo or (d_hi == d_lo and hi_code % 2 == 0)
        code = hi_code if up else hi_code - 1
        return overflow if code >= len(g) else code | sgn


def f32_of_bits(bits):
    return np.frombuffer(struct.pack(f"<{len(bits)}I", *bits), np.float32)


def main():
    f32_bits = float_cases.f32_probes()
    with np.errstate(all="ignore"):
        f32 = f32_of_bits(f32_bits).astype(np.float64).tolist()
    f64 = float_cases.f64_probes()
    with np.errstate(all="ignore"):
        f64_as_f32 = np.array(f64, np.float64).astype(np.float32).astype(np.float64).tolist()
    out = {}
    for name in float_cases.FORMATS:
        s = Spec(name)
        n = 1 << s.bits
        decode = [s.decode_f32(c) for c in range(n)]
        from_f32 = [s.encode(x) for x in f32]
        # Array casts go through float32 (ml_dtypes' NPyCast); a Python float converts directly
        # to a float8 format (bfloat16, Eigen's, through float32 again).
        from_f64 = [s.encode(x) for x in f64_as_f32]
        from_py = from_f64 if s.bits == 16 else [s.encode(x) for x in f64]
        fmt = "B" if s.bits == 8 else "H"
        # a bfloat16 is the top half of a float32: its decode is ``code << 16``, not stored
        out[name] = {"decode": None if s.bits == 16 else pack(struct.pack(f"<{n}I", *decode))}
        for key, codes in (("from_f32", from_f32), ("from_f64", from_f64), ("from_py", from_py)):
            out[name][key] = pack(struct.pack(f"<{len(codes)}{fmt}", *codes))
        check_with_ml_dtypes(name, decode, f32, from_f32, f64, from_f64, from_py)
    doc = {
        "generator": "tests/numpy_golden/make_float_goldens.py",
        "numpy": np.__version__,
        "ml_dtypes": ML_VERSION,
        "note": "zlib+base64 little-endian arrays. decode: the float32 bits of every code "
                "(bfloat16: null, the bits are code << 16). "
                "from_f32 / from_f64: the codes of float_cases.f32_probes() / f64_probes() cast "
                "from a float32 / float64 array (astype); from_py: of f64_probes() as Python "
                "floats (np.array(list, dtype), scalar construction)",
        "f32_probes": {"count": len(f32_bits), "sha256": digest(struct.pack(
            f"<{len(f32_bits)}I", *f32_bits))},
        "f64_probes": {"count": len(f64), "sha256": digest(struct.pack(f"<{len(f64)}d", *f64))},
        "formats": out,
    }
    if ML_VERSION is None and os.path.exists(OUT):  # same results: the old check still holds
        with open(OUT, encoding="utf-8") as f:
            old = json.load(f)
        if old.get("formats") == out:
            doc["ml_dtypes"] = old.get("ml_dtypes")
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT)}: {len(f32_bits)} float32 and {len(f64)} float64 "
          f"probes, {len(out)} formats; checked against ml_dtypes: {ML_VERSION or 'no'}")


def digest(raw):
    return hashlib.sha256(raw).hexdigest()


try:
    import ml_dtypes
    ML_VERSION = ml_dtypes.__version__
except ImportError:
    ml_dtypes = None
    ML_VERSION = None


def check_with_ml_dtypes(name, decode, f32, from_f32, f64, from_f64, from_py):
    """Every result equals ml_dtypes' (a NaN decode: NaN of the same sign)."""
    if ml_dtypes is None:
        return
    t = getattr(ml_dtypes, name)
    udt = np.uint16 if name == "bfloat16" else np.uint8
    codes = np.arange(len(decode), dtype=np.uint32).astype(udt)
    values = codes.view(t).astype(np.float32)
    got, want = values.view(np.uint32), np.array(decode, np.uint32)
    same = (got == want) | (np.isnan(values) & ((got >> 31) == (want >> 31)))
    assert same.all(), (name, "decode", np.flatnonzero(~same)[:10])
    with np.errstate(all="ignore"):
        for label, got, want, src in (
                ("from_f32", np.array(f32, np.float32).astype(t), from_f32, f32),
                ("from_f64", np.array(f64, np.float64).astype(t), from_f64, f64),
                ("from_py", np.array(f64, dtype=t), from_py, f64)):
            got = got.view(udt).astype(np.int64)
            bad = np.flatnonzero(got != np.array(want, np.int64))
            assert not len(bad), (name, label, [(src[i], int(got[i]), want[i])
                                                for i in bad[:10]])


if __name__ == "__main__":
    main()
