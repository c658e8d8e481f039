"""The view methods of ``NkiTensor`` (NKI 0.5/0.6), with their documented constraints.

Each takes a view (shape, strides, offset over the storage's row-major elements, run-time
offsets) and returns a new one; none emits an instruction. Rank rules of indexing: on-chip
tensors keep dimension 0 (an int there leaves a size-1 partition dimension) and stay at least
2-D; HBM tensors drop indexed dimensions and stay at least 1-D.
"""
import operator
import sys

from . import _dtypes, _tensor, isa as nisa
from ._core import warn
from ._registers import VirtualRegister
from ._rules import index_error, raise_register_in_python, view_rule
from ._tensor import DynamicSlice, NkiTensor, _prod


def _dim(t, dim, method):
    n = len(t.shape)
    if not isinstance(dim, int) or isinstance(dim, bool):
        view_rule(method, f"dim must be an int, got {type(dim).__name__}")
    if dim < 0:
        dim += n
    if not 0 <= dim < n:
        view_rule(method, f"dim {dim} is out of range for a tensor of rank {n}")
    return dim


def _is_register(x):
    return isinstance(x, VirtualRegister)


def _not_indirect_dim(t, d, method):
    if d in t._indirect:
        view_rule(method, f"dimension {d} takes part in the view's indirection; it cannot be "
                  "sliced or selected further")


def _int(x, what):
    if _is_register(x):
        raise_register_in_python(what)
    if isinstance(x, bool) or not isinstance(x, int):
        try:
            return operator.index(x)
        except TypeError:
            index_error(f"index must be an integer or slice, got {x!r}")
    return x


# --- t[key] ------------------------------------------------------------------------------------

def _expand_key(t, key):
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, (list, tuple)):
            index_error("nested tuple/list indexes not supported")
        if isinstance(k, NkiTensor):
            index_error(f"index must be an integer or slice, got a tensor '{k.name}'",
                        "index with .select(dim, t) or .vector_select(0, t) for run-time indices")
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        index_error("invalid use of ellipsis")
    n = len(t.shape)
    real = [k for k in key if k is not Ellipsis]
    if len(real) > n:
        index_error("too many indexes for shape", f"{len(real)} indices for shape {t.shape}")
    out = []
    for k in key:
        if k is Ellipsis:
            out.extend([slice(None)] * (n - len(real)))
        else:
            out.append(k)
    out.extend([slice(None)] * (n - len(out)))
    return out


def _slice_bounds(k, size):
    start, stop, step = k.start, k.stop, k.step
    step = 1 if step is None else _int(step, "a slice step")
    if step <= 0:
        index_error("slice step cannot be zero or negative")
    start = 0 if start is None else _int(start, "a slice start")
    stop = size if stop is None else _int(stop, "a slice stop")
    if start < 0:
        start += size
    if stop < 0:
        stop += size
    if not (0 <= start < stop <= size):
        index_error("slice index out of bounds", f"{start}:{stop} on a dimension of size {size}")
    return start, stop, step


