"""The Beta 1 front end: how a kernel's Python is traced.

NKI does not simply run a kernel's Python: it parses the source and interprets control flow.
We do the same by rewriting the kernel's AST once (cached per code object and file) and running the
result with symbolic values:

- every statement is announced first (``__nki_rt.stmt``): the core opens a StmtScope for it;
- ``if c:`` — when ``c`` is a condition on loop variables / program ids (a Predicate), both
  branches are traced into IfScope regions; Python values branch as Python; tensor contents
  and ``nl.arange``-based conditions raise NKI's errors;
- ``while cond:`` — NKI's do-while form (``cond = scalar(True)`` before, ``cond = <scalar
  comparison>`` as the body's last statement) becomes a WhileScope; a pre-checked ``while``
  raises NKI's error; plain Python conditions loop as Python;
- ``for _ in range(...)`` is ``nl.sequential_range``; ``range(scalar(t))`` is a loop whose trip
  count is read at run time (a DynamicAxis);
- calls of the user's own functions and of ``@nki.jit`` kernels are traced inside a
  FunctionScope (an empty one is dropped for plain helpers); a gridded call is refused;
- rebinding a name to a new tensor inside a block warns as NKI does.

Line and column numbers of the rewritten code are the original ones, so every location the
user sees points into their file.
"""
import ast
import builtins
import copy
import linecache
import types

from nki_playground import kernel_def as _kernel_def, loc as _loc
from nki_playground.kernel_def import RT

_BUILTINS = frozenset(dir(builtins))


def _head(node):
    """(line, col, end line, end col) of ``node`` as a synthesized node takes it: a compound
    statement's header (``if t:``, ``for i in it:``), any other node's own extent. A call
    placed across a whole ``if`` block would show in tracebacks on the block's last line (the
    compiler puts a method call where its attribute ends)."""
    end = None
    if isinstance(node, (ast.If, ast.While)):
        end = node.test
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        end = node.iter
    elif isinstance(node, (ast.With, ast.AsyncWith)) and node.items:
        end = node.items[-1].context_expr
    elif isinstance(node, ast.stmt) and any(
            isinstance(getattr(node, f, None), list) for f in ("body", "handlers", "cases")):
        return node.lineno, node.col_offset, node.lineno, node.col_offset + 1
    if end is not None:
        return node.lineno, node.col_offset, end.end_lineno, end.end_col_offset
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _at(new, node):
    """Places the synthesized ``new`` at ``node`` (see _head); its parts without a location of
    their own (the ``__nki_rt.x`` of a call, constants) take the same place."""
    span = _head(node)
    for n in ast.walk(new):
        if "lineno" in n._attributes and getattr(n, "lineno", None) is None or n is new:
            n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = span
    return new


def _is_user_function(f):
    if type(f) is not types.FunctionType:
        return False
    filename = f.__code__.co_filename
    return not (_loc.is_library(filename) or filename.startswith("<"))


