"""Running a traced kernel on the simulator (``nki.simulate_kernel`` and the decorators that
would run on a device): NKI Beta 1's rules for the launch layer (``nki_playground.launch``),
which runs the simulation and reports what it printed and warned.

Inputs and outputs are numpy arrays: the real NumPy when it can be imported, nki-playground's
fallback otherwise. Output-parameter kernels write their results into the caller's arrays.
"""
from nki_playground import launch
from nki_playground.errors import coded

from . import _dtypes
from .typing import TensorType

NO_DEVICE = ("nki-playground: no Neuron device here; '{name}' ({mode}) runs on the simulator "
             "(nki.simulate_kernel)")

#: ml_dtypes' types that NKI Beta 1 kernels do not take (the core knows float8_e4m3, the
#: IEEE-style format, and float8_e5m2).
_NOT_BETA1 = ("float8_e4m3fn", "float8_e8m0fnu")


def _check_input(kernel_name, name, value):
    raw_name = getattr(value.dtype, "name", None)
    if raw_name in _NOT_BETA1:
        raise coded(TypeError(f"{kernel_name}(): parameter '{name}' is a {raw_name} array; NKI "
                              "Beta 1 kernels take float8_e4m3 (IEEE-style, max 240) or "
                              "float8_e5m2: convert it with .astype(nl.float8_e4m3)"),
                    "simulate-input-mismatch")


#: NKI Beta 1 for the launch layer. ``NKI_PRECISE_FP`` defaults off: Beta 1's
#: ``nki.simulate_kernel`` computes bfloat16, float8_* and float32r tiles in fp32 precision (its
#: known-issues page), and the public doc tests assert that; ``NKI_PRECISE_FP=1`` rounds them as
#: the hardware stores them. The target is trn1 unless the kernel names one.
LANGUAGE = launch.Language(
    "beta1", "NKI Beta 1", "beta1", None, precise_fp=False, target="trn1",
    running="running a kernel", write_back="outputs", dtype_name=_dtypes.name_of,
    placeholder=TensorType, check_input=_check_input)

say_once = launch.say_once
returned = launch.returned


def run(trace, options=None, zero_placeholders=False):
    """Simulates ``trace`` (a launch ``Trace`` with its ``inputs``: arrays or nt.tensor
    placeholders) and returns the launch ``Run``.

    Args:
      trace: the traced kernel.
      options: the kernel's ``nki.jit`` options (``platform_target``).
      zero_placeholders: fill placeholder inputs with zeros (``nki.benchmark``) instead of
        raising.
    """
    target = str((options or {}).get("platform_target") or LANGUAGE.target)
    return launch.simulate(LANGUAGE, trace, target, zero_placeholders)


class _Latency:
    """``benchmark_result.nc_latency``: the simulator's wall-clock time, not device latency."""

    def __init__(self, seconds):
        self._us = seconds * 1e6

    def get_latency_percentile(self, percentile):
        """The latency (µs) at ``percentile`` — here the simulator's wall-clock time for its one
        run, the same for every percentile (there is no device to measure)."""
        say_once("benchmark-latency", "nki-playground: benchmark latencies are the simulator's "
                 "wall-clock time (simulated), not a Neuron device measurement")
        if not 0 <= percentile <= 100:
            raise ValueError(f"percentile must be in [0, 100], got {percentile}")
        return self._us


class BenchmarkResult:
    """What ``nki.benchmark`` leaves on the kernel: ``nc_latency.get_latency_percentile(p)``."""

    simulated = True

    def __init__(self, seconds):
        self.nc_latency = _Latency(seconds)
