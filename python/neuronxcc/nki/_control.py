"""What the rewritten kernel code calls (``__nki_rt.*``, see _frontend.py): statement
announcements, ``if``/``while``/``for`` dispatch between Python semantics and traced regions,
traced calls of helper functions and kernels, and the rebinding warning.
"""
from . import _frontend
from nki_playground import door as _core, loc as _loc
from ._index import IndexExpr, Predicate
from ._scalar import RuntimeScalar, ScalarCondition
from ._tensor import NkiTensor
from .compiler.backends.neuron.TraceContext import FunctionScope
from .compiler.backends.neuron.nki_ctx import nki_ctx_or_none
from . import language as nl
from .language._movement import check_annotation


class _DynamicRange:
    """``range(scalar(t))``: one traced body in a LoopScope on a DynamicAxis."""

    __slots__ = ("scalar", "loc", "name")

    def __init__(self, scalar, loc):
        self.scalar = scalar
        self.loc = loc
        self.name = _loc.bound_name(loc)

    def __iter__(self):
        ctx = nki_ctx_or_none()
        # Through op(), not scope(): the `for` statement is announced with its loop.
        reply = ctx.builder.op({"op": "loop", "trip": self.scalar.tile._ref(),
                                "name": self.name, "loc": self.loc})
        loop, alloc = reply["loop"], reply["alloc"]
        try:
            yield IndexExpr.from_core(reply["iv"])
        except GeneratorExit:
            ctx.close_loop(loop, alloc)
            raise
        except BaseException:
            ctx.failed = True
            raise
        ctx.close_loop(loop, alloc)


class _While:
    """The traced do-while loop: a WhileScope whose continue condition is the value the
    condition variable holds after the body."""

    def __init__(self, ctx, name, loc):
        self.ctx, self.name, self.loc, self.region = ctx, name, loc, None
        self._scope = None

    def __enter__(self):
        self._scope = self.ctx.while_scope(loc=self.loc)
        self.region = self._scope.__enter__()
        return self

    def end(self, value):
        if isinstance(value, RuntimeScalar) and value.tile is not None:
            value = ScalarCondition(value, "!=", 0.0)
        if not isinstance(value, ScalarCondition):
            _core.raise_diagnostic("err_do_while_condition", self.name, loc=self.loc)
        self.ctx.builder.op({"op": "while_cond", "region": self.region,
                             "scalar": value.scalar.tile._ref(), "cmp": value.op, "rhs": value.rhs,
                             "loc": self.loc})

    def __exit__(self, exc_type, exc, tb):
        return self._scope.__exit__(exc_type, exc, tb)


