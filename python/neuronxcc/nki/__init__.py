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


# This front end joins the runner (nki_playground.runner), which imports no front end.
from nki_playground import runner as _runner  # noqa: E402
from . import _frontend as _frontend_mod, _kernel as _kernel_mod  # noqa: E402
from .compiler.backends.neuron.TraceContext import TraceContext as _TraceContext  # noqa: E402
from .compiler.backends.neuron.nki_ctx import nki_ctx_or_none as _nki_ctx_or_none  # noqa: E402


def _abandon():
    if _nki_ctx_or_none() is not None:
        _TraceContext.abandon()


def _simulate_for_runner(kernel, grid, args, kwargs):
    _kernel_mod.simulate_kernel(kernel[grid] if grid else kernel, *args, **kwargs)


_runner.register_front_end("neuronxcc.nki", forget=_frontend_mod.forget, abandon=_abandon,
                           kernel_types=(_kernel_mod.Kernel,), as_kernel=_kernel_mod.Kernel,
                           simulate=_simulate_for_runner)
