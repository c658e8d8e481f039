"""Trace-time tensors: a handle on a value the core holds (a tensor or a view of one).

Indexing makes a view (one core call, no instruction); arithmetic operators call the same ops
as ``nl.add`` & co. Shapes, dtypes and buffers come back from the core with every reply.
"""
import sys as _sys

from . import _dtypes
from nki_playground import loc as _loc
from ._index import IndexExpr, layout_grid_indices_with_order, Predicate
from .compiler.backends.neuron.nki_ctx import nki_ctx
from nki_playground.errors import coded


#: The language families the operators and methods call ({"math": ..., "movement": ...}).
_LANGUAGE = {}


def install_language(math, movement):
    """Called by ``neuronxcc.nki.language`` at import: the modules implementing the operators
    and tensor methods of ``NkiTensor``."""
    _LANGUAGE.update(math=math, movement=movement)


class NkiTensor:
    """A tensor or tile during tracing (``nki.tensor`` in NKI's docs).

    A subscript ``t[...]`` is a *lazy view*: it is resolved by the core together with the op
    that consumes it (so ``nl.load(a[i, j])`` is one boundary call), or on first access to its
    shape/dtype.
    """

    __slots__ = ("_v", "_r", "_base", "_items", "_loc", "_acc", "_grid", "_raw")

    def __init__(self, reply=None, base=None, items=None, loc=None):
        self._r = reply
        self._v = reply["v"] if reply is not None else None
        self._base = base    # lazy view: the viewed value's id and the subscript items
        self._items = items
        self._loc = loc
        self._acc = False    # set by `op=` so that the following `t[...] =` is a no-op
        self._grid = None    # the layout when the subscript laid out nl.mgrid components
        self._raw = None     # ... and the subscript as written (an index tile keeps that one)

    def _ref(self):
        """How ops name this value in requests."""
        if self._v is not None:
            return {"v": self._v}
        return {"v": self._base, "items": self._items, "loc": self._loc}

    def _reply(self):
        r = self._r
        if r is None:
            r = nki_ctx().builder.op({"op": "view", "v": self._base, "items": self._items,
                                      "loc": self._loc})
            self._r, self._v = r, r["v"]
        return r

    @property
    def shape(self):
        return tuple(self._reply()["shape"])

    @property
    def dtype(self):
        name = self._reply()["dtype"]
        return _dtypes.lookup(name) or name

    @property
    def buffer(self):
        return self._reply()["buffer"]

    @property
    def name(self):
        return self._reply()["name"]

    @property
    def _t(self):
        return self._reply()["t"]

    @property
    def _region(self):
        return self._reply()["region"]

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def itemsize(self):
        return _dtypes.itemsize(self.dtype)

    def __repr__(self):
        shape = ", ".join(str(s) for s in self.shape)
        return f"{_dtypes.name_of(self.dtype)} {self.name}[{shape}] ({self.buffer})"

    def __len__(self):
        return self.shape[0]

    # --- indexing --------------------------------------------------------------------------
    def __getitem__(self, key):
        nki_ctx()
        if isinstance(key, Predicate):  # operand masking: nl.matmul(x[i_f < 64], y, ...)
            return self._movement().masked_operand(self, key)
        written = key if isinstance(key, tuple) else (key,)
        keys, grid = layout_grid_indices_with_order(written)
        items = [_index_item(k) for k in keys]
        if self._v is None:
            self._reply()  # a view of a view: resolve the inner one first
        view = NkiTensor(base=self._v, items=items, loc=_loc.caller())
        if grid is not None:
            view._grid = grid
            view._raw = [_index_item(k) for k in written]
        return view

    def __setitem__(self, key, value):
        temporary = _is_temporary(value)
        if isinstance(value, NkiTensor) and value._acc:
            value._acc = False
            if value._t == self._t:
                return  # the tail of `t[i] += x`: the in-place op already wrote through the view
        dst = self[key]
        _assign(dst, value, "", temporary)

    def _inplace(self, value, op, temporary):
        _assign(self, value, op, temporary)
        self._acc = True
        return self

    # Each asks _is_temporary first, before `other` is also pushed as an argument of _inplace.
    def __iadd__(self, other):
        temporary = _is_temporary(other)
        return self._inplace(other, "add", temporary)

    def __isub__(self, other):
        temporary = _is_temporary(other)
        return self._inplace(other, "subtract", temporary)

    def __imul__(self, other):
        temporary = _is_temporary(other)
        return self._inplace(other, "multiply", temporary)

    def __itruediv__(self, other):
        temporary = _is_temporary(other)
        return self._inplace(other, "divide", temporary)

    def __iter__(self):
        raise coded(TypeError("a tensor cannot be iterated at trace time; index it with "
                              "nl.arange or loop with nl.affine_range"), "tensor-not-iterable")

    def __bool__(self):
        raise coded(ValueError("Cannot evaluate truth value of a multi-element tensor/array."),
                    "ambiguous-tensor-truth-value")

    # --- arithmetic --------------------------------------------------------------------------
    def __add__(self, other):
        if isinstance(other, IndexExpr):  # `idx[0, b] + iy`: a dynamic offset in a subscript
            return self._movement().dynamic_index(self, other)
        return _binary("add", "add", self, other)

    def __radd__(self, other):
        if isinstance(other, IndexExpr):
            return self._movement().dynamic_index(self, other)
        return _binary("add", "add", other, self)

    def __sub__(self, other):
        return _binary("subtract", "subtract", self, other)

    def __rsub__(self, other):
        return _binary("subtract", "subtract", other, self)

    def __mul__(self, other):
        return _binary("multiply", "multiply", self, other)

    def __rmul__(self, other):
        return _binary("multiply", "multiply", other, self)

    def __truediv__(self, other):
        return _binary("divide", "divide", self, other)

    def __rtruediv__(self, other):
        return _binary("divide", "divide", other, self)

    # The rest of the operators and the tensor methods are implemented by the language
    # families (language/_math.py, language/_movement.py), which ``language`` installs when it
    # is imported (install_language), as JAX installs its array methods: this module does not
    # import the language.
    def _math(self):
        return _LANGUAGE["math"]

    def _movement(self):
        return _LANGUAGE["movement"]

    def __lt__(self, other):
        return self._math().tile_binary("less", self, other)

    def __le__(self, other):
        return self._math().tile_binary("less_equal", self, other)

    def __gt__(self, other):
        return self._math().tile_binary("greater", self, other)

    def __ge__(self, other):
        return self._math().tile_binary("greater_equal", self, other)

    def __eq__(self, other):
        return self._math().tile_binary("equal", self, other)

    def __ne__(self, other):
        return self._math().tile_binary("not_equal", self, other)

    __hash__ = object.__hash__

    def __and__(self, other):
        return self._math().tile_binary("bitwise_and", self, other)

    def __rand__(self, other):
        return self._math().tile_binary("bitwise_and", other, self)

    def __or__(self, other):
        return self._math().tile_binary("bitwise_or", self, other)

    def __ror__(self, other):
        return self._math().tile_binary("bitwise_or", other, self)

    def __xor__(self, other):
        return self._math().tile_binary("bitwise_xor", self, other)

    def __rxor__(self, other):
        return self._math().tile_binary("bitwise_xor", other, self)

    def __lshift__(self, other):
        return self._math().tile_binary("left_shift", self, other)

    def __rshift__(self, other):
        return self._math().tile_binary("right_shift", self, other)

    def __pow__(self, other):
        return self._math().tile_binary("power", self, other)

    def __rpow__(self, other):
        return self._math().tile_binary("power", other, self)

    def __mod__(self, other):
        return self._math().tile_binary("mod", self, other)

    def __rmod__(self, other):
        return self._math().tile_binary("mod", other, self)

    def __neg__(self):
        return self._math().tile_unary("negative", self)

    def __abs__(self):
        return self._math().tile_unary("abs", self)

    def __invert__(self):
        return self._math().tile_unary("invert", self)

    def reshape(self, *shape):
        """A view of the same data with another shape (row-major)."""
        return self._movement().tensor_reshape(self, shape[0] if len(shape) == 1 else shape)

    def view(self, dtype):
        """The same bytes reinterpreted as ``dtype``."""
        return self._movement().tensor_view(self, dtype)

    def astype(self, dtype):
        """A copy converted to ``dtype``."""
        return self._movement().tensor_astype(self, dtype)

    def broadcast_to(self, shape):
        """Broadcast along the partition dimension to ``shape``."""
        return self._movement().tensor_broadcast_to(self, shape)

    def expand_dims(self, axis):
        """A view with a new unit dimension at ``axis``."""
        return self._movement().tensor_expand_dims(self, axis)

    def assert_shape(self, shape):
        """Checks this tensor's shape; returns the tensor."""
        return self._movement().tensor_assert_shape(self, shape)


