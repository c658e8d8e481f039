"""``nki.simulate`` (NKI 0.6.0's CPU simulator contract) on the core's simulator.

NumPy arrays in, NumPy arrays out (the real NumPy, or the stand-in); kernel arguments live in
HBM and an argument the kernel writes is updated in place; never-written memory reads NaN /
4; ``NKI_PRECISE_FP`` (default on) rounds bf16/fp8 as stored, off keeps them in fp32;
``NEURON_PLATFORM_TARGET_OVERRIDE`` (default trn3) sets the target. ``nl.device_print`` prints
``prefix value`` to stdout; warnings go to stderr as ``file:line:col: warning: ...``.
"""
import json
import os
import sys
import time

from nki_playground import arrays, door, results as _results
from nki_playground.errors import coded
from nki_playground.standins import ensure_numpy

from . import _dtypes, _kernel
from .typing import TensorType

_said = set()


def say_once(name):
    """A plain call of a kernel on arrays would run on a device; here it simulates (said once
    per kernel name, as the Beta 1 front end says it)."""
    if name in _said:
        return
    _said.add(name)
    message = (f"nki-playground: no Neuron device here; '{name}' runs on the simulator "
               "(nki.simulate)")
    print(message, file=sys.stderr)
    _results.notice(message)


def precise_fp():
    return os.environ.get("NKI_PRECISE_FP", "1").strip().lower() not in ("0", "false", "off")


def simulate(kernel, args, kwargs):
    """Traces ``kernel`` (a ``_kernel.Kernel``) on ``args`` and simulates it; returns what the
    kernel returned as arrays (one, a tuple, or None)."""
    traced = _kernel.trace(kernel.fn, args, kwargs, lnc=kernel.lnc, simulated=True)
    try:
        outputs = run(traced)
    finally:
        traced.close()
    if traced.structure is None:
        return None
    if traced.structure == "one":
        return outputs[0]
    return tuple(outputs)


def run(traced):
    opts = {"target": _kernel.target(), "language": _kernel.LANGUAGE, "precise_fp": precise_fp()}
    opts["plan"] = os.environ.get("NKI_PLAYGROUND_SIM_PLAN", "").strip().lower() != "off"
    sim = door.new_simulation(traced.handle, json.dumps(opts))
    rec = _results.simulation(traced.kernel_name)
    given = []
    try:
        for i, (name, value) in enumerate(traced.inputs):
            if isinstance(value, TensorType):
                raise coded(TypeError(f"{traced.kernel_name}(): parameter '{name}' is a "
                                      f"placeholder {value!r}; simulating a kernel needs an "
                                      "array"), "simulate-input-mismatch")
            view = _call(sim.input_view, i)
            dtype = _dtypes.name_of(value.dtype)
            data = arrays.to_bytes(value, dtype)
            if len(data) != view.length:
                raise coded(ValueError(f"{traced.kernel_name}(): parameter '{name}' has "
                                       f"{len(data)} bytes, the kernel expects {view.length}"),
                            "simulate-input-mismatch")
            view.assign(data)
            given.append(bytes(data))
            rec["inputs"].append(_results.tensor(name, tuple(value.shape), dtype, data))
        t0 = time.perf_counter()
        log = json.loads(_call(sim.run))
        seconds = time.perf_counter() - t0  # noqa: F841 - kept for profiling
        outputs = []
        for j in range(_call(sim.num_outputs)):
            info = json.loads(_call(sim.output_info, j))
            raw = _call(sim.output_view, j).to_py()
            arr = arrays.from_bytes(raw, info["dtype"], tuple(info["shape"]))
            if tuple(arr.shape) != traced.shapes[j]:  # the kernel returned a reshaped view
                arr = arr.reshape(traced.shapes[j])
            t = _results.tensor(info["name"], tuple(info["shape"]), info["dtype"], raw)
            rec["outputs"].append(t)
            _results.output_array(arr, t)
            outputs.append(arr)
        # Arguments the kernel wrote: the caller's arrays receive the new contents in place.
        for i, (name, value) in enumerate(traced.inputs):
            after = bytes(_call(sim.input_view, i).to_py())
            if after != given[i]:
                dtype = _dtypes.name_of(value.dtype)
                value[...] = arrays.from_bytes(after, dtype, tuple(value.shape))
    finally:
        sim.delete()
    # Instructions the simulator executed (a loop's body once per iteration): compare's figure.
    rec["executed"] = log.get("instructions")
    _report(log, rec)
    return outputs


def _call(fn, *args):
    try:
        return fn(*args)
    except door.JsException as e:
        raise door.translate(e) from None


def _report(log, rec):
    for w in log.get("warnings", ()):
        print(w["text"], file=sys.stderr)
        rec["warnings"].append({"message": w["message"], "file": w.get("file"),
                                "line": w.get("line"), "col": w.get("col"),
                                "code": w.get("code") or None})
    if not log.get("prints"):
        return
    np = ensure_numpy()
    for p in log["prints"]:
        values = p["values"]
        dt = arrays.numpy_dtype(np, p["dtype"])
        if dt is None or (dt.kind != "f" and any(v != v for v in values)):
            dt = arrays.numpy_dtype(np, "float32")
        elif dt.kind != "f":
            values = [int(v) for v in values]
        text = f'{p["prefix"]} {np.array(values, dtype=dt).reshape(tuple(p["shape"]))}'
        print(text)
        file, line, col = _results.split_loc(p.get("loc"))
        rec["prints"].append({"text": text, "file": file, "line": line, "col": col})


def simulate_callable(kernel):
    """``nki.simulate(kernel)``: a callable running the kernel on the CPU simulator."""
    if not isinstance(kernel, _kernel.Kernel):
        if not callable(kernel):
            raise TypeError(f"nki.simulate expects a kernel, got {type(kernel).__name__}")
        kernel = _kernel.Kernel(kernel)

    def run_simulated(*args, **kwargs):
        return simulate(kernel, args, kwargs)
    run_simulated.__name__ = kernel.__name__
    return run_simulated
