"""How a failing script is reported: ``file:line:col: error: Class: message``, the source line
and a caret under the failing expression, a ``see: docs/errors.md#<code>`` line when the
diagnostic has a code (``exc.nki_code``), then the user's own frames (never this package's).
A bug in nki-playground itself is reported as an internal error with the full traceback.
"""
import linecache
import traceback

from . import loc as _loc
from .door import NkiInternalError

# The errors page has one section per diagnostic code; CI logs and the CLI print this link.
DOCS_LINK = "see: docs/errors.md#"


def coded(exc, code):
    """``exc`` with the stable id ``code`` (a section of docs/errors.md): for the surface's own
    user-facing errors; the core's diagnostics get theirs from the core."""
    exc.nki_code = code
    return exc


def _is_library(filename):
    """This package's files and Pyodide's Python (contextlib frames of our scopes)."""
    return _loc.is_library(filename)


def _user_frames(tb):
    frames = []
    while tb is not None:
        f = tb.tb_frame
        if not _is_library(f.f_code.co_filename):
            frames.append((f, tb.tb_lasti))
        tb = tb.tb_next
    return frames


def _source_snippet(file, line, col, end_line=None, end_col=None):
    text = linecache.getline(file, line).rstrip("\n")
    if not text:
        return ""
    width = 1
    if end_line == line and end_col and end_col > col:
        width = end_col - col
    stripped = text.lstrip()
    indent = len(text) - len(stripped)
    caret_pad = max(0, col - 1 - indent)
    return f"    {stripped}\n    {' ' * caret_pad}^{'~' * (width - 1)}\n"


def error_location(exc):
    """(file, line, col, end_line, end_col) of the user code an exception points at."""
    loc = getattr(exc, "nki_loc", None)
    if loc:
        # The diagnostic names the call's start; the user frame executing it knows its end.
        for f, lasti in reversed(_user_frames(exc.__traceback__)):
            pos = _loc.frame_position(f, lasti)
            if pos[:3] == tuple(loc):
                return pos
        return (loc[0], loc[1], loc[2], None, None)
    if isinstance(exc, SyntaxError) and exc.filename:
        return (exc.filename, exc.lineno or 1, exc.offset or 1, exc.end_lineno,
                exc.end_offset)
    frames = _user_frames(exc.__traceback__)
    if frames:
        f, lasti = frames[-1]
        return _loc.frame_position(f, lasti)
    return None


def format_exception(exc):
    """The text a user sees for an exception that ended their script. Set the environment
    variable NKI_PLAYGROUND_TRACEBACK=1 to see every frame, this package's included."""
    import os
    if os.environ.get("NKI_PLAYGROUND_TRACEBACK"):
        return "".join(traceback.format_exception(exc))
    if isinstance(exc, NkiInternalError) or _is_our_bug(exc):
        return ("internal error in nki-playground (please report it): "
                + "".join(traceback.format_exception(exc)))
    kind = getattr(exc, "nki_kind", None) or type(exc).__name__
    message = str(exc) if not isinstance(exc, SyntaxError) else exc.msg
    out = []
    loc = error_location(exc)
    if loc:
        file, line, col, end_line, end_col = loc
        out.append(f"{file}:{line}:{col}: error: {kind}: {message}\n")
        out.append(_source_snippet(file, line, col, end_line, end_col))
    else:
        out.append(f"error: {kind}: {message}\n")
    code = getattr(exc, "nki_code", None)
    if code:
        out.append(f"    {DOCS_LINK}{code}\n")
    frames = _user_frames(exc.__traceback__)
    if len(frames) > 1:
        out.append("Traceback (most recent call last; nki-playground frames hidden):\n")
        for f, lasti in frames:
            file, line, col, _, _ = _loc.frame_position(f, lasti)
            out.append(f"  {file}:{line}:{col}: in {f.f_code.co_name}\n")
    return "".join(out)


# Exceptions that, raised by this package's own code, can only mean a bug in it. Everything
# else it raises is a deliberate, user-facing refusal (bad argument types, unsupported numpy
# names, ...) and is reported at the user's line like any NKI diagnostic.
_BUG_CLASSES = (AssertionError, NameError, UnboundLocalError, RecursionError, SystemError)


def _is_our_bug(exc):
    if getattr(exc, "nki_kind", None):
        return False
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None or not _loc.is_internal(last.tb_frame.f_code.co_filename):
        return False
    return isinstance(exc, _BUG_CLASSES)
