"""Symbolic index values: affine expressions over loop variables, program ids and ``nl.arange``
axes. Pure trace-side algebra: the core resolves what they address (core/lang/ops.h).

An expression has an index *shape*: ``()`` for a scalar (loop variable, program id, int
arithmetic), ``(128, 1)`` for ``nl.arange(128)[:, None]``. Arange terms are keyed by the axis
of that shape they vary along; shapes broadcast right-aligned as NumPy's do.
"""


def _broadcast(s1, s2):
    n = max(len(s1), len(s2))
    a = (1,) * (n - len(s1)) + tuple(s1)
    b = (1,) * (n - len(s2)) + tuple(s2)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"index shapes {tuple(s1)} and {tuple(s2)} cannot be broadcast "
                             "together")
        out.append(max(x, y))
    return tuple(out)


class IndexExpr:
    """``c + Σ coeff·var``; vars are ("L", loop axis id), ("P", grid axis), ("A", shape axis)."""

    __slots__ = ("c", "terms", "shape")

    def __init__(self, c=0, terms=None, shape=()):
        self.c = c
        self.terms = terms or {}
        self.shape = tuple(shape)

    @classmethod
    def from_core(cls, j, shape=()):
        return cls(j["c"], {(k, i): co for k, i, co in j["t"]}, shape)

    def to_json(self):
        return {"c": self.c, "t": [[k, i, co] for (k, i), co in self.terms.items()],
                "shape": list(self.shape)}

    @property
    def is_arange(self):
        return any(k == "A" for k, _ in self.terms)

    def _aligned(self, n):
        """Terms with arange axes shifted for right-alignment into an n-d shape."""
        off = n - len(self.shape)
        if off == 0:
            return dict(self.terms)
        return {((k, i + off) if k == "A" else (k, i)): co for (k, i), co in self.terms.items()}

    def _combine(self, other, sign):
        if isinstance(other, bool) or not isinstance(other, (int, IndexExpr)):
            return NotImplemented
        if isinstance(other, int):
            return IndexExpr(self.c + sign * other, dict(self.terms), self.shape)
        shape = _broadcast(self.shape, other.shape)
        terms = self._aligned(len(shape))
        for key, co in other._aligned(len(shape)).items():
            v = terms.get(key, 0) + sign * co
            if v:
                terms[key] = v
            else:
                terms.pop(key, None)
        return IndexExpr(self.c + sign * other.c, terms, shape)

    def __add__(self, other):
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._combine(other, -1)

    def __rsub__(self, other):
        r = self._combine(other, -1)
        return NotImplemented if r is NotImplemented else -r

    def __neg__(self):
        return self * -1

    def __pos__(self):
        return self

    def __mul__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            if isinstance(k, IndexExpr) and not k.terms:
                k = k.c
            elif self.terms or not isinstance(k, IndexExpr):
                raise TypeError("index expressions must stay affine: they can only be scaled "
                                "by an integer")
            else:
                return k * self.c
        return IndexExpr(self.c * k, {key: co * k for key, co in self.terms.items()} if k else {},
                         self.shape)

    __rmul__ = __mul__

    def __getitem__(self, key):
        """``arange[:, None]`` / ``arange[None, :]``: gives a 1-d index its axes."""
        if not isinstance(key, tuple):
            key = (key,)
        new_shape, remap, src = [], {}, 0
        for k in key:
            if k is None:
                new_shape.append(1)
            elif isinstance(k, slice) and k == slice(None):
                if src >= len(self.shape):
                    raise IndexError("too many indices for index expression")
                remap[src] = len(new_shape)
                new_shape.append(self.shape[src])
                src += 1
            else:
                raise TypeError("index expressions can only be indexed with ':' and None")
        if src != len(self.shape):
            raise IndexError("index expression needs one ':' per axis")
        terms = {((k, remap[i]) if k == "A" else (k, i)): co for (k, i), co in self.terms.items()}
        return IndexExpr(self.c, terms, new_shape)

    def __repr__(self):
        parts = [f"{co}*{k}{i}" for (k, i), co in self.terms.items()]
        if self.c or not parts:
            parts.append(str(self.c))
        return f"IndexExpr({' + '.join(parts)}, shape={self.shape})"

    def __index__(self):
        if self.terms:
            raise TypeError("a symbolic index (loop variable or program id) has no concrete "
                            "value at trace time; use it inside index expressions")
        return self.c

    def __bool__(self):
        if self.terms:
            raise TypeError("a symbolic index (loop variable or program id) has no truth value "
                            "at trace time")
        return bool(self.c)


def arange(*args):
    """``nl.arange(stop)`` / ``nl.arange(start, stop[, step])`` as a 1-d index expression."""
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    elif len(args) == 2:
        (start, stop), step = args, 1
    elif len(args) == 3:
        start, stop, step = args
    else:
        raise TypeError(f"arange expected 1 to 3 arguments, got {len(args)}")
    for v in (start, stop, step):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("arange bounds must be compile-time integers")
    if step <= 0:
        raise ValueError("arange step must be a positive integer")
    n = max(0, (stop - start + step - 1) // step)
    return IndexExpr(start, {("A", 0): step}, (n,))
