"""The door to the C++ core: the only module that reaches the ``nki_core`` wasm module.

Every call into the core goes through here so that a core diagnostic becomes the Python
exception NKI raises (with the user's location attached) and an internal core failure becomes
``NkiInternalError``. The front ends (``neuronxcc.nki``, ``nki``) and the NumPy stand-in call
the functions below; none of them holds the core itself.

The core is attached after import (``attach(core)``, done by the JS runtime): importing this
module, or anything above it, never needs the core, and no module keeps a reference to it but
this one — so Python can be imported first and the core (re)attached later, e.g. after Pyodide
boots from a memory snapshot, which cannot hold a JS object. Why the bound methods are kept in
module globals: a Python→wasm call costs ~1 µs, so the hot functions are fetched once per
attach, not looked up on the JS object per call.
"""
import json

from .diagnostics import diagnostic_to_exception

try:
    from pyodide.ffi import JsException
except ImportError:  # pragma: no cover - plain CPython without Pyodide
    class JsException(Exception):
        pass


class NkiInternalError(RuntimeError):
    """A bug in nki-playground (not in the user's kernel)."""


_NOT_LOADED = ("the nki-playground core is not loaded: run scripts through the nki-playground "
               "runtime (npx nki-playground run FILE.py, or the playground page)")

#: The attached core (a JS module object), or None.
_m = None
#: The core functions this door calls, bound at attach(); None while detached.
_fn = {}

# The core's functions the door uses, each by its embind name (wasm/bind/).
_NAMES = ("op", "new_ctx", "finalize_kernel", "abandon_trace", "nki_ctx", "nki_ctx_or_none",
          "get_cur_scope", "push_scope", "pop_scope", "affine_range", "enter_trace_scope",
          "exit_trace_scope", "raise_diagnostic", "new_simulation", "host_request", "host_view",
          "host_get", "host_set")


def attach(core=None):
    """Connects the door to the core: ``core`` is the wasm module object (the JS runtime passes
    it); None imports the ``nki_core`` module the runtime registered. Idempotent; a second call
    replaces the first (a new core after a snapshot boot)."""
    global _m
    if core is None:
        import nki_core as core  # registered by the JS runtime (runtime/runtime.mjs)
    _m = core
    _fn.clear()
    for name in _NAMES:
        fn = getattr(core, name, None)
        if fn is not None:
            _fn[name] = fn
    globals().update({f"_{name}": _fn.get(name, _missing) for name in _NAMES})


def detach():
    """Forgets the core (before a memory snapshot is taken: it must hold no JS object)."""
    global _m
    _m = None
    _fn.clear()
    globals().update({f"_{name}": _missing for name in _NAMES})


def available():
    """Whether a core is attached."""
    return _m is not None


def has(name):
    """Whether the attached core has the function ``name`` (e.g. ``host_request``)."""
    return name in _fn


def module():
    """The attached core; raises NkiInternalError when none is."""
    if _m is None:
        raise NkiInternalError(_NOT_LOADED)
    return _m


def _missing(*_args):
    raise NkiInternalError(_NOT_LOADED)


def translate(e):
    """Turns a JsException thrown by the core into the exception to raise."""
    name = getattr(e, "name", "")
    message = getattr(e, "message", str(e))
    if name == "NkiError":
        return diagnostic_to_exception(json.loads(message))
    if name in ("InternalError", "CppException"):
        return NkiInternalError(message)
    return e


def _call(fn, *args):
    try:
        return fn(*args)
    except JsException as e:
        raise translate(e) from None


# The core's requests. Each reads the bound function from the module globals at call time, so
# a re-attached core is used from then on, whoever imported these names.
def op(request):
    """One language op (wasm/PROTOCOL.md): JSON request in, JSON reply out."""
    try:
        return _op(request)
    except JsException as e:
        raise translate(e) from None


def new_ctx(opts):
    return _call(_new_ctx, opts)


def finalize_kernel(end):
    return _call(_finalize_kernel, end)


def abandon_trace():
    return _abandon_trace()


def nki_ctx():
    return _call(_nki_ctx)


def nki_ctx_or_none():
    return _nki_ctx_or_none()


def get_cur_scope():
    return _call(_get_cur_scope)


def push_scope(kind, payload):
    return _call(_push_scope, kind, payload)


def pop_scope(region, failed):
    return _call(_pop_scope, region, failed)


def affine_range(request):
    return _call(_affine_range, request)


def enter_trace_scope(kind, name_and_loc, stack_frame):
    return _call(_enter_trace_scope, kind, name_and_loc, stack_frame)


def exit_trace_scope(kind):
    return _call(_exit_trace_scope, kind)


def new_simulation(trace, opts):
    """A Simulation of a finished trace (wasm/bind/bind_sim.cpp); the caller deletes it."""
    return _call(_new_simulation, trace, opts)


def host_request(request):
    """One host-array request (core/host/host.h): JSON in, JSON out."""
    return _call(_host_request, request)


def host_view(array_id):
    """The bytes of host array ``array_id`` as a Uint8Array over wasm memory (use at once:
    memory growth detaches earlier views)."""
    return _host_view(array_id)


def host_get(array_id, index):
    """One element of host array ``array_id`` as a float (scalar indexing)."""
    return _host_get(array_id, index)


def host_set(array_id, index, value):
    return _host_set(array_id, index, value)


def raise_diagnostic(name, *args, loc=None):
    """Raises the core's diagnostic ``name`` (an err_* of core/sema) — every message text lives
    in the core, also for errors the Python surface detects itself. ``loc`` ([file, line, col])
    says where in the user's code it points (default: the user's innermost frame)."""
    try:
        _call(_raise_diagnostic, name, json.dumps([str(a) for a in args]))
    except Exception as e:
        if loc:
            e.nki_loc = tuple(loc)
        raise
    raise NkiInternalError(f"diagnostic {name} did not raise")


detach()  # no core until attach(): every request raises NkiInternalError
