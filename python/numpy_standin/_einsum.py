"""``np.einsum`` for explicit and implicit subscripts without repeated labels in one operand
(traces/diagonals) or ``...``: each label an operand alone has and the output lacks is summed
first, then the operands are folded pairwise — the labels both share and the output (or a
later operand) keeps are batch axes, the other shared ones are contracted by ``matmul`` (in
the core for large operands; one 2-D matmul per batch position).
"""
from ._creation import asarray
from ._errors import user_error
from ._matmul import matmul
from ._scalars import wrap
from ._shapes import stack


def _unsupported(what):
    return user_error(NotImplementedError(
        f"not supported by nki-playground's numpy stand-in: numpy.einsum {what}"))


def _parse(subscripts, n):
    s = subscripts.replace(" ", "")
    if "." in s:
        raise _unsupported("with '...'")
    if "->" in s:
        ins, out = s.split("->")
    else:
        ins = s
        labels = ins.replace(",", "")
        out = "".join(sorted(c for c in set(labels) if labels.count(c) == 1))
    terms = ins.split(",")
    if len(terms) != n:
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string" if n > len(terms) else
                         "fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    for t in terms + [out]:
        if len(set(t)) != len(t):
            raise _unsupported(f"with a repeated label in one term ('{t}')")
        if not all(c.isalpha() for c in t):
            raise ValueError(f"invalid subscript in einstein sum subscripts string '{t}'")
    return terms, out


def _sum_out(arr, labels, keep):
    drop = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not drop:
        return arr, labels
    return arr.sum(axis=drop), "".join(c for c in labels if c in keep)


def _pair(a, la, b, lb, keep):
    """``a`` (labels ``la``) times ``b`` (labels ``lb``), summed over the shared labels not
    in ``keep``; returns (array, labels) with batch, a-only, b-only labels in that order."""
    batch = [c for c in la if c in lb and c in keep]
    contract = [c for c in la if c in lb and c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    size = {c: n for c, n in zip(la, a.shape)}
    for c, n in zip(lb, b.shape):
        if c in size and size[c] != n and 1 not in (size[c], n):
            raise ValueError(f"operands could not be broadcast together with remapped shapes: "
                             f"label '{c}' has sizes {size[c]} and {n}")
        size.setdefault(c, n)

    def prod(cs):
        r = 1
        for c in cs:
            r *= size[c]
        return r
    A = a.transpose([la.index(c) for c in batch + left + contract]).reshape(
        (prod(batch), prod(left), prod(contract)))
    B = b.transpose([lb.index(c) for c in batch + contract + right]).reshape(
        (prod(batch), prod(contract), prod(right)))
    outs = [matmul(A[i], B[i]) for i in range(A.shape[0])]
    res = stack(outs) if outs else A[:, :, :0]
    shape = tuple(size[c] for c in batch + left + right)
    return res.reshape(shape), "".join(batch + left + right)


def einsum(subscripts, *operands, out=None, dtype=None, optimize=False, **kw):
    """Einstein summation over ``operands`` as ``subscripts`` says (see the module note for
    what is covered)."""
    if not isinstance(subscripts, str):
        raise _unsupported("with operand/sublist arguments")
    if kw:
        raise _unsupported(f"with {', '.join(sorted(kw))}=")
    arrays = [asarray(x) for x in operands]
    terms, target = _parse(subscripts, len(arrays))
    for t, x in zip(terms, arrays):
        if len(t) != x.ndim:
            raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                             f"for operand {terms.index(t)}")
    if dtype is not None:
        arrays = [x.astype(dtype) for x in arrays]
    cur, labels = None, ""
    for i, (x, t) in enumerate(zip(arrays, terms)):
        later = target + "".join(terms[i + 1:])
        x, t = _sum_out(x, t, later + (labels if cur is not None else "") + "".join(
            terms[:i]))
        if cur is None:
            cur, labels = x, t
            continue
        cur, labels = _pair(cur, labels, x, t, later)
    cur, labels = _sum_out(cur, labels, target)
    result = cur.transpose([labels.index(c) for c in target]) if target else cur
    if out is not None:
        out._assign(asarray(result))
        return out
    if hasattr(result, "_store") and result.ndim == 0:  # a full contraction: a NumPy scalar
        return wrap(result.dtype, result._values()[0])
    return result
