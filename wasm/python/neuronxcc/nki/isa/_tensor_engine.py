"""nki.isa matmul/transpose (Tensor engine) and DMA instructions."""

__all__ = []
