"""What both front ends do with a kernel's ``def``: bind a call's arguments to its signature
and hand them back to it (``bind``, ``rebind``); read its source again at the file's own lines
and columns (``parse``); clean the def up for the rewrite and compile it inside a factory
(``strip_signature``, ``compile_factory``); keep what was compiled and make the rewritten
function from it (``Rewrites``).

Each front end rewrites the def's body its own way (``neuronxcc.nki._frontend``,
``nki._frontend``): its ``build`` function, which ``Rewrites`` calls once per def.
"""
import ast
import inspect
import textwrap

#: The name the rewritten code calls its front end's runtime by.
RT = "__nki_rt"


def bind(func, sig, args, kwargs):
    """``args`` and ``kwargs`` bound to ``sig`` (``func``'s signature), defaults applied.

    Raises:
      TypeError: ``name(): <Python's reason>`` when the call does not fit the signature.
    """
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{func.__name__}(): {e}") from None
    bound.apply_defaults()
    return bound


def rebind(sig, values):
    """``(args, kwargs)`` that call a function of signature ``sig`` with ``values`` (parameter
    name -> value, as ``bind`` bound them; missing names are left out)."""
    args, kwargs = [], {}
    for pname, p in sig.parameters.items():
        if pname not in values:
            continue
        v = values[pname]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(v)
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update(v)
        elif p.kind is p.KEYWORD_ONLY:
            kwargs[pname] = v
        else:
            args.append(v)
    return args, kwargs


def parse(func):
    """``(node, lines, first, indent)``: the first statement of ``func``'s source (its def,
    normally: the caller checks) with the lines and columns it has in its file; the source
    lines, the first one's number and its indent. None when the source is not available or
    does not parse."""
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    if not lines:
        return None
    indent = len(lines[0]) - len(lines[0].lstrip())
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    ast.increment_lineno(tree, first - 1)
    if indent:
        for n in ast.walk(tree):
            if getattr(n, "col_offset", None) is not None:
                n.col_offset += indent
                if getattr(n, "end_col_offset", None) is not None:
                    n.end_col_offset += indent
    return tree.body[0], lines, first, indent


def strip_signature(fdef):
    """Drops the def's decorators, defaults and annotations: they were evaluated when the
    user's def ran, and ``Rewrites.get`` copies the defaults from the original function instead
    of evaluating them again (they may name enclosing locals)."""
    fdef.decorator_list = []
    fdef.returns = None
    fdef.args.defaults = []
    fdef.args.kw_defaults = [None for _ in fdef.args.kwonlyargs]
    for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs:
        a.annotation = None
    for a in (fdef.args.vararg, fdef.args.kwarg):
        if a is not None:
            a.annotation = None


def compile_factory(fdef, func, place=ast.copy_location):
    """``(code, freevars)``: the module ``def __nki_factory(__nki_rt, *freevars): <fdef>;
    return <fdef's name>`` compiled in ``func``'s file, the factory placed by
    ``place(factory, fdef)``. The factory's parameters stand for ``func``'s closure cells."""
    freevars = list(func.__code__.co_freevars)
    factory = ast.FunctionDef(
        name="__nki_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=RT)] +
                           [ast.arg(arg=v) for v in freevars],
                           kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    place(factory, fdef)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    return compile(module, func.__code__.co_filename, "exec"), freevars


class Rewrites:
    """A front end's rewritten defs: ``build(func)`` (``compile_factory``'s result, or None
    where there is no source to rewrite) runs once per def, and each call of ``get`` makes the
    function anew from it (its globals, closure and defaults are the call's ``func``'s).

    Entries are kept per code object *and* file: code objects compare equal across files (and a
    variable annotation, which a rewrite may check, is not in the code), so the same def written
    in two files must not share one rewrite, compiled with the other file's name.
    """

    def __init__(self, build):
        self._build = build
        self._entries = {}

    def get(self, func, rt):
        """``func`` rewritten, calling ``rt`` (``func`` itself when it has no source). A rewritten
        function is its own rewrite for the same ``rt``: a def that calls itself names the
        rewritten one (the factory's def binds the name), whose code has ``__nki_rt`` among its
        free variables and cannot go through the factory again."""
        original = getattr(func, "__nki_original__", None)
        if original is not None:
            if func.__nki_rt__ is rt:
                return func
            func = original
        code = func.__code__
        key = (code, code.co_filename, code.co_firstlineno)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = self._build(func) or False
        return _instantiate(entry, func, rt)

    def forget(self, filename):
        """Drops the rewrites of a file whose source changed."""
        for key in [k for k in self._entries if k[1] == filename]:
            del self._entries[key]


def _instantiate(entry, func, rt):
    if entry is False:
        return func
    factory_code, _freevars = entry
    namespace = {}
    exec(factory_code, func.__globals__, namespace)
    cells = [c.cell_contents for c in (func.__closure__ or ())]
    new = namespace["__nki_factory"](rt, *cells)
    new.__defaults__ = func.__defaults__
    # The user's name in every message Python makes about the call (a wrong keyword), not the
    # factory's (``__nki_factory.<locals>.f``).
    new.__qualname__ = func.__qualname__
    new.__kwdefaults__ = func.__kwdefaults__
    new.__nki_original__ = func
    new.__nki_rt__ = rt
    return new
