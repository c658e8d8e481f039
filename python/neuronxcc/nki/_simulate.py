"""Running a traced kernel on the simulator in the core (``nki.simulate_kernel`` and the
decorators that would run on a device).

Inputs and outputs are numpy arrays: the real NumPy when it can be imported, nki-playground's
fallback otherwise. Bulk data crosses into wasm memory through typed-array views, one call per
tensor; a view is fetched right before it is used, since memory growth detaches earlier ones.
"""
import json
import os
import sys
import time

from . import _dtypes
from nki_playground import door as _core, dtype_values as _floats, results as _results
from nki_playground.arrays import from_bytes, to_bytes  # noqa: F401  (the runner's from_bytes)
from nki_playground.arrays import _numpy_dtype
from nki_playground.standins import ensure_numpy
from nki_playground.errors import coded
from .typing import TensorType

_said = set()

NO_DEVICE = ("nki-playground: no Neuron device here; '{name}' ({mode}) runs on the simulator "
             "(nki.simulate_kernel)")


def say_once(key, message):
    """Prints ``message`` to stderr the first time ``key`` is seen in this interpreter."""
    if key in _said:
        return
    _said.add(key)
    print(message, file=sys.stderr)
    _results.notice(message)


def _call(fn, *args):
    try:
        return fn(*args)
    except _core.JsException as e:
        raise _core.translate(e) from None


def precise_fp():
    """Whether low-precision tiles are rounded as stored. NKI Beta 1's ``nki.simulate_kernel``
    computes ``bfloat16``, ``float8_*`` and ``float32r`` tiles in fp32 precision (its known-issues
    page), and the public doc tests assert that, so the default is off; ``NKI_PRECISE_FP=1``
    (the current language's switch) rounds them as the hardware stores them."""
    return os.environ.get("NKI_PRECISE_FP", "0").strip().lower() in ("1", "true", "on")


#: ml_dtypes' types that NKI Beta 1 kernels do not take (the core knows float8_e4m3, the
#: IEEE-style format, and float8_e5m2).
_NOT_BETA1 = ("float8_e4m3fn", "float8_e8m0fnu")


# --- one run -----------------------------------------------------------------------------------

class Run:
    """What a simulation returned: its outputs, the core's log, the wall-clock time."""

    def __init__(self, outputs, log, seconds):
        self.outputs = outputs
        self.log = log
        self.seconds = seconds


def run(trace, inputs, options=None, zero_placeholders=False):
    """Simulates ``trace`` (a ``_kernel.Trace``) on ``inputs`` and returns a ``Run``.

    Args:
      trace: the traced kernel.
      inputs: ``[(name, array or nt.tensor placeholder)]`` in parameter order.
      options: the kernel's ``nki.jit`` options (``platform_target``).
      zero_placeholders: fill placeholder inputs with zeros (``nki.benchmark``) instead of
        raising.
    """
    options = options or {}
    target = str(options.get("platform_target") or "trn1")
    plan = os.environ.get("NKI_PLAYGROUND_SIM_PLAN", "").strip().lower() != "off"
    sim = _core.new_simulation(trace._handle(), json.dumps({"target": target,
                                                                  "precise_fp": precise_fp(),
                                                                  "plan": plan}))
    record = {"kernel": trace.kernel_name, "inputs": []}
    try:
        for i, (name, value) in enumerate(inputs):
            view = _call(sim.input_view, i)
            if isinstance(value, TensorType):
                if not zero_placeholders:
                    raise coded(TypeError(f"{trace.kernel_name}(): parameter '{name}' is a "
                                          f"placeholder {value!r}; running a kernel needs an "
                                          "array"), "simulate-input-mismatch")
                view.fill(0)
                # zeros, made only when small enough to be recorded (benchmark placeholders
                # can be hundreds of MB)
                zeros = bytes(view.length) if _results.keeps(value.shape) else None
                record["inputs"].append((name, value.shape, _dtypes.name_of(value.dtype), zeros))
                continue
            raw_name = getattr(value.dtype, "name", None)
            if raw_name in _NOT_BETA1:
                raise coded(TypeError(f"{trace.kernel_name}(): parameter '{name}' is a "
                                      f"{raw_name} array; NKI Beta 1 kernels take float8_e4m3 "
                                      f"(IEEE-style, max 240) or float8_e5m2: convert it with "
                                      f".astype(nl.float8_e4m3)"), "simulate-input-mismatch")
            dtype = _dtypes.name_of(value.dtype)
            data = to_bytes(value, dtype)
            if len(data) != view.length:
                raise coded(ValueError(f"{trace.kernel_name}(): parameter '{name}' has "
                                       f"{len(data)} bytes, the kernel expects {view.length}"),
                            "simulate-input-mismatch")
            view.assign(data)
            record["inputs"].append((name, value.shape, dtype, data))
        t0 = time.perf_counter()
        log = json.loads(_call(sim.run))
        seconds = time.perf_counter() - t0
        outputs, infos = [], []
        for j in range(_call(sim.num_outputs)):
            info = json.loads(_call(sim.output_info, j))
            raw = _call(sim.output_view, j).to_py()
            outputs.append(from_bytes(raw, info["dtype"], tuple(info["shape"])))
            infos.append((info, raw))
    finally:
        sim.delete()
    rec = _record(record, infos, outputs)
    targets = _write_back(trace, inputs, outputs)
    for j, target in targets:
        _results.output_array(target, rec["outputs"][j])
    # Instructions the simulator executed (a loop's body once per iteration): compare's figure.
    rec["executed"] = log.get("instructions")
    _report(log, rec)
    return Run(outputs, log, seconds)


