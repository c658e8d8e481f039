"""Registers and the runtime control flow they drive (NKI 0.6.0).

A ``VirtualRegister`` names a register of the core's IR; its value exists only on the device,
so using it in Python (``if``, ``while``'s deprecated form aside, ``int()``, ``range()``,
arithmetic) is NKI's ``TypeError``. Runtime loops trace their body once into a region:
``nl.fori_loop`` / ``nl.dynamic_range`` a LoopScope over a DynamicAxis with a fresh induction
register, ``nl.while_loop`` / ``while reg:`` a pre-checked WhileScope.
"""
from nki_playground import loc as _loc

from . import _core, _rules, _trace
from ._frontend import call_traced
from ._tensor import NkiTensor


class VirtualRegister:
    """A virtual register on an engine (``nki.isa.VirtualRegister``)."""

    __slots__ = ("_r", "_name", "_trace", "frozen")

    def __init__(self, state=None, frozen=False):
        # Users get registers from nisa.register_alloc; this form binds an existing one.
        self._r, self._name, self._trace, self.frozen = state, "", _trace.current(), frozen

    @classmethod
    def _make(cls, reply, frozen=False):
        r = cls(reply["r"], frozen)
        r._name = reply.get("name", "")
        return r

    def _id(self):
        if self._r is None or self._trace is not _trace.current():
            _rules.view_rule("register", "this register belongs to no active kernel trace")
        return self._r

    def __repr__(self):
        return f"VirtualRegister({self._name or self._r})"

    def __bool__(self):
        _rules.raise_register_in_python("a Python `if` or `while`")

    def __index__(self):
        _rules.raise_register_in_python("range() or an index")

    def __int__(self):
        _rules.raise_register_in_python("int()")

    def __float__(self):
        _rules.raise_register_in_python("float()")

    def __hash__(self):
        return id(self)


def _arith(name):
    def refuse(self, *args):
        _rules.raise_register_in_python(f"Python arithmetic ({name})")
    return refuse


for _op in ("add", "radd", "sub", "rsub", "mul", "rmul", "floordiv", "rfloordiv", "truediv",
            "mod", "lt", "le", "gt", "ge", "neg"):
    setattr(VirtualRegister, f"__{_op}__", _arith(_op))


def _reg(x, what):
    if not isinstance(x, VirtualRegister):
        _rules.raise_isa_rule(what, f"expects a VirtualRegister, got {type(x).__name__}")
    return x._id()


def _bound(x, what):
    if isinstance(x, VirtualRegister):
        return {"reg": x._id()}
    if isinstance(x, bool) or not isinstance(x, int):
        _rules.raise_isa_rule(what, f"bounds are ints or VirtualRegisters, got {x!r}")
    return {"imm": x}


# --- nisa register instructions ---------------------------------------------------------------

def register_alloc(x=None):
    t = _trace.need("nki.isa.register_alloc")
    req = {"op": "isa_register_alloc"}
    req["name"] = _loc.bound_name(_loc.caller()) or "r"
    if isinstance(x, NkiTensor):
        req["src"] = x._json()
    elif isinstance(x, bool) or (x is not None and not isinstance(x, int)):
        _rules.raise_isa_rule("register_alloc", "register_alloc requires an integer immediate or "
                              "tensor access")
    elif x is not None:
        req["init"] = x
    r = VirtualRegister._make(_core.op(req))
    r._trace = t
    return r


def register_move(dst, src):
    _trace.need("nki.isa.register_move")
    req = {"op": "isa_register_move", "dst": _reg(dst, "register_move")}
    if isinstance(src, VirtualRegister):
        req["src_reg"] = src._id()
    elif isinstance(src, int) and not isinstance(src, bool):
        req["imm"] = src
    else:
        _rules.raise_isa_rule("register_move", "src is a compile-time int or a VirtualRegister")
    _core.op(req)


def register_load(dst, src):
    _trace.need("nki.isa.register_load")
    if not isinstance(src, NkiTensor) or src.size != 1:
        _rules.raise_isa_rule("register_load", "src is a (1, 1) SBUF or HBM tensor")
    _core.op({"op": "isa_register_load", "dst": _reg(dst, "register_load"), "src": src._json()})


