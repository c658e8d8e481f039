"""The low-precision float formats of NKI that ml_dtypes defines — ``bfloat16``,
``float8_e4m3``, ``float8_e4m3fn``, ``float8_e5m2``, ``float8_e8m0fnu`` — as data: the value of
every code, and the code of a value, rounded as ml_dtypes rounds it; and the values of bytes of
the NKI types NumPy lacks (``decode``: those four Beta 1 has, tfloat32 included).

A leaf (standard library only), the one Python owner of these formats: the front ends, the NumPy
stand-in's dtypes and the simulator's byte exchange read it. The C++ simulator
(``core/sim/numerics.cpp``) and the JS display decoder (``runtime/results.mjs``) keep their own
copies; ``tests/python/float_formats.test.js`` pins all three to
``tests/numpy_golden/float_goldens.json`` (made by an independent implementation and checked
against ml_dtypes) and ``tests/runtime/dtype-values.test.js`` the JS decoder to this module.

Rounding (ml_dtypes' non-saturating conversions):
  - to nearest, ties to even, on the format's own grid (subnormals included); the exponent-only
    ``float8_e8m0fnu`` rounds halfway cases up (ml_dtypes adds half an ulp) and has no zero
    (zero and negative values are its NaN, values up to 2**-127 give 2**-127, values between
    2**-127 and 2**-126 give 2**-126);
  - overflow gives inf where the format has one (``bfloat16``, ``float8_e4m3``, ``float8_e5m2``),
    NaN where it has none (``float8_e4m3fn``, ``float8_e8m0fnu``); inf converts the same way;
  - NaN keeps its sign (the format's quiet NaN); a NaN's payload is not kept;
  - array casts (from any dtype, float64 included) go through float32 first, as ml_dtypes'
    casts do; a Python float converts directly to a float8 format (to ``bfloat16`` through
    float32 again: Eigen's conversion).
"""
import math
import struct

__all__ = ["Format", "FORMATS", "NKI_ONLY", "decode", "fp8_table", "get", "round_f32"]


def round_f32(x):
    """``x`` (a Python float) rounded to float32 (ties to even; overflow gives ±inf)."""
    if x != x or x in (math.inf, -math.inf):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


