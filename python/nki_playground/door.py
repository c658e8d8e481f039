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


def _missing(*_args):
    raise NkiInternalError(_NOT_LOADED)


# The core's functions this door calls, bound by attach() (embind names, wasm/bind/); each is
# _missing while no core is attached.
_op = _new_ctx = _finalize_kernel = _abandon_trace = _nki_ctx = _nki_ctx_or_none = _missing
_get_cur_scope = _raise_diagnostic = _new_simulation = _facts_fn = _missing
_host_request = _host_view = _host_get = _host_set = _missing


def attach(core=None):
    """Connects the door to the core: ``core`` is the wasm module object (the JS runtime passes
    it); None imports the ``nki_core`` module the runtime registered. A second call replaces the
    first (a new core after a snapshot boot)."""
    global _m, _op, _new_ctx, _finalize_kernel, _abandon_trace, _nki_ctx, _nki_ctx_or_none
    global _get_cur_scope, _raise_diagnostic, _new_simulation, _facts_fn, _facts
    global _host_request, _host_view, _host_get, _host_set
    if core is None:
        import nki_core as core  # registered by the JS runtime (runtime/runtime.mjs)
    _m = core
    _op, _new_ctx, _finalize_kernel = core.op, core.new_ctx, core.finalize_kernel
    _abandon_trace, _nki_ctx, _nki_ctx_or_none = core.abandon_trace, core.nki_ctx, core.nki_ctx_or_none
    _get_cur_scope, _raise_diagnostic = core.get_cur_scope, core.raise_diagnostic
    _new_simulation, _facts_fn, _facts = core.new_simulation, core.facts, None
    # Host arrays (the NumPy stand-in's core-backed storage); absent from a core built without.
    _host_request = getattr(core, "host_request", _missing)
    _host_view = getattr(core, "host_view", _missing)
    _host_get = getattr(core, "host_get", _missing)
    _host_set = getattr(core, "host_set", _missing)


def detach():
    """Forgets the core (before a memory snapshot is taken: it must hold no JS object)."""
    global _m, _op, _new_ctx, _finalize_kernel, _abandon_trace, _nki_ctx, _nki_ctx_or_none
    global _get_cur_scope, _raise_diagnostic, _new_simulation, _facts_fn
    global _host_request, _host_view, _host_get, _host_set
    _m = None
    _op = _new_ctx = _finalize_kernel = _abandon_trace = _nki_ctx = _nki_ctx_or_none = _missing
    _get_cur_scope = _raise_diagnostic = _new_simulation = _facts_fn = _missing
    _host_request = _host_view = _host_get = _host_set = _missing


#: The core's facts (limits, operator names: core/lang/facts.h), read on first use.
_facts = None


def facts():
    """The core's hardware limits, targets and operator / activation name tables, as a dict
    (``{"tile_size": {...}, "psum": {...}, "targets": [...], "alu": [...], "unary_alu": [...],
    "activation": [...], "aliases": {...}}``: core/lang/facts.h). Asked once per attached core,
    on first use (never at import: the core may not be attached yet)."""
    global _facts
    if _facts is None:
        _facts = json.loads(_call(_facts_fn))
    return _facts


def available():
    """Whether a core is attached."""
    return _m is not None


def has_host_arrays():
    """Whether the attached core has host arrays (the NumPy stand-in's core-backed storage)."""
    return _host_request is not _missing


def module():
    """The attached core; raises NkiInternalError when none is."""
    if _m is None:
        raise NkiInternalError(_NOT_LOADED)
    return _m


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
    """One request (wasm/PROTOCOL.md): JSON in, JSON out — a language op, or a scope request
    (push / loop / pop)."""
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

