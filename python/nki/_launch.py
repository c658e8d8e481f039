"""Tracing and simulating a kernel of the current language (NKI 0.6.0) through the launch layer
(``nki_playground.launch``), which opens, finishes and abandons the trace and runs the
simulation; this module keeps the language's rules.

Tracing declares the array arguments as HBM parameters and runs the kernel's body as Python
(checked and rewritten by _frontend) once per logical core — NKI specialises a kernel per core,
``nl.program_id(0)`` is a Python int in each — and records the returned tensors.

Simulating (NKI 0.6.0's CPU simulator contract): NumPy arrays in, NumPy arrays out; kernel
arguments live in HBM and an argument the kernel writes is updated in place; never-written
memory reads NaN / 4; ``NKI_PRECISE_FP`` (default on) rounds bf16/fp8 as stored, off keeps them
in fp32; ``NEURON_PLATFORM_TARGET_OVERRIDE`` (default trn3) sets the target.
"""
import inspect
import os

from nki_playground import door, kernel_def as _kernel_def, launch, loc as _loc

from . import _core, _dtypes, _frontend, _rules, _trace
from ._tensor import NkiTensor, _Storage, _prod
from .typing import TensorType

#: NKI 0.6.0, as the launch layer takes a language: its tag in the core, its defaults.
LANGUAGE = launch.Language(
    "nki", "NKI 0.6.0", "0.6.0", "nki 0.6.0", precise_fp=True, target="trn3",
    running="simulating a kernel", write_back="written", dtype_name=_dtypes.name_of,
    placeholder=TensorType)


def target_facts():
    """The target NEURON_PLATFORM_TARGET_OVERRIDE names (trn1|inf2|gen2, trn2|gen3, trn3|gen4;
    trn3 unset), as the core describes it: ``{"name", "names", "nc_version",
    "sbuf_partition_bytes"}`` (core/ir/target.h, the one table of targets)."""
    value = os.environ.get("NEURON_PLATFORM_TARGET_OVERRIDE", "").strip().lower() or LANGUAGE.target
    for t in door.facts()["targets"]:
        if value in t["names"]:
            return t
    _core.raise_diagnostic("err_unknown_target", value)


def target():
    """The target's name: "trn1", "trn2" or "trn3" (target_facts)."""
    return target_facts()["name"]


def _is_array(x):
    return isinstance(x, TensorType) or (hasattr(x, "shape") and hasattr(x, "dtype")
                                         and not isinstance(x, NkiTensor)
                                         and not isinstance(x, (int, float)))


