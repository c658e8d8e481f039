"""NeuronCodegen: the codegen context a trace installs in ``TraceContext.global_ctx``.

It owns ``.builder`` (the door to the core's IR builder: one call per op) and exposes
``.cur_scope`` and the region emitters as context managers over the core's one scope request
family (``push`` / ``loop`` / ``pop`` op requests, wasm/PROTOCOL.md). ``affine_range`` opens a
LoopScope holding an AllocationScope; the caller (``nl.affine_range``'s iterator) yields one
symbolic induction variable (the body is traced once), then closes both.

The emitters keep the seed's names (KernelBuilder's NeuronCodegen). The KernelScope is not one
of them here: the core opens it with the trace (``TraceContext.new_ctx`` with the parameters).
"""
import builtins
import json
from contextlib import contextmanager

from nki_playground import door as _core, loc as _loc, results as _results

_dumps = json.dumps
_loads = json.loads


class IRBuilder:
    """Emits ops into the active trace's current region (core/lang/requests.h)."""

    __slots__ = ("_op", "_stmt", "pending_stmt", "pending_pops")

    def __init__(self):
        self._op = _core.op
        self._stmt = None
        self.pending_stmt = None  # set by the front end before each statement it interprets
        self.pending_pops = []    # scopes closed but not told to the core yet (see close_loop)

    def op(self, request):
        """Sends one op request (a dict) and returns the decoded reply. The first op of a new
        statement also names it, so the core opens a StmtScope for it. Warnings the core
        attaches are issued at the user's location."""
        if self.pending_pops:
            request["pop"] = self.pending_pops
            self.pending_pops = []
        if self.pending_stmt is not None:
            request["stmt"] = self.pending_stmt
            self.pending_stmt = None
            loc = request.get("loc")
            self._stmt = (loc[0], loc[1]) if loc else None
        else:
            loc = request.get("loc")
            if loc and (loc[0], loc[1]) != self._stmt:
                self._stmt = (loc[0], loc[1])
                request["stmt"] = f"{_loc.statement_text(loc[0], loc[1])}@{loc[0]}:{loc[1]}"
        reply = _loads(self._op(_dumps(request, separators=(",", ":"))))
        if reply is not None and "warn" in reply:
            _issue_warnings(reply.pop("warn"), request.get("loc"))
            if not reply:
                return None
        return reply

    def send(self, request):
        """Sends one request that is not a statement's op (a scope request: push / loop / pop;
        program_id) with the deferred pops; unlike op(), it does not announce the statement
        (a region is opened before its statement's first op)."""
        if self.pending_pops:
            request["pop"] = self.pending_pops
            self.pending_pops = []
        return _loads(self._op(_dumps(request, separators=(",", ":"))))


def _issue_warnings(items, loc):
    for kind, text, *code in items:
        category = getattr(builtins, kind, UserWarning)
        # A Warning instance carries the core's code (docs/errors.md) to the run's record.
        message = category(text)
        message.nki_code = code[0] if code else None
        _results.warn_at(message, category, loc)


class ScopeRegion:
    """A region of the trace's IR, as ``cur_scope`` returns it: ``kind`` (KernelScope,
    FunctionScope, LoopScope, IfScope, WhileScope, AllocationScope, ScopeRegion), ``id``,
    ``parent`` (a ScopeRegion or None), ``loc`` (file, line, col) and per kind ``name``
    (kernel / function), ``axis`` (a LoopScope's {name, lb, ub, stride, type}), ``is_else``
    (IfScope), ``tag`` (ScopeRegion). One object per region of a trace.

    A value: its parent chain is resolved when the region is first asked for, so it stays
    readable — and its repr never asks the core — after the trace has ended or failed."""

    __slots__ = ("id", "kind", "parent", "loc", "name", "axis", "is_else", "tag")

    def __init__(self, info, parent):
        self.id = info["id"]
        self.kind = info["kind"]
        self.parent = parent
        self.loc = tuple(info["loc"])
        self.name = info.get("name")
        self.axis = info.get("axis")
        self.is_else = info.get("else", False)
        self.tag = info.get("tag")

    def __repr__(self):
        detail = ""
        if self.name:
            detail = f" {self.name}"
        elif self.axis is not None:
            a = self.axis
            detail = f" {a['type']} {a['name']} in range({a['lb']}, {a['ub']}, {a['stride']})"
        elif self.kind == "IfScope" and self.is_else:
            detail = " else"
        elif self.tag:
            detail = f" {self.tag}"
        file, line, col = self.loc
        at = f" @ {file}:{line}:{col}" if file else ""
        outer = self.parent
        within = f" of {outer!r}" if self.kind == "AllocationScope" and outer is not None \
            and outer.kind == "LoopScope" else ""
        return f"<{self.kind} #{self.id}{detail}{at}{within}>"