def _record(record, infos, outputs):
    """The run's simulation record for the caller (``_results``): tensors' bytes, outputs
    remembered so a later np.allclose on them is recorded as a comparison."""
    rec = _results.simulation(record["kernel"])
    for name, shape, dtype, data in record["inputs"]:
        rec["inputs"].append(_results.tensor(name, tuple(shape), dtype, data))
    for (info, raw), arr in zip(infos, outputs):
        t = _results.tensor(info["name"], tuple(info["shape"]), info["dtype"], raw)
        rec["outputs"].append(t)
        _results.output_array(arr, t)
    return rec


def _write_back(trace, inputs, outputs):
    """Output-parameter kernels (nki.baremetal / simulate_kernel / @nki.trace on a kernel that
    writes its results into parameters): the caller's arrays receive the results in place."""
    ir = json.loads(trace.to_json())
    params, outs = ir["params"], ir["outputs"]
    written = []
    for j, tensor in enumerate(outs):
        if tensor in params and j < len(outputs):
            target = inputs[params.index(tensor)][1]
            if hasattr(target, "__setitem__") and hasattr(target, "shape"):
                target[...] = outputs[j]
                written.append((j, target))
    return written


def _report(log, rec):
    """Warnings (``{code, message, file, line, col, text}`` from the core, as data) to stderr as
    their text; ``nl.device_print`` records to stdout as ``prefix value``. Both are also added
    to the run's simulation record ``rec`` with their source positions (and a warning with its code, for the errors page)."""
    for w in log.get("warnings", ()):
        print(w["text"], file=sys.stderr)
        rec["warnings"].append({"message": w["message"], "file": w["file"], "line": w["line"],
                                "col": w["col"], "code": w.get("code") or None})
    if log.get("warnings_dropped"):
        # The core keeps the first warnings of a run only (a loop may warn a million times).
        n = log["warnings_dropped"]
        print(f"nki-playground: {n} more simulator warnings were not shown", file=sys.stderr)
        rec["warnings_dropped"] = n
    _report_prints(log, rec)


def _report_prints(log, rec):
    """``nl.device_print`` records to stdout and ``rec``; the ones the core did not keep (past
    its limits, a print inside a long loop) are counted in one line and ``prints_dropped``."""
    if log.get("prints_dropped"):
        rec["prints_dropped"] = log["prints_dropped"]
    if not log.get("prints"):
        if log.get("prints_dropped"):
            print(f"nki-playground: {log['prints_dropped']} device_print outputs were not kept")
        return
    np = ensure_numpy()
    for p in log["prints"]:
        values = p["values"]
        dt = _numpy_dtype(np, p["dtype"])
        is_float = dt is not None and (dt.kind == "f" or dt.name in _floats.FORMATS)
        if dt is None or (not is_float and any(v != v for v in values)):
            dt = _numpy_dtype(np, "float32")  # NKI-only dtypes, or masked-off integers (NaN)
        elif not is_float:
            values = [int(v) for v in values]
        text = f'{p["prefix"]} {np.array(values, dtype=dt).reshape(tuple(p["shape"]))}'
        print(text)
        file, line, col = _results.split_loc(p.get("loc"))
        rec["prints"].append({"text": text, "file": file, "line": line, "col": col})
    if log.get("prints_dropped"):
        print(f"nki-playground: {log['prints_dropped']} more device_print outputs were not "
              f"kept (the first {len(log['prints'])} are above)")


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


def returned(outputs):
    """What the kernel call returns: one array, or a tuple for several outputs."""
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
