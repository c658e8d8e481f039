"""Creating tensors: ``nl.ndarray`` (an allocation: one ``ndarray`` instruction, contents
uninitialised) and the experimental creation wrappers that fill one through ``nki.isa``."""
from nki_playground import door, loc as _loc
from nki_playground.standins import ensure_numpy

from .. import _core, _dtypes, _rules, _trace, isa as nisa
from .._tensor import NkiTensor, _Storage
from .. import _buffers


def _shape(shape, api):
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(int(s) if not isinstance(s, bool) else None for s in shape)
    except (TypeError, ValueError):
        _rules.view_rule(api, f"shape is a tuple of positive ints, got {shape!r}")
    if not shape or any(s is None or s < 1 for s in shape):
        _rules.view_rule(api, f"shape is a tuple of positive ints, got {shape!r}")
    return shape


def ndarray(shape, dtype, buffer=_buffers.sbuf, name="", address=None):
    """A new tensor of ``shape`` and ``dtype`` in ``buffer`` (contents uninitialised: the
    simulator fills new tensors with NaN, and 4 for integers)."""
    t = _trace.need("nki.language.ndarray")
    shape = _shape(shape, "ndarray")
    dtype = _dtypes.name_of(dtype)
    buf = _buffers.name(buffer)
    if address is not None:
        _check_address(address, buf)
    label = name or _loc.bound_name(_loc.caller()) or ""
    if buf == "shared_hbm" and t.core > 0:
        # Every core runs the same kernel: its k-th shared HBM tensor is core 0's k-th.
        if t.shared_next < len(t.shared):
            st = t.shared[t.shared_next]
            t.shared_next += 1
            if st.shape == shape and st.dtype == dtype:
                return NkiTensor._whole(st)
        _core.raise_diagnostic("err_kernel_rule", "the cores allocate different shared_hbm "
                               "tensors: every core must allocate the same ones, in order")
    reply = _core.op({"op": "ndarray", "shape": list(shape), "dtype": dtype, "buffer": buf,
                      "name": label})
    st = _Storage(reply["t"], shape, dtype, buf, reply["name"], t)
    t.storages[st.t] = st
    if buf == "shared_hbm" and t.core == 0:
        t.shared.append(st)
    return NkiTensor._whole(st)


def _check_address(address, buf):
    if buf not in ("sbuf", "psum"):
        _rules.view_rule("ndarray", "address= places SBUF/PSUM tensors only")
    try:
        p, f = (int(a) for a in address)
    except (TypeError, ValueError):
        _rules.view_rule("ndarray", f"address is (partition_offset, free_offset), got {address!r}")
    bank = door.facts()["psum"]["bank_bytes"]  # core/ir/target.h
    if buf == "psum" and f % bank:
        _rules.view_rule("ndarray", f"PSUM tensors start at a {bank // 1024} KiB bank boundary, "
                         f"got free offset {f}")


def _fill(api, shape, value, dtype, buffer, name):
    if _buffers.name(buffer) not in ("sbuf", "psum"):
        _core.raise_diagnostic("err_hbm_tensor_with_init_value_not_supported")
    t = ndarray(shape, dtype, buffer, name or _loc.bound_name(_loc.caller()) or api)
    nisa.memset(t, value)
    return t


def zeros(shape, dtype, buffer=_buffers.sbuf, name=""):
    return _fill("zeros", shape, 0, dtype, buffer, name)


def ones(shape, dtype, buffer=_buffers.sbuf, name=""):
    return _fill("ones", shape, 1, dtype, buffer, name)


def full(shape, fill_value, dtype, buffer=_buffers.sbuf, name=""):
    return _fill("full", shape, fill_value, dtype, buffer, name)


def zeros_like(x, dtype=None, buffer=None, name=""):
    return zeros(x.shape, dtype or x.dtype, buffer if buffer is not None else x._st.buffer, name)


def empty_like(x, dtype=None, buffer=None, name=""):
    return ndarray(x.shape, dtype or x.dtype, buffer if buffer is not None else x._st.buffer,
                   name)


def rand(shape, dtype, buffer=_buffers.sbuf, name=""):
    """Uniform random values in [0, 1) (Vector engine rand2)."""
    t = ndarray(shape, dtype, buffer, name or _loc.bound_name(_loc.caller()) or "rand")
    nisa.rand2(t, 0.0, 1.0)
    return t


def random_seed(seed):
    """Restarts the random stream from ``seed``, a (1, 1) SBUF/PSUM tensor."""
    if not isinstance(seed, NkiTensor) or seed.shape != (1, 1) or not seed._on_chip():
        _rules.view_rule("random_seed", "seed is a [1, 1] tensor on SBUF or PSUM")
    nisa.set_rng_seed(seed)


def _constant(api, attrs, dtype, name):
    t = _trace.need(f"nki.language.{api}")
    req = {"op": "call", "api": api, "attrs": attrs, "name": name}
    if dtype is not None:
        req["dtype"] = dtype
    reply = _core.op(req)
    st = _Storage(reply["t"], reply["shape"], reply["dtype"], reply["buffer"], reply["name"], t)
    t.storages[st.t] = st
    return NkiTensor._whole(st)


def shared_constant(constant):
    """A shared-HBM tensor holding ``constant`` (a NumPy array or a .npy file's path)."""
    np = ensure_numpy()
    if isinstance(constant, str):
        constant = np.load(constant)
    arr = np.asarray(constant)
    dtype = _dtypes.name_of(arr.dtype)
    values = [float(v) for v in arr.reshape(-1).tolist()]
    return _constant("shared_constant", {"shape": list(arr.shape), "values": values,
                                         "source_dtype": dtype}, dtype,
                     _loc.bound_name(_loc.caller()) or "const")


def shared_identity_matrix(n, dtype="uint8", dst=None):
    """The n x n identity matrix in SBUF (in ``dst`` when given)."""
    dtype = _dtypes.name_of(dtype)
    const = _constant("shared_identity_matrix", {"n": int(n)}, dtype, "identity")
    if dst is None:
        dst = ndarray((n, n), dtype, _buffers.sbuf, _loc.bound_name(_loc.caller()) or "identity")
    nisa.dma_copy(dst, const)
    return dst