class NeuronCodegen:
    def __init__(self, opts):
        self.opts = opts
        self.builder = IRBuilder()
        self._regions = {}       # region id -> its ScopeRegion (cur_scope's objects)
        self.trace_scope = None  # innermost KernelScope/FunctionScope (trace side)
        self.failed = False      # set when an exception unwinds through a scope
        self._closed = False

    def __bool__(self):
        return True

    @property
    def cur_scope(self):
        """The innermost open IR region (where ops emitted now land), a ScopeRegion."""
        self.flush_pops()
        return self.region(_core.get_cur_scope())

    def region(self, region_id):
        """The ScopeRegion of ``region_id`` (the same object each time)."""
        found = self._regions.get(region_id)
        if found is None:
            info = _loads(_core.op(_dumps({"op": "region", "region": region_id})))
            parent = self.region(info["parent"]) if info["parent"] >= 0 else None
            found = self._regions[region_id] = ScopeRegion(info, parent)
        return found

    def flush_pops(self):
        """Tells the core now about scopes whose closing was deferred."""
        if self.builder.pending_pops:
            self.builder.send({"op": "pop"})

    def _live(self):
        # In the cell and not failing: the cell holds this context from new_ctx until
        # finalize_kernel/abandon, which set _closed.
        return not self._closed and not self.failed

    # --- the one push/pop pair -------------------------------------------------------------
    @contextmanager
    def new_scope(self, kind, drop_if_empty=False, trace_scope=None, **payload):
        """Opens a region of ``kind`` for the body of the ``with``. ``trace_scope`` (a
        TraceContext.FunctionScope) is entered and exited with it, in the same requests."""
        request = {"op": "push", "kind": kind, **payload}
        if trace_scope is not None:
            request["trace"] = [trace_scope.name_and_loc, trace_scope.stack_frame]
        region = self.builder.send(request)
        if trace_scope is not None:
            self.trace_scope = trace_scope
        try:
            yield region
        except BaseException:
            # The trace is failing: leave the core's stack as it is; the trace is abandoned
            # as a whole, so no half-closed scope can leak into the next one.
            self.failed = True
            raise
        if trace_scope is not None:
            self.trace_scope = trace_scope.parent_scope
        if self._live():
            if drop_if_empty or trace_scope is not None:
                # now: the core decides whether the region stays / the trace scope ends here
                end = {"op": "pop", "region": region, "drop": drop_if_empty}
                if trace_scope is not None:
                    end["trace"] = trace_scope.kind
                self.builder.send(end)
            else:  # closed with the next request, like a loop's scopes
                self.builder.pending_pops.append(region)

    def function_scope(self, name, loc=None, drop_if_empty=False, trace_scope=None):
        return self.new_scope("FunctionScope", drop_if_empty=drop_if_empty,
                              trace_scope=trace_scope, name=name, loc=loc)

    def if_scope(self, predicate=(), is_else=False, loc=None):
        return self.new_scope("IfScope", predicate=list(predicate), **{"else": is_else}, loc=loc)

    def while_scope(self, loc=None):
        """A do-while region; its continue condition is set at the end of the body
        (``_control._While.end``: the ``while_cond`` request)."""
        return self.new_scope("WhileScope", loc=loc)

    def allocation_scope(self, loc=None):
        return self.new_scope("AllocationScope", loc=loc)

    def stage_scope(self, stage_id=-1, execution_order=-1, loc=None):
        return self.new_scope("ScopeRegion", tag="stage", stage_id=stage_id,
                              execution_order=execution_order, loc=loc)

    def pipeline_stage(self, stage_id, execution_order=None, loc=None):
        return self.stage_scope(stage_id, -1 if execution_order is None else execution_order, loc)

    def no_reorder(self, loc=None):
        return self.new_scope("ScopeRegion", tag="no_reorder", loc=loc)

    # --- loops -----------------------------------------------------------------------------
    def affine_range(self, start, stop, step=1, sequential=False, name="", loc=None):
        """Opens the loop and returns (loop_region, alloc_region, iv_json); see range_iter."""
        reply = self.builder.send({"op": "loop", "start": start, "stop": stop, "step": step,
                                    "sequential": sequential, "name": name, "loc": loc})
        return reply["loop"], reply["alloc"], reply["iv"]

    def close_loop(self, loop_region, alloc_region):
        """Closes a loop's AllocationScope and LoopScope — told to the core with its next
        request (one boundary call per loop instead of two)."""
        if self._live() and loop_region >= 0:
            self.builder.pending_pops += (alloc_region, loop_region)


__all__ = ["NeuronCodegen", "IRBuilder", "ScopeRegion"]
