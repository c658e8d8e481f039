"""Element-wise math, comparisons, logical/bitwise ops, selects and reductions of nki.language."""

__all__ = []
