"""``neuronxcc.nki`` as implemented by nki-playground: NKI kernels traced to IR in the browser.

``nki.jit`` marks kernels, ``kernel[grid](...)`` launches them, and ``nki.trace_kernel`` (our
addition: NKI has no public way to see its IR) traces one and returns the IR.
"""
from nki_playground.standins import ensure_numpy as _ensure_numpy
_ensure_numpy()  # `import numpy` works from here on: the real NumPy, else the fallback
from ._kernel import (jit, trace_kernel, Kernel, GriddedKernel, Trace,  # noqa: F401
                      baremetal, benchmark, profile, simulate_kernel)
from ._kernel import legacy_trace as trace  # noqa: F401  (nki.trace)
from . import language, isa, typing, compiler  # noqa: F401

__all__ = ["jit", "trace", "trace_kernel", "simulate_kernel", "baremetal", "benchmark", "profile",
           "language", "isa", "typing", "compiler"]
