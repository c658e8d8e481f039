"""TraceContext: the process-global cell and the trace side's scope classes.

``TraceContext.global_ctx`` is None between traces and holds the active ``NeuronCodegen`` during
one. It is written only by ``new_ctx``, ``finalize_kernel`` and ``abandon`` — which also drive
the C++ core's own cell, so the two are always set and cleared together. One trace may be active
per interpreter: a second ``new_ctx`` is refused by the core.
"""
import json

from nki_playground import door as _core
from .KernelBuilder import NeuronCodegen


class _TraceScope:
    """A trace-side (abstract interpretation) scope. Never becomes an IR region."""

    kind = "?"
    __slots__ = ("parent_scope", "name_and_loc", "stack_frame")

    def __init__(self, parent_scope, name_and_loc, stack_frame):
        self.parent_scope = parent_scope
        self.name_and_loc = name_and_loc
        self.stack_frame = stack_frame

    def __repr__(self):
        return f"{self.kind}({self.name_and_loc!r})"


class KernelScope(_TraceScope):
    kind = "KernelScope"
    __slots__ = ()


class FunctionScope(_TraceScope):
    kind = "FunctionScope"
    __slots__ = ()


class StmtScope(_TraceScope):
    kind = "StmtScope"
    __slots__ = ()


class TraceOptions:
    """What a trace is opened with."""

    def __init__(self, kernel_name, grid=(), loc=None, params=None, platform_target=None):
        self.kernel_name = kernel_name
        self.grid = tuple(grid)
        self.platform_target = platform_target  # "trn1" (default), "trn2", ...
        self.loc = loc  # [file, line, col] of the kernel's def
        self.params = params  # [{"name", "shape", "dtype", "mutable"}]: open the kernel too


class TraceContext:
    global_ctx = None

    @classmethod
    def new_ctx(cls, opts):
        """Opens a trace in the core and installs its codegen context in the cell. With
        ``opts.params`` the core also declares the parameters and opens the KernelScope (one
        boundary call); the reply is kept as ``ctx.opened``. (Kernels are traced through the
        launch layer, nki_playground.launch, which calls ``install`` / ``clear``.)"""
        request = {"kernel": opts.kernel_name, "grid": list(opts.grid), "loc": opts.loc}
        if opts.params is not None:
            request["params"] = opts.params
        return cls.install(opts, json.loads(_core.new_ctx(json.dumps(request))))

    @classmethod
    def install(cls, opts, opened):
        """The cell's context for a trace the core has opened (``opened``: its reply)."""
        ctx = NeuronCodegen(opts)
        ctx.opened = opened
        cls.global_ctx = ctx
        return ctx

    @classmethod
    def clear(cls):
        """Empties the cell (the trace ends, finished or not)."""
        ctx = cls.global_ctx
        cls.global_ctx = None
        if ctx is not None:
            ctx._closed = True

    @staticmethod
    def end_request(ctx, end=None):
        """``end`` with the scopes whose closing ``ctx`` deferred (sent now without one)."""
        if ctx is not None and ctx.builder.pending_pops:
            if end:
                end["pop"] = ctx.builder.pending_pops
                ctx.builder.pending_pops = []
            else:
                ctx.flush_pops()
        return end

    @classmethod
    def finalize_kernel(cls, end=None):
        """Ends the active trace (the cell is cleared on success and on failure) and returns
        the core's trace handle. ``end`` ({"values", "region", "loc"}) closes the KernelScope
        opened by new_ctx and records the outputs in the same call."""
        ctx = cls.global_ctx
        cls.clear()
        end = cls.end_request(ctx, end)
        return _core.finalize_kernel(json.dumps(end) if end else "")

    @classmethod
    def abandon(cls):
        """The failure path: clears both cells, dropping the partial kernel."""
        cls.clear()
        _core.abandon_trace()
