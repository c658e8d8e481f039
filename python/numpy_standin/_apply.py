"""Calling a ufunc: operands → NEP 50 promotion → loop dtype → broadcast → kernel → output."""
from . import _core_storage as C
from . import _dtypes as D
from ._creation import asarray
from ._errors import out_of_bounds
from ._loops import COMPARISONS, UFuncTypeError, _float, _no_loop, _to_bool
from ._ndarray import broadcast_shapes, core_array, from_values, ndarray, on_core
from ._scalars import generic, wrap


class _Operand:
    """One ufunc input: an array (or NumPy scalar, a 0-d strong operand) or a weak Python
    number. ``weak`` is 'b', 'i' or 'f' for Python bool, int, float; None otherwise."""

    __slots__ = ("array", "raw", "dtype", "weak", "shape")

    def __init__(self, array=None, raw=None, dtype=None, weak=None):
        self.array, self.raw, self.dtype, self.weak = array, raw, dtype, weak
        self.shape = array.shape if array is not None else ()


def is_operand(x):
    """Whether ``x`` is something a ufunc accepts: a Python or NumPy number, an array, or a
    (nested) list or tuple of those."""
    return isinstance(x, (bool, int, float, generic, ndarray, list, tuple))


def _operand(x, name):
    if isinstance(x, ndarray):
        return _Operand(array=x, dtype=x.dtype)
    if isinstance(x, generic):
        return _Operand(raw=x._raw(), dtype=x.dtype)
    if isinstance(x, bool):
        return _Operand(raw=x, weak="b")
    if isinstance(x, int):
        return _Operand(raw=x, weak="i")
    if isinstance(x, float):
        return _Operand(raw=x, weak="f")
    if isinstance(x, (list, tuple)):
        arr = asarray(x)
        return _Operand(array=arr, dtype=arr.dtype)
    raise TypeError(f"ufunc '{name}' got an operand of type {type(x).__name__}, which "
                    f"nki-playground's trace-time numpy fallback does not support")


def promote(operands):
    """The common input dtype under NEP 50: strong dtypes promote; a weak Python int only
    lifts bool to int64, a weak Python float only lifts bool/int to float64."""
    strong = [op.dtype for op in operands if op.weak is None]
    weak = {op.weak for op in operands if op.weak is not None}
    if strong:
        p = D.promote_all(strong)
    else:
        p = D.BOOL
    if "i" in weak and p._kind == "b":
        p = D.DEFAULT_INT
    if "f" in weak and p._kind != "f":
        p = D.promote(p, D.DEFAULT_FLOAT)
    return p


#: Ufuncs ml_dtypes registers no loop for (bit operations): its types reach none of NumPy's.
_NO_ML_LOOP = frozenset(("bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift",
                         "right_shift"))
_ML_TO_BOOL = COMPARISONS | {"logical_and", "logical_or", "logical_xor", "logical_not",
                             "isnan", "isinf", "isfinite"}


def _safe_operand(op, t):
    """Whether operand ``op`` casts safely to loop type ``t`` (NumPy ≥ 2: a Python int or float
    reaches any NumPy float loop, and an ml_dtypes loop only as int64/float64 would, i.e. not)."""
    if op.weak in ("i", "f"):
        return t._fmt is None and t._kind == "f"
    return D.can_cast(D.BOOL if op.weak == "b" else op.dtype, t, "safe")


def ml_loop(uf, ops):
    """(loop dtype, output dtype) for operands of ml_dtypes' types, as NumPy's legacy loop
    search finds it: first each operand's ml_dtypes loop (``T, T -> T``, comparisons ``-> bool``)
    that every operand casts to safely, then NumPy's own loops in order (float32, float64)."""
    name = uf.__name__
    if name not in _NO_ML_LOOP:
        for op in ops:
            t = op.dtype
            if op.weak is None and t._fmt is not None and all(_safe_operand(o, t) for o in ops):
                return t, (D.BOOL if name in _ML_TO_BOOL else t)
        for t in (D.FLOAT32, D.FLOAT64):
            if all(_safe_operand(o, t) for o in ops):
                return _float(name, t) if uf._resolve is _float else uf._resolve(name, t)
    raise _no_loop(name, [op.dtype or D.dtype({"i": int, "f": float, "b": bool}[op.weak])
                          for op in ops])


def _cast_weak(op, lp, exact):
    v = op.raw
    if op.weak == "i" and lp._kind in "iu":
        if exact:
            return v  # comparisons see the exact Python int
        if not D.fits(lp, v):
            raise out_of_bounds(v, lp)
    return D.cast_value(lp, v)


