"""Golden expressions for ml_dtypes' types in NumPy (imported by golden_cases): dtype attributes
and names, casts both ways (rounding, saturation, NaN), Python-float and integer conversion,
arithmetic and its result types (NumPy's loop search over ml_dtypes' registered loops),
reductions, comparisons, printing, scalars, ``promote_types`` / ``can_cast`` over every pair,
``ml_dtypes.finfo``, bytes. Evaluated by make_goldens.py with a real NumPy and ml_dtypes (the
stand-in's ``ml_dtypes`` in Pyodide); without ml_dtypes the generator keeps the recorded
results. Bit-exact rounding of every code and of ~67k probes: float_goldens.json.

NUMPY2_ML: where NumPy >= 2 differs from the NumPy 1.24 the goldens are made with — a Python int
or float next to an ml_dtypes array or scalar is no longer value-based (an int: uint8, which
reaches the ml_dtypes loop; a float next to a scalar: float64) but weak, which reaches NumPy's
float32 loop first (ml_dtypes issue #189: ``arange(4, dtype=bfloat16) + 10`` is float32 under
NumPy 2.1).
"""

SETUP_ML = """
import ml_dtypes
bf16, e4m3, e4m3fn = ml_dtypes.bfloat16, ml_dtypes.float8_e4m3, ml_dtypes.float8_e4m3fn
e5m2, e8m0 = ml_dtypes.float8_e5m2, ml_dtypes.float8_e8m0fnu
VALS = [0.0, -0.0, 0.1, -0.1, 1.0, 1.5, 2.5, 3.0, 1e-3, -1e-3, 2e-5, 1e-7, 3e5, -3e5, 240.0,
        248.0, 250.0, 448.0, 464.0, 465.0, 480.0, 57344.0, 61440.0, 65504.0, 1e30, 3.4e38,
        2.0 ** -127, 2.0 ** -128, 1.5 * 2.0 ** -127, float('nan'), float('inf'), float('-inf')]
FIN = [v for v in VALS if abs(v) < 1e5]
TO_INT = [0.5, 1.0, 1.5, 2.5, 3.0, 7.0, 100.0]
xb = np.array([1.5, -2.25, 0.1, 300.0, 3.0], dtype=bf16)
x4 = np.array([1.5, -2.25, 0.1, 200.0, 3.0], dtype=e4m3)
x4n = np.array([1.5, -2.25, 0.1, 400.0, 3.0], dtype=e4m3fn)
x5 = np.array([1.5, -2.25, 0.1, 3e4, 3.0], dtype=e5m2)
x8 = np.array([1.0, 0.25, 4.0, 2.0 ** 100, 3.0], dtype=e8m0)
pi8 = np.array([1, -2, 3, 4, 5], dtype=np.int8)
pi16 = np.array([1, -2, 3, 4, 5], dtype=np.int16)
pi32 = np.array([1, -2, 3, 4, 5], dtype=np.int32)
pf16 = np.array([1, -2, 3, 4, 5], dtype=np.float16)
pf32 = np.array([1, -2, 3, 4, 5], dtype=np.float32)
pb = np.array([True, False, True, True, False])
big_bf = np.arange(1200, dtype=np.float32).astype(bf16)

def codes(a):
    return a.view(np.uint16 if a.itemsize == 2 else np.uint8).tolist()
"""

_NAMES = ("bfloat16", "float8_e4m3", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu")
_SHORT = {"bfloat16": "bf16", "float8_e4m3": "e4m3", "float8_e4m3fn": "e4m3fn",
          "float8_e5m2": "e5m2", "float8_e8m0fnu": "e8m0"}
_XS = {"bf16": "xb", "e4m3": "x4", "e4m3fn": "x4n", "e5m2": "x5", "e8m0": "x8"}
_BUILTINS = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
             "float16", "float32", "float64")


