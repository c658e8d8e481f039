"""nki-playground's trace-time numpy fallback: a small pure-Python stand-in for NumPy.

Pyodide here cannot load a real NumPy, yet NKI kernels ``import numpy as np`` and pass
``np.float32``, ``np.add``, ``np.max``, ``np.exp``, ``np.identity(...)`` and the like at trace
time. ``nki_playground.standins.ensure_numpy()`` installs the module built here as
``numpy`` only when ``import numpy`` fails; a real NumPy is always preferred.

What it covers, mirroring NumPy ≥ 2 where NumPy versions differ:
  * dtypes and scalar types (``np.float32(1.1)`` rounds to single precision via IEEE packing,
    ``np.bool_.__name__ == 'bool'``), ``np.dtype``, ``finfo``/``iinfo``;
  * ufuncs with NumPy's names, ``nin``/``nout``/``identity``, ``.reduce``, NEP 50 promotion;
    ``np.max.__name__ == 'max'`` and ``np.amax.__name__ == 'amax'`` (NumPy 1.x named both
    'amax'); ``floor``/``ceil``/``trunc`` keep integer dtypes (NumPy ≥ 2.1);
  * a small ``ndarray`` (strided views over one storage class, ``_storage.py``) with the usual
    constructors, basic and advanced indexing, broadcasting arithmetic and reductions with
    ``axis``; joining, sorting, scans, ``einsum`` and the other helpers NKI's doc tests use.

Host arrays of 1024 elements or more keep their bytes in the C++ core, which runs their
ufuncs, reductions, matmul and casts (``_core_storage``); ``np.random`` draws NumPy's seeded
sequences; ``np.load``/``np.save`` read and write .npy files.

Anything else raises ``AttributeError: numpy.<name> is not available in nki-playground's
trace-time numpy fallback (...)`` instead of answering wrongly; ``numpy.linalg`` & co. exist only
to raise it. Known differences: float scalar types subclass ``float`` and integer scalar types
``int``; float sums are exact-then-rounded; ``empty`` gives zeros; no complex, string or object
dtypes.
"""
import math
import sys

from . import (_arrange, _arrayprint, _creation, _dtypes, _einsum, _functions, _generator, _io,
               _lanes, _limits, _linalg, _matmul, _random, _random_state, _reductions,
               _scalars, _shapes, _stats, _testing, _typing, _ufuncs, _wrappers)
from . import _methods  # noqa: F401 - attaches the array and scalar methods
from ._ndarray import ndarray
from ._unsupported import PartialModule, STUB_SUBMODULES, stub_submodule

__version__ = "0.0+nki-playground-fallback"

_SCALAR_TYPES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "generic", "number", "integer",
                 "signedinteger", "unsignedinteger", "inexact", "floating", "True_", "False_")
_TYPE_ALIASES = {
    "bool": "bool_", "half": "float16", "single": "float32", "double": "float64",
    "int_": "int64", "intp": "int64", "uint": "uint64", "uintp": "uint64", "byte": "int8",
    "ubyte": "uint8", "short": "int16", "ushort": "uint16", "intc": "int32", "uintc": "uint32",
    "long": "int64", "ulong": "uint64", "longlong": "int64", "ulonglong": "uint64",
}
_CREATION = ("array", "asarray", "zeros", "ones", "full", "empty", "identity", "eye", "arange",
             "linspace", "zeros_like", "ones_like", "empty_like", "full_like")
_FUNCTIONS = ("promote_types", "can_cast", "result_type", "isscalar", "shape", "ndim", "size",
              "reshape", "transpose", "ravel", "copy", "where", "isclose", "allclose",
              "array_equal", "broadcast_shapes")


def namespace():
    """The public names of the fallback ``numpy`` module, as a dict."""
    ns = {name: getattr(_scalars, name) for name in _SCALAR_TYPES}
    ns.update({alias: ns[target] for alias, target in _TYPE_ALIASES.items()})
    ns.update(dtype=_dtypes.dtype, ndarray=ndarray, ufunc=_ufuncs.ufunc,
              issubdtype=_scalars.issubdtype, finfo=_limits.finfo, iinfo=_limits.iinfo)
    ns.update(_ufuncs.UFUNCS)
    ns.update({alias: _ufuncs.UFUNCS[target] for alias, target in _ufuncs.ALIASES.items()})
    ns.update(_reductions.REDUCERS)
    ns.update({name: getattr(_creation, name) for name in _CREATION})
    ns.update({name: getattr(_functions, name) for name in _FUNCTIONS})
    ns.update({name: getattr(_io, name) for name in ("frombuffer", "fromfile", "load", "save")})
    ns.update(matmul=_matmul.matmul, dot=_matmul.dot, repeat=_functions.repeat)
    ns.update({name: getattr(_shapes, name) for name in _shapes.NAMES})
    ns.update({name: getattr(_lanes, name) for name in _lanes.NAMES})
    ns.update(einsum=_einsum.einsum, row_stack=_shapes.vstack)
    for impl in (_arrange, _arrayprint, _stats, _wrappers):
        ns.update({name: getattr(impl, name) for name in impl.NAMES})
    ns.update(round=_arrange.around)
    ns.update(pi=math.pi, e=math.e, inf=math.inf, nan=math.nan, newaxis=None,
              euler_gamma=0.5772156649015329)
    return ns


def _partial_submodule(full_name, impl, *more):
    """``full_name`` as a package holding the ``NAMES`` that module ``impl`` (and ``more``)
    implement; ``impl``'s docstring is the package's."""
    part = PartialModule(full_name, impl.__doc__)
    names = [name for module in (impl,) + more for name in module.NAMES]
    for module in (impl,) + more:
        for fn in module.NAMES:
            setattr(part, fn, getattr(module, fn))
    part._supported = ", ".join(names)
    part.__path__ = []
    return part


def build(name="numpy"):
    """A fresh module object named ``name`` holding the fallback, plus its submodules.

    Returns:
        ``{module name: module}`` for ``name`` and every ``name.<sub>`` (``exceptions`` with
        ``AxisError``; stubs such as ``random`` that raise the clear error).
    """
    mod = PartialModule(name, __doc__)
    ns = namespace()
    mod.__dict__.update(ns)
    mod.__version__ = __version__
    mod.__file__ = __file__
    mod.__path__ = []  # a package, so `import numpy.random` finds the registered stubs
    mod._supported = ", ".join(sorted(ns))
    modules = {name: mod}
    exceptions = PartialModule(f"{name}.exceptions", "NumPy's exception classes (AxisError).")
    exceptions.AxisError = _reductions.AxisError
    exceptions._supported = "AxisError"
    mod.exceptions = modules[exceptions.__name__] = exceptions
    for sub, impls in (("random", (_random, _random_state, _generator)), ("testing", (_testing,)),
                       ("linalg", (_linalg,)), ("typing", (_typing,))):
        part = _partial_submodule(f"{name}.{sub}", *impls)
        setattr(mod, sub, part)
        modules[part.__name__] = part
    for sub in STUB_SUBMODULES:
        stub = stub_submodule(name, sub)
        setattr(mod, sub, stub)
        modules[stub.__name__] = stub
    return modules


def install(modules=None):
    """Registers a freshly built fallback as ``numpy`` (and its submodules) in ``sys.modules``;
    returns the ``numpy`` module."""
    target = sys.modules if modules is None else modules
    built = build()
    target.update(built)
    return built["numpy"]
