"""Expressions checked against real NumPy: make_goldens.py evaluates them with a real NumPy
and writes numpy_goldens.json; tests/python/numpy_fallback.test.js evaluates the same ones
under the trace-time fallback in Pyodide and compares.

Shared by both sides: SETUP (fixtures), CASES (expressions), describe() (a JSON-able form of
a result). NUMPY2 holds the expected results where NumPy >= 2 differs from the NumPy 1.24
that Debian ships; the fallback mirrors NumPy >= 2, and the generator writes these instead of
what 1.24 says.
"""
import math

SETUP = """
a = np.arange(6).reshape(2, 3)
f = np.array([[1.5, -2.25, 3.0], [0.5, 4.0, -1.0]], dtype=np.float32)
g = np.array([[2.0, 0.5, -4.0], [8.0, -0.25, 3.0]], dtype=np.float32)
h = np.array([0.1, 1.0, 65504.0, -2.5], dtype=np.float16)
i8 = np.array([100, -100, 127, -128], dtype=np.int8)
j8 = np.array([3, 7, -2, 5], dtype=np.int8)
u8 = np.array([0, 1, 200, 255], dtype=np.uint8)
v8 = np.array([3, 2, 100, 1], dtype=np.uint8)
i32 = np.array([7, -7, 2147483647, -5], dtype=np.int32)
b = np.array([True, False, True, False])
c = np.array([True, True, False, False])
x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
sp = np.array([1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan])

def setitem(arr, key, value):
    arr = arr.copy()
    arr[key] = value
    return arr

def view_write():
    m = np.zeros((2, 3), dtype=np.int32)
    col = m[:, 1]
    col[0] = 7
    m.T[2, 1] = 9
    return m

def iadd(arr, value):
    arr = arr.copy()
    arr += value
    return arr
"""

DTYPES = ["float32", "float16", "int8", "int16", "int32", "uint8", "uint16", "uint32", "bool_",
          "float64", "int64", "uint64"]