def ml_cases():
    out = []
    add = out.append
    add("np.dtype('bfloat16')")
    for n in _NAMES:
        s = _SHORT[n]
        for attr in ("name", "itemsize", "kind", "char", "str", "num", "byteorder"):
            add(f"np.dtype('{n}').{attr}")
        add(f"repr(np.dtype('{n}'))")
        add(f"str(np.dtype({s}))")
        add(f"np.dtype({s}) is np.dtype('{n}')")
        add(f"np.dtype({s}) == '{n}'")
        add(f"{s}.__name__")
        for base in ("floating", "inexact", "number", "generic"):
            add(f"np.issubdtype({s}, np.{base})")
        # casts: float32 and float64 arrays, Python floats, ints, back to NumPy types
        add(f"codes(np.array(VALS, np.float32).astype({s}))")
        add(f"codes(np.array(VALS).astype({s}))")
        add(f"codes(np.array(VALS, dtype={s}))")
        add(f"np.array(VALS, dtype={s}).astype(np.float32)")
        add(f"np.array(VALS, dtype={s}).astype(np.float64)")
        add(f"np.array(FIN, dtype={s}).astype(np.float16)")
        add(f"np.array(TO_INT, dtype={s}).astype(np.int32)")
        add(f"np.array(FIN, dtype={s}).astype(bool)")
        add(f"codes(np.array([0, 1, 7, 255, 300, 1000, -5, 100000], dtype={s}))")
        add(f"codes(np.array([0, 1, 7, 255, 300, -5], np.int32).astype({s}))")
        add(f"codes(np.arange(8, dtype={s}))")
        add(f"codes(np.zeros(3, {s}))")
        add(f"codes(np.ones((2, 2), dtype={s}))")
        add(f"codes(np.frombuffer(bytes(range(0, 120, 7)) * 2, dtype={s}))")
        add(f"np.frombuffer(bytes(range(256)) * {2 if n == 'bfloat16' else 1}, dtype={s})"
            f".astype(np.float32)")
        add(f"list({_XS[s]}.tobytes())")
        for m in _NAMES:
            add(f"codes({_XS[s]}.astype({_SHORT[m]}))")
        # printing
        for expr in (f"np.array(VALS, dtype={s})", f"np.array(FIN[:6], dtype={s})",
                     f"np.array([[1, 2], [3, 4]], dtype={s})", f"np.array(2.5, dtype={s})",
                     f"np.arange(1500).astype({s})"):
            add(f"str({expr})")
            add(f"repr({expr})")
        # scalars
        for expr in (f"{s}(0.1)", f"{s}(1)", f"{s}(-2.5)", f"{s}(np.float32(0.1))", f"{s}(1e30)",
                     f"{s}(float('nan'))", f"{_XS[s]}[0]", f"{_XS[s]}[3]"):
            add(expr)
            add(f"repr({expr})")
            add(f"str({expr})")
            add(f"type({expr}).__name__")
        add(f"float({s}(0.1))")
        add(f"{_XS[s]}[0].item()")
        add(f"{_XS[s]}.tolist()")
        add(f"type({s}(1.5) + {s}(2.25)).__name__")
        add(f"type({s}(1.5) + np.float32(2.25)).__name__")
        add(f"type({s}(1.5) + 1.0).__name__")
        # arithmetic: values and result types
        x = _XS[s]
        for expr in (f"{x} + {x}", f"{x} - {x}", f"{x} * {x}", f"{x} / {x}", f"-{x}",
                     f"np.abs({x})", f"np.exp({x})", f"np.sqrt(np.abs({x}))",
                     f"np.maximum({x}, {x}[::-1])", f"np.minimum({x}, {x}[::-1])",
                     f"{x} < {x}[::-1]", f"{x} == {x}", f"np.isnan({x})", f"np.isfinite({x})",
                     f"{x} + pf32", f"{x} + pi8", f"{x} + pi16", f"{x} + pi32", f"{x} + pf16",
                     f"{x} + pb", f"{x} * np.float32(0.5)", f"{x} + 1.0", f"{x} * 0.5",
                     f"{x} < 2.0", f"np.floor({x})", f"np.square({x})"):
            add(expr)
        for expr in (f"{x} + 1", f"{x} * 2", f"{x} - 3"):
            add(f"({expr}).dtype.name")
        for expr in (f"np.sum({x})", f"np.max({x})", f"np.min({x})", f"np.mean({x})",
                     f"np.sum(np.ones(600, {s}))", f"{x}.reshape(1, 5).sum(axis=0)",
                     f"np.prod({x}[:3])"):
            add(expr)
        # promotion over every pair
        for m in _NAMES + _BUILTINS:
            add(f"np.promote_types('{n}', '{m}').name")
            add(f"np.can_cast('{n}', '{m}', 'safe')")
            add(f"np.can_cast('{m}', '{n}', 'safe')")
            add(f"np.can_cast('{n}', '{m}', 'same_kind')")
            add(f"np.can_cast('{m}', '{n}', 'same_kind')")
        for attr in ("max", "min", "eps", "epsneg", "tiny", "smallest_normal",
                     "smallest_subnormal", "resolution", "bits", "precision", "nmant", "nexp",
                     "maxexp", "minexp", "machep", "negep"):
            add(f"ml_dtypes.finfo({s}).{attr}")
        add(f"ml_dtypes.finfo({s}).dtype.name")
        add(f"np.finfo({s})")
    for expr in ("codes(np.array([0.0009765625000008882], dtype=e4m3))",
                 "codes(np.array([0.0009765625000008882]).astype(e4m3))",
                 "codes(np.array([1 + 2.0 ** -8 + 2.0 ** -40], dtype=bf16))",
                 "codes(np.array([np.float64(0.0009765625000008882)], dtype=e4m3))",
                 "np.sum(big_bf)", "str(big_bf)", "np.arange(4, dtype=bf16) + 10",
                 "np.einsum('i,i->', xb.astype(np.float32), xb.astype(np.float32))",
                 "np.allclose(xb.astype(np.float32), np.array([1.5, -2.25, 0.1, 300, 3]), "
                 "rtol=1e-2)"):
        add(expr)
    return out


NUMPY2_ML = {
    "np.arange(4, dtype=bf16) + 10": {"t": "array", "dtype": "float32", "shape": [4],
                                      "data": [10.0, 11.0, 12.0, 13.0]},
}
for _s, _x in _XS.items():
    for _expr in (f"({_x} + 1).dtype.name", f"({_x} * 2).dtype.name", f"({_x} - 3).dtype.name",
                  f"type({_s}(1.5) + 1.0).__name__"):  # NumPy 1: value-based float64
        NUMPY2_ML[_expr] = {"t": "py", "type": "str", "value": "float32"}
