"""``nki.language`` (NKI 0.6.0): dtypes, memory regions, tile sizes, tensor creation, views,
loops, program ids, ``device_print``, ``no_reorder``, op tokens and the experimental wrappers.

Outside a kernel being traced, creating or computing on tensors raises NKI's outside-kernel
error; dtypes, buffers, ``tile_size`` and the range helpers work anywhere.
"""
import weakref

from .. import _core, _rules, _trace
from .._registers import DynamicRange, VirtualRegister, fori_loop, while_loop  # noqa: F401
from .._tensor import DynamicSlice, NkiTensor  # noqa: F401
from . import _math
from .._buffers import (MemoryRegion, hbm, is_hbm, is_on_chip, is_psum, is_sbuf,  # noqa: F401
                       private_hbm, psum, sbuf, shared_hbm)
from ._creation import (empty_like, full, ndarray, ones, rand, random_seed,  # noqa: F401
                        shared_constant, shared_identity_matrix, zeros, zeros_like)
from ._math import abs, average, bypass, ceil, copy, floor, negative, prelu, trunc  # noqa: F401
from ._tilesize import tile_size  # noqa: F401
from ._wrappers import (all, broadcast_to, dropout, expand_dims, gather_flattened,  # noqa: F401
                        load, load_transpose2d, matmul, max, mean, min, prod, rms_norm, softmax,
                        store, sum, transpose, var, where)

DType = str
bool_ = "bool_"
int8, int16, int32 = "int8", "int16", "int32"
uint8, uint16, uint32 = "uint8", "uint16", "uint32"
float16, float32, bfloat16, tfloat32 = "float16", "float32", "bfloat16", "tfloat32"
float8_e4m3, float8_e4m3fn, float8_e5m2 = "float8_e4m3", "float8_e4m3fn", "float8_e5m2"
float8_e5m2_x4, float8_e4m3fn_x4 = "float8_e5m2_x4", "float8_e4m3fn_x4"
float8_e8m0fnu, float4_e2m1fn_x4 = "float8_e8m0fnu", "float4_e2m1fn_x4"

for _name in _math.BINARY + _math.UNARY_ALU + _math.ACTIVATIONS:
    globals()[_name] = getattr(_math, _name)


class _NKIObjectType(type):
    """NKI's classes take their class attributes as constructor keywords, annotated or not:
    ``@dataclass class P(nl.NKIObject): idx = None`` is built as ``P(idx=3)`` (nki-library's
    attention_cte), where Python's dataclass would generate an ``__init__`` without ``idx``.
    Keywords naming a class attribute that the class's own ``__init__`` does not take are set on
    the instance before that ``__init__`` runs (so a ``__post_init__`` sees them); any other
    keyword reaches ``__init__``, which refuses it as Python does."""

    def __call__(cls, *args, **kwargs):
        init = cls.__init__
        if not kwargs or init is NKIObject.__init__:
            return super().__call__(*args, **kwargs)
        taken = _init_keywords(init)
        extra = {k: v for k, v in kwargs.items()
                 if taken is not None and k not in taken and _is_class_field(cls, k)}
        if not extra:
            return super().__call__(*args, **kwargs)
        obj = cls.__new__(cls)
        for k, v in extra.items():
            setattr(obj, k, v)
        obj.__init__(*args, **{k: v for k, v in kwargs.items() if k not in extra})
        return obj


_INIT_KEYWORDS = weakref.WeakKeyDictionary()  # (a class defined again drops its entry)


def _init_keywords(init):
    """The keyword names ``init`` takes; None when it takes any (``**kwargs``)."""
    if init not in _INIT_KEYWORDS:
        import inspect
        try:
            params = inspect.signature(init).parameters.values()
        except (TypeError, ValueError):
            params = ()
        names = set()
        for p in params:
            if p.kind is p.VAR_KEYWORD:
                names = None
                break
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                names.add(p.name)
        _INIT_KEYWORDS[init] = names
    return _INIT_KEYWORDS[init]


def _is_class_field(cls, name):
    """Whether ``name`` is a plain class attribute of ``cls`` (not a method or property)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            v = klass.__dict__[name]
            return not (callable(v) or isinstance(v, (property, staticmethod, classmethod)))
    return False


class NKIObject(metaclass=_NKIObjectType):
    """Base class for NKI kernel dataclasses and configuration objects."""

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)


def ds(start, size):
    """``size`` elements from ``start`` (an int, or a register for a run-time start)."""
    return DynamicSlice(start, size)


def _range(start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    for x, what in ((start, "start"), (stop, "stop"), (step, "step")):
        if not isinstance(x, int) or isinstance(x, bool):
            if isinstance(x, VirtualRegister):
                _rules.raise_register_in_python("range() (use nl.fori_loop)")
            raise TypeError(f"range {what} must be an int, got {type(x).__name__}")
    return range(start, stop, step)


def affine_range(start, stop=None, step=1):
    """An alias of ``range`` (deprecated in NKI 0.6.0; the loop is unrolled)."""
    return _range(start, stop, step)


def sequential_range(start, stop=None, step=1):
    """An alias of ``range`` (deprecated in NKI 0.6.0; the loop is unrolled)."""
    return _range(start, stop, step)


def static_range(start, stop=None, step=1):
    """An alias of ``range`` (the loop is unrolled)."""
    return _range(start, stop, step)


def dynamic_range(start, stop=None, step=1):
    """A hardware loop (deprecated in NKI 0.6.0: use ``fori_loop``): iterated by ``for``, its
    body is traced once over a frozen induction register."""
    return DynamicRange(start, stop, step)


def program_id(axis=0):
    """The logical core running this body (0 without LNC2): a Python int — NKI traces a kernel
    once per core."""
    t = _trace.need("nki.language.program_id")
    ok = isinstance(axis, int) and not isinstance(axis, bool)
    _core.op({"op": "program_id", "axis": axis if ok else str(axis)})  # the core checks axis
    return t.core


def num_programs(axes=0):
    t = _trace.need("nki.language.num_programs")
    if axes not in (0, None, (0,), [0]):
        _core.raise_diagnostic("err_program_axis", str(axes))
    return t.lnc


def program_ndim():
    t = _trace.need("nki.language.program_ndim")
    return 1 if t.lnc > 1 else 0


def device_print(print_prefix, tensor):
    """Prints ``print_prefix`` and the tensor's values when the kernel runs (in simulation, to
    stdout)."""
    if not isinstance(print_prefix, str):
        _rules.view_rule("device_print", "print_prefix must be a constant string")
    if not isinstance(tensor, NkiTensor):
        _rules.view_rule("device_print", f"prints a tensor, got {type(tensor).__name__}")
    _trace.need("nki.language.device_print")
    _core.op({"op": "call", "api": "device_print", "operands": [["x", tensor._json()]],
              "attrs": {"prefix": print_prefix}})


class no_reorder:
    """``with nl.no_reorder():`` — the block's instructions keep their order (a ScopeRegion
    no_reorder); runtime loops cannot be nested in it."""

    def __enter__(self):
        t = _trace.need("nki.language.no_reorder")
        self._t = t
        self._region = t.open(_core.op({"op": "push", "kind": "ScopeRegion", "tag": "no_reorder"}), "no_reorder")
        t.no_reorder += 1
        return None

    def __exit__(self, *exc):
        t = self._t
        t.no_reorder -= 1
        if exc[0] is None:
            t.close(self._region)
        return False
