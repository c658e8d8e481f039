"""Data movement, matmul/transpose, views and constants of nki.language."""

__all__ = []