class _Rewriter(ast.NodeTransformer):
    def __init__(self, filename):
        self.filename = filename
        self.counter = 0
        self.block_depth = 0
        self.in_comprehension = False

    # --- helpers -----------------------------------------------------------------------------
    def _tmp(self):
        self.counter += 1
        return f"__nki_c{self.counter}"

    def _rt(self, method, args, node, keywords=()):
        call = ast.Call(func=ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr=method,
                                           ctx=ast.Load()),
                        args=list(args), keywords=list(keywords))
        return _at(call, node)

    def _loc(self, node):
        return ast.Constant(value=(self.filename, node.lineno, node.col_offset + 1))

    def _stmt_marker(self, st):
        text = linecache.getline(self.filename, st.lineno).strip()
        if len(text) > 80:
            text = text[:77] + "..."
        marker = ast.Expr(value=self._rt(
            "stmt", [ast.Constant(value=f"{text}@{self.filename}:{st.lineno}")], st))
        return _at(marker, st)

    def body(self, stmts, block=True):
        if block:
            self.block_depth += 1
        out = []
        for st in stmts:
            out.append(self._stmt_marker(st))
            res = self.visit(st)
            if isinstance(res, list):
                out.extend(res)
            elif res is not None:
                out.append(res)
        if block:
            self.block_depth -= 1
        return out

    # --- statements --------------------------------------------------------------------------
    def visit_FunctionDef(self, node):
        return node  # nested functions are traced when called (rt.call)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_For(self, node):
        node.target = node.target
        it = node.iter
        if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            it = self._rt("range", [self.visit(a) for a in it.args], it,
                          [self.visit(k) for k in it.keywords])
        else:
            it = self.visit(it)
        node.iter = it
        node.body = self.body(node.body)
        node.orelse = self.body(node.orelse)
        return node

    def visit_If(self, node):
        # One copy of each branch (duplicating them made elif chains exponential):
        #     c = rt.cond(test)
        #     rt.open_if(c)               # an IfScope for a predicate, nothing for a bool
        #     if rt.then(c): body         # always for a predicate, `c` for a bool
        #     rt.close_if(c)
        #     rt.open_else(c)
        #     if rt.otherwise(c): orelse  # an elif is an `if` in here: no block nesting
        #     rt.close_if(c)
        # Plain calls rather than `with`: Python allows only 20 nested with/for/try blocks,
        # which long elif chains would exceed. Branches that leave early (return, break,
        # continue) use `with` so that the scope is closed on the way out.
        c = self._tmp()
        name = lambda: ast.Name(id=c, ctx=ast.Load())  # noqa: E731
        out = [_at(ast.Assign(
            targets=[ast.Name(id=c, ctx=ast.Store())],
            value=self._rt("cond", [self.visit(node.test), self._loc(node.test)], node.test)),
            node)]
        branches = [("if_", "then", node.body, node)]
        if node.orelse:
            branches.append(("else_", "otherwise", node.orelse, node.orelse[0]))
        for opener, taker, stmts, at in branches:
            leaves = _leaves_early(stmts)
            guarded = _at(ast.If(test=self._rt(taker, [name()], node),
                                               body=self.body(stmts), orelse=[]), node)
            scope = self._rt(opener, [name(), self._loc(at)], node)
            if leaves:
                out.append(_at(ast.With(
                    items=[ast.withitem(context_expr=scope)], body=[guarded]), node))
            else:
                out.append(_at(ast.Expr(value=self._rt(
                    "open", [scope], node)), node))
                out.append(guarded)
                out.append(_at(ast.Expr(value=self._rt(
                    "close", [name()], node)), node))
        return out

    def visit_While(self, node):
        original_body = copy.deepcopy(node.body)
        original_test = copy.deepcopy(node.test)
        w = self._tmp()
        name = node.test.id if isinstance(node.test, ast.Name) else None
        begin = _at(ast.Assign(
            targets=[ast.Name(id=w, ctx=ast.Store())],
            value=self._rt("while_", [self.visit(node.test), self._loc(node),
                                      ast.Constant(value=name), self._loc(node.test)],
                           node)), node)
        python_while = _at(ast.While(test=self.visit(original_test),
                                                   body=self.body(node.body),
                                                   orelse=self.body(node.orelse)), node)
        traced_body = self.body(original_body)
        if name is not None:
            traced_body.append(_at(ast.Expr(value=ast.Call(
                func=ast.Attribute(value=ast.Name(id=w, ctx=ast.Load()), attr="end",
                                   ctx=ast.Load()),
                args=[ast.Name(id=name, ctx=ast.Load())], keywords=[])), node))
        traced = _at(ast.With(
            items=[ast.withitem(context_expr=ast.Name(id=w, ctx=ast.Load()))],
            body=traced_body), node)
        dispatch = _at(ast.If(
            test=ast.Compare(left=ast.Name(id=w, ctx=ast.Load()), ops=[ast.Is()],
                             comparators=[ast.Constant(value=None)]),
            body=[python_while], orelse=[traced]), node)
        return [begin, dispatch]

    def visit_Assign(self, node):
        node.value = self.visit(node.value)
        if (self.block_depth > 0 and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, (ast.Call, ast.BinOp))):
            name = node.targets[0].id
            node.value = self._rt("bind", [ast.Constant(value=name),
                                           ast.Call(func=ast.Name(id="locals", ctx=ast.Load()),
                                                    args=[], keywords=[]),
                                           node.value], node.value)
        return node

    def visit_Return(self, node):
        # `return v` -> `return rt.returned(v, loc)`: a kernel's wrong return value is
        # reported at its return statement, not where the kernel was called.
        if node.value is not None:
            node.value = self._rt("returned", [self.visit(node.value), self._loc(node.value)],
                                  node.value)
        return node

    def visit_AnnAssign(self, node):
        # `x: nt.tensor[128, 512] = value`: NKI checks the value's shape against the annotation.
        if node.value is not None:
            node.value = self._rt("annotated", [self.visit(node.value),
                                                copy.deepcopy(node.annotation)], node.value)
        return node

    def generic_visit(self, node):
        # Statements with bodies (with, try, match...) get statement markers inside.
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(node, ast.stmt) and isinstance(value, list) and value and \
                    isinstance(value[0], ast.stmt):
                setattr(node, field, self.body(value))
        if isinstance(node, ast.Try):
            for h in node.handlers:
                h.body = self.body(h.body)
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody", "handlers") and isinstance(node, ast.stmt):
                continue
            if isinstance(value, list):
                new = []
                for item in value:
                    if isinstance(item, ast.AST):
                        item = self.visit(item)
                        if item is None:
                            continue
                        if isinstance(item, list):
                            new.extend(item)
                            continue
                    new.append(item)
                value[:] = new
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    # --- expressions -------------------------------------------------------------------------
    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id not in _BUILTINS and not f.id.startswith("__nki"):
            return _at(ast.Call(
                func=ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr="call",
                                   ctx=ast.Load()),
                args=[f] + node.args, keywords=node.keywords), node)
        return node

    def visit_Lambda(self, node):
        return node

    def visit_BoolOp(self, node):
        # `a and b` of two conditions on loop variables (NKI's doc tests write
        # `mask=(ix < n // 2 and iy < m // 2)`) is their conjunction, `a & b`: evaluated as
        #     rt.and_(__b, b) if rt.is_condition(__b := a) else (__b and b)
        # which keeps Python's short-circuit for everything else. Not inside comprehensions,
        # where an assignment expression may not stand.
        self.generic_visit(node)
        if not isinstance(node.op, ast.And) or self.in_comprehension:
            return node
        values = node.values
        expr = values[-1]
        for left in reversed(values[:-1]):
            tmp = self._tmp()
            bound = _at(ast.NamedExpr(target=ast.Name(id=tmp, ctx=ast.Store()),
                                                    value=left), left)
            expr = _at(ast.IfExp(
                test=self._rt("is_condition", [bound], left),
                body=self._rt("and_", [ast.Name(id=tmp, ctx=ast.Load()), expr], node),
                orelse=_at(ast.BoolOp(op=ast.And(), values=[
                    _at(ast.Name(id=tmp, ctx=ast.Load()), left), expr]), node)),
                node)
        return expr

    def _comprehension(self, node):
        outer, self.in_comprehension = self.in_comprehension, True
        try:
            return self.generic_visit(node)
        finally:
            self.in_comprehension = outer

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _leaves_early(stmts):
    """Whether a branch can leave through return/break/continue (outside nested defs)."""
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Return, ast.Break, ast.Continue)):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _build(func):
    parsed = _kernel_def.parse(func)
    if parsed is None:
        return None
    fdef = parsed[0]
    if not isinstance(fdef, (ast.FunctionDef, ast.AsyncFunctionDef)) or fdef.name != func.__name__:
        return None
    _kernel_def.strip_signature(fdef)
    fdef.body = _Rewriter(func.__code__.co_filename).body(fdef.body, block=False)
    return _kernel_def.compile_factory(fdef, func, place=_at)


_rewrites = _kernel_def.Rewrites(_build)


def transformed(func, rt):
    """The traced version of ``func`` (or ``func`` itself when its source is unavailable)."""
    return _rewrites.get(func, rt)


def forget(filename):
    """Drops rewritten functions of a file whose source changed."""
    _rewrites.forget(filename)
