"""Run-time scalars: a value read on the device from a (1,1) tile, for the two forms of run-time
control flow NKI has — ``for _ in range(scalar(t))`` (a dynamic trip count) and the do-while
``while cond:`` loop whose condition is a scalar comparison set by the loop's last statement.
"""
from nki_playground.door import raise_diagnostic

from ._tensor import NkiTensor

_OPS = ("<", "<=", ">", ">=", "==", "!=")


class RuntimeScalar:
    """``nt.scalar(x)``: a (1,1) tile's value at run time, or a constant (``scalar(True)``)."""

    __slots__ = ("tile", "const")

    def __init__(self, tile=None, const=None):
        self.tile = tile
        self.const = const

    def _cmp(self, other, op):
        if isinstance(other, RuntimeScalar) or isinstance(other, NkiTensor):
            raise TypeError("a run-time scalar can only be compared with a constant")
        if self.tile is None:
            raise TypeError("compare a scalar read from a tile: scalar(t) < 10")
        return ScalarCondition(self, op, float(other))

    def __lt__(self, o):
        return self._cmp(o, "<")

    def __le__(self, o):
        return self._cmp(o, "<=")

    def __gt__(self, o):
        return self._cmp(o, ">")

    def __ge__(self, o):
        return self._cmp(o, ">=")

    def __eq__(self, o):
        return self._cmp(o, "==")

    def __ne__(self, o):
        return self._cmp(o, "!=")

    __hash__ = object.__hash__

    def __bool__(self):
        raise_diagnostic("err_dynamic_control_flow_not_supported")

    def __index__(self):
        raise_diagnostic("err_dynamic_control_flow_not_supported")

    def __repr__(self):
        return f"scalar({self.tile!r})" if self.tile is not None else f"scalar({self.const!r})"


class ScalarCondition:
    """``scalar(t) < 10``: a comparison evaluated on the device."""

    __slots__ = ("scalar", "op", "rhs")

    def __init__(self, scalar, op, rhs):
        self.scalar, self.op, self.rhs = scalar, op, rhs

    def __bool__(self):
        raise_diagnostic("err_dynamic_control_flow_not_supported")

    def __repr__(self):
        return f"{self.scalar!r} {self.op} {self.rhs!r}"


def scalar(x):
    """A run-time scalar: ``scalar(True)`` starts a do-while loop; ``scalar(t)`` reads the
    (1,1) tile ``t`` on the device."""
    if isinstance(x, NkiTensor):
        if tuple(x.shape) not in ((1, 1), (1,)):
            raise ValueError(f"scalar() reads a (1, 1) tile, got shape {tuple(x.shape)}")
        return RuntimeScalar(tile=x)
    if isinstance(x, (bool, int, float)):
        return RuntimeScalar(const=x)
    raise TypeError(f"scalar() takes a (1, 1) tile or a constant, got {type(x).__name__}")
