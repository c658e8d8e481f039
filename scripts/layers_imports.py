"""The import table of docs/architecture.md, checked for `scripts/check_layers.py`.

Two graphs are built from the sources, one edge per import statement:

  - JS (.js/.mjs): static `import ... from`, `export ... from`, `import "x"` and dynamic
    `import("x")` with a literal specifier; relative paths and the package's own name
    (`nki-playground/...`, through package.json "exports") are followed to the file, anything
    else is a package (`node:fs`, `pyodide`, ...).
  - Python (python/): `import a.b` and `from a import b` (relative ones resolved), and
    `importlib.import_module("a.b")` / `__import__("a.b")` with a literal name, at module level
    or inside a function alike: an import run later is still an edge of the graph.

Each graph is checked against its table (which part may import which) and for circles: every
strongly connected component is reported once, with the edges that close it (file:line).
"""
import ast
import re
import sys

# --- the tables (docs/architecture.md draws the same) ---------------------------------------

# JS: folder -> the project folders its files may import ("*": any).
JS_MAY_IMPORT = {
    "render": {"render"},
    "runtime": {"runtime"},
    "cli": {"cli", "runtime", "render"},
    "bin": {"bin", "cli", "runtime", "render"},
    "web": {"web", "runtime", "render"},
    "scripts": {"*"},
    "tests": {"*"},
}
# JS: folder -> the packages its files may import (None: any). render/ is pure: no Node, no
# DOM library; markdown.js alone takes markdown-it (the docs build).
JS_PACKAGES = {"render": {"render/markdown.js": {"markdown-it"}}}
# The browser's runtime and everything it imports must run without Node.
NO_NODE_FROM = "runtime/runtime.mjs"
JS_ROOTS = ("render/", "runtime/", "cli/", "bin/", "web/", "scripts/", "tests/")

# Python: package -> the project packages it may import, beyond itself and the standard
# library; (package, module prefix) exceptions follow.
PY_PACKAGES = ("neuronxcc", "nki", "nki_playground", "numpy_standin")
PY_MAY_IMPORT = {
    "nki_playground": set(),
    "neuronxcc": {"nki_playground"},
    "nki": {"nki_playground"},
    "numpy_standin": set(),
}
# Imports outside the project and the standard library each package may name.
PY_EXTERNAL = {
    "nki_playground": {"numpy", "scipy", "pyodide", "nki_core"},
    "neuronxcc": {"numpy", "ml_dtypes"},
    "nki": {"numpy", "ml_dtypes"},
    "numpy_standin": set(),
}
# One module may cross a line the others may not: file -> the modules it alone may import.
PY_ONLY_HERE = {
    "python/nki_playground/door.py": {"nki_core"},
    "python/nki_playground/standins.py": {"numpy_standin"},
}
PY_ONLY_MODULES = {"nki_core": "python/nki_playground/door.py",
                   "numpy_standin": "python/nki_playground/standins.py"}
# What the NumPy stand-in may import of nki_playground (its README says why).
STANDIN_MAY_IMPORT = {"nki_playground.door", "nki_playground.dtype_values"}
STANDIN = "numpy_standin"
STANDIN_MAX_FUNCTION_LEVEL = 15

STDLIB = set(sys.stdlib_module_names) | {"__future__"}

# --- strongly connected components -----------------------------------------------------------


def circles(nodes, edges):
    """The strongly connected components of more than one node (or a node importing itself):
    [(sorted members, [(src, dst, where), ...] the edges among them)], largest first."""
    succ = {n: [] for n in nodes}
    for src, dst, where in edges:
        if src in succ and dst in succ:
            succ[src].append((dst, where))
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(nodes):
        if start in index:
            continue
        # Tarjan's algorithm, iterative (a deep import chain must not hit the recursion limit).
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter[0]
                counter[0] += 1
                stack.append(node)
                on.add(node)
            children = sorted(succ[node])
            if i < len(children):
                work.append((node, i + 1))
                child = children[i][0]
                if child not in index:
                    work.append((child, 0))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    n = stack.pop()
                    on.discard(n)
                    comp.append(n)
                    if n == node:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    result = []
    for comp in out:
        members = set(comp)
        inner = sorted({(s, d, w) for s, d, w in edges if s in members and d in members})
        if len(comp) > 1 or inner:
            result.append((sorted(comp), inner))
    return sorted(result, key=lambda c: (-len(c[0]), c[0]))


