"""Runs a user's script as ``python FILE.py ARGS...`` would, inside the nki-playground runtime
(the CLI and the page call this), and hands what Python owns of the run — the script's
diagnostics and the simulations' tensors — to the caller. The kernels it traced the caller takes
from the core's run session directly.
"""
import builtins
import json
import os
import sys
import types

from . import arrays, errors as _errors, languages, loc as _loc, results as _results, standins
from .standins import ensure_numpy


class FrontEnd:
    """What a front end tells the runner about itself (``register_front_end``)."""

    __slots__ = ("name", "forget", "abandon", "kernel_types", "as_kernel", "simulate")

    def __init__(self, name, forget, abandon, kernel_types, as_kernel, simulate):
        self.name, self.forget, self.abandon = name, forget, abandon
        self.kernel_types, self.as_kernel, self.simulate = tuple(kernel_types), as_kernel, simulate


#: The front ends imported so far, in import order (each registers itself at import).
FRONT_ENDS = []


def register_front_end(name, *, forget=None, abandon=None, kernel_types=(), as_kernel=None,
                       simulate=None):
    """How a front end (``neuronxcc.nki``, ``nki``) joins the runner; called by its package at
    import, so the runner imports no front end.

    Args:
      name: the package, e.g. "neuronxcc.nki".
      forget: ``forget(filename)`` drops what the front end cached about a file of that name
        (every run starts from new source).
      abandon: ``abandon()`` closes a trace a run left open (only a bug can); the next run
        starts clean.
      kernel_types: the classes of its kernels (``runtime.simulate()`` picks one).
      as_kernel: ``as_kernel(fn)`` makes a plain function one of its kernels.
      simulate: ``simulate(kernel, grid, args, kwargs)`` runs a kernel on the simulator.
    """
    FRONT_ENDS[:] = [f for f in FRONT_ENDS if f.name != name]
    FRONT_ENDS.append(FrontEnd(name, forget, abandon, kernel_types, as_kernel, simulate))


def run_file(path, argv=()):
    """Runs the script at ``path`` with ``sys.argv == [path, *argv]``; returns the exit code."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        sys.stderr.write(f"nki-playground: cannot read {path}: {e.strerror}\n")
        return 2
    folder = os.path.dirname(os.path.abspath(path))
    return _run(source, path, list(argv), folder)


def run_source(source, filename="kernel.py", argv=()):
    """Runs ``source`` as if it were the file ``filename`` (the browser path)."""
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return _run(source, filename, list(argv), None)


def simulate_source(source, filename, kernel, spec_json, blob, grid_json):
    """Runs ``source`` with ``__name__`` not "__main__" (its main block does not run), then
    simulates one of its kernels on the inputs the JS API sent (runtime.simulate()).

    Args:
      kernel: the kernel's name in the script, or "" for its only ``@nki.jit`` kernel.
      spec_json: ``[{name, shape, dtype, offset, nbytes, from?} | {name, scalar}]``, one per
        input; ``name`` null for positional inputs; ``from`` ("float32" / "float64") when the
        bytes are values to cast to ``dtype`` (bfloat16, float8) rather than its codes.
      blob: the inputs' bytes (a JS Uint8Array), row-major in their dtypes.
      grid_json: the SPMD grid, ``[]`` for a plain call.
    Returns the exit code; the simulation is the last one in take_results().
    """
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    spec, grid = json.loads(spec_json), tuple(json.loads(grid_json))
    raw = blob.to_bytes() if hasattr(blob, "to_bytes") else bytes(blob)

    def after(module):
        front_end, target = _pick_kernel(module, kernel, source)
        args, kwargs = [], {}
        for item in spec:
            if "scalar" in item:
                value = item["scalar"]
            else:
                data = raw[item["offset"]:item["offset"] + item["nbytes"]]
                value = arrays.from_bytes(data, item.get("from", item["dtype"]),
                                          tuple(item["shape"]))
                if "from" in item:  # values to round to bfloat16/float8: an array cast
                    value = value.astype(ensure_numpy().dtype(item["dtype"]))
            if item.get("name") is None:
                args.append(value)
            else:
                kwargs[item["name"]] = value
        with _results.unlimited_data():
            front_end.simulate(target, grid, args, kwargs)
    return _run(source, filename, [], None, after=after, module_name="__nki_simulate__")


def _front_end_of(value):
    for fe in FRONT_ENDS:
        if fe.kernel_types and isinstance(value, fe.kernel_types):
            return fe
    return None


def _default_front_end(source):
    """The front end of the file's language (what it imports; Beta 1 when it imports none)."""
    if not FRONT_ENDS:
        raise ValueError("simulate: the script imports no NKI front end (nki, neuronxcc.nki)")
    wanted = languages.front_end_of(source) or "neuronxcc.nki"
    for fe in FRONT_ENDS:
        if fe.name == wanted:
            return fe
    return FRONT_ENDS[0]


