"""The choke points of the layout (docs/architecture.md), checked by `npm run lint`:

  1. `global_ctx` (the trace cell) is named only in its own files: core/trace/trace_context.*
     (C++) and the seed's TraceContext.py / nki_ctx.py (Python); everything else goes through
     the accessors nki_ctx(), nki_ctx_or_none(), get_cur_scope().
  2. The core module (`nki_core`) is imported only by python/nki_playground/door.py.
  3. The runtime (runtime/) and the CLI (cli/, bin/) do not name `web/`.
  4. The import table of docs/architecture.md (scripts/layers_imports.py): which folder of JS
     and which Python package may import which, no import circle (a function-level import is
     an edge like any other), a one-line reason on each function-level import of a project
     module, at most 15 such imports inside the NumPy stand-in.
  5. wasm/PROTOCOL.md lists exactly the functions bound in wasm/bind/*.cpp (its Calls table)
     and the ops of the dispatcher in core/protocol/requests.cpp (its Op requests table).

Prints one `file:line: message` per finding; exits 1 when there is any.
`--root DIR` checks another copy of the tree (tests/scripts/check-layers.test.js plants
violations in one); a copy that is not a git checkout is read whole.
"""
import ast
import json
import os
import pathlib
import re
import subprocess
import sys

import layers_imports

ROOT = pathlib.Path(__file__).resolve().parent.parent
CELL_FILES = {
    "core/trace/trace_context.h",
    "core/trace/trace_context.cpp",
    "python/neuronxcc/nki/compiler/backends/neuron/TraceContext.py",
    "python/neuronxcc/nki/compiler/backends/neuron/nki_ctx.py",
}
DOOR = "python/nki_playground/door.py"
SKIP_DIRS = {".git", "node_modules", "build"}

findings = []


def rel(p):
    return p.relative_to(ROOT).as_posix()


def tracked(*patterns):
    """The files matching git pathspecs (`dir/*.ext`: any depth): git's list in a checkout,
    else every file of the copy."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "--", *patterns], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
        return [ROOT / line for line in out.splitlines() if (ROOT / line).exists()]
    found = []
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for f in sorted(files):
            path = pathlib.Path(top, f)
            name = rel(path)
            if any(_matches(name, pat) for pat in patterns):
                found.append(path)
    return found


def _matches(name, pattern):
    folder, _, ext = pattern.rpartition("/*")
    return name.endswith(ext) and (not folder or name.startswith(folder + "/"))


def check_python(path):
    name = rel(path)
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text, filename=name)

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Name, ast.Attribute)):
                ident = child.id if isinstance(child, ast.Name) else child.attr
                if ident == "global_ctx" and name not in CELL_FILES:
                    findings.append(f"{name}:{child.lineno}: global_ctx read outside its files "
                                    "(use nki_ctx() / nki_ctx_or_none() / get_cur_scope())")
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if isinstance(child, ast.Import):
                    modules = [a.name for a in child.names]
                else:
                    modules = [child.module] if child.level == 0 and child.module else []
                if any(m.split(".")[0] == "nki_core" for m in modules):
                    if name != DOOR:
                        findings.append(f"{name}:{child.lineno}: imports the core; only "
                                        f"{DOOR} may (use nki_playground.door)")
            visit(child)

    visit(tree)


_CPP_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"', re.S)


def check_cpp(path):
    name = rel(path)
    if name in CELL_FILES:
        return
    code = _CPP_NOISE.sub("", path.read_text(encoding="utf-8"))
    for i, line in enumerate(code.splitlines(), 1):
        if re.search(r"\bglobal_ctx\b", line):
            findings.append(f"{name}:{i}: global_ctx named outside core/trace/trace_context.*")


_JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def check_js_no_web(path):
    name = rel(path)
    code = _JS_COMMENT.sub("", path.read_text(encoding="utf-8"))
    for i, line in enumerate(code.splitlines(), 1):
        if re.search(r"""(^|[^\w.-])(\.\./)*web/""", line):
            findings.append(f"{name}:{i}: names web/ (the runtime and the CLI must not depend "
                            "on the page)")


def _table_names(text, heading):
    """The backticked names opening each row of the table under ``## heading``."""
    part = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in part.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            names.update(re.findall(r"`([a-z_]+)", first))
    return names


def check_protocol():
    doc = (ROOT / "wasm/PROTOCOL.md").read_text(encoding="utf-8")
    bound = set()
    for p in tracked("wasm/bind/*.cpp"):
        bound.update(re.findall(r'emscripten::function\("([a-z_]+)"', p.read_text()))
    ops = set(re.findall(r'op == "([a-z_]+)"', (ROOT / "core/protocol/requests.cpp").read_text()))
    for title, doc_names, real, where in (
            ("Calls", _table_names(doc, "Calls"), bound, "wasm/bind/*.cpp"),
            ("Op requests", _table_names(doc, "Op requests"), ops, "core/protocol/requests.cpp")):
        for n in sorted(real - doc_names):
            findings.append(f"wasm/PROTOCOL.md: `{n}` ({where}) is missing from {title}")
        for n in sorted(doc_names - real):
            findings.append(f"wasm/PROTOCOL.md: {title} lists `{n}`, which {where} does not have")


def package_exports():
    """{"nki-playground/prerender": "render/prerender.js", ...}: the package's own names."""
    pkg = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    out = {}
    for key, value in pkg.get("exports", {}).items():
        if isinstance(value, dict):
            value = value.get("default")
        if isinstance(value, str):
            out[pkg["name"] + key[1:]] = value.removeprefix("./")
    return out


def check_imports():
    js = {rel(p): p.read_text(encoding="utf-8")
          for p in tracked(*(f"{d}*.js" for d in layers_imports.JS_ROOTS),
                           *(f"{d}*.mjs" for d in layers_imports.JS_ROOTS))}
    layers_imports.check_js(js, package_exports(), findings)
    py = {rel(p): p.read_text(encoding="utf-8") for p in tracked("python/*.py")}
    layers_imports.check_python(py, findings)


def main(argv):
    global ROOT
    if argv[:1] == ["--root"] and len(argv) == 2:
        ROOT = pathlib.Path(argv[1]).resolve()
    elif argv:
        print("usage: check_layers.py [--root DIR]", file=sys.stderr)
        return 2
    for p in tracked("python/*.py"):
        check_python(p)
    for p in tracked("core/*.cpp", "core/*.h", "wasm/bind/*.cpp", "wasm/bind/*.h"):
        check_cpp(p)
    for p in tracked("runtime/*.mjs", "runtime/*.js", "runtime/*.ts", "cli/*.mjs", "bin/*.mjs"):
        check_js_no_web(p)
    check_imports()
    check_protocol()
    for f in findings:
        print(f)
    print(f"check_layers: {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
