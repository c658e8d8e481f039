"""The current language's requests to the core, through the one door (nki_playground.door).

Every request carries the user's location (the innermost frame outside this package) unless it
names one, crosses as JSON, and its warnings (``{"warn": [[class, message, code], ...]}``) are
issued as Python warnings at that location.
"""
import json

from nki_playground import door, loc as _loc, results as _results


class NkiWarningMixin:
    """Marks warnings that carry a diagnostic code (``nki_code``)."""


def op(req, loc=None):
    """Sends ``req`` (a dict) to the core; returns the reply (parsed JSON, None for null)."""
    if "loc" not in req:
        req["loc"] = loc or _loc.caller()
    reply = json.loads(door.op(json.dumps(req, separators=(",", ":"))))
    if isinstance(reply, dict) and "warn" in reply:
        _issue(reply.pop("warn"), req["loc"])
    return reply


def _issue(items, loc):
    import builtins
    for kind, message, code in items:
        cls = getattr(builtins, kind, UserWarning)
        if not (isinstance(cls, type) and issubclass(cls, Warning)):
            cls = UserWarning
        w = cls(message)
        w.nki_code = code
        _results.warn_at(w, cls, loc or ("<unknown>", 0, None))


def raise_diagnostic(name, *args, loc=None):
    """Raises the core's diagnostic ``name`` (every message text lives in the core)."""
    door.raise_diagnostic(name, *args, loc=loc or _loc.caller())


def warn(message, cls=UserWarning, code=None, loc=None):
    """A warning of this package at the user's location, filtered as if the user's module had
    raised it (a DeprecationWarning shows for the script's own code, as Python shows it)."""
    loc = loc or _loc.caller()
    w = cls(message)
    w.nki_code = code
    frame = _loc.user_frame(2)
    module = frame.f_globals.get("__name__", "__main__") if frame is not None else "__main__"
    _results.warn_at(w, cls, loc or ("<unknown>", 0, None), module=module)