def _pick_kernel(module, name, source=""):
    """(front end, kernel) of the script's kernel ``name`` (or of its only kernel); a plain
    function becomes a kernel of the file's language."""
    kernels = {k: v for k, v in vars(module).items() if _front_end_of(v) is not None}
    if name:
        found = vars(module).get(name)
        fe = _front_end_of(found)
        if fe is not None:
            return fe, found
        if callable(found) and hasattr(found, "__code__"):
            fe = _default_front_end(source)
            return fe, fe.as_kernel(found)
        raise ValueError(f"simulate: the script has no kernel named '{name}'; its @nki.jit "
                         f"kernels: {', '.join(sorted(kernels)) or 'none'}")
    if len(kernels) != 1:
        raise ValueError("simulate: " + ("the script defines no @nki.jit kernel" if not kernels
                         else "the script defines several @nki.jit kernels ("
                         + ", ".join(sorted(kernels)) + "); pick one with {kernel: name}"))
    found = next(iter(kernels.values()))
    return _front_end_of(found), found


def _run(source, filename, argv, folder, after=None, module_name="__main__"):
    ensure_numpy()  # scripts `import numpy` before neuronxcc: the real one, else the fallback
    _loc.forget(filename)
    for fe in FRONT_ENDS:
        if fe.forget is not None:
            fe.forget(filename)
    _results.begin()
    restore_warnings = _results.install_warning_hook()
    compare_hook = standins.compare_hook()  # comparisons against simulated outputs
    if compare_hook is not None:
        compare_hook[0] = _results.comparison
    saved_argv, saved_path, saved_main = sys.argv, list(sys.path), sys.modules.get("__main__")
    sys.argv = [filename] + argv
    if folder:
        sys.path.insert(0, folder)
    main = types.ModuleType(module_name)
    main.__file__ = filename
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    try:
        code = compile(source, filename, "exec")
        exec(code, main.__dict__)
        if after is not None:
            after(main)
        return 0
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code
        sys.stderr.write(f"{e.code}\n")
        return 1
    except BaseException as e:  # noqa: BLE001 - everything the script raises is reported
        rendered = _errors.format_exception(e)
        sys.stderr.write(rendered)
        _results.error(e, rendered)
        return 1
    finally:
        restore_warnings()
        if compare_hook is not None:
            compare_hook[0] = None
        for fe in FRONT_ENDS:  # a trace can only be left open by a bug
            if fe.abandon is not None:
                fe.abandon()
        sys.stdout.flush()
        sys.stderr.flush()
        sys.argv, sys.path[:] = saved_argv, saved_path
        if saved_main is not None:
            sys.modules["__main__"] = saved_main


def take_results():
    """What Python owns of the last run, in one call: ``(json_text, blob)`` where json_text is
    ``{"diagnostics": [...], "simulations": [...]}`` and blob the bytes every simulation tensor
    record points into (``offset``, ``nbytes``). runtime/results.mjs decodes it; the run's
    traces come from the core's run session (runtime/runtime.mjs)."""
    return _results.take()
