"""``NkiTensor``: storage + a strided view (NKI 0.5/0.6).

A tensor is an allocation (``_Storage``: the core's tensor id, shape, dtype, buffer) and a view
of it: an element offset and one ``(stride, count)`` pair per view dimension over the storage's
row-major elements, plus run-time offsets (registers, an index tensor). Every view method
returns a new ``NkiTensor`` over the same storage and costs nothing: the view reaches the core
only inside the request of an instruction that uses it (``_json``), where the core turns it
into the IR's access pattern (core/isa/view.cpp). Python operators on tensors are NKI's errors.
"""
from . import _buffers, _dtypes, _rules
from ._rules import view_rule

#: The view functions: nki._views, which builds on NkiTensor, installs itself here on import.
_views = None


class _Storage:
    """One allocation: the core's tensor id and what NKI calls the base tensor."""

    __slots__ = ("t", "shape", "dtype", "buffer", "name", "trace")

    def __init__(self, t, shape, dtype, buffer, name, trace):
        self.t, self.shape, self.dtype = t, tuple(shape), dtype
        self.buffer, self.name, self.trace = buffer, name, trace

    @property
    def on_chip(self):
        return self.buffer in ("sbuf", "psum")


def _row_major(shape):
    strides, s = [], 1
    for n in reversed(shape):
        strides.append(s)
        s *= n
    return tuple(reversed(strides))


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


class DynamicSlice:
    """``nl.ds(start, size)``: ``size`` elements from ``start`` (an int or a register)."""

    __slots__ = ("start", "size")

    def __init__(self, start, size):
        self.start, self.size = start, size

    def __repr__(self):
        return f"ds({self.start!r}, {self.size!r})"


