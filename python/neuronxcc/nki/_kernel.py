"""Kernels: ``@nki.jit``, ``kernel[grid](...)`` and ``nki.trace_kernel``.

Tracing a kernel: open a trace in the core (``TraceContext.new_ctx``), declare the tensor
arguments as HBM parameters, run the Python body inside a KernelScope with symbolic loop
variables, record the returned tensors as outputs and finalize. Every exit path leaves
``TraceContext.global_ctx`` None (a failed trace never poisons the next).
"""
import inspect

from . import _dtypes, _frontend, _simulate
from ._control import RUNTIME
from .language import _grid_dim
from nki_playground import door as _core, kernel_def as _kernel_def, launch, loc as _loc
from ._tensor import NkiTensor
from .compiler.backends.neuron.TraceContext import KernelScope, TraceContext, TraceOptions
from .compiler.backends.neuron.nki_ctx import nki_ctx_or_none
from .typing import TensorType, is_mutable_annotation

#: A traced kernel's IR (``str()`` the text, ``to_json()`` the JSON form): the launch layer's.
Trace = launch.Trace


def _is_tensor_like(x):
    """An argument that becomes a tensor parameter. A NumPy scalar (``np.float32(-inf)``, which
    has a shape and a dtype too) is a compile-time scalar, as in NKI's simulator."""
    if isinstance(x, TensorType):
        return True
    if not hasattr(x, "shape") or not hasattr(x, "dtype") or isinstance(x, NkiTensor):
        return False
    return not _is_numpy_scalar(x)


def _is_numpy_scalar(x):
    import sys
    np = sys.modules.get("numpy")
    generic = getattr(np, "generic", None)
    return isinstance(generic, type) and isinstance(x, generic)


def trace(func, grid, args, kwargs, options=None, simulated=False):
    """Traces ``func`` on ``args`` (arrays or nt.tensor placeholders) over ``grid``.

    Args:
      func: the kernel function.
      grid: the SPMD launch grid (a tuple of ints; () for a plain call).
      args, kwargs: the kernel's arguments.
      options: the kernel's ``nki.jit`` options (``platform_target``, ...).
      simulated: traced to be simulated (the run session's entry says so).
    """
    options = options or {}
    # Output-parameter kernels (the pre-2.20 convention, still run by the SDK 2.26 tutorials
    # through nki.baremetal / nki.simulate_kernel / @nki.trace) write their results into
    # parameters and need not return them. Only `@nki.jit` kernels keep parameters immutable.
    by_reference = options.get("mode") in (None, "trace", "baremetal", "benchmark", "profile")
    if nki_ctx_or_none() is not None:
        _core.raise_diagnostic("err_nested_kernel_with_spmd_grid", func.__name__,
                               ",".join(str(g) for g in grid))
    name = func.__name__
    sig = inspect.signature(func)
    bound = _kernel_def.bind(func, sig, args, kwargs)
    params, tensor_names = [], []
    for pname, value in bound.arguments.items():
        if _is_tensor_like(value):
            annotation = sig.parameters[pname].annotation
            params.append({"name": pname, "shape": [int(s) for s in value.shape],
                           "dtype": _dtypes.name_of(value.dtype),
                           "mutable": by_reference or is_mutable_annotation(annotation) or (
                               isinstance(value, TensorType) and value.mutable)})
            tensor_names.append(pname)
        else:
            try:
                hash(value)
            except TypeError:
                _core.raise_diagnostic("err_nki_param_not_hashable", pname, type(value).__name__)
    opts = TraceOptions(name, grid, _loc.def_loc(func), params,
                        platform_target=options.get("platform_target"))
    request = {"kernel": opts.kernel_name, "grid": list(opts.grid), "loc": opts.loc,
               "params": params}
    cell = _Cell(opts)

    def body(opened):
        ctx = cell.ctx
        call_args = dict(bound.arguments)
        for pname, reply in zip(tensor_names, opened["params"]):
            call_args[pname] = NkiTensor(reply)
        a, kw = _kernel_def.rebind(sig, call_args)
        fn = _frontend.transformed(func, RUNTIME)
        ctx.trace_scope = KernelScope(None, f"{name}@{opts.loc[0]}:{opts.loc[1]}"
                                      if opts.loc else name, name)
        RUNTIME.return_loc = None
        try:
            result = fn(*a, **kw)
        except BaseException:
            ctx.failed = True
            raise
        outs = result if isinstance(result, (tuple, list)) else (
            () if result is None else (result,))
        for o in outs:
            if not isinstance(o, NkiTensor):
                e = TypeError(f"kernel '{name}' returned {type(o).__name__}; a kernel "
                              "returns HBM tensors (created with buffer=nl.shared_hbm)")
                if RUNTIME.return_loc:  # the kernel's own return statement ran last
                    e.nki_loc = RUNTIME.return_loc
                raise e
        return {"values": [o._ref() for o in outs], "region": opened["region"],
                "by_reference": by_reference, "loc": opts.loc}

    t = launch.trace(_simulate.LANGUAGE, request, body, cell, simulated=simulated)
    t.inputs = [(n, bound.arguments[n]) for n in tensor_names]  # what a simulation reads
    return t