def getitem(t, key):
    keys = _expand_key(t, key)
    on_chip = t._on_chip()
    shape, strides, offset, dyn = [], [], t.offset, list(t._dyn)
    kept_dims = {}  # new dim -> old dim
    dropped = []    # old dims removed by an int
    for d, k in enumerate(keys):
        size, stride = t.shape[d], t.strides[d]
        if isinstance(k, slice) and k == slice(None):
            kept_dims[len(shape)] = d
            shape.append(size)
            strides.append(stride)
            continue
        _not_indirect_dim(t, d, "indexing")
        if isinstance(k, range):
            k = slice(k.start, k.stop, k.step)
        if isinstance(k, DynamicSlice):
            if _is_register(k.start):
                count = _int(k.size, "nl.ds's size")
                if not 0 < count <= size:
                    index_error("slice index out of bounds", f"size {count} on a dimension of "
                                f"size {size}")
                dyn.append((k.start._id(), stride))
                kept_dims[len(shape)] = d
                shape.append(count)
                strides.append(stride)
                continue
            start, count = _int(k.start, "nl.ds's start"), _int(k.size, "nl.ds's size")
            k = slice(start, start + count, 1)
        if isinstance(k, slice):
            start, stop, step = _slice_bounds(k, size)
            offset += start * stride
            kept_dims[len(shape)] = d
            shape.append((stop - start + step - 1) // step)
            strides.append(stride * step)
            continue
        if _is_register(k):  # t[reg]: one element at a run-time index
            dyn.append((k._id(), stride))
            if on_chip and d == 0:
                kept_dims[len(shape)] = d
                shape.append(1)
                strides.append(stride)
            else:
                dropped.append((len(shape), d, stride))
            continue
        i = _int(k, "an index")
        if i < 0:
            i += size
        if not 0 <= i < size:
            index_error("index out of range of tensor dimension",
                        f"index {k} on dimension {d} of size {size}")
        offset += i * stride
        if on_chip and d == 0:  # the partition dimension stays, of size 1
            kept_dims[len(shape)] = d
            shape.append(1)
            strides.append(stride)
        else:
            dropped.append((len(shape), d, stride))
    minimum = 2 if on_chip else 1
    # Keep the last dimension an int removed when the result would be too small.
    while len(shape) < minimum and dropped:
        pos, d, stride = dropped.pop()
        shape.insert(pos, 1)
        strides.insert(pos, stride)
    indirect = tuple(sorted(n for n, d in kept_dims.items() if d in t._indirect))
    return t._new(shape, strides, offset, dyn=tuple(dyn), indirect=indirect)


def setitem(t, key, value):
    """``t[...] = value``: NKI 0.6.0's parser front end rejects it (``Updating a tile with lvalue
    assignment is not allowed``); under the tracer it is a copy into the view — a memset for a
    number, a tensor_copy on chip, a dma_copy through HBM."""
    dst = getitem(t, key)
    warn("NKI 0.6.0's parser front end rejects assignment into a tensor ('Updating a tile "
         "with lvalue assignment is not allowed'); nki-playground copies, as the tracer does. "
         "Write nisa.tensor_copy / nisa.dma_copy / nisa.memset to compile with either front end.",
         code="lvalue-assignment")
    if isinstance(value, (int, float)):
        nisa.memset(dst, value)
    elif isinstance(value, NkiTensor):
        if dst._on_chip() and value._on_chip():
            nisa.tensor_copy(dst, value)
        else:
            nisa.dma_copy(dst, value)
    else:
        view_rule("assignment", f"cannot assign a {type(value).__name__} to a tensor")


# --- the view methods ---------------------------------------------------------------------------

def slice_dim(t, dim, start, end, step=1):
    d = _dim(t, dim, "slice")
    _not_indirect_dim(t, d, "slice")
    start, end, step = _int(start, "slice's start"), _int(end, "slice's end"), _int(step, "step")
    if step < 1:
        view_rule("slice", f"step must be >= 1, got {step}")
    if not 0 <= start < end <= t.shape[d]:
        view_rule("slice", f"needs 0 <= start < end <= {t.shape[d]}, got start={start}, end={end}")
    shape, strides = list(t.shape), list(t.strides)
    shape[d] = (end - start + step - 1) // step
    strides[d] = t.strides[d] * step
    return t._new(shape, strides, t.offset + start * t.strides[d])


def _remove(t, d, offset, dyn=None, index=None):
    shape = t.shape[:d] + t.shape[d + 1:]
    strides = t.strides[:d] + t.strides[d + 1:]
    indirect = tuple(x - (x > d) for x in t._indirect if x != d)
    return t._new(shape, strides, offset, dyn=dyn, index=index, indirect=indirect)


def select(t, dim, index):
    d = _dim(t, dim, "select")
    _not_indirect_dim(t, d, "select")
    if t._on_chip() and d == 0:
        view_rule("select", "on-chip tensors keep their partition dimension (dim must not be 0)")
    if isinstance(index, NkiTensor) or _is_register(index):
        if t.is_indirect():
            view_rule("select", "only one dynamic select per tensor (this view is already "
                      "indirect)")
        if _is_register(index):
            return _remove(t, d, t.offset, dyn=t._dyn + ((index._id(), t.strides[d]),))
        _scalar_index(index, "select")
        return _remove(t, d, t.offset, index=(index, t.strides[d], False))
    i = _int(index, "select's index")
    if not 0 <= i < t.shape[d]:
        view_rule("select", f"needs 0 <= index < {t.shape[d]}, got {i}")
    return _remove(t, d, t.offset + i * t.strides[d])


def _scalar_index(index, method):
    if index._st.buffer != "sbuf" or index.shape != (1, 1):
        view_rule(method, f"a run-time index is a (1, 1) SBUF tensor, got {index.name}"
                  f"{list(index.shape)} in {index._st.buffer}")


def vector_select(t, dim, vector_offset):
    d = _dim(t, dim, "vector_select")
    if d != 0:
        view_rule("vector_select", f"dim must be 0, got {dim}")
    if t._on_chip():
        view_rule("vector_select", "only HBM tensors can be indexed by a vector of offsets")
    if t.is_indirect():
        view_rule("vector_select", "only one dynamic select per tensor (this view is already "
                  "indirect)")
    v = vector_offset
    if not isinstance(v, NkiTensor) or v._st.buffer != "sbuf" or len(v.shape) != 2 or v.shape[1] != 1:
        view_rule("vector_select", "vector_offset is an SBUF tensor of shape (partitions, 1)")
    shape = (v.shape[0],) + t.shape[1:]
    return t._new(shape, t.strides, t.offset, index=(v, t.strides[0], True), indirect=(0,))


def permute(t, dims):
    dims = tuple(dims)
    n = len(t.shape)
    if sorted(dims) != list(range(n)):
        view_rule("permute", f"dims must be a permutation of range({n}), got {dims}")
    if (t._on_chip() or 0 in t._indirect) and dims[0] != 0:
        view_rule("permute", "the partition dimension stays first (dims[0] must be 0)")
    indirect = tuple(sorted(dims.index(x) for x in t._indirect))
    return t._new([t.shape[k] for k in dims], [t.strides[k] for k in dims], indirect=indirect)


def broadcast(t, dim, size):
    d = _dim(t, dim, "broadcast")
    if t.shape[d] != 1:
        view_rule("broadcast", f"dimension {d} must have size 1, got {t.shape[d]}")
    if t._on_chip() and d == 0:
        view_rule("broadcast", "on-chip tensors cannot broadcast the partition dimension (dim 0)")
    size = _int(size, "broadcast's size")
    if size < 1:
        view_rule("broadcast", f"size must be positive, got {size}")
    shape, strides = list(t.shape), list(t.strides)
    shape[d], strides[d] = size, 0
    return t._new(shape, strides)


def expand_dim(t, dim):
    n = len(t.shape)
    if dim < 0:
        dim += n + 1
    if not 0 <= dim <= n:
        view_rule("expand_dim", f"dim {dim} is out of range for a tensor of rank {n}")
    if (t._on_chip() or 0 in t._indirect) and dim == 0:
        view_rule("expand_dim", "cannot insert a dimension before the partition dimension")
    stride = t.strides[dim] * t.shape[dim] if dim < n else 1
    indirect = tuple(x + (x >= dim) for x in t._indirect)
    return t._new(t.shape[:dim] + (1,) + t.shape[dim:], t.strides[:dim] + (stride,) + t.strides[dim:],
                  indirect=indirect)


def squeeze_dim(t, dim):
    d = _dim(t, dim, "squeeze_dim")
    if t.shape[d] != 1:
        view_rule("squeeze_dim", f"dimension {d} must have size 1, got {t.shape[d]}")
    if (t._on_chip() or 0 in t._indirect) and d == 0:
        view_rule("squeeze_dim", "cannot remove the partition dimension (dim 0)")
    return _remove(t, d, t.offset)


def _infer(shape, total, method):
    shape = [_int(s, f"{method}'s shape") for s in shape]
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        view_rule(method, "only one dimension may be -1")
    known = _prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 or total % known:
            view_rule(method, f"cannot infer -1: {total} elements into {tuple(shape)}")
        shape[unknown[0]] = total // known
    if _prod(shape) != total or any(s < 1 for s in shape):
        view_rule(method, f"shape {tuple(shape)} does not hold {total} elements")
    return shape


def reshape_dim(t, dim, shape):
    d = _dim(t, dim, "reshape_dim")
    new = _infer(shape, t.shape[d], "reshape_dim")
    if (t._on_chip() or 0 in t._indirect) and d == 0 and len(new) != 1:
        view_rule("reshape_dim", "the partition dimension (dim 0) cannot be split")
    strides, s = [], t.strides[d]
    for n in reversed(new):
        strides.append(s)
        s *= n
    strides.reverse()
    if d in t._indirect:
        view_rule("reshape_dim", f"dimension {d} takes part in the view's indirection")
    indirect = tuple(x + (len(new) - 1 if x > d else 0) for x in t._indirect)
    return t._new(t.shape[:d] + tuple(new) + t.shape[d + 1:],
                  t.strides[:d] + tuple(strides) + t.strides[d + 1:], indirect=indirect)


def _contiguous(t, a, b):
    return all(t.strides[k] == t.strides[k + 1] * t.shape[k + 1] or t.shape[k] == 1
               for k in range(a, b))


def flatten_dims(t, start_dim, end_dim):
    a, b = _dim(t, start_dim, "flatten_dims"), _dim(t, end_dim, "flatten_dims")
    if a > b:
        view_rule("flatten_dims", f"start_dim {a} is after end_dim {b}")
    if (t._on_chip() or 0 in t._indirect) and a == 0:
        view_rule("flatten_dims", "start_dim must be > 0 (the partition dimension stays)")
    if not _contiguous(t, a, b):
        view_rule("flatten_dims", f"dimensions {a}..{b} are not contiguous in memory")
    if any(a <= x <= b for x in t._indirect):
        view_rule("flatten_dims", "a dimension of the view's indirection cannot be merged")
    shape = t.shape[:a] + (_prod(t.shape[a:b + 1]),) + t.shape[b + 1:]
    strides = t.strides[:a] + (t.strides[b],) + t.strides[b + 1:]
    indirect = tuple(x - (b - a) if x > b else x for x in t._indirect)
    return t._new(shape, strides, indirect=indirect)


def _nocopy_strides(old_shape, old_strides, new_shape):
    """NumPy's no-copy reshape: the strides of ``new_shape`` over the same elements, or None
    when the old dimensions a new one spans are not contiguous."""
    old = [(n, s) for n, s in zip(old_shape, old_strides) if n != 1]
    new_idx = [i for i, n in enumerate(new_shape) if n != 1]
    strides = [0] * len(new_shape)
    o = j = 0
    while o < len(old) and j < len(new_idx):
        np_, op_, nj, oj = new_shape[new_idx[j]], old[o][0], j + 1, o + 1
        while np_ != op_:
            if np_ < op_:
                if nj >= len(new_idx):
                    return None
                np_ *= new_shape[new_idx[nj]]
                nj += 1
            else:
                if oj >= len(old):
                    return None
                op_ *= old[oj][0]
                oj += 1
        for k in range(o, oj - 1):  # the old dimensions of the group must be contiguous
            if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                return None
        s = old[oj - 1][1]
        for k in range(nj - 1, j - 1, -1):
            strides[new_idx[k]] = s
            s *= new_shape[new_idx[k]]
        o, j = oj, nj
    if o != len(old) or j != len(new_idx):
        return None
    for i in reversed(range(len(new_shape))):  # unit dimensions: the next one's extent
        if new_shape[i] == 1:
            strides[i] = strides[i + 1] * new_shape[i + 1] if i + 1 < len(new_shape) else 1
    return strides


def reshape(t, shape):
    if isinstance(shape, int):
        shape = (shape,)
    new = _infer(shape, t.size, "reshape")
    on_chip = t._on_chip() or 0 in t._indirect
    if on_chip and new[0] != t.shape[0]:
        view_rule("reshape", f"shape[0] must stay {t.shape[0]} (the partition dimension)")
    if on_chip:
        rest = _nocopy_strides(t.shape[1:], t.strides[1:], new[1:])
        strides = None if rest is None else [t.strides[0]] + rest
    else:
        strides = _nocopy_strides(t.shape, t.strides, new)
    if strides is None:
        view_rule("reshape", f"the view's layout {t.get_pattern()} cannot be reshaped to "
                  f"{tuple(new)} without a copy")
    if t._indirect and any(x != 0 for x in t._indirect):
        view_rule("reshape", "an indirect view can only keep its partition dimension")
    return t._new(new, strides)


def rearrange(t, src_pattern, dst_pattern, fixed_sizes=None):
    """einops-style: split the groups of ``src_pattern``, permute, merge ``dst_pattern``'s."""
    fixed = dict(fixed_sizes or {})
    src = [p if isinstance(p, (tuple, list)) else (p,) for p in src_pattern]
    if len(src) != len(t.shape):
        view_rule("rearrange", f"src_pattern has {len(src)} groups for a tensor of rank "
                  f"{len(t.shape)}")
    sizes = {}
    v = t
    dim = 0
    for group, size in zip(src, t.shape):
        known = [fixed.get(n, -1) for n in group]
        split = _infer(known, size, "rearrange")
        for n, s in zip(group, split):
            if n in sizes:
                view_rule("rearrange", f"dimension name {n!r} appears twice")
            sizes[n] = s
        if len(group) > 1:
            v = reshape_dim(v, dim, split)
        dim += len(group)
    order = [n for g in src for n in g]
    dst = [p if isinstance(p, (tuple, list)) else (p,) for p in dst_pattern]
    flat = [n for g in dst for n in g]
    if sorted(flat) != sorted(order):
        view_rule("rearrange", f"dst_pattern names {flat} differ from src_pattern's {order}")
    v = permute(v, [order.index(n) for n in flat])
    dim = 0
    for g in dst:
        if len(g) > 1:
            v = flatten_dims(v, dim, dim + len(g) - 1)
        dim += 1
    return v


def view_dtype(t, dtype):
    name = _dtypes.name_of(dtype)
    new, old = _dtypes.size_of(name), _dtypes.size_of(t.dtype)
    if t.is_indirect():
        view_rule("view", "not supported after a dynamic or vector select")
    if t.shape and t.strides[-1] != 1 and t.shape[-1] != 1:
        view_rule("view", "the last dimension must be contiguous in memory")
    if new == old:
        return t._new(t.shape, t.strides, dtype=name)
    st_last = t._st.shape[-1] * _dtypes.size_of(t._st.dtype)
    if st_last % new:
        view_rule("view", f"the storage's rows of {st_last} bytes do not divide into {name}")
    if new < old:  # expansion: every count and stride in the smaller elements
        r = old // new
        shape = t.shape[:-1] + (t.shape[-1] * r,)
        strides = tuple(s * r for s in t.strides[:-1]) + (1,)
        return t._new(shape, strides, t.offset * r, dtype=name)
    r = new // old
    if t.shape[-1] % r or t.offset % r or any(s % r for s in t.strides[:-1]):
        view_rule("view", f"the last dimension ({t.shape[-1]} {t.dtype}) and the offsets must be "
                  f"multiples of {r} to be read as {name}")
    shape = t.shape[:-1] + (t.shape[-1] // r,)
    strides = tuple(s // r for s in t.strides[:-1]) + (1,)
    return t._new(shape, strides, t.offset // r, dtype=name)


def access_pattern(t, pattern, offset=None, scalar_offset=None, vector_offset=None,
                   indirect_dim=0, dtype=None):
    """``t.ap(...)``: the pattern addresses the storage directly (offsets and counts in elements
    of ``dtype``); ``offset=None`` keeps this view's storage offset."""
    st = t._st
    name = _dtypes.name_of(dtype) if dtype is not None else t.dtype
    try:
        pairs = [(int(p[0]), int(p[1])) for p in pattern]
    except (TypeError, ValueError, IndexError):
        view_rule("ap", f"pattern is a list of [step, num] pairs, got {pattern!r}")
    if not pairs or any(n < 1 for _, n in pairs):
        view_rule("ap", f"every num of the pattern must be positive, got {pattern!r}")
    if len(pairs) > 5:
        view_rule("ap", "an access pattern has at most 5 dimensions")
    ratio_num, ratio_den = _dtypes.size_of(st.dtype), _dtypes.size_of(name)
    if offset is None:
        offset = t.offset * _dtypes.size_of(t.dtype) // ratio_den
    offset = _int(offset, "ap's offset")
    free = _prod(st.shape[1:]) * ratio_num // ratio_den
    if st.on_chip and pairs[0][1] > 1 and pairs[0][0] != free:
        view_rule("ap", f"on SBUF/PSUM the first pair is the partition access: its step must be "
                  f"the tensor's free size {free}, got {pairs[0][0]}")
    if scalar_offset is not None and vector_offset is not None:
        view_rule("ap", "at most one of scalar_offset and vector_offset")
    shape = tuple(n for _, n in pairs)
    strides = tuple(s for s, _ in pairs)
    base_shape = list(st.shape)
    base_shape[-1] = base_shape[-1] * ratio_num // ratio_den
    indirect_dim = _int(indirect_dim, "indirect_dim")
    if not 0 <= indirect_dim < len(base_shape):
        view_rule("ap", f"indirect_dim {indirect_dim} is out of range for the base tensor of "
                  f"rank {len(base_shape)}")
    scale = _prod(base_shape[indirect_dim + 1:])
    v = object.__new__(NkiTensor)._init(st, shape, strides, offset, name)
    if scalar_offset is not None:
        if _is_register(scalar_offset):
            v._dyn = ((scalar_offset._id(), scale),)
        elif isinstance(scalar_offset, NkiTensor):
            _scalar_index(scalar_offset, "ap")
            v._index = (scalar_offset, scale, False)
        else:
            view_rule("ap", "scalar_offset is a (1, 1) SBUF tensor or a VirtualRegister")
    if vector_offset is not None:
        if indirect_dim != 0:
            view_rule("ap", "vector_offset supports only indirect_dim=0")
        if st.on_chip:
            view_rule("ap", "vector_offset indexes an HBM tensor")
        vo = vector_offset
        if not isinstance(vo, NkiTensor) or vo._st.buffer != "sbuf" or len(vo.shape) != 2 or vo.shape[1] != 1:
            view_rule("ap", "vector_offset is an SBUF tensor of shape (partitions, 1)")
        v._index = (vo, scale, True)
        v._indirect = (0,)
    return v


_tensor._views = sys.modules[__name__]  # NkiTensor's view methods call these
