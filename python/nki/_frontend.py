"""The current language's front end: run like the tracer, diagnose like the parser.

NKI 0.6.0's tracer runs a kernel's body once as Python; its parser (the default front end)
accepts a Python subset. Before a kernel or a helper it calls runs, its source is checked for
what the parser rejects, with the parser's texts, at the user's line (``_lint``). Then the
function runs rewritten (cached per code object) so that the IR shows its Python structure:

- ``for x in it:`` iterates ``__nki_rt.loop(it, "x", loc)``: a Python loop (``range``,
  ``nl.static_range`` & co., lists) becomes an unrolled loop region with one region per
  iteration; an ``nl.dynamic_range`` a runtime loop traced once;
- ``while c:`` runs through ``__nki_rt.while_(loc)``: Python conditions unroll the same way; a
  register condition (the deprecated ``while reg:``) is a runtime while loop traced once;
- ``f(...)`` is ``__nki_rt.call(f, ...)``: the user's own functions are traced (checked,
  rewritten) inside a FunctionScope; APIs of ``neuronxcc.nki`` raise the parser's mixing error.

Line and column numbers of the rewritten code are the original ones.
"""
import ast
import builtins
import os
import types

from nki_playground import kernel_def as _kernel_def, loc as _loc
from nki_playground.kernel_def import RT

from . import _rules

_BUILTINS = frozenset(dir(builtins))
_STDLIB_DIR = os.path.dirname(os.__file__)


def is_user_function(f):
    if type(f) is not types.FunctionType:
        return False
    filename = f.__code__.co_filename
    return not (_loc.is_internal(filename) or filename.startswith(_STDLIB_DIR)
                or "/python3" in filename or "site-packages" in filename
                or filename.startswith("<"))


# --- what the parser front end rejects -----------------------------------------------------------

_STATEMENTS = {  # the parser's texts (NKI's gather.c)
    ast.Delete: "NKI does not support 'del' statements at this time.",
    ast.Raise: "NKI does not support 'raise' statements. Use 'if/else' control flow within "
               "kernels, or 'assert' for fatal errors.",
    ast.Try: "NKI does not support 'try' statements. Use 'if/else' control flow within kernels.",
    ast.Import: "NKI does not support 'import' statements within a function. Move 'import' "
                "outside this function.",
    ast.ImportFrom: "NKI does not support 'import' statements within a function. Move 'import' "
                    "outside this function.",
    ast.Global: "NKI does not support 'global' statements. Kernels cannot assign to global "
                "variables. Pass a dict between functions to share state.",
    ast.Nonlocal: "NKI does not support 'nonlocal' statements. Kernels cannot assign to "
                  "variables in nonlocal scope. Pass a dict between functions to share state.",
    ast.ClassDef: "NKI does not support 'class' definitions within a function. Move class "
                  "definition outside this function.",
    ast.AsyncFunctionDef: "NKI does not support 'async'. Use only synchronous functions within "
                          "kernels.",
    ast.AsyncFor: "NKI does not support 'async'. Use only synchronous functions within kernels.",
    ast.AsyncWith: "NKI does not support 'async'. Use only synchronous functions within kernels.",
    ast.Match: "NKI does not support 'match' statements at this time. Use 'if/elif' or dict "
               "lookups instead.",
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = _STATEMENTS[ast.Try]
_EXPRESSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda,
                ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)


def _where(filename, node):
    return [filename, node.lineno, node.col_offset + 1]


def _lint(fdef, filename, lines):
    """Raises the parser front end's error for the first construct it rejects in ``fdef``."""
    def reject(node, text):
        _rules.raise_parser(text, loc=_where(filename, node))

    for i, line in enumerate(lines):
        body = line[:len(line) - len(line.lstrip(" \t"))]
        if "\t" in body and line.strip():
            _rules.raise_parser("tab indents not supported, please configure your editor to use "
                                "spaces", loc=[filename, fdef.lineno + i, 1])
    if fdef.args.vararg is not None:
        reject(fdef.args.vararg, "varargs are not supported in NKI")
    for node in ast.walk(fdef):
        cls = type(node)
        if node is not fdef and cls in _STATEMENTS:
            reject(node, _STATEMENTS[cls])
        if isinstance(node, _EXPRESSIONS):
            reject(node, "unsupported expression")
        if isinstance(node, ast.For):
            if not isinstance(node.target, ast.Name):
                reject(node.target, "expecting simple variable")
            if node.orelse:
                reject(node.orelse[0], "for-orelse is not supported in NKI")
        elif isinstance(node, ast.While) and node.orelse:
            reject(node.orelse[0], "while-orelse is not supported in NKI")
        elif isinstance(node, ast.Starred):
            reject(node, "tuple expansion is not supported")
        elif isinstance(node, ast.keyword) and node.arg is None:
            reject(node.value, "keyword expansion is not supported")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            reject(node, "the matmul operator is not supported in NKI")
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.MatMult):
            reject(node, "the matmul operator is not supported in NKI")
        elif isinstance(node, ast.With):
            _lint_with(node, reject)
        elif isinstance(node, ast.FunctionDef) and node is not fdef:
            for d in node.decorator_list:
                name = _dotted(d.func if isinstance(d, ast.Call) else d)
                if name.split(".")[-1] not in ("staticmethod", "dataclass", "jit"):
                    reject(d, f"unsupported decorator {name}" if name else "unsupported decorator")
            if node.args.vararg is not None:
                reject(node.args.vararg, "varargs are not supported in NKI")


