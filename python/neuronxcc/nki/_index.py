"""Symbolic index values: affine expressions over loop variables, program ids and ``nl.arange``
axes. Pure trace-side algebra: the core resolves what they address (core/lang/ops.h).

An expression has an index *shape*: ``()`` for a scalar (loop variable, program id, int
arithmetic), ``(128, 1)`` for ``nl.arange(128)[:, None]``. Arange terms are keyed by the axis
of that shape they vary along; shapes broadcast right-aligned as NumPy's do.
"""

from nki_playground.door import raise_diagnostic
from nki_playground.errors import coded


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

    __slots__ = ("c", "terms", "shape", "grid")

    def __init__(self, c=0, terms=None, shape=(), grid=None):
        self.c = c
        self.terms = terms or {}
        self.shape = tuple(shape)
        self.grid = grid  # (grid id, grid shape) when built from one nl.mgrid[...] call

    @classmethod
    def from_core(cls, j, shape=()):
        return cls(j["c"], {((t[0], (t[1], t[3], t[4])) if t[0] in ("M", "D") else (t[0], t[1])): t[2]
                            for t in j["t"]}, shape)

    def to_json(self):
        return {"c": self.c,
                "t": [[k, i[0], co, i[1], i[2]] if k in ("M", "D") else [k, i, co]
                      for (k, i), co in self.terms.items()],
                "shape": list(self.shape)}

    def __mod__(self, k):
        """``i % k`` of a loop variable (double buffering: ``buf[i % 2]``)."""
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            return NotImplemented
        if not self.terms:
            return IndexExpr(self.c % k)
        if all(co % k == 0 for co in self.terms.values()):  # (2*k*i + c) % k is constant
            return IndexExpr(self.c % k)
        (kind, axis), coeff = next(iter(self.terms.items()))
        if len(self.terms) != 1 or kind != "L" or coeff != 1:
            raise coded(TypeError("index expressions must stay affine: only a loop variable plus "
                                  "a constant can be taken modulo an integer (`i % 2`, "
                                  "`(i + 1) % 2`)"), "non-affine-index-expression")
        return IndexExpr(0, {("M", (axis, k, self.c % k)): 1}, self.shape, self.grid)

    def __floordiv__(self, k):
        """``i // k`` of a loop variable (``(i + c) // k`` too)."""
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            return NotImplemented
        if not self.terms:
            return IndexExpr(self.c // k)
        if all(co % k == 0 for co in self.terms.values()):  # (4*k*i + c) // k stays affine
            return IndexExpr(self.c // k, {key: co // k for key, co in self.terms.items()},
                             self.shape, self.grid)
        (kind, axis), coeff = next(iter(self.terms.items()))
        if len(self.terms) != 1 or kind != "L" or coeff != 1:
            raise coded(TypeError("index expressions must stay affine: only a loop variable plus "
                                  "a constant can be divided by an integer (`i // 2`)"),
                        "non-affine-index-expression")
        return IndexExpr(0, {("D", (axis, k, self.c)): 1}, self.shape, self.grid)

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
            return IndexExpr(self.c + sign * other, dict(self.terms), self.shape, self.grid)
        shape = _broadcast(self.shape, other.shape)
        terms = self._aligned(len(shape))
        for key, co in other._aligned(len(shape)).items():
            v = terms.get(key, 0) + sign * co
            if v:
                terms[key] = v
            else:
                terms.pop(key, None)
        if not other.grid or other.grid == self.grid:
            grid = self.grid
        else:
            grid = other.grid if not self.grid else None
        return IndexExpr(self.c + sign * other.c, terms, shape, grid)

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
                raise coded(TypeError("index expressions must stay affine: they can only be "
                                      "scaled by an integer"), "non-affine-index-expression")
            else:
                return k * self.c
        return IndexExpr(self.c * k, {key: co * k for key, co in self.terms.items()} if k else {},
                         self.shape, self.grid)

    __rmul__ = __mul__

    def __setitem__(self, key, value):
        """NKI's `index` tensors are read-only (``nisa.iota`` makes a tile that is not)."""
        raise_diagnostic("err_cannot_assign_to_index")

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
            raise coded(TypeError("a symbolic index (loop variable or program id) has no "
                                  "concrete value at trace time; use it inside index "
                                  "expressions"), "symbolic-index-has-no-value")
        return self.c

    def __bool__(self):
        if self.terms:
            raise coded(TypeError("a symbolic index (loop variable or program id) has no truth "
                                  "value at trace time"), "symbolic-index-has-no-value")
        return bool(self.c)


def range_args(args, what, bounds):
    """(start, stop, step) of ``range``-style arguments — ``(stop)``, ``(start, stop)`` or
    ``(start, stop, step)``, compile-time integers — for ``nl.arange`` and the loops (the one
    parser; their lengths are ``len(range(...))``, the core's loop trip count pinned equal to it
    by tests/python/facts.test.js). ``what`` prefixes the arity error, ``bounds`` names what
    the bounds are in the type error."""
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    elif len(args) == 2:
        (start, stop), step = args, 1
    elif len(args) == 3:
        start, stop, step = args
    else:
        raise TypeError(f"{what}expected 1 to 3 arguments, got {len(args)}")
    for v in (start, stop, step):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{bounds} bounds must be compile-time integers")
    return start, stop, step


def arange(*args):
    """``nl.arange(stop)`` / ``nl.arange(start, stop[, step])`` as a 1-d index expression."""
    start, stop, step = range_args(args, "arange ", "arange")
    if step <= 0:
        raise ValueError("arange step must be a positive integer")
    return IndexExpr(start, {("A", 0): step}, (len(range(start, stop, step)),))


# --- predicates -----------------------------------------------------------------------------

_SWAP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_EVAL = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
         ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


class Predicate:
    """A conjunction of affine comparisons: an NKI mask, or the condition of an ``if`` on loop
    variables / program ids (traced into an IfScope). Combine with ``&``."""

    __slots__ = ("terms",)

    def __init__(self, terms):
        self.terms = list(terms)  # [(lhs IndexExpr, op, rhs IndexExpr)]

    def __and__(self, other):
        if other is True:
            return self
        if other is False:
            return False
        if isinstance(other, Predicate):
            return Predicate(self.terms + other.terms)
        return NotImplemented

    __rand__ = __and__

    def __or__(self, other):
        raise_diagnostic("err_logic_or_not_supported", "mask")

    __ror__ = __or__

    def __bool__(self):
        raise_diagnostic("err_predicate_truth_value")

    def to_json(self):
        return [{"lhs": l.to_json(), "op": op, "rhs": r.to_json()} for l, op, r in self.terms]

    def __repr__(self):
        return " & ".join(f"({l!r} {op} {r!r})" for l, op, r in self.terms)


def _compare(self, other, op):
    if isinstance(other, bool) or not isinstance(other, (int, IndexExpr)):
        return NotImplemented
    if isinstance(other, int):
        other = IndexExpr(other)
    if not self.terms and not other.terms:
        return _EVAL[op](self.c, other.c)
    return Predicate([(self, op, other)])


IndexExpr.__lt__ = lambda self, o: _compare(self, o, "<")
IndexExpr.__le__ = lambda self, o: _compare(self, o, "<=")
IndexExpr.__gt__ = lambda self, o: _compare(self, o, ">")
IndexExpr.__ge__ = lambda self, o: _compare(self, o, ">=")
IndexExpr.__eq__ = lambda self, o: _compare(self, o, "==")
IndexExpr.__ne__ = lambda self, o: _compare(self, o, "!=")
IndexExpr.__hash__ = object.__hash__


# --- mgrid and dynamic slices ---------------------------------------------------------------


class MGridResult(tuple):
    """``nl.mgrid[0:P, 0:F]``: unpacks into one index per axis, or use ``.p``/``.x``/``.y``."""

    @property
    def p(self):
        return self[0]

    @property
    def x(self):
        return self[1]

    @property
    def y(self):
        return self[2]

    @property
    def z(self):
        return self[3]


class _MGrid:
    _calls = 0

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        specs = []
        for k in key:
            if not isinstance(k, slice):
                raise TypeError("nl.mgrid takes slices: nl.mgrid[0:128, 0:512]")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            for v in (start, k.stop, step):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError("nl.mgrid bounds and steps must be compile-time integers")
            if step <= 0:
                raise ValueError("nl.mgrid steps must be positive")
            specs.append((start, step, len(range(start, k.stop, step))))
        shape = tuple(n for _, _, n in specs)
        _MGrid._calls += 1
        grid = (_MGrid._calls, shape)
        return MGridResult(IndexExpr(start, {("A", axis): step}, shape, grid=grid)
                           for axis, (start, step, _) in enumerate(specs))

    def __repr__(self):
        return "nl.mgrid"


mgrid = _MGrid()


def ds(start, size):
    """``nl.ds(start, size)``: the slice ``start:start+size`` (start may be a loop variable)."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError("nl.ds size must be a compile-time integer")
    return slice(start, start + size, None)


def layout_grid_indices(keys):
    """Lays out ``nl.mgrid`` components the way NKI does: each component indexes where it is
    used, so the tile a subscript makes has one axis per grid axis it uses, in the order it
    first uses them (``g[iw, iy]`` with ``ix, iw, iy = nl.mgrid[0:128, 0:1, 0:512]`` is a
    [1, 512] tile; components of two different grids can share a subscript). Index expressions
    built from ``nl.arange`` keep their explicit shapes."""
    keys, _ = layout_grid_indices_with_order(keys)
    return keys


def _grid_axes(e):
    return sorted((e.grid[0], i) for kind, i in e.terms if kind == "A")


def layout_grid_indices_with_order(keys):
    """layout_grid_indices, also returning the layout — the identity of each tile axis (a
    (grid id, axis) pair, an arange's (position, axis), or a kept integer position) and their
    extents — when it laid anything out (a mask on the same op follows it)."""
    exprs = [k for k in keys if isinstance(k, IndexExpr) and k.is_arange]
    if not exprs or not any(e.grid for e in exprs):
        return keys, None
    if any(not isinstance(k, (int, slice, IndexExpr)) and k is not Ellipsis for k in keys):
        return keys, None  # index tiles / dynamic offsets keep the grid's own layout
    if all(e.grid for e in exprs) and len({e.grid for e in exprs}) == 1:
        used = sorted({i for e in exprs for kind, i in e.terms if kind == "A"})
        if used == list(range(len(exprs[0].shape))):
            return keys, None  # one grid, every axis: the grid's own layout
    axes = []  # (identity, extent, is_point)
    for pos, k in enumerate(keys):
        if isinstance(k, IndexExpr) and k.is_arange:
            for ident, n in _expr_axes(k, pos):
                if ident not in [a[0] for a in axes]:
                    axes.append((ident, n, False))
        elif isinstance(k, int) or (isinstance(k, IndexExpr) and not k.is_arange):
            axes.append((("point", pos), 1, True))
    real = [a for a in axes if not a[2]]
    if len(real) < 2:
        # A tile keeps two axes: first the unused length-1 axes of the grids it indexes with,
        # where the grid has them (`m[i_p, 0]` with `i_p, i_f, i_one = nl.mgrid[0:128, 0:N,
        # 0:1]` is [128, 1]; `a[0, g.x]` with `g = nl.mgrid[0:1, 0:128]` is [1, 128]), then
        # the positions of its integer indices.
        for g in dict.fromkeys(e.grid for e in exprs if e.grid):
            for axis, n in enumerate(g[1]):
                if len(real) >= 2:
                    break
                if n == 1 and (g[0], axis) not in [a[0] for a in real]:
                    at = next((j for j, a in enumerate(real)
                               if a[0][0] == g[0] and a[0][1] > axis), len(real))
                    real.insert(at, ((g[0], axis), 1, False))
    if len(real) >= 2:
        axes = real  # a tile of two axes or more drops integer indices
    layout = (tuple(a[0] for a in axes), tuple(a[1] for a in axes))
    out = []
    for pos, k in enumerate(keys):
        if isinstance(k, IndexExpr) and k.is_arange:
            k = _relaid(k, layout, pos)
        elif ("point", pos) in layout[0]:
            c = k if isinstance(k, int) else k
            k = c + IndexExpr(0, {("A", layout[0].index(("point", pos))): 1}, layout[1])
        out.append(k)
    return out, layout


def _expr_axes(e, pos):
    """The tile-axis identities an index expression spans, with their extents."""
    if e.grid:
        return [((e.grid[0], i), e.grid[1][i]) for _, i in _grid_axes(e)]
    return [((("arange", pos), i), e.shape[i]) for kind, i in sorted(e.terms)
            if kind == "A" and e.shape[i] != 1]


def _relaid(e, layout, pos=None):
    ids, extents = layout
    if e.grid:
        ident = lambda i: (e.grid[0], i)  # noqa: E731
    elif pos is not None:
        ident = lambda i: (("arange", pos), i)  # noqa: E731
    else:
        return e
    terms = {}
    for (kind, i), co in e.terms.items():
        if kind != "A":
            terms[(kind, i)] = co
        elif ident(i) in ids:
            terms[("A", ids.index(ident(i)))] = co
        elif e.grid or e.shape[i] != 1:
            return e  # uses an axis the layout does not: left for the core to refuse
    return IndexExpr(e.c, terms, extents, e.grid)


def remap_grid_mask(mask, layout):
    """A mask built from nl.mgrid components, laid out like the op's tile: like the subscript
    of the operand that made it when there is one; otherwise each grid keeps the axes the mask
    uses and those longer than 1 (``i*128 + ix < n`` with ``ix, iw, iy = nl.mgrid[0:128, 0:1,
    0:512]`` masks a [128, 512] tile)."""
    if not isinstance(mask, Predicate):
        return mask
    if layout is None:
        used = {}
        for l, _, r in mask.terms:
            for e in (l, r):
                if e.grid and e.is_arange:
                    used.setdefault(e.grid, set()).update(i for _, i in _grid_axes(e))
        if len(used) != 1:
            return mask
        (gid, shape), axes = next(iter(used.items()))
        keep = [a for a in range(len(shape)) if a in axes or shape[a] != 1]
        if len(keep) == len(shape):
            return mask
        layout = (tuple((gid, a) for a in keep), tuple(shape[a] for a in keep))

    def fix(e):
        return _relaid(e, layout) if e.grid and e.is_arange else e
    return Predicate([(fix(l), op, fix(r)) for l, op, r in mask.terms])