def report_circles(kind, comps, findings, describe=lambda e: ""):
    for members, inner in comps:
        findings.append(f"{kind} import circle of {len(members)} module(s): {', '.join(members)}")
        for src, dst, where in inner:
            findings.append(f"  {where}: {src} imports {dst}{describe((src, dst, where))}")


# --- JS ----------------------------------------------------------------------------------------

_JS_NOISE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_JS_IMPORT = re.compile(
    r"""(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?"""
    r"""["']([^"'\n]+)["']"""
    r"""|\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)""")


def js_imports(text):
    """[(specifier, line)] of one JS file (comments dropped, line numbers kept)."""
    code = _JS_NOISE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out = []
    for m in _JS_IMPORT.finditer(code):
        spec = m.group(1) or m.group(2)
        start = m.start(1) if m.group(1) else m.start(2)
        out.append((spec, code.count("\n", 0, start) + 1))
    return out


def _folder(path):
    return path.split("/", 1)[0]


def _resolve_js(src, spec, files, exports):
    """The project file `spec` names from `src`, or None for a package."""
    spec = spec.split("?", 1)[0]
    if spec.startswith("."):
        parts = src.split("/")[:-1]
        for piece in spec.split("/"):
            if piece == "..":
                parts = parts[:-1]
            elif piece not in (".", ""):
                parts.append(piece)
        target = "/".join(parts)
    elif spec in exports:
        target = exports[spec]
    else:
        return None
    for cand in (target, target + ".js", target + ".mjs", target + "/index.js"):
        if cand in files:
            return cand
    return target


def check_js(sources, exports, findings):
    """sources: {path: text} of every JS file under JS_ROOTS; exports: {"name/sub": path}."""
    files = set(sources)
    edges, packages = [], {}
    for src in sorted(sources):
        for spec, line in js_imports(sources[src]):
            target = _resolve_js(src, spec, files, exports)
            where = f"{src}:{line}"
            if target is None:
                packages.setdefault(src, []).append((spec.split("?", 1)[0], where))
                continue
            edges.append((src, target, where))
            allowed = JS_MAY_IMPORT.get(_folder(src), {"*"})
            dest = _folder(target)
            if "*" not in allowed and dest not in allowed:
                may = ", ".join(f"{f}/" for f in sorted(allowed))
                findings.append(f"{where}: {_folder(src)}/ imports {target} ({dest}/); "
                                f"{_folder(src)}/ may import only {may} (docs/architecture.md)")
    for src, specs in packages.items():
        rule = JS_PACKAGES.get(_folder(src))
        if rule is None:
            continue
        mine = rule.get(src, set())
        for spec, where in specs:
            if spec not in mine:
                findings.append(f"{where}: {_folder(src)}/ imports the package '{spec}'; it is "
                                "pure (no Node, no packages; docs/architecture.md)")
    # The browser runtime's closure: no Node module.
    seen, todo = set(), [NO_NODE_FROM] if NO_NODE_FROM in files else []
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(d for s, d, _ in edges if s == f)
        for spec, where in packages.get(f, []):
            if spec.startswith("node:"):
                findings.append(f"{where}: imports {spec}, and {NO_NODE_FROM} (the browser's "
                                "runtime) imports this file: it must run without Node")
    report_circles("JS", circles(files, edges), findings)
    return edges


# --- Python ------------------------------------------------------------------------------------


