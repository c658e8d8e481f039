"""``np.matmul`` / ``@`` and ``np.dot`` (the core computes large products; stacks of matrices
are one product per matrix of the broadcast leading axes, as NumPy's gufunc loops)."""
from . import _core_storage as C
from . import _dtypes as D
from ._apply import finalize
from ._arrange import broadcast_to
from ._creation import asarray, zeros
from ._ndarray import broadcast_shapes, core_array, from_values, on_core
from ._scalars import wrap
from ._shapes import stack
from ._ufuncs import UFUNCS


def _promoted(a, b):
    lp = D.promote(a.dtype, b.dtype)
    return lp


def matmul(a, b, out=None):
    """Matrix product of two arrays (1-D operands are promoted to a row / column and the added
    dimension removed from the result, as in NumPy)."""
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand %d does not have enough dimensions (has 0, "
                         "gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
                         % (0 if a.ndim == 0 else 1))
    a2 = a.reshape(1, -1) if a.ndim == 1 else a
    b2 = b.reshape(-1, 1) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n?,k),(k,m?)->(n?,m?) (size {b2.shape[-2]} is "
                         f"different from {a2.shape[-1]})")
    lp = _promoted(a, b)
    result = _stacked(a2, b2, lp) if a2.ndim > 2 or b2.ndim > 2 else _matrix(a2, b2, lp)
    shape = list(result.shape)
    if b.ndim == 1:
        shape.pop(-1)
    if a.ndim == 1:
        shape.pop(-2 if b.ndim != 1 else -1)
    result = result.reshape(shape)
    if out is not None:
        out._assign(result)
        return out
    if not shape:
        return wrap(lp, result._values()[0])
    return result


def _matrix(a, b, lp):
    result = _core_matmul(a, b, lp)
    return _python_matmul(a, b, lp) if result is None else result


def _stacked(a, b, lp):
    """Stacks of matrices: the leading axes broadcast, one product per matrix."""
    import itertools
    lead = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    a = broadcast_to(a, lead + a.shape[-2:])
    b = broadcast_to(b, lead + b.shape[-2:])
    n, m = a.shape[-2], b.shape[-1]
    if not lead or 0 in lead:
        return zeros(lead + (n, m), dtype=lp)
    products = [_matrix(a[idx], b[idx], lp) for idx in itertools.product(*map(range, lead))]
    return stack(products).reshape(lead + (n, m))


def _core_matmul(a, b, lp):
    if not (C.available() and C.eligible(lp)) or lp.name == "uint64":
        return None
    a = on_core(a if a.dtype is lp else a.astype(lp))
    b = on_core(b if b.dtype is lp else b.astype(lp))
    reply = C.request({"op": "matmul", "lp": lp.name, "od": lp.name, "a": C.view_json(a),
                       "b": C.view_json(b)})
    if reply.get("unsupported"):
        return None
    return core_array(lp, reply["id"], (a.shape[0], b.shape[1]))


def _python_matmul(a, b, lp):
    av = a.astype(lp).tolist()
    bv = b.astype(lp).tolist()
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    values = []
    for i in range(m):
        for j in range(n):
            acc = 0
            for t in range(k):
                acc += av[i][t] * bv[t][j]
            values.append(finalize(lp, acc))
    return from_values(values, (m, n), lp)


def dot(a, b, out=None):
    """``np.dot`` for scalars, 1-D and 2-D arrays."""
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return UFUNCS["multiply"](a, b, out=out)
    return matmul(a, b, out=out)
