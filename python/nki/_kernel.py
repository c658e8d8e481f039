"""Kernels of the current language: ``nki.jit``, ``Kernel``, ``kernel[lnc]``, tracing.

Tracing opens a trace in the core with the language, the LNC degree and the target, declares
the array arguments as HBM parameters, runs the kernel's body as Python (checked and rewritten
by _frontend) once per logical core — NKI specialises a kernel per core, ``nl.program_id(0)``
is a Python int in each — records the returned tensors and finalizes. Every exit path leaves
no trace active (a failed trace never poisons the next).
"""
import inspect
import json
import os

from nki_playground import door, kernel_def as _kernel_def, loc as _loc

from . import _core, _dtypes, _frontend, _rules, _trace
from ._tensor import NkiTensor, _Storage, _prod
from .typing import TensorType

LANGUAGE = "nki 0.6.0"


def target_facts():
    """The target NEURON_PLATFORM_TARGET_OVERRIDE names (trn1|inf2|gen2, trn2|gen3, trn3|gen4;
    trn3 unset), as the core describes it: ``{"name", "names", "nc_version",
    "sbuf_partition_bytes"}`` (core/ir/target.h, the one table of targets)."""
    value = os.environ.get("NEURON_PLATFORM_TARGET_OVERRIDE", "").strip().lower() or "trn3"
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


class Traced:
    """A finished trace: the core's handle, the array arguments in parameter order, how the
    kernel returned its outputs."""

    def __init__(self, handle, name, inputs, structure):
        self.handle, self.kernel_name, self.inputs, self.structure = handle, name, inputs, structure

    def __str__(self):
        return self.handle.text()

    def close(self):
        if self.handle is not None:
            self.handle.delete()
            self.handle = None


def trace(func, args, kwargs, lnc=1, simulated=False):
    """Traces ``func`` on ``args`` for ``lnc`` logical cores; returns a ``Traced``."""
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
    opts = {"kernel": name, "grid": [], "loc": loc, "params": params, "language": LANGUAGE,
            "lnc": lnc, "target": t.target}
    opened = json.loads(door.new_ctx(json.dumps(opts)))
    _trace.activate(t)
    finalized = False
    try:
        storages = []
        for p, reply in zip(params, opened["params"]):
            st = _Storage(reply["t"], p["shape"], p["dtype"],
                          "shared_hbm" if lnc > 1 else "hbm", p["name"], t)
            t.storages[st.t] = st
            storages.append(st)
        body = _frontend.transformed(func)
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
                results.append(body(*a, **kw))
            except BaseException:
                t.failed = True
                raise
            if region is not None:
                t.close(region)
        structure, outs = _outputs(name, results)
        handle = door.finalize_kernel(json.dumps({
            "values": [NkiTensor._whole(o._st)._json() for o in outs],
            "region": opened["region"], "loc": loc, "simulated": simulated}))
        shapes = [tuple(o.shape) for o in outs]
        finalized = True
    finally:
        _trace.deactivate()
        if not finalized:
            door.abandon_trace()
    traced = Traced(handle, name, arrays, structure)
    traced.shapes = shapes
    return traced


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


class Kernel:
    """A function decorated with ``@nki.jit`` (``nki.framework.kernel.Kernel``)."""

    def __init__(self, fn, options=None, schedule=(), lnc=1):
        self.fn = self.func = fn
        self.options = dict(options or {})
        self.schedule = tuple(schedule)
        self.lnc = lnc
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn

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
        from . import _simulate  # a cycle: _simulate runs the traces this module makes
        if os.environ.get("NKI_SIMULATOR", "") not in ("1", "true", "True"):
            _simulate.say_once(self.__name__)
        return _simulate.simulate(self, args, kwargs)

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