class Format:
    """One format: its layout, its special values and its conversions.

    Attributes:
      name: ml_dtypes' (and NKI's) name.
      bits, exp_bits, man_bits, bias: the layout (``bits`` is 8 or 16).
      signed: has a sign bit (every format here but ``float8_e8m0fnu``).
      has_inf: has infinities (IEEE-style), else overflow and inf give NaN.
      qnan: the code of its quiet NaN (positive).
      max: its largest finite value; ``tiny``: its smallest normal; ``eps``: 2**-man_bits.
    """

    __slots__ = ("name", "bits", "exp_bits", "man_bits", "bias", "signed", "has_inf", "qnan",
                 "max", "tiny", "eps", "_table", "_codes", "_nan_fn")

    def __init__(self, name, exp_bits, man_bits, *, signed=True, has_inf=True, nan="ieee"):
        self.name = name
        self.exp_bits, self.man_bits = exp_bits, man_bits
        self.bits = exp_bits + man_bits + (1 if signed else 0)
        self.bias = (1 << (exp_bits - 1)) - 1
        self.signed, self.has_inf = signed, has_inf
        top = (1 << exp_bits) - 1
        if nan == "ieee":  # exponent all ones: inf (mantissa 0) or NaN
            self._nan_fn = lambda e, m: e == top and m != 0
            self.qnan = (top << man_bits) | (1 << (man_bits - 1))
        elif nan == "fn":  # only exponent and mantissa all ones is NaN
            self._nan_fn = lambda e, m: e == top and m == (1 << man_bits) - 1
            self.qnan = (1 << (exp_bits + man_bits)) - 1
        else:  # "fnu": the all-ones code
            self._nan_fn = lambda e, m: e == top
            self.qnan = (1 << self.bits) - 1
        self._table = None
        self._codes = None
        finite = [v for v in self.table() if v == v and not math.isinf(v)]
        self.max = max(finite)
        self.tiny = math.ldexp(1.0, 1 - self.bias) if man_bits else math.ldexp(1.0, -self.bias)
        self.eps = math.ldexp(1.0, -man_bits)

    def __repr__(self):
        return f"<float format {self.name}>"

    # ---- decoding -----------------------------------------------------------------------------

    def _value(self, code):
        sign = -1.0 if self.signed and code >> (self.bits - 1) & 1 else 1.0
        e = (code >> self.man_bits) & ((1 << self.exp_bits) - 1)
        m = code & ((1 << self.man_bits) - 1)
        if self._nan_fn(e, m):
            return math.copysign(math.nan, sign)
        if self.has_inf and e == (1 << self.exp_bits) - 1:
            return sign * math.inf
        if not self.man_bits:  # e8m0: 2**(e - bias), no zero, no subnormals
            return math.ldexp(1.0, e - self.bias)
        if e == 0:
            return sign * math.ldexp(m, 1 - self.bias - self.man_bits)
        return sign * math.ldexp((1 << self.man_bits) | m, e - self.bias - self.man_bits)

    def table(self):
        """The value of every code (a tuple of Python floats, ``2**bits`` long)."""
        if self._table is None:
            if self.bits == 16:  # bfloat16: the top half of a float32
                n = 1 << 16
                self._table = struct.unpack(f"<{n}f", struct.pack(f"<{n}I",
                                                                  *(c << 16 for c in range(n))))
            else:
                self._table = tuple(self._value(c) for c in range(1 << self.bits))
        return self._table

    def decode(self, code):
        return self.table()[code]

    def decode_bytes(self, raw):
        """Values (Python floats) of the little-endian codes in ``raw``."""
        table = self.table()
        if self.bits == 8:
            return [table[c] for c in bytes(raw)]
        n = len(raw) // 2
        return [table[c] for c in struct.unpack(f"<{n}H", bytes(raw))]

    # ---- encoding -----------------------------------------------------------------------------

    def encode(self, x):
        """The code of Python float (or int) ``x``, rounded as ml_dtypes rounds it."""
        if isinstance(x, int):
            x = round_f32(float(x))  # ml_dtypes converts integers through float
        else:
            x = float(x)
        if self.bits == 16:
            return _bf16_code(round_f32(x))
        neg = math.copysign(1.0, x) < 0
        sign = (1 << (self.bits - 1)) if self.signed and neg else 0
        if x != x:
            return self.qnan | sign
        if not self.signed and (neg or x == 0):
            return self.qnan  # e8m0 has neither zero nor negatives
        a = abs(x)
        if math.isinf(a):
            return (self._inf_code() if self.has_inf else self.qnan) | sign
        if a == 0:
            return sign
        v = self._round(a)
        if v > self.max:
            return (self._inf_code() if self.has_inf else self.qnan) | sign
        return self._code_of(v) | sign

    def cast_code(self, x):
        """The code of ``x`` converted as an array cast converts it (ml_dtypes casts every
        array through float32 first)."""
        return self.encode(round_f32(float(x)))

    def round(self, x):
        """Python float ``x`` rounded to this format, as a Python float (a scalar's or a list
        element's conversion)."""
        return self.table()[self.encode(x)]

    def round_cast(self, x):
        """``x`` rounded as an array cast rounds it (through float32)."""
        return self.table()[self.cast_code(x)]

    def encode_values(self, values):
        """Little-endian bytes of ``values`` (Python floats already of this format: exact)."""
        enc = self.encode
        codes = [enc(v) for v in values]
        return bytes(codes) if self.bits == 8 else struct.pack(f"<{len(codes)}H", *codes)

    def _inf_code(self):
        return ((1 << self.exp_bits) - 1) << self.man_bits

    def _round(self, a):
        """Finite ``a > 0`` rounded to the format's grid (beyond ``max`` the grid goes on)."""
        k = math.frexp(a)[1] - 1  # 2**k <= a < 2**(k + 1)
        if not self.man_bits:  # e8m0: the nearest power of two, halfway rounds up
            if k <= -self.bias:  # below 2**-126: 2**-127 up to it, then 2**-126 (ml_dtypes)
                return math.ldexp(1.0, -self.bias if a <= math.ldexp(1.0, -self.bias) else 1 - self.bias)
            return math.ldexp(1.0, k + 1 if a >= 1.5 * math.ldexp(1.0, k) else k)
        q = max(k, 1 - self.bias) - self.man_bits  # the ulp's exponent at a
        n = math.ldexp(a, -q)  # exact: a has at most 53 significant bits
        whole = math.floor(n)
        rest = n - whole
        if rest > 0.5 or (rest == 0.5 and whole % 2 == 1):
            whole += 1
        return math.ldexp(whole, q)

    def _code_of(self, v):
        if self._codes is None:
            self._codes = {}
            for c, val in enumerate(self.table()):
                if val == val and val >= 0 and not math.isinf(val) and \
                        math.copysign(1.0, val) > 0:
                    self._codes.setdefault(val, c)
        return self._codes[v]


def _bf16_code(f):
    """Eigen's float32 → bfloat16: round to nearest even on the raw bits; NaN → quiet NaN."""
    if f != f:
        return 0xFFC0 if math.copysign(1.0, f) < 0 else 0x7FC0
    u = struct.unpack("<I", struct.pack("<f", f))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


FORMATS = {f.name: f for f in (
    Format("bfloat16", 8, 7),
    Format("float8_e4m3", 4, 3),
    Format("float8_e4m3fn", 4, 3, has_inf=False, nan="fn"),
    Format("float8_e5m2", 5, 2),
    Format("float8_e8m0fnu", 8, 0, signed=False, has_inf=False, nan="fnu"),
)}


def get(name):
    """The format named ``name``, or None."""
    return FORMATS.get(name)


#: NKI dtypes with no NumPy type (without ml_dtypes their values come back as float32).
NKI_ONLY = ("bfloat16", "float8_e4m3", "float8_e5m2", "tfloat32")


def fp8_table(exp_bits, man_bits):
    """The 256 values of the IEEE-style 8-bit float with ``exp_bits`` and ``man_bits``."""
    return list(FORMATS[{(4, 3): "float8_e4m3", (5, 2): "float8_e5m2"}[(exp_bits, man_bits)]]
                .table())


def decode(raw, name):
    """The values of bytes ``raw`` holding elements of NKI-only dtype ``name``, as floats."""
    raw = bytes(raw)
    if name == "tfloat32":
        return list(struct.unpack(f"<{len(raw) // 4}f", raw))
    fmt = FORMATS.get(name)
    if fmt is None:
        raise ValueError(f"not an NKI-only dtype: {name}")
    return fmt.decode_bytes(raw)
