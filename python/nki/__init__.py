"""``nki``: the current NKI language (NKI 0.6.0, Neuron SDK 2.32) on nki-playground's core.

``nki.jit`` makes a ``Kernel``: called with NumPy arrays it runs (here, on the simulator;
there is no Neuron device), ``kernel[2]`` launches on two logical cores, ``nki.simulate(k)``
runs it on the CPU simulator explicitly. The kernel body runs as Python once (NKI's tracer
front end) and is checked for what NKI's parser front end rejects.
"""
from . import _core, _views  # noqa: F401 (_views installs NkiTensor's view methods)
from . import collectives, isa, language, typing  # noqa: F401
from ._kernel import Kernel, jit  # noqa: F401
from ._kernel import simulate_callable as simulate  # noqa: F401

__version__ = "0.6.0"

#: The type of NKI dtypes (``nl.float32``, ``nl.bfloat16``, ...), as kernels annotate dtype
#: parameters (``dtype: nki.dtype = nl.bfloat16``, nki-library).
dtype = language.DType

_REMOVED = {
    "baremetal": "call the kernel with NumPy arrays, or nki.simulate(kernel)(*arrays)",
    "benchmark": "profile with Neuron Explorer",
    "profile": "profile with Neuron Explorer",
    "simulate_kernel": "use nki.simulate(kernel)(*arrays)",
}


def __getattr__(name):
    if name in _REMOVED:
        _core.raise_diagnostic("err_removed_api", f"nki.{name}", _REMOVED[name])
    raise AttributeError(f"module 'nki' has no attribute {name!r}")


# This front end joins the runner (nki_playground.runner), which imports no front end.
from nki_playground import runner as _runner  # noqa: E402
from . import _frontend as _frontend_mod, _kernel as _kernel_mod, _launch as _launch_mod  # noqa: E402
from . import _runtime  # noqa: E402,F401 (installs the runtime rewritten kernels call)
from . import _trace as _trace_mod  # noqa: E402


def _simulate_for_runner(kernel, grid, args, kwargs):
    """runtime.simulate(): ``grid`` is ``[]`` or ``[lnc]`` (the current language's only launch
    dimension)."""
    if grid:
        kernel = kernel[int(grid[0])] if len(grid) == 1 else kernel[tuple(grid)]
    _launch_mod.simulate(kernel.fn, kernel.lnc, args, kwargs)


_runner.register_front_end("nki", forget=_frontend_mod.forget, abandon=_trace_mod.deactivate,
                           kernel_types=(_kernel_mod.Kernel,), as_kernel=_kernel_mod.Kernel,
                           simulate=_simulate_for_runner)
