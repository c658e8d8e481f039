"""Python operators of scalars and arrays, each a call of the matching ufunc.

An operand the fallback does not know (an NKI tile, say) makes the operator return
NotImplemented, so Python asks the other operand (``np.float32(2) * tile`` reaches the tile's
``__rmul__``).
"""
from . import _ufuncs

_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
}
_COMPARE = {
    "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
    "ge": "greater_equal",
}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


def _binary(ufunc_name, reflected):
    def op(self, other):
        if not _ufuncs.is_operand(other):
            return NotImplemented
        fn = _ufuncs.UFUNCS[ufunc_name]
        return fn(other, self) if reflected else fn(self, other)
    return op


def _pow(reflected):
    base = _binary("power", reflected)

    def op(self, other, modulo=None):
        if modulo is not None:
            raise TypeError("pow() with a modulus is not supported by numpy scalars/arrays")
        return base(self, other)
    return op


def _unary(ufunc_name):
    def op(self):
        return _ufuncs.UFUNCS[ufunc_name](self)
    return op


def _inplace(ufunc_name):
    def op(self, other):
        if not _ufuncs.is_operand(other):
            return NotImplemented
        return _ufuncs.UFUNCS[ufunc_name](self, other, out=self)
    return op


def operator_methods(inplace=False):
    """The arithmetic, comparison and unary operators, ``{dunder name: function}`` (with the
    in-place ones when ``inplace``), for ``_methods`` to attach."""
    methods = {}
    for short, name in _BINARY.items():
        maker = _pow if short == "pow" else None
        methods[f"__{short}__"] = maker(False) if maker else _binary(name, False)
        methods[f"__r{short}__"] = maker(True) if maker else _binary(name, True)
        if inplace:
            methods[f"__i{short}__"] = _inplace(name)
    for short, name in _COMPARE.items():
        methods[f"__{short}__"] = _binary(name, False)
    for short, name in _UNARY.items():
        methods[f"__{short}__"] = _unary(name)
    methods["__divmod__"] = lambda self, other: (self // other, self % other)
    methods["__rdivmod__"] = lambda self, other: (other // self, other % self)
    return methods
