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

from . import errors as _errors, loc as _loc, results as _results
from .standins import ensure_numpy, is_fallback
# The Beta 1 front end's hooks (an upward import until the runner calls front ends through the
# run's hooks).
from neuronxcc.nki import _frontend, _kernel
from neuronxcc.nki.compiler.backends.neuron.TraceContext import TraceContext


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
      spec_json: ``[{name, shape, dtype, offset, nbytes} | {name, scalar}]``, one per input;
        ``name`` null for positional inputs.
      blob: the inputs' bytes (a JS Uint8Array), row-major in their dtypes.
      grid_json: the SPMD grid, ``[]`` for a plain call.
    Returns the exit code; the simulation is the last one in take_results().
    """
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    spec, grid = json.loads(spec_json), tuple(json.loads(grid_json))
    raw = blob.to_bytes() if hasattr(blob, "to_bytes") else bytes(blob)

    def after(module):
        from neuronxcc.nki import _simulate
        target = _pick_kernel(module, kernel)
        args, kwargs = [], {}
        for item in spec:
            if "scalar" in item:
                value = item["scalar"]
            else:
                data = raw[item["offset"]:item["offset"] + item["nbytes"]]
                value = _simulate.from_bytes(data, item["dtype"], tuple(item["shape"]))
            if item.get("name") is None:
                args.append(value)
            else:
                kwargs[item["name"]] = value
        with _results.unlimited_data():
            _kernel.simulate_kernel(target[grid] if grid else target, *args, **kwargs)
    return _run(source, filename, [], None, after=after, module_name="__nki_simulate__")


def _pick_kernel(module, name):
    kernels = {k: v for k, v in vars(module).items() if isinstance(v, _kernel.Kernel)}
    if name:
        found = vars(module).get(name)
        if isinstance(found, _kernel.Kernel) or (callable(found) and hasattr(found, "__code__")):
            return found if isinstance(found, _kernel.Kernel) else _kernel.Kernel(found)
        raise ValueError(f"simulate: the script has no kernel named '{name}'; its @nki.jit "
                         f"kernels: {', '.join(sorted(kernels)) or 'none'}")
    if len(kernels) != 1:
        raise ValueError("simulate: " + ("the script defines no @nki.jit kernel" if not kernels
                         else "the script defines several @nki.jit kernels ("
                         + ", ".join(sorted(kernels)) + "); pick one with {kernel: name}"))
    return next(iter(kernels.values()))


def _run(source, filename, argv, folder, after=None, module_name="__main__"):
    np = ensure_numpy()  # scripts `import numpy` before neuronxcc: the real one, else the fallback
    _loc.forget(filename)
    _frontend.forget(filename)
    _results.clear()
    restore_warnings = _results.install_warning_hook()
    compare_hook = None
    if is_fallback(np):  # comparisons against simulated outputs (real NumPy: not hooked)
        from numpy_standin import _testing
        compare_hook = _testing.on_compare
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
        if TraceContext.global_ctx is not None:  # a trace can only be left open by a bug
            TraceContext.abandon()
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
