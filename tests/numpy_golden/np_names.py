"""Every NumPy name a body of Python code uses: ``np.pad``, ``np.random.default_rng``,
``np.add.reduce`` ... (the dotted path below the ``numpy`` module, as written).

Reads ``.py`` files and the Python blocks of ``.md``/``.rst`` files (fenced ```` ```python ````
blocks; ``.. code-block:: python`` / ``literalinclude``-free indented blocks). Aliases come from
the file's imports (``import numpy as np``, ``import numpy``, ``from numpy import pad``,
``import numpy.random as npr``); a file that does not parse (a doc snippet with ``...``) is read
with a plain ``np.<name>`` pattern instead.

Run with any Python (standard library only):

    python3 tests/numpy_golden/np_names.py [--json] PATH...

prints one name per line (or a JSON object ``{name: [files]}``). Used by
``tests/python/numpy_coverage.test.js`` (inside Pyodide) and by ``make_goldens.py``.
"""
import ast
import json
import os
import re
import sys

_FENCE = re.compile(r"^```(?:python|py)\s*$(.*?)^```", re.M | re.S)
_RST = re.compile(r"^(\s*)\.\. code-block:: python\s*\n((?:\1\s+.*\n|\s*\n)+)", re.M)
_PLAIN = re.compile(r"\bnp\.((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)")
_SKIP_DIRS = {".git", "node_modules", "build", "__pycache__"}


def _aliases(tree):
    """``{local name: dotted numpy path}`` bound by the imports of ``tree``."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "numpy" or a.name.startswith("numpy."):
                    if a.asname:
                        out[a.asname] = a.name[len("numpy."):] if "." in a.name else ""
                    else:
                        out["numpy"] = ""
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mod = node.module
            if mod == "numpy" or mod.startswith("numpy."):
                base = mod[len("numpy."):] if "." in mod else ""
                for a in node.names:
                    if a.name != "*":
                        out[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
    return out


def _chain(node):
    """``(base name, [attr, ...])`` of ``a.b.c``, or None when the base is not a plain name."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, attrs[::-1]
    return None


def names_in_source(text):
    """The set of dotted numpy names ``text`` (Python source) uses."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set(_PLAIN.findall(text))
    aliases = _aliases(tree)
    if not aliases:
        return set()
    inner = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            inner.add(id(node.value))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in aliases and aliases[node.id]:
            if isinstance(node.ctx, ast.Load):
                found.add(aliases[node.id])
        if not isinstance(node, ast.Attribute) or id(node) in inner:
            continue
        chain = _chain(node)
        if chain and chain[0] in aliases:
            base = aliases[chain[0]]
            found.add(".".join(([base] if base else []) + chain[1]))
    return found


def python_blocks(path, text):
    """The Python sources in file ``path`` with contents ``text``."""
    if path.endswith(".py"):
        return [text]
    if path.endswith(".md"):
        return [m.group(1) for m in _FENCE.finditer(text)]
    if path.endswith(".rst"):
        blocks = []
        for m in _RST.finditer(text):
            lines = m.group(2).splitlines()
            indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
            blocks.append("\n".join(x[indent:] for x in lines))
        return blocks
    return []


def walk(paths):
    """Every readable ``.py``/``.md``/``.rst`` file under ``paths`` (files or folders)."""
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
            for f in sorted(files):
                if f.endswith((".py", ".md", ".rst")):
                    yield os.path.join(folder, f)


def names_in(paths):
    """``{dotted name: [files that use it]}`` for everything under ``paths``."""
    out = {}
    for path in walk(paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for block in python_blocks(path, text):
            for name in names_in_source(block):
                out.setdefault(name, []).append(path)
    return {k: sorted(set(v)) for k, v in sorted(out.items())}


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    found = names_in(paths)
    if as_json:
        print(json.dumps(found, indent=1))
    else:
        print("\n".join(found))


if __name__ == "__main__":
    main(sys.argv[1:])