def register_store(dst, src):
    _trace.need("nki.isa.register_store")
    if not isinstance(dst, NkiTensor) or dst.size != 1:
        _rules.raise_isa_rule("register_store", "dst is a (1, 1) SBUF or HBM tensor")
    _core.op({"op": "isa_register_store", "dst": dst._json(), "src": _reg(src, "register_store")})


# --- runtime loops ----------------------------------------------------------------------------

def _no_reorder_check(t):
    if t.no_reorder:
        _core.raise_diagnostic("err_dynamic_in_no_reorder")


def _open_loop(lower, upper, step, name, frozen):
    t = _trace.need("nki.language.fori_loop")
    _no_reorder_check(t)
    if isinstance(step, VirtualRegister) or isinstance(step, bool) or not isinstance(step, int) \
            or step <= 0:
        _core.raise_diagnostic("err_loop_step_not_static", repr(step))
    reply = _core.op({"op": "loop", "lb": _bound(lower, "loop bound"),
                      "ub": _bound(upper, "loop bound"), "step": step, "name": name,
                      "frozen": frozen})
    t.open(reply["loop"], "loop")
    t.open(reply["alloc"], "alloc")
    iv = VirtualRegister._make(reply, frozen)
    iv._trace = t
    return t, reply, iv


def fori_loop(lower, upper, body_fun, step=1):
    """``for i in range(lower, upper, step): body_fun(i)`` on the device: the body is traced
    once; ``i`` is the loop's register (writing it does not change the loop)."""
    if not callable(body_fun):
        _rules.raise_isa_rule("fori_loop", "body_fun must be a callable (i) -> None")
    name = getattr(body_fun, "__code__", None)
    name = name.co_varnames[0] if name is not None and name.co_argcount else "i"
    t, reply, iv = _open_loop(lower, upper, step, name, frozen=False)
    try:
        result = call_traced(body_fun, (iv,), {})
    except BaseException:
        t.failed = True
        raise
    if result is not None:
        _rules.raise_isa_rule("fori_loop", "body_fun returns None: fori_loop carries no values "
                              "between iterations (keep loop state in SBUF/HBM)")
    t.close(reply["loop"])


def while_loop(init, body_fun):
    """A pre-checked while loop on the device: ``r = init; while r != 0: r = body_fun(r)``."""
    t = _trace.need("nki.language.while_loop")
    _no_reorder_check(t)
    cond = _reg(init, "while_loop")
    if not callable(body_fun):
        _rules.raise_isa_rule("while_loop", "body_fun must be a callable (r) -> VirtualRegister")
    reply = _core.op({"op": "push", "kind": "WhileScope", "cond": cond})
    t.open(reply["while"], "while")
    t.open(reply["alloc"], "alloc")
    try:
        result = call_traced(body_fun, (init,), {})
    except BaseException:
        t.failed = True
        raise
    if not isinstance(result, VirtualRegister):
        _rules.raise_isa_rule("while_loop", "body_fun returns the next condition register")
    if result._id() != cond:
        register_move(init, result)
    t.close(reply["while"])


class DynamicRange:
    """``nl.dynamic_range(start, stop=None, step=1)``: iterated by a ``for`` statement, the body
    is traced once over a frozen induction register (deprecated in NKI 0.6.0)."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, start, stop=None, step=1):
        if stop is None:
            start, stop = 0, start
        self.start, self.stop, self.step = start, stop, step

    def _loop(self, name, loc):
        _core.warn("nl.dynamic_range is deprecated in NKI 0.6.0 and works only with the parser "
                   "front end; use nl.fori_loop(lower, upper, body_fun)", DeprecationWarning,
                   "dynamic-range-deprecated", loc)
        t, reply, iv = _open_loop(self.start, self.stop, self.step, name, frozen=True)
        try:
            yield iv
        finally:
            t.close(reply["loop"])

    def __iter__(self):
        return self._loop("i", _loc.caller())


def dynamic_while(cond, loc):
    """``while reg:`` (deprecated): a generator of one pass, the body traced once."""
    t = _trace.need("while on a register")
    _no_reorder_check(t)
    _core.warn("`while reg:` is deprecated in NKI 0.6.0 and works only with the parser front "
               "end; use nl.while_loop(init, body_fun)", DeprecationWarning,
               "dynamic-range-deprecated", loc)
    reply = _core.op({"op": "push", "kind": "WhileScope", "cond": cond._id()}, loc=loc)
    t.open(reply["while"], "while")
    t.open(reply["alloc"], "alloc")
    return t, reply