class _NoScope:
    """The context an `if` on a Python value runs in: nothing to open or close."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NO_SCOPE = _NoScope()


class Runtime:
    """The ``__nki_rt`` object rewritten kernels call. It reads the active trace; its only
    state is the if/else scopes opened without a `with` block (reset with every trace) and
    where the last ``return`` ran."""

    def __init__(self):
        self._open = []
        self.return_loc = None  # where the last `return <value>` ran (the kernel's, at the end)

    def returned(self, value, loc):
        self.return_loc = loc
        return value

    def stmt(self, name_and_loc):
        ctx = nki_ctx_or_none()
        if ctx is not None:
            ctx.builder.pending_stmt = name_and_loc

    # --- if ------------------------------------------------------------------------------------
    def cond(self, value, loc):
        if value is True or value is False:
            return value
        if isinstance(value, Predicate):
            if any(l.is_arange or r.is_arange for l, _, r in value.terms):
                _core.raise_diagnostic("err_control_flow_condition_depending_on_arange", loc=loc)
            return value
        if isinstance(value, (NkiTensor, RuntimeScalar, ScalarCondition)):
            _core.raise_diagnostic("err_dynamic_control_flow_not_supported", loc=loc)
        if isinstance(value, IndexExpr):
            if value.is_arange:
                _core.raise_diagnostic("err_control_flow_condition_depending_on_arange", loc=loc)
            if value.terms:
                _core.raise_diagnostic("err_predicate_truth_value", loc=loc)
            return bool(value.c)
        return bool(value)

    # --- `a and b` -------------------------------------------------------------------------
    def is_condition(self, value):
        return isinstance(value, Predicate)

    def and_(self, left, right):
        """``left and right`` for a condition ``left``: their conjunction (a mask / if
        condition); a Python bool on the right keeps or drops it as ``&`` does."""
        if isinstance(right, Predicate) or right is True or right is False:
            return left & right
        if isinstance(right, IndexExpr) and not right.terms:
            return left & bool(right.c)
        return left & right  # anything else: Predicate.__and__'s own refusal

    def traced(self, c):
        return isinstance(c, Predicate)

    def if_(self, c, loc):
        if isinstance(c, Predicate):
            return nki_ctx_or_none().if_scope(c.to_json(), loc=list(loc))
        return _NO_SCOPE

    def else_(self, c, loc):
        if isinstance(c, Predicate):
            return nki_ctx_or_none().if_scope(c.to_json(), is_else=True, loc=list(loc))
        return _NO_SCOPE

    def open(self, scope):
        """Enters an if/else scope the rewritten code closes with close() (no `with` block)."""
        scope.__enter__()
        self._open.append(scope)

    def close(self, c):
        self._open.pop().__exit__(None, None, None)

    def then(self, c):
        return True if isinstance(c, Predicate) else c

    def otherwise(self, c):
        return True if isinstance(c, Predicate) else not c

    # --- while ---------------------------------------------------------------------------------
    def while_(self, value, loc, name, test_loc):
        if isinstance(value, NkiTensor):
            _core.raise_diagnostic("err_dynamic_control_flow_not_supported", loc=test_loc)
        if isinstance(value, ScalarCondition) or (isinstance(value, RuntimeScalar)
                                                  and value.tile is not None):
            _core.raise_diagnostic("err_while_loop_requires_unconditional_entry", loc=test_loc)
        if isinstance(value, RuntimeScalar):
            if not value.const or name is None:
                _core.raise_diagnostic("err_while_loop_requires_unconditional_entry",
                                       loc=test_loc)
            return _While(nki_ctx_or_none(), name, list(loc))
        if isinstance(value, (Predicate, IndexExpr)) and not (
                isinstance(value, IndexExpr) and not value.terms):
            _core.raise_diagnostic("err_predicate_truth_value", loc=test_loc)
        return None  # a Python loop

    # --- for -----------------------------------------------------------------------------------
    def range(self, *args, **kwargs):
        if any(isinstance(a, RuntimeScalar) for a in args):
            if len(args) != 1 or args[0].tile is None:
                _core.raise_diagnostic("err_not_supported_yet",
                                       "range() with a run-time bound other than range(scalar(t))")
            return _DynamicRange(args[0], _loc.caller())
        return nl.sequential_range(*args)

    # --- calls ---------------------------------------------------------------------------------
    def call(self, f, *args, **kwargs):
        # A kernel (``@nki.jit``, or gridded) called here is handled by its own __call__: inline
        # in a FunctionScope, or NKI's nested-grid error.
        if _frontend._is_user_function(f):
            return self._inline(f, args, kwargs, keep=False)
        return f(*args, **kwargs)

    def _inline(self, func, args, kwargs, keep):
        ctx = nki_ctx_or_none()
        if ctx is None:
            return func(*args, **kwargs)
        body = _frontend.transformed(func, self)
        loc = _loc.caller()
        name = func.__name__
        where = f"{name}@{loc[0]}:{loc[1]}" if loc else name
        scope = FunctionScope(ctx.trace_scope, where, name)
        with ctx.function_scope(name, loc=loc, drop_if_empty=not keep, trace_scope=scope):
            return body(*args, **kwargs)

    # --- assignment ----------------------------------------------------------------------------
    def annotated(self, value, annotation):
        """``x: nt.tensor[...] = value``: the value's shape is checked against the annotation."""
        return check_annotation(value, annotation)

    def bind(self, name, local_vars, new):
        old = local_vars.get(name)
        if isinstance(old, NkiTensor) and isinstance(new, NkiTensor) and old._t != new._t:
            ctx = nki_ctx_or_none()
            if ctx is not None:  # the core decides whether `old` belongs to an enclosing block
                ctx.builder.op({"op": "warn_shadow", "t": old._ref(), "name": name,
                                "loc": _loc.caller()})
        return new


RUNTIME = Runtime()