def _column(op, shape, size, lp, exact):
    """The operand's raw values cast to ``lp``, broadcast to ``shape`` (row-major)."""
    if op.array is None:
        v = _cast_weak(op, lp, exact) if op.weak else D.cast_value(lp, op.raw)
        return [v] * size
    values = op.array._broadcast_values(shape)
    if op.dtype is lp:
        return values
    return [D.cast_value(lp, v) for v in values]


def finalize(od, value):
    """A kernel's result as a raw value of output dtype ``od``."""
    if od._kind == "f":
        return D.round_computed(od, float(value))
    if od._kind == "b":
        return bool(value)
    return D.wrap_int(od, int(value))


def call(uf, args, out, dtype, casting):
    name = uf.__name__
    ops = [_operand(a, name) for a in args]
    if any(op.dtype is not None and op.dtype._fmt is not None for op in ops):
        lp, od = ml_loop(uf, ops)
    else:
        p = promote(ops)
        if uf._resolve is _float:
            lp, od = _float(name, p, [op.dtype for op in ops if op.weak is None])
        else:
            lp, od = uf._resolve(name, p)
    if dtype is not None:  # dtype= names the output dtype; the loop computes in it
        forced = D.dtype(dtype)
        if uf._resolve is _to_bool:
            if forced is not D.BOOL:
                raise UFuncTypeError(f"No loop matching the specified signature and casting "
                                     f"was found for ufunc {name}")
        else:
            lp = od = forced
    if out is not None:
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if not isinstance(out, ndarray):
            raise TypeError(f"{name}(): 'out' must be an array")
        if not D.can_cast(od, out.dtype, casting):
            raise UFuncTypeError(f"Cannot cast ufunc '{name}' output from {od!r} to "
                                 f"{out.dtype!r} with casting rule '{casting}'")
    shape = broadcast_shapes(*(op.shape for op in ops))
    size = 1
    for n in shape:
        size *= n
    in_core = _core_call(uf, ops, lp, od, shape, size)
    if in_core is not None:
        if out is not None:
            if broadcast_shapes(shape, out.shape) != out.shape:
                raise ValueError(f"non-broadcastable output operand with shape {out.shape} "
                                 f"doesn't match the broadcast shape {shape}")
            out._assign(in_core)
            return out
        return in_core if shape else wrap(od, in_core._values()[0])
    exact = name in COMPARISONS
    cols = [_column(op, shape, size, lp, exact) for op in ops]
    kernel = uf._kernel
    if len(cols) == 1:
        raw = [finalize(od, kernel(lp, a)) for a in cols[0]]
    else:
        raw = [finalize(od, kernel(lp, a, b)) for a, b in zip(cols[0], cols[1])]
    if out is not None:
        if broadcast_shapes(shape, out.shape) != out.shape:
            raise ValueError(f"non-broadcastable output operand with shape {out.shape} "
                             f"doesn't match the broadcast shape {shape}")
        out._assign(from_values(raw, shape, od))
        return out
    if not shape:
        return wrap(od, raw[0])
    return from_values(raw, shape, od)


def _core_call(uf, ops, lp, od, shape, size):
    """The ufunc computed by the core (large or core-backed operands), or None when the Python
    loops below should compute it (small arrays; a ufunc or dtype the core does not have)."""
    arrays = [op.array for op in ops if op.array is not None]
    if not C.available() or not (size >= C.THRESHOLD or any(
            isinstance(a._store, C.CoreStorage) for a in arrays)):
        return None
    if not (C.eligible(lp) and C.eligible(od)) or "uint64" in (lp.name, od.name):
        return None
    exact = uf.__name__ in COMPARISONS
    inputs, keep = [], []  # keep: core copies made here stay alive (freed with their storage)
    for op in ops:
        if op.array is None:
            v = _cast_weak(op, lp, exact) if op.weak else D.cast_value(lp, op.raw)
            if lp._kind in "iub" and not D.fits(lp if lp._kind != "b" else D.UINT8, int(v)):
                return None  # an exact Python int the loop type cannot hold: Python compares
            inputs.append({"s": float(v) if lp._kind == "f" else int(v)})
            continue
        a = on_core(op.array if op.array.dtype is lp else op.array.astype(lp))
        keep.append(a)
        inputs.append(C.view_json(a))
    reply = C.request({"op": "ufunc", "name": uf.__name__, "lp": lp.name, "od": od.name,
                       "shape": list(shape), "inputs": inputs})
    del keep
    if reply.get("unsupported"):
        return None
    return core_array(od, reply["id"], shape)