class NkiTensor:
    """NKI tensor with shape-based view operations (``nki.language.NkiTensor``)."""

    __slots__ = ("_st", "shape", "strides", "offset", "dtype", "_dyn", "_index", "_indirect")

    def __init__(self, shape, dtype, storage, buffer="sbuf", name=""):
        # The public constructor binds a storage handle the surface made (nl.ndarray's); a
        # storage of None is a signature placeholder that can never reach an instruction.
        if not isinstance(storage, _Storage):
            storage = _Storage(None, shape, _dtypes.name_of(dtype), str(_buffer_name(buffer)),
                               name, None)
        self._init(storage, tuple(shape), _row_major(shape), 0, _dtypes.name_of(dtype))

    def _init(self, st, shape, strides, offset, dtype, dyn=(), index=None, indirect=()):
        self._st, self.shape, self.strides, self.offset, self.dtype = st, shape, strides, offset, dtype
        self._dyn, self._index, self._indirect = dyn, index, indirect
        return self

    @classmethod
    def _whole(cls, st):
        return object.__new__(cls)._init(st, st.shape, _row_major(st.shape), 0, st.dtype)

    def _new(self, shape, strides, offset=None, dtype=None, dyn=None, index=None, indirect=None):
        return object.__new__(NkiTensor)._init(
            self._st, tuple(shape), tuple(strides), self.offset if offset is None else offset,
            dtype or self.dtype, self._dyn if dyn is None else dyn,
            self._index if index is None else index,
            self._indirect if indirect is None else indirect)

    # --- attributes ------------------------------------------------------------------------
    @property
    def name(self):
        return self._st.name

    @property
    def buffer(self):
        return _buffers.region(self._st.buffer)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return _prod(self.shape)

    def _on_chip(self):
        return self._st.on_chip

    def __repr__(self):
        return (f"NkiTensor(name={self.name!r}, shape={self.shape}, dtype={self.dtype}, "
                f"buffer={self._st.buffer})")

    # --- the wire form ----------------------------------------------------------------------
    def _json(self):
        if self._st.t is None:
            _rules.raise_rule("placeholder", "this tensor has no storage (a signature "
                              "placeholder); allocate tensors with nl.ndarray")
        _rules.check_trace(self._st)
        sv = {"t": self._st.t, "off": self.offset,
              "pat": [[s, n] for s, n in zip(self.strides, self.shape)]}
        if self.dtype != self._st.dtype:
            sv["dtype"] = self.dtype
        if self._dyn:
            sv["dyn"] = [list(d) for d in self._dyn]
        if self._index is not None:
            idx, scale, vector = self._index
            sv["ind"] = {"v": idx._json(), "scale": scale, "vector": vector}
        return {"sv": sv}

    # --- queries ----------------------------------------------------------------------------
    def get_pattern(self):
        """The view's access pattern as ``[[stride, count], ...]``, one pair per dimension."""
        return [[s, n] for s, n in zip(self.strides, self.shape)]

    def is_contiguous(self):
        """Whether the view covers its storage contiguously in row-major order (per partition
        on chip: the partition dimension is skipped)."""
        expect = 1
        dims = list(range(len(self.shape)))
        if self._on_chip():
            dims = dims[1:]
        for d in reversed(dims):
            if self.shape[d] == 1:
                continue
            if self.strides[d] != expect:
                return False
            expect *= self.shape[d]
        return True

    def is_indirect(self):
        """Whether the view carries a run-time (indirect) offset."""
        return self._index is not None or bool(self._dyn and self._indirect)

    # --- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key):
        return _views.getitem(self, key)

    def __setitem__(self, key, value):
        _views.setitem(self, key, value)

    def slice(self, dim, start, end, step=1):
        """Slice along one dimension: ``start`` (inclusive) to ``end`` (exclusive)."""
        return _views.slice_dim(self, dim, start, end, step)

    def select(self, dim, index):
        """Select one element along ``dim``, removing it: an int (static) or a ``(1, 1)`` SBUF
        tensor (the index is read at run time)."""
        return _views.select(self, dim, index)

    def vector_select(self, dim, vector_offset):
        """Per-partition indirect addressing: partition p reads index ``vector_offset[p, 0]``
        of dimension ``dim`` (0) of an HBM tensor."""
        return _views.vector_select(self, dim, vector_offset)

    def permute(self, dims):
        return _views.permute(self, dims)

    def broadcast(self, dim, size):
        return _views.broadcast(self, dim, size)

    def expand_dim(self, dim):
        return _views.expand_dim(self, dim)

    def squeeze_dim(self, dim):
        return _views.squeeze_dim(self, dim)

    def reshape_dim(self, dim, shape):
        return _views.reshape_dim(self, dim, shape)

    def flatten_dims(self, start_dim, end_dim):
        return _views.flatten_dims(self, start_dim, end_dim)

    def reshape(self, shape):
        return _views.reshape(self, shape)

    def rearrange(self, src_pattern, dst_pattern, fixed_sizes=None):
        return _views.rearrange(self, src_pattern, dst_pattern, fixed_sizes)

    def view(self, dtype):
        """Reinterpret the bytes as ``dtype``; the last dimension scales by the size ratio."""
        return _views.view_dtype(self, dtype)

    reinterpret_cast = view

    def ap(self, pattern, offset=None, scalar_offset=None, vector_offset=None, indirect_dim=0,
           dtype=None):
        """An explicit access pattern over the storage (not composable: it ignores this view's
        shape and strides)."""
        return _views.access_pattern(self, pattern, offset, scalar_offset, vector_offset,
                              indirect_dim, dtype)

    def indirect(self, index, num_elem=None):
        """Tensor Indirection (NeuronCore-v4): not modelled by nki-playground yet."""
        _rules.raise_not_supported("NkiTensor.indirect (Tensor Indirection)")

    # --- what NKI refuses ------------------------------------------------------------------
    def __bool__(self):
        _rules.raise_truth_value(self.size)

    def __iter__(self):
        view_rule("iteration", "a tensor cannot be iterated in Python; index it (t[i]) or "
                  "loop over range(t.shape[0])")

    def __len__(self):
        return self.shape[0]

    def __hash__(self):
        return id(self)


def _tensor_operator(name):
    def refuse(self, *args):
        _rules.raise_operator(name)
    refuse.__name__ = name
    return refuse


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
              "rfloordiv", "mod", "rmod", "pow", "rpow", "and", "rand", "or", "ror", "xor",
              "rxor", "lshift", "rlshift", "rshift", "rrshift", "iadd", "isub", "imul",
              "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor", "ilshift",
              "irshift", "lt", "le", "gt", "ge", "neg", "pos", "abs", "invert"):
    setattr(NkiTensor, f"__{_name}__", _tensor_operator(_name))


def _matmul(self, other):
    _rules.raise_parser("the matmul operator is not supported in NKI")


NkiTensor.__matmul__ = NkiTensor.__rmatmul__ = NkiTensor.__imatmul__ = _matmul


def _buffer_name(buffer):
    return getattr(buffer, "value", buffer)
