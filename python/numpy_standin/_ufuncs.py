"""``np.add`` & co.: ufunc objects with NumPy's names, arity, identities and loop resolvers,
and their ``__call__`` / ``.reduce`` / ``.accumulate`` / ``.outer``.

Type resolution follows NumPy ≥ 2: Python scalars are "weak" (NEP 50: ``float32 + 1.0`` is
float32, ``int8_array + 300`` raises OverflowError), then each ufunc picks its loop the way
NumPy's loop tables do (the resolvers: ``_loops``). Calling one is ``_apply``'s; reducing and
accumulating are ``_folds``'; both sit below this module and get the ufunc as an argument.
"""
from . import _kernels as K
from ._apply import call, is_operand  # noqa: F401 - is_operand: the operators' test
from ._creation import asarray
from ._errors import user_error
from ._folds import into, scan, ufunc_reduce
from ._loops import (COMPARISONS, UFuncTypeError, _arith, _bool_negative,  # noqa: F401
                     _bool_subtract, _float, _integer_only, _no_bool, _same, _to_bool,
                     _true_divide)

_NO_VALUE = object()


class ufunc:
    """An element-wise function; call it on scalars or arrays (broadcasting), or ``.reduce``."""

    def __init__(self, name, nin, kernel, resolve, identity=None):
        self.__name__ = name
        self.__qualname__ = name
        self.nin = nin
        self.nout = 1
        self.nargs = nin + 1
        self.identity = identity
        self._kernel = kernel
        self._resolve = resolve

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, dtype=None, casting="same_kind", where=True, **kwargs):
        if len(args) == self.nin + 1 and out is None:
            args, out = args[:-1], args[-1]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument"
                            f"{'s' if self.nin > 1 else ''} but {len(args)} were given")
        _reject_options(self.__name__, where, kwargs)
        return call(self, args, out, dtype, casting)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
               where=True):
        """Reduces ``array`` along ``axis`` (an int, a tuple, or None for all axes)."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        _reject_options(self.__name__, where, {})
        return ufunc_reduce(self, array, axis, dtype, out, keepdims,
                            None if initial is _NO_VALUE else initial)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running results of this binary ufunc along ``axis`` (in ``array``'s dtype)."""
        if self.nin != 2:
            raise ValueError("accumulate only supported for binary functions")
        arr = asarray(array)
        if arr.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        return into(out, scan(self, arr, axis, dtype or arr.dtype))

    def outer(self, A, B, **kwargs):
        """This binary ufunc applied to every pair: ``result[i..., j...] = f(A[i...], B[j...])``."""
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        a, b = asarray(A), asarray(B)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def _unsupported(self, method):
        def fail(*args, **kwargs):
            raise NotImplementedError(
                f"numpy.{self.__name__}.{method} is not available in nki-playground's "
                f"trace-time numpy fallback (no real numpy can be loaded here)")
        return fail

    def __getattr__(self, name):
        if name in ("at", "reduceat"):
            return self._unsupported(name)
        raise user_error(AttributeError(f"'numpy.ufunc' object has no attribute '{name}'"))


def _reject_options(name, where, kwargs):
    if where is not True or kwargs:
        extra = ", ".join(sorted(kwargs)) or "where"
        raise TypeError(f"{name}(): argument(s) {extra} not supported by nki-playground's "
                        f"trace-time numpy fallback")


UFUNCS = {}


def _def(name, nin, resolve, identity=None, kernel=None):
    UFUNCS[name] = ufunc(name, nin, kernel or getattr(K, name), resolve, identity)
    return UFUNCS[name]


_def("add", 2, _arith(), 0)
_def("subtract", 2, _bool_subtract)
_def("multiply", 2, _arith(), 1)
_def("divide", 2, _true_divide)
_def("floor_divide", 2, _arith(False))
_def("remainder", 2, _arith(False))
_def("fmod", 2, _arith(False))
_def("power", 2, _arith(False))
_def("maximum", 2, _arith())
_def("minimum", 2, _arith())
_def("arctan2", 2, _float)
for _n in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos",
           "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "rint"):
    _def(_n, 1, _float)
for _n in ("floor", "ceil", "trunc", "absolute"):  # floor/ceil/trunc: identity on ints (≥ 2.1)
    _def(_n, 1, _same)
_def("negative", 1, _bool_negative)
_def("positive", 1, _no_bool)
_def("sign", 1, _no_bool)
_def("square", 1, _arith(False))
_def("reciprocal", 1, _arith(False))
for _n in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal"):
    _def(_n, 2, _to_bool)
_def("logical_and", 2, _to_bool, True)
_def("logical_or", 2, _to_bool, False)
_def("logical_xor", 2, _to_bool, False)
_def("logical_not", 1, _to_bool)
for _n in ("isnan", "isinf", "isfinite"):
    _def(_n, 1, _to_bool)
_def("bitwise_and", 2, _integer_only(True), -1)
_def("bitwise_or", 2, _integer_only(True), 0)
_def("bitwise_xor", 2, _integer_only(True), 0)
_def("invert", 1, _integer_only(True))
_def("left_shift", 2, _integer_only(False))
_def("right_shift", 2, _integer_only(False))

#: Other names NumPy gives the same ufunc objects (``np.abs is np.absolute``); the NumPy ≥ 2
#: array-API spellings (``pow``, ``atan``, ...) included.
ALIASES = {
    "abs": "absolute", "true_divide": "divide", "mod": "remainder", "bitwise_not": "invert",
    "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift", "pow": "power", "asin": "arcsin", "acos": "arccos",
    "atan": "arctan", "atan2": "arctan2",
}