def module_name(path):
    """python/a/b.py -> a.b; python/a/__init__.py -> a."""
    parts = path[len("python/"):-len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def py_imports(path, text):
    """[(module named, line, function_level, is_from_import, names, comment_ok)]: each import."""
    tree = ast.parse(text, filename=path)
    lines = text.splitlines()
    me = module_name(path)
    package = me if path.endswith("__init__.py") else me.rpartition(".")[0]
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            func = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    out.append((a.name, child.lineno, in_function, ()))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    mod = ".".join(base + ([child.module] if child.module else []))
                else:
                    mod = child.module
                out.append((mod, child.lineno, in_function, tuple(a.name for a in child.names)))
            elif isinstance(child, ast.Call) and _dynamic_import(child):
                # An import by name is an import: inside a function (or lambda), a late one.
                out.append((child.args[0].value, child.lineno, func, ()))
            visit(child, func)

    visit(tree, False)
    return out, lines


def _dynamic_import(call):
    """`importlib.import_module("x")`, `import_module("x")` or `__import__("x")`."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    return (name in ("import_module", "__import__") and call.args
            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))


def reason_of(lines, lineno):
    """The one-line reason of an import at `lineno`: its comment, or a comment line above;
    markers for tools (noqa, type: ignore, pragma) are not a reason."""
    here = lines[lineno - 1]
    texts = [here.split("#", 1)[1]] if "#" in here else []
    above = lines[lineno - 2].strip() if lineno >= 2 else ""
    if above.startswith("#"):
        texts.append(above[1:])
    for t in texts:
        t = re.sub(r"noqa(:\s*[A-Z]+\d+(,\s*[A-Z]+\d+)*)?|type:\s*ignore\S*|pragma:?\s*\S+", "", t)
        if len(re.findall(r"[A-Za-z]{2,}", t)) >= 2:
            return t.strip(" -:")
    return None


def _py_target(mod, names, modules):
    """The project modules an import statement loads: `from a import b` names a.b when that is
    a module, else a; `import a.b` names a.b (the longest prefix that is a module)."""
    out = []
    for n in names or ("",):
        full = f"{mod}.{n}" if n else mod
        if n and full in modules:
            out.append(full)
            continue
        parts = mod.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts:
            out.append(".".join(parts))
    return sorted(set(out))


def _py_rule(src_file, src_pkg, target):
    """Why `target` may not be imported from src_file (package src_pkg), or None."""
    top = target.split(".")[0]
    if top == src_pkg:
        return None
    if src_file in PY_ONLY_HERE and top in PY_ONLY_HERE[src_file]:
        return None
    if src_pkg == STANDIN:
        if any(target == m or target.startswith(m + ".") for m in STANDIN_MAY_IMPORT):
            return None
        return (f"the NumPy stand-in imports only the standard library, "
                f"{' and '.join(sorted(STANDIN_MAY_IMPORT))} (python/numpy_standin/README.md)")
    if top in PY_ONLY_MODULES:
        return (f"only {PY_ONLY_MODULES[top]} may import {top}"
                + (" (install the stand-in through nki_playground.standins)"
                   if top == STANDIN else ""))
    if top in PY_MAY_IMPORT.get(src_pkg, set()):
        return None
    if src_pkg == "nki_playground":
        return "nki_playground must not import a front end (a front end registers with the runner)"
    return f"a front end must not import another's internals ({src_pkg} imports {top})"


def check_python(sources, findings):
    """sources: {path: text} of every python/**/*.py. Returns (edges, the stand-in's
    function-level imports of its own modules)."""
    modules = {module_name(p): p for p in sources}
    edges, standin_inner = [], []
    for path in sorted(sources):
        src = module_name(path)
        pkg = src.split(".")[0]
        imports, lines = py_imports(path, sources[path])
        for mod, line, in_function, names in imports:
            where = f"{path}:{line}"
            top = mod.split(".")[0]
            if top not in PY_PACKAGES:
                if top == "nki_core":
                    continue  # check_layers.py's own rule (door.py alone)
                if top not in STDLIB and top not in PY_EXTERNAL.get(pkg, set()):
                    findings.append(f"{where}: imports {mod}, which is neither the standard "
                                    f"library nor a package {pkg} may import "
                                    "(docs/architecture.md)")
                continue
            targets = _py_target(mod, names, modules)
            for target in targets:
                if target != src:  # a module naming itself imports nothing
                    late = " (function-level)" if in_function else ""
                    edges.append((src, target, where + late))
                why = _py_rule(path, pkg, target)
                if why:
                    findings.append(f"{where}: {src} imports {target}: {why}")
            if not in_function or not targets:
                continue
            if pkg == STANDIN and any(t.split(".")[0] == STANDIN for t in targets):
                standin_inner.append(where)
            if reason_of(lines, line) is None:
                findings.append(f"{where}: function-level import of {mod} without a one-line "
                                "reason (a comment on its line or the line above, not a tool "
                                "marker)")
    if len(standin_inner) > STANDIN_MAX_FUNCTION_LEVEL:
        findings.append(f"python/{STANDIN}: {len(standin_inner)} function-level imports of its "
                        f"own modules; at most {STANDIN_MAX_FUNCTION_LEVEL} (each with its reason)"
                        f" — first at {standin_inner[0]}")
    report_circles("Python", circles(set(modules), edges), findings)
    return edges, standin_inner