def _lint_with(node, reject):
    if len(node.items) != 1 or not isinstance(node.items[0].context_expr, ast.Call):
        reject(node, "NKI only supports with statements with a single, simple function call as "
               "context")
    item = node.items[0]
    call = item.context_expr
    if item.optional_vars is not None:
        reject(call, "NKI does not support name bindings in with statements")
    name = _dotted(call.func)
    if not name:
        reject(call, "NKI only allows simple function calls as with contexts")
    if call.args or call.keywords:
        reject(call, "NKI does not support function call arguments in with contexts")
    if name.split(".")[-1] != "no_reorder":
        reject(call, f"unsupported with context {name}")


def _dotted(e):
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Name):
        parts.append(e.id)
        return ".".join(reversed(parts))
    return ""


# --- the rewrite ---------------------------------------------------------------------------------

class _Rewriter(ast.NodeTransformer):
    def __init__(self, filename):
        self.filename = filename
        self.counter = 0

    def _rt(self, method, args, node):
        call = ast.Call(func=ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr=method,
                                           ctx=ast.Load()), args=list(args), keywords=[])
        return ast.copy_location(call, node)

    def _loc(self, node):
        return ast.Constant(value=(self.filename, node.lineno, node.col_offset + 1))

    def visit_FunctionDef(self, node):
        return node  # nested functions are checked and rewritten when they are called

    visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_For(self, node):
        self.generic_visit(node)
        name = node.target.id if isinstance(node.target, ast.Name) else ""
        node.iter = self._rt("loop", [node.iter, ast.Constant(value=name), self._loc(node)],
                             node.iter)
        return node

    def visit_While(self, node):
        # __w = rt.while_(loc)
        # try:
        #     while __w.test(<cond>): body
        # finally:
        #     __w.end()
        self.generic_visit(node)
        self.counter += 1
        w = f"__nki_w{self.counter}"
        begin = ast.copy_location(ast.Assign(targets=[ast.Name(id=w, ctx=ast.Store())],
                                             value=self._rt("while_", [self._loc(node)], node)),
                                  node)
        test = ast.copy_location(ast.Call(
            func=ast.Attribute(value=ast.Name(id=w, ctx=ast.Load()), attr="test", ctx=ast.Load()),
            args=[node.test], keywords=[]), node.test)
        loop = ast.copy_location(ast.While(test=test, body=node.body, orelse=[]), node)
        end = ast.copy_location(ast.Expr(value=ast.Call(
            func=ast.Attribute(value=ast.Name(id=w, ctx=ast.Load()), attr="end", ctx=ast.Load()),
            args=[], keywords=[])), node)
        return [begin, ast.copy_location(ast.Try(body=[loop], handlers=[], orelse=[],
                                                  finalbody=[end]), node)]

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and (f.id in _BUILTINS or f.id.startswith("__nki")):
            return node
        return ast.copy_location(ast.Call(
            func=ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr="call", ctx=ast.Load()),
            args=[f] + node.args, keywords=node.keywords), node)


def _build(func):
    parsed = _kernel_def.parse(func)
    if parsed is None:
        return None
    fdef, lines, first, indent = parsed
    filename = func.__code__.co_filename
    if isinstance(fdef, ast.AsyncFunctionDef):
        _rules.raise_parser(_STATEMENTS[ast.AsyncFunctionDef], loc=[filename, first, indent + 1])
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != func.__name__:
        return None
    body_lines = list(lines)
    while body_lines and body_lines[0].lstrip().startswith("@"):
        body_lines.pop(0)
    _lint(fdef, filename, body_lines)
    _kernel_def.strip_signature(fdef)
    rewriter = _Rewriter(filename)
    fdef.body = [s for st in fdef.body for s in _as_list(rewriter.visit(st))]
    return _kernel_def.compile_factory(fdef, func)


def _as_list(x):
    return x if isinstance(x, list) else [x]


_rewrites = _kernel_def.Rewrites(_build)


#: The runtime rewritten code calls (``__nki_rt``): a slot that _runtime, which builds on this
#: module, fills when it is imported (``install_runtime``).
_runtime = [None]


def install_runtime(rt):
    _runtime[0] = rt


def transformed(func):
    """The checked, rewritten version of ``func`` (``func`` itself without source)."""
    return _rewrites.get(func, _runtime[0])


def call_traced(f, args, kwargs):
    """Calls a user function checked and rewritten (a plain call for anything else)."""
    if isinstance(f, types.MethodType) and is_user_function(f.__func__):
        return transformed(f.__func__)(f.__self__, *args, **kwargs)
    if is_user_function(f):
        return transformed(f)(*args, **kwargs)
    return f(*args, **kwargs)


def forget(filename):
    _rewrites.forget(filename)


__all__ = ["transformed", "call_traced", "is_user_function", "forget"]
