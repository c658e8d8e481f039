"""``nki``: the current NKI language (NKI 0.6.0, Neuron SDK 2.32) on nki-playground's core.

``nki.jit`` makes a ``Kernel``: called with NumPy arrays it runs (here, on the simulator;
there is no Neuron device), ``kernel[2]`` launches on two logical cores, ``nki.simulate(k)``
runs it on the CPU simulator explicitly. The kernel body runs as Python once (NKI's tracer
front end) and is checked for what NKI's parser front end rejects.
"""
from . import collectives, isa, language, typing  # noqa: F401
from ._kernel import Kernel, jit  # noqa: F401
from ._simulate import simulate_callable as simulate  # noqa: F401

__version__ = "0.6.0"

_REMOVED = {
    "baremetal": "call the kernel with NumPy arrays, or nki.simulate(kernel)(*arrays)",
    "benchmark": "profile with Neuron Explorer",
    "profile": "profile with Neuron Explorer",
    "simulate_kernel": "use nki.simulate(kernel)(*arrays)",
}


def __getattr__(name):
    if name in _REMOVED:
        from . import _core
        _core.raise_diagnostic("err_removed_api", f"nki.{name}", _REMOVED[name])
    raise AttributeError(f"module 'nki' has no attribute {name!r}")