UNARY = ["exp", "log", "sqrt", "tanh", "absolute", "negative", "reciprocal", "sin", "cos", "tan",
         "arctan", "square", "sign", "floor", "ceil", "trunc", "logical_not", "invert", "isnan",
         "isinf", "isfinite", "rint", "exp2", "log2", "log10", "sinh", "cosh", "arcsin",
         "arccos", "expm1", "log1p", "positive"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "equal",
          "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and",
          "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "remainder", "fmod", "floor_divide", "arctan2"]
ALIASES = ["abs", "true_divide", "mod", "bitwise_not"]
REDUCERS = ["max", "amax", "min", "amin", "sum", "prod", "mean", "all", "any"]
FLOAT_UNARY_SAFE = ["exp", "tanh", "absolute", "negative", "sin", "cos", "arctan", "square",
                    "sign", "floor", "ceil", "trunc", "rint", "isnan", "isfinite", "sinh"]


def _cases():
    out = []
    add = out.append
    # dtypes
    for n in DTYPES:
        for attr in ("name", "itemsize", "kind", "char", "str"):
            add(f"np.dtype(np.{n}).{attr}")
        add(f"np.{n}.__name__")
        add(f"np.dtype(np.{n}).type is np.{n}")
        add(f"np.dtype('{n.rstrip('_')}') == np.{n}")
    for spelling in ("f4", "f2", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "<f4",
                     "?", "b1", "float", "int", "bool", "half", "single", "double", "e", "f",
                     "d", "b", "B", "h", "H", "i", "I", "l", "L"):
        add(f"np.dtype({spelling!r}).name")
    for py in ("float", "int", "bool"):
        add(f"np.dtype({py}).name")
    add("np.dtype('float32') == 'float32'")
    add("np.dtype('float32') == 'foo'")
    add("np.dtype('float32') != np.float64")
    add("np.float32 == np.dtype('float32')")
    add("hash(np.dtype('f4')) == hash(np.dtype(np.float32))")
    add("np.dtype('f4') is np.dtype(np.float32)")
    add("str(np.dtype('float16'))")
    add("repr(np.dtype('int8'))")
    # np.dtype('bfloat16'): golden_cases_ml (ml_dtypes imported, as neuronxcc imports it)
    add("np.dtype('float32').itemsize * 8")
    for x, y in (("float32", "floating"), ("int8", "integer"), ("uint8", "signedinteger"),
                 ("float16", "inexact"), ("float32", "float64"), ("bool_", "integer"),
                 ("int32", "number"), ("uint32", "unsignedinteger")):
        add(f"np.issubdtype(np.{x}, np.{y})")
    for x in DTYPES:
        for y in DTYPES:
            add(f"np.promote_types(np.{x}, np.{y}).name")
            add(f"np.can_cast(np.{x}, np.{y}, 'same_kind')")
            add(f"np.can_cast(np.{x}, np.{y})")
    # scalars: construction, rounding, arithmetic, text
    for expr in ("np.float32(1.1)", "np.float16(1.1)", "np.float16(65519.0)",
                 "np.float16(65520.0)", "np.float16(1e-8)", "np.float16(6e-8)",
                 "np.float16(0.000123)", "np.float32(1e-46)", "np.float32(3.4028235e38)",
                 "np.float32(2.5e-45)", "np.float16(-0.0)", "np.float32('1.5')",
                 "np.float32(np.float16(0.1))", "np.float16(np.float32(0.1))", "np.float64(0.1)",
                 "np.float32(0.1) + np.float32(0.2)", "np.float16(0.1) + np.float16(0.2)",
                 "np.float32(1) / np.float32(3)", "np.float16(1) / np.float16(3)",
                 "np.float16(100) * np.float16(700)", "np.float32(16777216) + np.float32(1)",
                 "np.float32(2) ** np.float32(0.5)", "np.int32(3)", "np.int32(3.7)",
                 "np.int32(-3.7)", "np.int8(127) + np.int8(1)", "np.uint8(0) - np.uint8(1)",
                 "np.int32(7) // np.int32(2)", "np.int32(-7) // np.int32(2)",
                 "np.int32(-7) % np.int32(3)", "np.int16(5) * np.int8(3)",
                 "np.float32(1.5) * np.int32(2)", "np.int8(3) / np.int8(2)",
                 "np.uint8(200) + np.int8(1)", "np.int64(5) - np.uint64(3)",
                 "np.float32(1.5) + np.float16(1)", "np.bool_(1)", "np.bool_(0.0)",
                 "np.True_ + np.True_", "np.True_ & np.False_", "-np.float32(2.5)",
                 "abs(np.int8(-5))", "~np.uint8(5)", "np.int8(-128) // np.int8(-1)",
                 "np.float32(7.5) % np.float32(2)", "np.uint16(3) + 3",
                 "np.int16(2) + 2", "np.float64(2) * 3", "np.bool_(True) + 1",
                 "np.uint8(100) + np.uint8(200)", "True + np.uint8(2)"):
        add(expr)
    for expr in ("np.float32(1.1)", "np.float16(65504)", "np.float32(0.0001)", "np.float32(1e20)",
                 "np.float32(123456789.0)", "np.float64(1 / 3)", "np.float32(1 / 3)",
                 "np.float16(1 / 3)", "np.int8(-5)", "np.True_", "np.float32(-0.0)",
                 "np.float32(np.nan)", "np.float16(np.inf)", "np.float32(1e16)",
                 "np.float32(1.5e-5)", "np.float64(1e-300)", "np.uint32(4000000000)"):
        add(f"str({expr})")
    for expr in ("float(np.float32(1.1))", "int(np.float32(2.9))", "np.float32(1.5).dtype.name",
                 "np.float32(1.5).itemsize", "np.int8(3).dtype.name", "np.float32(1.5).item()",
                 "type(np.float32(1.5).item()).__name__", "type(np.int8(3).item()).__name__",
                 "np.float32(2.5).astype(np.int32)", "np.float32(1.5) == 1.5",
                 "np.float32(1.5).shape", "np.float32(1.5).ndim",
                 "isinstance(np.float32(1), np.floating)",
                 "isinstance(np.int8(1), np.signedinteger)",
                 "isinstance(np.uint8(1), np.unsignedinteger)",
                 "isinstance(np.float64(1), float)", "isinstance(np.True_, np.bool_)",
                 "np.True_ is np.bool_(1)", "hash(np.float32(1.5)) == hash(1.5)",
                 "{np.int32(3): 'x'}[3]", "[0, 1, 2, 3][np.int32(2)]",
                 "np.float32([1, 2]).dtype.name", "np.int8(np.int32(300))"):
        add(expr)
    # ufunc objects
    for n in UNARY + BINARY + ALIASES:
        add(f"np.{n}.__name__")
        add(f"(np.{n}.nin, np.{n}.nout)")
    for n in BINARY:
        add(f"np.{n}.identity")
    for n in REDUCERS:
        add(f"np.{n}.__name__")
    for expr in ("np.true_divide is np.divide", "np.abs is np.absolute",
                 "np.mod is np.remainder", "np.bitwise_not is np.invert", "repr(np.add)",
                 "type(np.add).__name__", "callable(np.max)"):
        add(expr)
    # ufuncs on Python scalars, NumPy scalars and arrays (loop dtype selection and values)
    for n in ("exp", "log", "sqrt", "tanh", "sin", "cos", "tan", "arctan", "exp2", "log2",
              "log10", "sinh", "cosh", "arcsin", "arccos", "expm1", "log1p", "absolute",
              "negative", "reciprocal", "square", "sign", "rint"):
        add(f"np.{n}(0.5)")
        add(f"np.{n}(np.float32(0.75))")
        add(f"np.{n}(np.float16(0.3))")
    for n in ("exp", "log", "sqrt", "tanh", "sin", "arctan", "absolute", "negative", "square",
              "sign", "isnan", "logical_not", "invert", "reciprocal"):
        add(f"np.{n}(2)")
    for n in UNARY:
        for arr in ("f", "h", "i8", "u8", "b", "sp"):
            add(f"np.{n}({arr})")
    for n in BINARY:
        for x, y in (("f", "g"), ("h", "h"), ("i8", "j8"), ("u8", "v8"), ("i8", "u8"),
                     ("i32", "j8"), ("b", "c"), ("f", "2"), ("i8", "3"), ("u8", "2"),
                     ("f", "i8[:2]"), ("h", "u8"), ("sp", "sp[::-1]"), ("a", "1.5"),
                     ("3", "4"), ("7.0", "2"), ("True", "False"), ("f", "f[0]"),
                     ("a", "a[:, :1]")):
            add(f"np.{n}({x}, {y})")
    for expr in ("np.divide(1.0, 0.0)", "np.divide(-1.0, 0.0)", "np.divide(0.0, 0.0)",
                 "np.divide(1.0, -0.0)", "np.log(0.0)", "np.log(-1.0)", "np.sqrt(-1.0)",
                 "np.exp(1000.0)", "np.power(-8.0, 1 / 3)", "np.power(0.0, -1.0)",
                 "np.power(-0.0, -1.0)", "np.power(-0.0, -2.0)", "np.power(2, -1)",
                 "np.power(2, 10)", "np.power(np.int8(2), np.int8(7))", "np.power(10.0, 400.0)",
                 "np.power(-10.0, 401.0)", "np.remainder(-7, 3)", "np.fmod(-7, 3)",
                 "np.remainder(-7.5, 2.0)", "np.fmod(-7.5, 2.0)", "np.floor_divide(7, 0)",
                 "np.remainder(5, 0)", "np.fmod(5, 0)", "np.floor_divide(1.0, 0.0)",
                 "np.floor_divide(-1.0, 0.0)", "np.remainder(1.0, 0.0)", "np.fmod(1.0, 0.0)",
                 "np.remainder(5.0, np.inf)", "np.remainder(-5.0, np.inf)",
                 "np.maximum(np.nan, 1.0)", "np.minimum(1.0, np.nan)", "np.sign(-0.0)",
                 "np.sign(np.nan)", "np.sign(-3.5)", "np.sign(np.int8(-3))", "np.ceil(-0.5)",
                 "np.floor(-0.0)", "np.trunc(-1.7)", "np.rint(2.5)", "np.rint(3.5)",
                 "np.rint(-0.5)", "np.reciprocal(0.0)", "np.reciprocal(np.float32(3.0))",
                 "np.reciprocal(np.int32(2))", "np.reciprocal(np.int32(-1))",
                 "np.left_shift(np.int8(1), 7)", "np.left_shift(np.int8(1), 8)",
                 "np.right_shift(np.int8(-128), 3)", "np.right_shift(np.int8(-1), 10)",
                 "np.right_shift(np.uint8(255), 9)", "np.invert(np.uint8(0))",
                 "np.invert(np.int8(5))", "np.invert(np.True_)", "np.bitwise_and(np.float32(1), 1)",
                 "np.left_shift(1.0, 2)", "np.logical_xor(2, 0)", "np.logical_not(0.0)",
                 "np.isnan(np.nan)", "np.isinf(-np.inf)", "np.isfinite(np.int8(3))",
                 "np.add(1, 2)", "np.add(1.0, 2)", "np.add(True, True)", "np.subtract(True, False)",
                 "np.multiply(np.float16(2), 3)", "np.equal(np.int8(1), 1.0)",
                 "np.less(u8, 300)", "np.greater(i8, -1000)", "np.equal(u8, -1)",
                 "np.exp(np.int8(100))", "np.sin(np.uint16(3))", "np.log(np.int32(10))",
                 "np.arctan2(1.0, -1.0)", "np.arctan2(np.float32(1), np.float32(2))",
                 "np.tanh(np.float16(20))", "np.expm1(1e-10)", "np.log1p(-1.0)",
                 "np.log1p(-2.0)", "np.arcsin(2.0)", "np.cosh(1000.0)", "np.sinh(-1000.0)",
                 "np.exp(np.float32(89))", "np.exp(np.float16(12))",
                 "np.add(f, g, dtype=np.float16)", "np.add(i8, j8, dtype=np.int16)",
                 "np.greater(f, g, dtype=np.float64)"):
        add(expr)
    # .reduce
    for n in ("add", "multiply", "maximum", "minimum", "logical_and", "logical_or",
              "bitwise_and", "bitwise_or", "bitwise_xor", "subtract"):
        for arr in ("a", "f", "i8", "u8", "b"):
            add(f"np.{n}.reduce({arr})")
        add(f"np.{n}.reduce(a, axis=1)")
        add(f"np.{n}.reduce(x3, axis=(0, 2))" if n not in ("bitwise_and", "bitwise_or",
                                                              "bitwise_xor") else
            f"np.{n}.reduce(a, axis=None)")
    for expr in ("np.add.reduce(np.zeros((0,)))", "np.maximum.reduce(np.zeros((0,)))",
                 "np.multiply.reduce(np.zeros((2, 0)), axis=1)", "np.add.reduce(a, keepdims=True)",
                 "np.add.reduce(h)", "np.multiply.reduce(h)", "np.maximum.reduce(sp)",
                 "np.add.reduce([1.5, 2.5])", "np.add.reduce(a, axis=-1)",
                 "np.exp.reduce(f)", "np.add.reduce(a, axis=2)"):
        add(expr)
    # reducers with axis and keepdims
    for n in REDUCERS:
        for arr in ("a", "f", "h", "i8", "u8", "b", "x3", "sp"):
            add(f"np.{n}({arr})")
        for axis in ("0", "1", "-1", "(0, 1)", "None"):
            add(f"np.{n}(x3, axis={axis})")
        add(f"np.{n}(f, axis=1, keepdims=True)")
        add(f"np.{n}([[1, 2], [3, 4]])")
        add(f"np.{n}(3)")
    for expr in ("np.max(np.zeros((0,)))", "np.sum(np.zeros((0, 3)), axis=0)",
                 "np.mean(np.zeros((0,)))", "np.sum(a, axis=(1, 1))", "np.sum(a, axis=3)",
                 "np.sum(i8, dtype=np.int8)", "np.mean(i8, dtype=np.float32)",
                 "np.max(f, initial=10)", "np.sum(f, initial=1)", "np.prod(a + 1)",
                 "np.sum(np.full((40,), 0.1, dtype=np.float32))",
                 "np.mean(np.full((100,), 0.1, dtype=np.float16))",
                 "a.sum(axis=0)", "f.max(axis=1)", "f.min()", "b.all()", "b.any()",
                 "f.mean(axis=0)", "x3.prod(axis=2)"):
        add(expr)
    # constants, predicates, limits
    for expr in ("np.pi", "np.e", "np.inf", "np.nan", "np.newaxis", "np.isnan(np.nan)",
                 "np.isinf(np.inf)", "np.isfinite(np.nan)", "np.euler_gamma"):
        add(expr)
    for n in ("float16", "float32", "float64"):
        for attr in ("max", "min", "eps", "tiny", "epsneg", "smallest_normal",
                     "smallest_subnormal", "resolution", "bits", "precision", "nmant", "nexp",
                     "maxexp", "minexp"):
            add(f"np.finfo(np.{n}).{attr}")
        add(f"np.finfo(np.{n}).dtype.name")
    for expr in ("np.finfo('float32').max", "np.finfo(np.dtype('float16')).eps",
                 "np.finfo(1.0).eps", "np.finfo(np.int32)", "np.finfo(f).tiny"):
        add(expr)
    for n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        for attr in ("min", "max", "bits", "kind"):
            add(f"np.iinfo(np.{n}).{attr}")
    for expr in ("np.iinfo('int8').max", "np.iinfo(np.float32)", "np.iinfo(int).max",
                 "np.iinfo(np.bool_)", "np.iinfo(i8).min"):
        add(expr)
    # constructors and array attributes
    for expr in ("np.array([1, 2, 3])", "np.array([1.0, 2, 3])", "np.array([True, False])",
                 "np.array([[1, 2], [3, 4]], dtype=np.float16)", "np.array(5)",
                 "np.array(2.5, dtype=np.float32)", "np.array([1, 2], dtype=np.int8)",
                 "np.array([300], dtype=np.int8)", "np.array([1.7, -1.7], dtype=np.int32)",
                 "np.array([0.1, 0.2], dtype=np.float32)", "np.array([[1, 2], [3]])",
                 "np.array([np.int8(1), np.int8(2)])", "np.array([np.float16(1), np.int16(2)])",
                 "np.array([a, a])", "np.array((1, 2.5))", "np.array([])",
                 "np.array([1, 2], ndmin=3)", "np.array([2**63])",
                 "np.array([1, 2]) is np.array([1, 2])",
                 "np.asarray(a) is a", "np.asarray(a, dtype=np.int64) is a",
                 "np.asarray(a, dtype=np.float32)", "np.asarray([1, 2], dtype=np.uint8)",
                 "np.zeros(3)", "np.zeros((2, 3), dtype=np.int32)", "np.zeros((2, 0))",
                 "np.ones((2, 2), dtype=np.float16)", "np.ones(3, dtype=bool)",
                 "np.full((2, 2), 7)", "np.full((2, 2), 7.5)", "np.full(3, True)",
                 "np.full((2, 3), np.float32(1.5))", "np.full((2, 2), -1, dtype=np.uint8)",
                 "np.full((2, 3), [1, 2, 3])", "np.empty((2, 2)).shape",
                 "np.empty(3, dtype=np.int8).dtype.name", "np.identity(3)",
                 "np.identity(2, dtype=np.uint8)", "np.eye(2, 3)", "np.eye(3, k=1)",
                 "np.eye(3, 2, k=-1, dtype=np.int32)", "np.arange(5)", "np.arange(2, 8, 3)",
                 "np.arange(5, 0, -2)", "np.arange(0.0, 1.0, 0.25)",
                 "np.arange(0, 1, 0.1, dtype=np.float32)", "np.arange(0.1, 1.0, 0.2)",
                 "np.arange(-5, 0, 1, dtype=np.uint8)", "np.arange(0, 256, 64, dtype=np.uint8)",
                 "np.arange(3, dtype=np.float16)", "np.arange(0, 5, 0.5)", "np.arange(10, 2)",
                 "np.arange(np.int32(4))", "np.arange(0, 2, 0.3, dtype=np.float16)",
                 # long enough for the C-rounded fast paths (sampled to keep the JSON small)
                 "np.arange(-70000, 70000, 13, dtype=np.int32)[::501]",
                 "np.arange(0.5, 3000.7, 0.37, dtype=np.float32)[::97]",
                 "np.arange(1e30, 3e30, 1e27, dtype=np.float32)[::101]",
                 "np.arange(0.1, 7000.3, 0.7)[::211]", "np.arange(250, 2, -3, dtype=np.uint8)",
                 "np.linspace(0, 1, 5)", "np.linspace(0, 1, 4, endpoint=False)",
                 "np.linspace(-1, 1, 3, dtype=np.float32)", "np.linspace(0, 10, 4, dtype=int)",
                 "np.zeros_like(f)", "np.ones_like(i8)", "np.zeros_like(a, dtype=np.float32)",
                 "np.ones_like([[1.5]])", "np.full_like(a, 2.7)", "np.empty_like(h).dtype.name",
                 "np.ndarray((2, 2), dtype=np.int8).shape"):
        add(expr)
    for arr in ("a", "f", "h", "i8", "b", "x3", "np.array(5)", "np.zeros((2, 0))",
                "x3[:, 1:, ::2]"):
        for attr in ("shape", "dtype.name", "ndim", "size", "itemsize", "nbytes", "strides",
                     "T.shape", "tolist()", "flatten()", "copy()", "T"):
            add(f"{arr}.{attr}")
    for expr in ("a.astype(np.float32)", "f.astype(np.int8)", "f.astype(bool)",
                 "h.astype(np.float32)", "i8.astype(np.uint8)", "u8.astype(np.int8)",
                 "i32.astype(np.int16)", "f.astype(np.float16)", "sp.astype(np.float32)",
                 "np.array([3e38, -3e38]).astype(np.float32)",
                 "np.array([1e39]).astype(np.float32)", "np.array([70000.0]).astype(np.float16)",
                 "b.astype(np.float32)", "a.reshape(3, 2)", "a.reshape((6,))", "a.reshape(-1, 2)",
                 "a.reshape(4, 2)", "a.reshape(-1, -1)", "x3.reshape(4, -1)", "x3.T.reshape(-1)",
                 "a.T.reshape(6)", "a.ravel()", "x3.transpose(1, 0, 2)", "x3.transpose((2, 0, 1))",
                 "x3.transpose(0, 0, 1)", "np.transpose(a)", "np.reshape(a, (3, 2))",
                 "a.squeeze()", "np.zeros((1, 3, 1)).squeeze()",
                 "np.zeros((1, 3, 1)).squeeze(0).shape",
                 "a.item(4)", "np.array([[7]]).item()", "a.item()", "f[1, 2].item()",
                 "len(a)", "list(a[0])", "[r.tolist() for r in a]", "bool(np.array([1]))",
                 "bool(a)", "float(np.array([[2.5]]))", "int(np.array(7))", "3 in a", "9 in a",
                 "np.shape(a)", "np.ndim(x3)", "np.size(x3)", "np.size(x3, 1)",
                 "np.result_type(np.int8, np.uint8).name", "np.result_type(f, 1.0).name",
                 "np.result_type(i8, 1).name", "np.result_type(i8, 1.5).name",
                 "np.result_type(b, 1).name", "np.result_type(1, 2.0).name",
                 "np.result_type(np.float16, np.int16).name", "np.isscalar(3.0)",
                 "np.isscalar(np.float32(1))", "np.isscalar(a)",
                 "np.broadcast_shapes((2, 1), (3,))",
                 "np.where(b, 1, 0)", "np.where(f > 0, f, 0.0)", "np.where(b, i8, u8)",
                 "np.allclose(f, f + 1e-9)", "np.allclose(f, g)", "np.isclose(sp, sp)",
                 "np.isclose(sp, sp, equal_nan=True)", "np.array_equal(a, a.copy())",
                 "np.array_equal(a, a.T)", "np.allclose([1.0, np.inf], [1.0, np.inf])"):
        add(expr)
    # indexing, views, assignment, broadcasting, operators
    for expr in ("a[1]", "a[1, 2]", "a[-1, -1]", "a[:, 1]", "a[::-1]", "a[:, ::2]",
                 "a[1:, :2]", "a[..., 0]", "a[None, 1]", "a[:, None].shape", "a[np.newaxis].shape",
                 "x3[1, ..., 2]", "x3[:, 1:, ::2]", "x3[-1, -1, -1]", "x3[0][1][2]", "a[2]",
                 "a[0, 5]", "a[0, 0, 0]", "a[1.0]", "a[np.int32(1)]",
                 "a[5:10]", "a[:, -2:]", "np.array(5)[()]", "np.array(5)[...]", "a[()]",
                 "x3[::2, ::-2, 1::3]", "a[0][::-1][1]", "a[..., None].shape", "a[...]",
                 "setitem(a, (0, 1), 9)", "setitem(a, 1, [7, 8, 9])",
                 "setitem(a, (slice(None), 0), -1)",
                 "setitem(f, (Ellipsis, 1), 2.5)", "setitem(i8, 0, 1.9)", "setitem(u8, 0, 256)",
                 "setitem(u8, 0, -1)", "setitem(a, 0, [1, 2])", "setitem(a, slice(None), a[0])",
                 "setitem(f, (0, 0), np.nan)", "setitem(i8, 0, np.nan)",
                 "setitem(x3, (0, slice(None), 0), np.arange(3))", "view_write()",
                 "iadd(a, 1)", "iadd(f, 0.5)", "iadd(a, 1.5)", "iadd(i8, 100)",
                 "iadd(u8, v8)", "iadd(a, a[0])", "iadd(a, x3)",
                 "a + 1", "a - 1.5", "a * a", "a / 2", "a // 2", "a % 4", "a ** 2", "-a",
                 "+f", "abs(f)", "~b", "~i8", "a & 3", "a | 8", "a ^ 5", "a << 2", "a >> 1",
                 "2 - a", "1 / f", "2 ** a", "7 // a[:, 1:]", "7 % a[:, 1:]", "a == 2",
                 "a != 2", "a < 3", "a <= 3", "a > 3", "a >= 3", "f == g", "2 < f", "b & c",
                 "b | c", "b ^ c", "f + g", "f * g", "f - g", "f / g", "h + h", "h * 1000",
                 "i8 + j8", "i8 * j8", "u8 - v8", "u8 + 1", "u8 + 300", "i8 - 1", "u8 * 2",
                 "i8 + u8",
                 "f + i8[:3]", "f + h[:3]", "a + a[:, :1]", "a + a[0]", "a + x3[:, :, :3].sum(0)",
                 "a + np.arange(2)", "x3 + a[0, :, None].reshape(3, 1)", "a * np.float32(2)",
                 "np.float32(2) * a", "np.int8(3) * i8", "f * 2.5", "f + 1e39", "h + 1e5",
                 "np.float16(2) * h", "b + b", "b * 3", "b + 1.5", "divmod(a, 4)",
                 "divmod(np.int32(7), np.int32(-2))", "f ** 2", "i8 ** 2", "np.int8(2) ** 7",
                 "np.float32(0.5) ** 2"):
        add(expr)
    # text of arrays (NumPy 1.24 and 2.x print arrays alike)
    for expr in ("a", "f", "i8", "b", "np.zeros(3)", "np.arange(3, dtype=np.float32)",
                 "np.array([0.5, 1.25])", "np.array([1.0, 1.25])", "np.eye(2)",
                 "np.array([[1, -10], [100, 2]])", "np.array([], dtype=np.float32)",
                 "np.array(5)", "np.array(2.5, dtype=np.float16)", "np.array([np.nan, 1.0])",
                 "np.array([1e10, 1.0])", "np.array([1e-5, 1.0])", "np.zeros((2, 2, 2))",
                 "np.array([1 / 3, 2 / 3])", "u8", "np.zeros((2, 0))", "np.array([-0.5, 2.0])",
                 "np.array([np.inf, -np.inf, 2.0])", "np.array([100.0, 1.5])"):
        add(f"repr({expr})")
        add(f"str({expr})")
    return out


CASES = _cases()
from golden_cases_more import SETUP_MORE, more_cases  # noqa: E402 - the second half of the cases
CASES += more_cases()
from golden_cases_cover import NUMPY2_COVER, SETUP_COVER, cover_cases  # noqa: E402
from golden_cases_ml import NUMPY2_ML, SETUP_ML, ml_cases  # noqa: E402
CASES += cover_cases()
ML_CASES = ml_cases()
CASES += ML_CASES

_OVERFLOW = {"t": "error", "type": "OverflowError"}


def _scalar(dtype, value):
    return {"t": "scalar", "dtype": dtype, "value": value}


def _array(dtype, shape, data):
    return {"t": "array", "dtype": dtype, "shape": shape, "data": data}


#: NumPy >= 2 results where Debian's NumPy 1.24 answers differently (the fallback mirrors >= 2).
NUMPY2 = {
    # np.max/np.min became their own functions (1.x: aliases of amax/amin).
    "np.max.__name__": {"t": "py", "type": "str", "value": "max"},
    "np.min.__name__": {"t": "py", "type": "str", "value": "min"},
    # np.bool_ is np.bool, named 'bool'.
    "np.bool_.__name__": {"t": "py", "type": "str", "value": "bool"},
    # NEP 50: Python scalars are weak; NumPy scalars keep their precision.
    "np.uint16(3) + 3": _scalar("uint16", 6),
    "np.int16(2) + 2": _scalar("int16", 4),
    "True + np.uint8(2)": _scalar("uint8", 3),
    "np.bool_(True) + 1": _scalar("int64", 2),
    "np.float32(0.5) ** 2": _scalar("float32", 0.25),
    "np.int8(2) ** 7": _scalar("int8", -128),
    "np.multiply(np.float16(2), 3)": _scalar("float16", 6.0),
    "h + 1e5": _array("float16", [4], ["inf", "inf", "inf", "inf"]),
    "f + 1e39": _array("float32", [2, 3], [["inf"] * 3, ["inf"] * 3]),
    "h * 1000": _array("float16", [4], [100.0, 1000.0, "inf", -2500.0]),
    "np.left_shift(np.int8(1), 7)": _scalar("int8", -128),
    "np.left_shift(np.int8(1), 8)": _scalar("int8", 0),
    "np.right_shift(np.int8(-128), 3)": _scalar("int8", -16),
    "np.right_shift(np.int8(-1), 10)": _scalar("int8", -1),
    "np.right_shift(np.uint8(255), 9)": _scalar("uint8", 0),
    # NEP 50: a Python int that does not fit the integer dtype it meets is an error.
    "np.array([300], dtype=np.int8)": _OVERFLOW,
    "np.full((2, 2), -1, dtype=np.uint8)": _OVERFLOW,
    "u8 + 300": _OVERFLOW,
    "np.arange(-5, 0, 1, dtype=np.uint8)": _OVERFLOW,
    "setitem(u8, 0, 256)": _OVERFLOW,
    "setitem(u8, 0, -1)": _OVERFLOW,
    "setitem(u8, [0, 1], 300)": _OVERFLOW,
    # Scalar repr names the type.
    "repr(np.float32(1.5))": {"t": "py", "type": "str", "value": "np.float32(1.5)"},
    "repr(np.int8(-3))": {"t": "py", "type": "str", "value": "np.int8(-3)"},
    "repr(np.True_)": {"t": "py", "type": "str", "value": "np.True_"},
    "repr(np.float64(0.1))": {"t": "py", "type": "str", "value": "np.float64(0.1)"},
}
NUMPY2.update(NUMPY2_COVER)
NUMPY2.update(NUMPY2_ML)
# NumPy >= 2.1: floor/ceil/trunc return integer and bool input unchanged (1.x made floats).
for _n in ("floor", "ceil", "trunc"):
    NUMPY2[f"np.{_n}(i8)"] = _array("int8", [4], [100, -100, 127, -128])
    NUMPY2[f"np.{_n}(u8)"] = _array("uint8", [4], [0, 1, 200, 255])
    NUMPY2[f"np.{_n}(b)"] = _array("bool", [4], [True, False, True, False])
CASES += [k for k in NUMPY2 if k not in CASES]


def _enc(x):
    if getattr(x, "shape", None) == () and hasattr(x, "item"):  # a NumPy scalar in a list
        x = x.item()
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x == 0 and math.copysign(1.0, x) < 0:
            return "-0.0"
        return x
    if isinstance(x, (list, tuple)):
        return [_enc(v) for v in x]
    return x


def describe(np, value):
    """A JSON-able description of ``value`` that is the same for equal NumPy results."""
    if isinstance(value, np.ndarray):
        return _array(value.dtype.name, list(value.shape), _enc(value.tolist()))
    if isinstance(value, np.generic):
        return _scalar(value.dtype.name, _enc(value.item()))
    if isinstance(value, np.dtype):
        return {"t": "dtype", "value": value.name}
    if isinstance(value, np.ufunc):
        return {"t": "ufunc", "value": value.__name__}
    if isinstance(value, type):
        return {"t": "type", "value": value.__name__}
    if isinstance(value, tuple) and any(isinstance(v, (np.ndarray, np.generic)) for v in value):
        return {"t": "tuple", "value": [describe(np, v) for v in value]}
    if isinstance(value, list) and any(isinstance(v, (np.ndarray, np.generic)) for v in value):
        return {"t": "list", "value": [describe(np, v) for v in value]}
    if value is None or isinstance(value, (bool, int, float, str, list, tuple)):
        return {"t": "py", "type": type(value).__name__, "value": _enc(value)}
    return {"t": "other", "type": type(value).__name__}


def evaluate(np, expr, env):
    """``describe`` of ``eval(expr)``, or ``{"t": "error", "type": <exception class>}``."""
    try:
        value = eval(expr, env)
    except Exception as e:  # noqa: BLE001 - the exception class is the expected result
        return {"t": "error", "type": _error_name(e)}
    return describe(np, value)


def _error_name(e):
    # NumPy raises private subclasses (UFuncTypeError, AxisError, ...); compare what users
    # catch: the first builtin base class.
    for cls in type(e).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(e).__name__


def make_env(np):
    env = {"np": np}
    exec(SETUP, env)
    exec(SETUP_MORE, env)
    exec(SETUP_COVER, env)
    try:
        exec(SETUP_ML, env)
    except ImportError:  # no ml_dtypes: make_goldens.py keeps the recorded ML_CASES results
        env["_no_ml_dtypes"] = True
    return env
