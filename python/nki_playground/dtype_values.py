"""The values of NKI's float types NumPy lacks — bfloat16, tfloat32, float8_e4m3, float8_e5m2 —
decoded from their bytes. A leaf (standard library only), the one Python owner of these tables:
the front ends and the NumPy stand-in read it. The core's codecs (core/sim/numerics.cpp) and the
JS display decoder (runtime/results.mjs) are the other copies; tests/runtime/dtype-values.test.js
pins them equal.
"""
import math
import struct

#: NKI dtypes with no NumPy type (their values come back as float32).
NKI_ONLY = ("bfloat16", "float8_e4m3", "float8_e5m2", "tfloat32")

_FP8 = {}


def fp8_table(exp_bits, man_bits):
    """The 256 values of an IEEE-style 8-bit float (1 sign bit, ``exp_bits``, ``man_bits``)."""
    key = (exp_bits, man_bits)
    table = _FP8.get(key)
    if table is not None:
        return table
    bias = (1 << (exp_bits - 1)) - 1
    table = []
    for code in range(256):
        sign = -1.0 if (code >> (exp_bits + man_bits)) & 1 else 1.0
        e = (code >> man_bits) & ((1 << exp_bits) - 1)
        m = code & ((1 << man_bits) - 1)
        if e == (1 << exp_bits) - 1:
            table.append(math.nan if m else sign * math.inf)
        elif e == 0:
            table.append(sign * math.ldexp(m, 1 - bias - man_bits))
        else:
            table.append(sign * math.ldexp((1 << man_bits) + m, e - bias - man_bits))
    _FP8[key] = table
    return table


def decode(raw, name):
    """The values of bytes ``raw`` holding elements of NKI-only dtype ``name``, as floats."""
    raw = bytes(raw)
    if name == "bfloat16":
        n = len(raw) // 2
        halves = struct.unpack(f"<{n}H", raw)
        return list(struct.unpack(f"<{n}f", struct.pack(f"<{n}I", *(h << 16 for h in halves))))
    if name == "tfloat32":
        return list(struct.unpack(f"<{len(raw) // 4}f", raw))
    if name in ("float8_e4m3", "float8_e5m2"):
        table = fp8_table(4, 3) if name == "float8_e4m3" else fp8_table(5, 2)
        return [table[b] for b in raw]
    raise ValueError(f"not an NKI-only dtype: {name}")
