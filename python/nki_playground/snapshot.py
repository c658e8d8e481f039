"""What a memory snapshot of the runtime holds, and what a boot from one redoes.

The build (scripts/make-snapshot.mjs) boots Pyodide, installs the packages at the runtime's
package root and calls ``prepare(root, FRONT_ENDS)``: the front ends a boot imports first,
then every module of every package there (found by walking the folders, so a new package —
``nki`` — is picked up without a list to keep), the stand-ins installed, and Pyodide saves its
memory. A runtime booted from that
memory (runtime/snapshot.mjs) calls ``restored()`` before anything else runs.

A snapshot holds wasm memory only, never a JS object: nothing here may keep one (the door is
attached to a core only after the boot), and ``prepare`` checks that no user module is there
and leaves an empty run. What the memory would otherwise fix for every boot is redone by ``restored()``: the
``random`` module's seed. What cannot be redone is what the interpreter read once at start-up
and still uses: the ``str`` hash seed (every boot from one snapshot hashes alike, so set order
repeats), ``os.environ`` and the time zone (the build makes them machine-neutral: UTC, the
environment of a plain boot, Emscripten's program name).
"""
import importlib
import os
import pkgutil
import sys

from . import door, results
from .standins import ensure_numpy


def packages(root):
    """The top-level packages under ``root`` (folders with an ``__init__.py``), sorted."""
    return sorted(name for name in os.listdir(root)
                  if name.isidentifier() and os.path.isfile(os.path.join(root, name, "__init__.py")))


def prepare(root, front_ends=()):
    """Imports the front ends a boot imports (``front_ends``, the runtime's FRONT_ENDS, first
    and in that order: they register with the runner as they are imported), then every module
    of every package under ``root``, and installs the stand-ins, as a run would find them;
    returns the names of the modules imported (build time only).

    Raises ImportError naming the module when one cannot be imported without a core (every
    module must import before ``door.attach``: a snapshot cannot hold the core)."""
    if door.available():
        raise RuntimeError("prepare(): a core is attached; a snapshot must be made without one")
    for name in front_ends:
        _import(name)
    ensure_numpy()
    names = []
    for top in packages(root):
        _import(top)
        package = sys.modules[top]
        names.append(top)
        for info in pkgutil.walk_packages(package.__path__, top + ".", onerror=_raise):
            _import(info.name)
            names.append(info.name)
    if door.available():
        raise RuntimeError("prepare(): importing the packages attached a core")
    _check_clean(root)
    results.begin()  # an empty run, as between runs: nothing recorded at import is kept
    # sys.path as the interpreter started it: every boot puts the entries back (Pyodide's
    # loadPyodide inserts "", the runtime its package root), a snapshot boot included.
    sys.path.remove(root)
    if sys.path and sys.path[0] == "":
        del sys.path[0]
    return names


def restored():
    """Right after a boot from the snapshot, before the first run: the package's files were
    written anew (the file system is not part of the snapshot), and the entropy the build's
    interpreter drew at import is replaced by fresh entropy."""
    importlib.invalidate_caches()
    random = sys.modules.get("random")
    if random is not None:
        random.seed()  # os.urandom, as at a plain boot's import of random


def _import(name):
    try:
        importlib.import_module(name)
    except Exception as e:
        raise ImportError(f"snapshot: cannot import {name} without a core: "
                          f"{type(e).__name__}: {e}") from e


def _raise(name):
    raise ImportError(f"snapshot: cannot import {name} (walking its package)")


def _check_clean(root):
    """No user module is in the snapshot. (A run's traces live in the core's run session, and
    there is no core; its results are reset by prepare().)"""
    homes = (root.rstrip("/") + "/", "/lib/")  # the packages; Python's and Pyodide's own
    outside = sorted(name for name, module in list(sys.modules.items())
                     if (getattr(module, "__file__", None) or "/lib/").startswith(homes) is False)
    if outside:
        raise RuntimeError(f"prepare(): modules from outside the packages were imported: {outside}")
