"""sema: NKI's diagnostics on the Python side.

The message texts live in the C++ core (core/sema); this module turns a core diagnostic into the
exception class NKI raises and defines ``NKISyntaxError``, NKI's default diagnostic class.
"""
import builtins



class NKISyntaxError(Exception):
    """NKI's default diagnostic class: the kernel is not valid NKI."""


_CLASSES = {"NKISyntaxError": NKISyntaxError}


def diagnostic_to_exception(d):
    """Builds the exception for a core diagnostic ``{kind, message, code, file, line, col}``.
    ``exc.nki_code`` is the diagnostic's stable id, the anchor of its section in docs/errors.md."""
    cls = _CLASSES.get(d["kind"]) or getattr(builtins, d["kind"], None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        cls = NKISyntaxError
    exc = cls(d["message"])
    exc.nki_kind = d["kind"]
    exc.nki_code = d.get("code") or None
    if d.get("line"):
        exc.nki_loc = (d["file"], d["line"], d["col"])
    return exc


def err_nki_api_outside_of_nki_kernel():
    """Raises NKI's outside-kernel error (the message comes from the core)."""
    from nki_playground import door as _core
    _core.raise_diagnostic("err_nki_api_outside_of_nki_kernel")
