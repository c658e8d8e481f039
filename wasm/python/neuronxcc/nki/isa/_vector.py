"""nki.isa instructions of the Vector, Scalar and GpSimd engines."""

__all__ = []
