"""The NumPy stand-in's import graph, measured (tests/python/numpy_layers.test.js runs it).

Every ``import`` / ``from ... import`` of a project module is an edge, at module level or inside
a function alike (a function-level import hides a circle, it does not remove it). Prints, as
JSON: the strongly connected components of more than one module (the circles), the
function-level imports of stand-in modules (file, line, whether a comment on the line or the
line above gives its reason), each stand-in module's imports of project modules, the other
modules the stand-in imports that are not the standard library's (``outside``), and where
methods are set on the array and scalar types from outside their class bodies
(``attachments``: assignments to ``ndarray.x`` / ``generic.x`` and ``setattr`` on them).

    python3 tests/python/numpy_layers.py [--text]
"""
import ast
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import layers_imports as li  # noqa: E402 - the lint's import graph, read the same way here

PACKAGES = ("numpy_standin", "nki_playground")
TYPES = {"ndarray", "generic"}


def _sets_method(node):
    """Whether ``node`` sets an attribute of one of TYPES (``ndarray.x = ...``, ``setattr``)."""
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                   and t.value.id in TYPES for t in node.targets)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "setattr" and node.args:
        return isinstance(node.args[0], ast.Name) and node.args[0].id in TYPES
    return False


def measure():
    """The graph as scripts/layers_imports.py reads it (every import an edge, at module level or
    in a function, by name too), restricted to PACKAGES, and where methods are attached."""
    paths = sorted(p.relative_to(ROOT).as_posix() for package in PACKAGES
                   for p in (ROOT / "python" / package).rglob("*.py"))
    known = {li.module_name(p): p for p in paths}
    edges, triples = {name: set() for name in known}, []
    function_level, outside, attachments = [], set(), []
    for name, path in known.items():
        text = (ROOT / path).read_text(encoding="utf-8")
        imports, lines = li.py_imports(path, text)
        standin = name.startswith("numpy_standin")
        for mod, line, in_function, names in imports:
            hit = [t for t in li._py_target(mod, names, known) if t != name]
            edges[name].update(hit)
            triples += [(name, t, f"{path}:{line}") for t in hit]
            if standin and mod.split(".")[0] not in ("numpy_standin",):
                outside.add(mod.split(".")[0])
            if standin and in_function and hit:
                function_level.append({"file": path, "line": line, "imports": sorted(hit),
                                       "reason": li.reason_of(lines, line) is not None})
        if standin:
            attachments += [f"{path}:{n.lineno}" for n in ast.walk(ast.parse(text))
                            if _sets_method(n)]
    outside = sorted(m for m in outside if m not in li.STDLIB)
    comps = [members for members, _ in li.circles(set(known), triples)]
    return known, edges, comps, function_level, outside, attachments


def main():
    known, edges, comps, function_level, outside, attachments = measure()
    report = {
        "circles": comps,
        "function_level": function_level,
        "outside": outside,
        "attachments": attachments,
        "imports": {name: sorted(edges[name]) for name in sorted(known)
                    if name.startswith("numpy_standin")},
    }
    if "--text" in sys.argv:
        cs = report["circles"]
        print(f"circles: {len(cs)}; largest: {max(map(len, cs), default=0)}")
        for c in cs:
            print("  ", len(c), " ".join(m.split(".")[-1] for m in c))
        print(f"function-level imports of stand-in modules: {len(function_level)}; "
              f"without a reason: {sum(not f['reason'] for f in function_level)}")
        for f in function_level:
            print(f"  {f['file']}:{f['line']} {' '.join(f['imports'])}"
                  f"{'' if f['reason'] else '  (no reason)'}")
        print("outside the standard library:", " ".join(outside))
        print("methods set from outside their class:", len(attachments))
        for a in attachments:
            print("  ", a)
    else:
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