def trace(func, args, kwargs, lnc=1, simulated=False, language=LANGUAGE):
    """Traces ``func`` on ``args`` for ``lnc`` logical cores in ``language`` (a version of the
    current language: its tag reaches the core); returns a launch ``Trace``."""
    if _trace.current() is not None or door.nki_ctx_or_none():
        _core.raise_diagnostic("err_kernel_rule", "a kernel cannot be launched from inside a "
                               "kernel")
    name = func.__name__
    sig = inspect.signature(func)
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            _rules.raise_parser("varargs are not supported in NKI", loc=_loc.def_loc(func))
    bound = _kernel_def.bind(func, sig, args, kwargs)
    params, arrays = [], []
    for pname, value in bound.arguments.items():
        if _is_array(value):
            dtype = _dtypes.name_of(value.dtype)
            if dtype == "float64":  # NumPy's default: NKI has no fp64 (the core says so)
                _core.raise_diagnostic("err_unsupported_dtype", dtype)
            params.append({"name": pname, "shape": [int(s) for s in value.shape],
                           "dtype": dtype, "mutable": False})
            arrays.append((pname, value))
        elif isinstance(value, list):
            _core.raise_diagnostic("err_kernel_rule", f"argument '{pname}' is a list: kernel "
                                   "arguments are tensors, numbers, tuples or NKIObjects "
                                   "(use a tuple)")
    loc = _loc.def_loc(func)
    t = _trace.Trace(name, lnc, target(), loc)
    request = {"kernel": name, "grid": [], "loc": loc, "params": params, "lnc": lnc,
               "target": t.target}
    returned = {}

    def body(opened):
        storages = []
        for p, reply in zip(params, opened["params"]):
            st = _Storage(reply["t"], p["shape"], p["dtype"],
                          "shared_hbm" if lnc > 1 else "hbm", p["name"], t)
            t.storages[st.t] = st
            storages.append(st)
        fn = _frontend.transformed(func)
        results = []
        for core in range(lnc):
            t.core, t.shared_next = core, 0
            region = None
            if lnc > 1:
                region = t.open(_core.op({"op": "push", "kind": "ScopeRegion", "tag": "core",
                                          "core": core}, loc=loc), "core")
            call_args = dict(bound.arguments)
            for (pname, _), st in zip(arrays, storages):
                call_args[pname] = NkiTensor._whole(st)
            a, kw = _kernel_def.rebind(sig, call_args)
            try:
                results.append(fn(*a, **kw))
            except BaseException:
                t.failed = True
                raise
            if region is not None:
                t.close(region)
        returned["structure"], outs = _outputs(name, results)
        returned["shapes"] = [tuple(o.shape) for o in outs]
        return {"values": [NkiTensor._whole(o._st)._json() for o in outs],
                "region": opened["region"], "loc": loc}

    traced = launch.trace(language, request, body, _Cell(t), simulated=simulated)
    traced.inputs, traced.structure, traced.shapes = arrays, returned["structure"], \
        returned["shapes"]
    return traced


class _Cell:
    """The active trace of this language (``_trace``), set while the kernel is traced."""

    def __init__(self, t):
        self.t = t

    def enter(self, opened):
        _trace.activate(self.t)

    def end(self, end):
        return end

    def leave(self):
        _trace.deactivate()


def _outputs(name, results):
    """(structure, tensors): what the kernel returned — None, one tensor or a tuple — checked
    to be HBM tensors (the same on every core)."""
    first = results[0]
    if first is None:
        structure, outs = None, []
    elif isinstance(first, NkiTensor):
        structure, outs = "one", [first]
    elif isinstance(first, (tuple, list)):
        structure, outs = len(first), list(first)
    else:
        _core.raise_diagnostic("err_kernel_rule", f"kernel '{name}' returned "
                               f"{type(first).__name__}; a kernel returns HBM tensors "
                               "(nl.ndarray(..., buffer=nl.shared_hbm)), a tuple of them, or "
                               "nothing")
    for o in outs:
        if not isinstance(o, NkiTensor) or o._st.on_chip:
            _core.raise_diagnostic("err_kernel_rule", f"kernel '{name}' returns "
                                   f"{o!r}: outputs are HBM tensors allocated with "
                                   "buffer=nl.shared_hbm")
        # A reshaped view of a whole tensor is returned as the tensor, reshaped by the host.
        if o.offset != 0 or o.size != _prod(o._st.shape) or not o.is_contiguous() or o._dyn \
                or o._index is not None or o.dtype != o._st.dtype:
            _core.raise_diagnostic("err_kernel_rule", f"kernel '{name}' returns a part of "
                                   f"'{o.name}': return whole tensors (or reshapes of them)")
    for other in results[1:]:
        flat = [] if other is None else [other] if isinstance(other, NkiTensor) else list(other)
        if [x._st for x in flat] != [o._st for o in outs]:
            _core.raise_diagnostic("err_kernel_rule", f"kernel '{name}' returns different "
                                   "tensors on different cores")
    return structure, outs


def simulate(fn, lnc, args, kwargs, language=LANGUAGE):
    """Traces ``fn`` on ``args`` for ``lnc`` cores and simulates it; returns what the kernel
    returned as arrays (one, a tuple, or None)."""
    traced = trace(fn, args, kwargs, lnc=lnc, simulated=True, language=language)
    try:
        run = launch.simulate(language, traced, target())
    finally:
        traced.close()
    return launch.returned(run.outputs, traced.structure)
