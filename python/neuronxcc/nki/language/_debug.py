"""``nl.device_print``: values printed while the kernel runs (in the simulator)."""
from .. import _ops


def device_print(prefix, x, *, mask=None, **kwargs):
    """Prints ``prefix`` followed by the value of ``x`` when the kernel runs on the simulator
    (``nki.simulate_kernel`` and the modes that simulate), in program order; tracing alone
    prints nothing (NKI prints only in simulation).

    Args:
      prefix: a string printed before the value.
      x: a tile or tensor (SBUF, PSUM or HBM).
      mask: a compile-time predicate; masked-off elements print as nan.
    """
    _ops.call("device_print", [("x", x)], attrs={"prefix": str(prefix)}, mask=mask)


__all__ = ["device_print"]
