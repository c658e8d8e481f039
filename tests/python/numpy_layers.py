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
PYTHON = ROOT / "python"
PACKAGES = ("numpy_standin", "nki_playground")


def module_name(path):
    parts = list(path.relative_to(PYTHON).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules():
    """``{module name: path}`` of every module of the measured packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((PYTHON / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def targets(node, here, is_package, known):
    """The project modules that one import node names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return [n for n in names if n in known or n.split(".")[0] in PACKAGES]
    if node.level:
        base = here.split(".")
        base = base[: len(base) - node.level + (1 if is_package else 0)]
        if node.module:
            base += node.module.split(".")
        origin = ".".join(base)
    else:
        origin = node.module or ""
    if origin.split(".")[0] not in PACKAGES:
        return []
    out = []
    for alias in node.names:
        sub = f"{origin}.{alias.name}"
        out.append(sub if sub in known else origin)
    return out


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
    known = modules()
    edges = {name: set() for name in known}
    function_level = []
    outside = set()
    attachments = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, filename=str(path))
        is_package = path.name == "__init__.py"

        def visit(node, in_function):
            for child in ast.iter_child_nodes(node):
                inner = in_function or isinstance(
                    child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if name.startswith("numpy_standin") and _sets_method(child):
                    attachments.append(f"{path.relative_to(ROOT).as_posix()}:{child.lineno}")
                if name.startswith("numpy_standin") and isinstance(child, ast.Import):
                    outside.update(a.name.split(".")[0] for a in child.names)
                if name.startswith("numpy_standin") and isinstance(child, ast.ImportFrom) \
                        and not child.level:
                    outside.add(child.module.split(".")[0])
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    hit = [t for t in targets(child, name, is_package, known) if t in known]
                    edges[name].update(hit)
                    if in_function and hit and name.startswith("numpy_standin"):
                        here = lines[child.lineno - 1]
                        above = lines[child.lineno - 2].strip() if child.lineno >= 2 else ""
                        function_level.append({
                            "file": path.relative_to(ROOT).as_posix(), "line": child.lineno,
                            "imports": sorted(set(hit)),
                            "reason": "#" in here or above.startswith("#")})
                visit(child, inner)

        visit(tree, False)
    stdlib = getattr(sys, "stdlib_module_names", ())
    outside = sorted(m for m in outside if m not in stdlib and m != "numpy_standin")
    return known, edges, function_level, outside, attachments


def circles(edges):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    found.append(sorted(component))
    return sorted(found, key=len, reverse=True)


def main():
    known, edges, function_level, outside, attachments = measure()
    report = {
        "circles": circles(edges),
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
