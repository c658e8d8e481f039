"""Where in the user's source an op is called from, and what name it is bound to.

Locations come from the innermost frame outside this package (file, line, 1-based column from
``co_positions``). Names come from the user's statement: ``x = nl.load(...)`` names the tile
``x``; ``for i in nl.affine_range(4)`` names the loop variable ``i``. Both are cached per code
object / file, so an op pays a dictionary lookup, not a parse.
"""
import ast
import linecache
import os
import sys

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../neuronxcc

_positions = {}
_name_index = {}
_getframe = sys._getframe


def is_internal(filename):
    return filename.startswith(PACKAGE_DIR)


def is_library(filename):
    """This package's files and Pyodide's own Python: its standard library (/lib/python313.zip,
    /lib/python3.13) and the packages installed there (the host's /lib is never visible inside
    Pyodide: runtime/node.mjs). A user's file is anything else, whatever its path says
    (a folder named python3 or site-packages included)."""
    return is_internal(filename) or filename.startswith(("/lib/", "<frozen"))


def _position(code, lasti):
    pos = _positions.get(code)
    if pos is None:
        pos = _positions[code] = list(code.co_positions())
    i = lasti // 2
    if 0 <= i < len(pos):
        return pos[i]
    return (code.co_firstlineno, None, 0, None)


def frame_position(frame, lasti=None):
    """(file, line, col, end_line, end_col) of the instruction a frame is executing; col 1-based."""
    code = frame.f_code
    line, end_line, col, end_col = _position(code, frame.f_lasti if lasti is None else lasti)
    if line is None:
        line = frame.f_lineno
    return (code.co_filename, line, (col or 0) + 1, end_line or line, (end_col or 0) + 1)


def user_frame(depth=2):
    """The innermost frame that is not this package's."""
    f = _getframe(depth)
    while f is not None and is_internal(f.f_code.co_filename):
        f = f.f_back
    return f


def caller():
    """[file, line, col] of the user's call site (the shape the core's requests take)."""
    f = user_frame(3)
    if f is None:
        return None
    file, line, col, _, _ = frame_position(f)
    return [file, line, col]


def def_loc(func):
    """[file, line, col] of a function's ``def`` (``co_firstlineno`` is its first decorator's
    line); None for a callable without code."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    line = code.co_firstlineno
    for n in range(line, line + 50):
        text = linecache.getline(code.co_filename, n)
        stripped = text.lstrip()
        if stripped.startswith(("def ", "async def ")):
            return [code.co_filename, n, len(text) - len(stripped) + 1]
        if not text:
            break
    return [code.co_filename, line, 1]


def _index_file(filename):
    names = {}
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        tree = None
    if tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                target, value = node.target, node.iter
            else:
                continue
            if isinstance(target, ast.Name):
                names[(value.lineno, value.col_offset + 1)] = target.id
    _name_index[filename] = names
    return names


def bound_name(loc):
    """The variable the expression at ``loc`` is assigned to, or ''."""
    if not loc:
        return ""
    file, line, col = loc
    names = _name_index.get(file)
    if names is None:
        names = _index_file(file)
    return names.get((line, col), "")


def forget(filename):
    """Drops cached knowledge of a file whose source changed (the playground re-runs)."""
    _name_index.pop(filename, None)
    linecache.checkcache(filename)


def statement_text(file, line):
    text = linecache.getline(file, line).strip()
    return text if len(text) <= 80 else text[:77] + "..."
