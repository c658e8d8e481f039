"""What rewritten kernel code calls (``__nki_rt``, see _frontend): Python loops as unrolled
loop regions with one region per iteration, runtime loops traced once, and calls of the user's
helpers inside FunctionScopes."""
import types

from nki_playground import loc as _loc

from . import _core, _rules, _trace
from ._frontend import call_traced, install_runtime, is_user_function
from ._kernel import Kernel
from ._registers import DynamicRange, VirtualRegister, dynamic_while


def _range_of(it):
    """(lb, ub, step) when ``it`` is a range (nl.static_range & co. return ranges)."""
    if isinstance(it, range):
        return it.start, it.stop, it.step
    return None


def _unrolled(t, name, kind, bounds, loc):
    req = {"op": "loop", "name": name, "unrolled": kind}
    if bounds is not None:
        req["lb"], req["ub"], req["step"] = bounds
    reply = _core.op(req, loc=loc)
    return t.open(reply["loop"], "unrolled")


def _iteration(t, k, loc):
    return t.open(_core.op({"op": "push", "kind": "ScopeRegion", "tag": "iteration",
                            "index": k}, loc=loc), "iteration")


class _While:
    """One Python ``while`` statement of a kernel: iterations of an unrolled loop, or (first
    condition a register) the deprecated runtime ``while reg:`` traced once."""

    def __init__(self, loc):
        self.loc = loc
        self.t = _trace.current()
        self.loop = self.it = None
        self.n = 0
        self.dynamic = None

    def test(self, cond):
        t = self.t
        if self.dynamic is not None:  # the body of `while reg:` was traced once
            t.close(self.dynamic["while"])
            self.dynamic = None
            return False
        if isinstance(cond, VirtualRegister):
            if self.n:
                _rules.raise_register_in_python("a Python `while` that started on a Python "
                                                "value")
            _t, self.dynamic = dynamic_while(cond, self.loc)
            self.n = 1
            return True
        go = bool(cond)
        if t is None:
            return go
        if self.it is not None:
            t.close(self.it, drop=True)
            self.it = None
        if not go:
            return False
        if self.loop is None:
            self.loop = _unrolled(t, "", "while", None, self.loc)
        self.it = _iteration(t, self.n, self.loc)
        self.n += 1
        return True

    def end(self):
        t = self.t
        if t is None or t.failed:
            return
        if self.dynamic is not None:
            t.close(self.dynamic["while"])
        if self.loop is not None:
            t.close(self.loop, trip=self.n, drop=True)


class Runtime:
    def loop(self, it, name, loc):
        t = _trace.current()
        if isinstance(it, DynamicRange):
            return it._loop(name or "i", loc)
        if t is None:
            return it
        return self._unrolled_loop(t, it, name, loc)

    def _unrolled_loop(self, t, it, name, loc):
        bounds = _range_of(it)
        kind = "range" if bounds is not None else "values"
        loop = None
        n = 0
        try:
            for x in it:
                if isinstance(x, VirtualRegister):
                    _rules.raise_register_in_python("range()")
                if loop is None:
                    loop = _unrolled(t, name, kind, bounds, loc)
                region = _iteration(t, n, loc)
                n += 1
                yield x
                t.close(region, drop=True)
        finally:
            if loop is not None and not t.failed:
                t.close(loop, trip=n, drop=True)

    def while_(self, loc):
        return _While(loc)

    def call(self, f, *args, **kwargs):
        if isinstance(f, types.BuiltinFunctionType) or not callable(f):
            return f(*args, **kwargs)
        module = getattr(f, "__module__", None) or ""
        if module.startswith("neuronxcc"):
            _core.raise_diagnostic("err_mixed_languages",
                                   f"{module}.{getattr(f, '__name__', '?')}")
        if isinstance(f, Kernel):
            _core.raise_diagnostic("err_kernel_rule", "a @nki.jit kernel cannot be called from "
                                   "a kernel: sub-kernels are plain functions (apply "
                                   "nki.jit(f) at the call site for a standalone kernel)")
        target = f.__func__ if isinstance(f, types.MethodType) else f
        t = _trace.current()
        if t is None or not is_user_function(target):
            return f(*args, **kwargs)
        loc = _loc.caller()
        region = t.open(_core.op({"op": "push", "kind": "FunctionScope",
                                  "name": target.__name__}, loc=loc),
                        "function")
        try:
            result = call_traced(f, args, kwargs)
        except BaseException:
            t.failed = True
            raise
        t.close(region, drop=True)
        return result


RUNTIME = Runtime()
install_runtime(RUNTIME)