# `a[...] = nl.exp(x)` hands __setitem__ a value nothing else refers to; `a[...] = t` one that
# the name `t` (or a list, an attribute) still holds. Only a temporary may be folded into the
# destination (the op writing `a` itself): a named value must keep its own tensor for later
# reads. Counted at the entry of __setitem__ / __iadd__ & co. (CPython 3.13, Pyodide 0.29):
# the interpreter's reference to the value, the method's parameter and getrefcount's argument.
# tests/python/assign_fold.test.js pins both cases, so another Python that counts differently
# fails there rather than computing wrong values.
_TEMPORARY_REFS = 3


def _is_temporary(value):
    return isinstance(value, NkiTensor) and _sys.getrefcount(value) <= _TEMPORARY_REFS + 1


def _assign(dst, value, acc, temporary=True):
    ctx = nki_ctx()
    loc = _loc.caller()
    req = {"op": "assign", "dst": dst._ref(), "src": _operand(value), "acc": acc, "loc": loc,
           "expr": _loc.statement_text(loc[0], loc[1]) if loc else "", "temp": temporary}
    ctx.builder.op(req)


def _index_item(k):
    if k is Ellipsis:
        return {"k": "ellipsis"}
    if isinstance(k, bool):
        raise TypeError("boolean indices are not supported")
    if isinstance(k, int):
        return {"k": "int", "v": k}
    if isinstance(k, IndexExpr):
        if not k.terms:
            return {"k": "int", "v": k.c}
        return {"k": "expr", "e": k.to_json()}
    if isinstance(k, slice):
        def bound(b):
            if b is None:
                return None
            if isinstance(b, IndexExpr):
                return b.to_json()
            if isinstance(b, int) and not isinstance(b, bool):
                return {"c": b, "t": []}
            raise TypeError(f"slice bounds must be integers or index expressions, got {b!r}")
        if k.step is not None and (isinstance(k.step, bool) or not isinstance(k.step, int)):
            raise TypeError("slice step must be a compile-time integer")
        return {"k": "slice", "start": bound(k.start), "stop": bound(k.stop), "step": k.step}
    if isinstance(k, NkiTensor):
        if k._raw is not None and k._v is None:
            # NKI reads index tiles as written: one built with nl.mgrid spans the whole grid
            # (and the core says to build it with nl.arange instead).
            return {"k": "tile", "t": {"v": k._base, "items": k._raw, "loc": k._loc}}
        return {"k": "tile", "t": k._ref()}
    dynamic = getattr(k, "_nki_dynamic_index", None)
    if dynamic is not None:  # an index tile's value plus an index expression
        tile, offset = dynamic
        return {"k": "tile", "t": tile._ref(), "e": offset.to_json()}
    raise TypeError(f"unsupported index {k!r}")


def _operand(x):
    if isinstance(x, NkiTensor):
        return x._ref()
    if isinstance(x, bool):
        return {"s": float(x), "int": True}
    # NumPy scalars (before int/float: some subclass them) keep their type in promotion
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        name = _dtypes.name_of(dtype)
        return {"s": float(x), "int": not (name.startswith("float") or name == "bfloat16"),
                "dtype": name}
    if isinstance(x, int):
        return {"s": float(x), "int": True}
    if isinstance(x, float):
        return {"s": x}
    try:
        return {"s": float(x), "int": not isinstance(x, float) and float(x).is_integer()}
    except (TypeError, ValueError):
        raise TypeError(f"unsupported operand {x!r}: expected a tile or a scalar") from None


def _binary(api, fn, x, y, dtype=None):
    """The tile operators (``a + b``, ``2 * t``): the same op as ``nl.<api>``."""
    ctx = nki_ctx()
    loc = _loc.caller()
    req = {"op": "call", "api": api, "operands": [["x", _operand(x)], ["y", _operand(y)]],
           "loc": loc, "name": _loc.bound_name(loc)}
    if dtype is not None:
        req["dtype"] = _dtypes.name_of(dtype)
    return NkiTensor(ctx.builder.op(req))
