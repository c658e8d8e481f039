"""The current language's kernel object: ``nki.jit``, ``Kernel``, ``kernel[lnc]``,
``nki.simulate(kernel)`` — above tracing and simulation (``_launch``), which it calls.
"""
import inspect
import os

from nki_playground import launch

from . import _core, _launch, _trace
from ._launch import LANGUAGE, target, target_facts, trace  # noqa: F401 (this module's API)


class Kernel(launch.KernelObject):
    """A function decorated with ``@nki.jit`` (``nki.framework.kernel.Kernel``)."""

    def __init__(self, fn, options=None, schedule=(), lnc=1):
        self._wrap(fn)
        self.fn = fn
        self.options = dict(options or {})
        self.schedule = tuple(schedule)
        self.lnc = lnc

    def __getitem__(self, lnc):
        if isinstance(lnc, tuple) or isinstance(lnc, bool) or not isinstance(lnc, int):
            _core.raise_diagnostic("err_kernel_rule", "The bracket syntax must contain only "
                                   "one number: the LNC degree, kernel[lnc] (multi-dimensional "
                                   "SPMD grids are gone; loop inside the kernel instead)")
        if lnc not in (1, 2):
            _core.raise_diagnostic("err_kernel_rule", f"LNC degree {lnc}: a kernel runs on 1 or 2 "
                                   "logical NeuronCores")
        return Kernel(self.fn, self.options, self.schedule, lnc)

    def with_schedule(self, edges):
        """Adds "runs-after" edges ``[(a, b)]`` / ``[(a, [b, c])]`` between named instructions.
        nki-playground checks their form; the simulator runs in program order."""
        for e in edges:
            if not isinstance(e, (tuple, list)) or len(e) != 2:
                _core.raise_diagnostic("err_kernel_rule", "Schedule edge must be a pair")
            after, before = e
            names = [after] + (list(before) if isinstance(before, (list, tuple)) else [before])
            if not all(isinstance(n, str) for n in names):
                _core.raise_diagnostic("err_kernel_rule", "Schedule edge name must be a string")
        return Kernel(self.fn, self.options, self.schedule + tuple(edges), self.lnc)

    def __call__(self, *args, **kwargs):
        if _trace.current() is not None:
            _core.raise_diagnostic("err_kernel_rule", "a @nki.jit kernel cannot be called from "
                                   "a kernel: sub-kernels are plain functions (apply "
                                   "nki.jit(f) at the call site for a standalone kernel)")
        if not args and not kwargs and inspect.signature(self.fn).parameters:
            _core.raise_diagnostic("err_kernel_rule", f"kernel '{self.__name__}' called with "
                                   "no arguments")
        if os.environ.get("NKI_SIMULATOR", "") not in ("1", "true", "True"):
            # A plain call would run on a device; here it simulates (said once per kernel).
            launch.say_once(self.__name__, f"nki-playground: no Neuron device here; "
                            f"'{self.__name__}' runs on the simulator (nki.simulate)")
        return _launch.simulate(self.fn, self.lnc, args, kwargs)

    def __repr__(self):
        return f"<nki kernel {self.__name__}{f'[{self.lnc}]' if self.lnc > 1 else ''}>"


def jit(fn=None, **kwargs):
    """``@nki.jit`` / ``@nki.jit(...)`` / ``nki.jit(f)``: a ``Kernel``."""
    if "platform_target" in kwargs:
        _core.raise_diagnostic("err_removed_api", "nki.jit(platform_target=...)",
                               "set NEURON_PLATFORM_TARGET_OVERRIDE (trn1, trn2, trn3) instead")
    if fn is None:
        return lambda f: jit(f, **kwargs)
    if isinstance(fn, Kernel):
        return Kernel(fn.fn, dict(fn.options, **kwargs), fn.schedule, fn.lnc)
    if not callable(fn):
        raise TypeError(f"nki.jit expects a function, got {type(fn).__name__}")
    return Kernel(fn, kwargs)


def simulate_callable(kernel):
    """``nki.simulate(kernel)``: a callable running the kernel on the CPU simulator."""
    if not isinstance(kernel, Kernel):
        if not callable(kernel):
            raise TypeError(f"nki.simulate expects a kernel, got {type(kernel).__name__}")
        kernel = Kernel(kernel)

    def run_simulated(*args, **kwargs):
        return _launch.simulate(kernel.fn, kernel.lnc, args, kwargs)
    run_simulated.__name__ = kernel.__name__
    return run_simulated