class _Cell:
    """``TraceContext.global_ctx`` while the kernel is traced (the launch layer's cell)."""

    def __init__(self, opts):
        self.opts, self.ctx = opts, None

    def enter(self, opened):
        self.ctx = TraceContext.install(self.opts, opened)

    def end(self, end):
        return TraceContext.end_request(self.ctx, end)

    def leave(self):
        TraceContext.clear()


class GriddedKernel:
    """``kernel[g0, g1, ...]``: a kernel launched over an SPMD grid. ``grid`` holds each
    dimension's size; ``cores`` how many NeuronCores each dimension is sharded over
    (``nl.nc(2)``, ``nl.spmd_dim(2, nl.nc(2))``: 4 instances over 2 cores)."""

    def __init__(self, kernel, grid, cores=None):
        self.kernel = kernel
        self.grid = grid
        self.cores = cores or (1,) * len(grid)

    def __call__(self, *args, **kwargs):
        return self.kernel._run(self.grid, args, kwargs)

    def __repr__(self):
        return f"{self.kernel.func.__name__}{list(self.grid)}"


class Kernel(launch.KernelObject):
    """A function decorated with ``@nki.jit``."""

    def __init__(self, func, mode="auto", **options):
        if isinstance(func, Kernel):  # nki.jit(already_jitted_kernel, ...)
            options = dict(func.options, **options)
            func = func.func
        self._wrap(func)
        self.mode = mode
        self.options = dict(options, mode=mode)

    def __getitem__(self, grid):
        if not isinstance(grid, tuple):
            grid = (grid,)
        sizes, cores = zip(*(_grid_dim(g) for g in grid)) if grid else ((), ())
        return GriddedKernel(self, tuple(sizes), tuple(cores))

    def __call__(self, *args, **kwargs):
        if nki_ctx_or_none() is not None:
            # A kernel called from inside another kernel is traced inline (a FunctionScope).
            return RUNTIME._inline(self.func, args, kwargs, keep=True)
        return self._run((), args, kwargs)

    def _run(self, grid, args, kwargs):
        """Runs the kernel on data: every mode simulates (there is no Neuron device here); the
        modes that would use a device say so once."""
        t = trace(self.func, grid, args, kwargs, self.options, simulated=True)
        try:
            if self.mode not in ("simulation", "trace"):
                _simulate.say_once(("device", self.mode), _simulate.NO_DEVICE.format(
                    mode=self.mode, name=self.func.__name__))
            r = _simulate.run(t, self.options,
                              zero_placeholders=self.mode in ("benchmark", "profile"))
        finally:
            t.close()
        if self.mode == "benchmark":
            self.benchmark_result = _simulate.BenchmarkResult(r.seconds)
        return _simulate.returned(r.outputs)


def jit(func=None, mode="auto", **options):
    """Marks a function as an NKI kernel. Usable as ``@nki.jit``, ``@nki.jit(mode=...)`` and
    ``nki.jit(func, ...)``."""
    if func is None:
        return lambda f: Kernel(f, mode=mode, **options)
    return Kernel(func, mode=mode, **options)


def trace_kernel(kernel, *args, **kwargs):
    """Traces a kernel without executing it and returns its IR.

    Args:
      kernel: a ``@nki.jit`` kernel, a plain kernel function, or a gridded kernel
        (``kernel[2, 2]``).
      *args, **kwargs: the kernel's arguments; tensors may be arrays or
        ``nt.tensor[[shape], dtype]`` placeholders.
    Returns:
      a ``Trace``: ``str(trace)`` is the IR text, ``trace.to_json()`` its JSON form.
    """
    grid = ()
    if isinstance(kernel, GriddedKernel):
        grid, kernel = kernel.grid, kernel.kernel
    func = kernel.func if isinstance(kernel, Kernel) else kernel
    if not callable(func):
        raise TypeError(f"trace_kernel expects a kernel, got {type(kernel).__name__}")
    options = kernel.options if isinstance(kernel, Kernel) else {}
    return trace(func, grid, args, kwargs, options)


def _decorator(mode):
    def decorate(func=None, **options):
        if func is None:
            return lambda f: Kernel(f, mode=mode, **options)
        return Kernel(func, mode=mode, **options)
    decorate.__name__ = mode
    decorate.__doc__ = (f"``@nki.{mode}``: on a Neuron device this would {mode} the kernel; "
                        "nki-playground runs it on the simulator (and says so once).")
    return decorate


baremetal = _decorator("baremetal")
legacy_trace = _decorator("trace")  # nki.trace: the pre-2.20 output-parameter kernels
benchmark = _decorator("benchmark")
profile = _decorator("profile")


def simulate_kernel(kernel, *args, **kwargs):
    """Runs a kernel on the CPU simulator (``nki.simulate_kernel``).

    Args:
      kernel: a ``@nki.jit`` kernel (any mode), a plain kernel function, or a gridded kernel
        (``kernel[2, 2]``).
      *args, **kwargs: the kernel's arguments; tensors are numpy arrays.
    Returns:
      the kernel's output array, or a tuple of them.
    """
    grid = ()
    if isinstance(kernel, GriddedKernel):
        grid, kernel = kernel.grid, kernel.kernel
    func = kernel.func if isinstance(kernel, Kernel) else kernel
    options = kernel.options if isinstance(kernel, Kernel) else {}
    t = trace(func, grid, args, kwargs, options, simulated=True)
    try:
        r = _simulate.run(t, options)
    finally:
        t.close()
    return _simulate.returned(r.outputs)
