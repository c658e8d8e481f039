"""The door to the C++ core (the ``nki_core`` module the runtime registers with Pyodide).

Every call into the core goes through here so that a core diagnostic becomes the Python
exception NKI raises (with the user's location attached) and an internal core failure becomes
``NkiInternalError``. Why module-level bindings: a Python→wasm call costs ~1 µs, so the hot
functions are fetched once, not looked up per call.
"""
import json

try:  # registered by the JS runtime (runtime/runtime.mjs)
    import nki_core as _m
except ImportError:  # pragma: no cover - plain CPython without the runtime
    _m = None

try:
    from pyodide.ffi import JsException
except ImportError:  # pragma: no cover
    class JsException(Exception):
        pass


class NkiInternalError(RuntimeError):
    """A bug in nki-playground (not in the user's kernel)."""


def available():
    return _m is not None


def module():
    if _m is None:
        raise NkiInternalError(
            "the nki-playground core is not loaded: run scripts through the nki-playground "
            "runtime (npx nki-playground run FILE.py, or the playground page)")
    return _m


def translate(e):
    """Turns a JsException thrown by the core into the exception to raise."""
    name = getattr(e, "name", "")
    message = getattr(e, "message", str(e))
    if name == "NkiError":
        from neuronxcc.nki.compiler.backends.neuron import sema
        return sema.diagnostic_to_exception(json.loads(message))
    if name in ("InternalError", "CppException"):
        return NkiInternalError(message)
    return e


def _wrap(fn):
    def call(*args):
        try:
            return fn(*args)
        except JsException as e:
            raise translate(e) from None
    call.__name__ = getattr(fn, "name", "core_call")
    return call


def raise_diagnostic(name, *args, loc=None):
    """Raises the core's diagnostic ``name`` (an err_* of core/sema) — every message text lives
    in the core, also for errors the Python surface detects itself. ``loc`` ([file, line, col])
    says where in the user's code it points (default: the user's innermost frame)."""
    try:
        _raise_diagnostic(name, json.dumps([str(a) for a in args]))
    except Exception as e:
        if loc:
            e.nki_loc = tuple(loc)
        raise
    raise NkiInternalError(f"diagnostic {name} did not raise")


if _m is not None:
    op = _wrap(_m.op)
    new_ctx = _wrap(_m.new_ctx)
    finalize_kernel = _wrap(_m.finalize_kernel)
    abandon_trace = _m.abandon_trace
    nki_ctx = _wrap(_m.nki_ctx)
    nki_ctx_or_none = _m.nki_ctx_or_none
    get_cur_scope = _wrap(_m.get_cur_scope)
    push_scope = _wrap(_m.push_scope)
    pop_scope = _wrap(_m.pop_scope)
    affine_range = _wrap(_m.affine_range)
    pop_loop = _wrap(_m.pop_loop)
    enter_trace_scope = _wrap(_m.enter_trace_scope)
    exit_trace_scope = _wrap(_m.exit_trace_scope)
    _raise_diagnostic = _wrap(_m.raise_diagnostic)
    new_simulation = _wrap(_m.new_simulation)  # the simulator (wasm/bind/bind_sim.cpp)
else:  # pragma: no cover
    def _missing(*_args):
        module()
    op = new_ctx = finalize_kernel = abandon_trace = nki_ctx = nki_ctx_or_none = _missing
    get_cur_scope = push_scope = pop_scope = affine_range = pop_loop = _missing
    enter_trace_scope = exit_trace_scope = _raise_diagnostic = new_simulation = _missing
