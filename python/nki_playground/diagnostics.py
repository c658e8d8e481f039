"""A core diagnostic → the exception NKI raises (a leaf: imports nothing of this project).

The message texts live in the C++ core (core/sema); a diagnostic crosses as
``{kind, message, code, file, line, col}`` and becomes an instance of ``kind`` — a builtin
class, or ``NKISyntaxError``, NKI's default diagnostic class — with ``nki_kind``, ``nki_code``
and ``nki_loc`` set. Both front ends raise these classes (``neuronxcc.nki``'s ``sema`` module
re-exports them at the seed's path).
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
