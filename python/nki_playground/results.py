"""What one run produced besides its text output: diagnostics (the error that ended the script,
the warnings it printed) and simulations (each simulated kernel call's inputs, outputs,
device_print records, simulator warnings and the script's comparisons against a reference).

A run's state is one ``Run`` object: the runner makes it at the start of every run (``begin()``)
and closes it at the end (``take()``: one JSON string plus one bytes blob holding every tensor's
raw row-major bytes); the functions below record into the current one. Python in Pyodide is
slow per element, so nothing here looks at elements: the JS side converts the blob to float32
and computes the statistics (runtime/results.mjs).
"""
import json
import re
import sys

from . import arrays, errors as _errors, loc as _loc

#: Tensors with more elements than this carry no data (and no statistics).
MAX_ELEMENTS = 4 * 1024 * 1024


#: Warning diagnostics kept per run: a script that warns in a loop would otherwise hand the page
#: a million of them; past this they are counted, and one summary says how many.
MAX_WARNINGS = 100


class Run:
    """What one run of a script produced besides its text output."""

    __slots__ = ("diagnostics", "simulations", "blob", "blob_size", "outputs", "limit",
                 "warnings_kept", "warnings_dropped")

    def __init__(self):
        self.diagnostics = []
        self.simulations = []
        self.blob = []        # raw bytes chunks, concatenated by close()
        self.blob_size = 0
        self.outputs = []     # (array, tensor record) of every simulation output of this run
        self.limit = MAX_ELEMENTS
        self.warnings_kept = 0
        self.warnings_dropped = 0

    def close(self):
        """(JSON text of {diagnostics, simulations}, bytes of every tensor's data)."""
        if self.warnings_dropped:
            n = self.warnings_dropped
            message = f"{n} more warnings were not listed (the first {MAX_WARNINGS} are)"
            self.diagnostics.append({"severity": "warning", "file": None, "line": None,
                                     "col": None, "end_line": None, "end_col": None,
                                     "class": None, "message": message, "code": None,
                                     "rendered": message + "\n"})
        text = json.dumps({"diagnostics": self.diagnostics, "simulations": self.simulations},
                          separators=(",", ":"), allow_nan=False, default=_jsonable)
        return text, b"".join(self.blob)


#: The current run (between runs an empty one, so a record made outside a run is harmless).
_run = Run()


def begin():
    """Starts a new run (the runner, at the start of every run) and returns it."""
    global _run
    _run = Run()
    return _run


def take():
    """Closes the current run: (JSON text of {diagnostics, simulations}, bytes of every
    tensor's data); a new, empty run is current from then on."""
    text, blob = _run.close()
    begin()
    return text, blob


def _jsonable(value):
    return None


# --- positions -----------------------------------------------------------------------------

_LOC_RE = re.compile(r"^(.*):(\d+):(\d+)$")


def split_loc(text):
    """"file:line:col" → (file, line, col); anything else → (None, None, None)."""
    m = _LOC_RE.match(text or "")
    if not m:
        return None, None, None
    return m.group(1), int(m.group(2)), int(m.group(3))


def user_position():
    """(file, line, col) of the user's code running now (the innermost frame outside this
    package), or (None, None, None)."""
    f = _loc.user_frame(2)
    if f is None:
        return None, None, None
    file, line, col, _, _ = _loc.frame_position(f)
    return file, line, col


# --- diagnostics ---------------------------------------------------------------------------

def diagnostic(severity, cls, message, rendered, loc=None, code=None):
    """Records one diagnostic; ``loc`` is (file, line, col, end_line, end_col) or shorter."""
    if severity == "warning":
        if _run.warnings_kept >= MAX_WARNINGS:
            _run.warnings_dropped += 1
            return
        _run.warnings_kept += 1
    loc = tuple(loc or ()) + (None,) * 5
    file, line, col, end_line, end_col = loc[:5]
    _run.diagnostics.append({"severity": severity, "file": file, "line": line, "col": col,
                        "end_line": end_line, "end_col": end_col, "class": cls,
                        "message": message, "code": code, "rendered": rendered})


def error(exc, rendered):
    """The diagnostic of the exception that ended the script (``rendered`` is what was
    printed for it)."""
    try:
        loc = _errors.error_location(exc)
    except Exception:  # noqa: BLE001 - a location is a nicety; the error is still reported
        loc = None
    if loc and not loc[4]:  # SyntaxError's end_offset is 0 when unknown
        loc = tuple(loc[:3]) + (None, None)
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    diagnostic("error", type(exc).__name__, message, rendered, loc,
               getattr(exc, "nki_code", None))


#: (file, line, col) of the op whose core warning is being issued (KernelBuilder sets it, so the
#: warning's diagnostic gets the column ``warnings`` cannot carry).
pending_warning_loc = [None]


def warn_at(message, category, loc, module=None):
    """Issues the warning ``message`` (a ``category`` instance) at ``loc`` ([file, line, col]),
    as if ``module`` raised it: shown as ``warnings`` shows it, and recorded with its column."""
    import warnings
    if not loc:
        warnings.warn(message, category)
        return
    pending_warning_loc[0] = tuple(loc[:3])
    # (module=None is not the default: CPython's warn_explicit then matches no filter)
    extra = {"module": module} if module is not None else {}
    try:
        warnings.warn_explicit(message, category, loc[0], loc[1], **extra)
    finally:
        pending_warning_loc[0] = None


def _show_warning(original):
    def show(message, category, filename, lineno, file=None, line=None):
        import warnings
        rendered = warnings.formatwarning(message, category, filename, lineno, line)
        col = None
        pending = pending_warning_loc[0]
        if pending and pending[0] == filename and pending[1] == lineno:
            col = pending[2]
        diagnostic("warning", category.__name__, str(message), rendered,
                   (filename, lineno, col, None, None), getattr(message, "nki_code", None))
        return original(message, category, filename, lineno, file, line)
    show._nki_results = True
    return show


def install_warning_hook():
    """Records every warning Python shows during the run (still shown exactly as before);
    returns a function that restores the previous hook."""
    import warnings
    saved = warnings.showwarning
    if not getattr(saved, "_nki_results", False):
        warnings.showwarning = _show_warning(saved)

    def restore():
        warnings.showwarning = saved
    return restore


def notice(message, rendered=None):
    """A message the package printed to stderr (e.g. "no Neuron device here"), as a warning
    diagnostic at the user's current line."""
    file, line, col = user_position()
    diagnostic("warning", "UserWarning", message, rendered if rendered is not None
               else message + "\n", (file, line, col))


# --- tensors -------------------------------------------------------------------------------

def keeps(shape):
    """Whether a tensor of ``shape`` is small enough to carry its data."""
    n = 1
    for s in shape:
        n *= int(s)
    return n <= _run.limit


def tensor(name, shape, dtype, raw):
    """A tensor summary record: name, shape, dtype and where its bytes are in the blob (the JS
    side turns it into {name, shape, dtype, min, max, mean, data})."""
    n = 1
    for s in shape:
        n *= int(s)
    rec = {"name": name, "shape": [int(s) for s in shape], "dtype": dtype, "size": n,
           "offset": None, "nbytes": 0}
    run = _run
    if raw is not None and n <= run.limit:
        data = bytes(raw)
        rec["offset"], rec["nbytes"] = run.blob_size, len(data)
        run.blob.append(data)
        run.blob_size += len(data)
    return rec


def array_tensor(name, arr):
    """The tensor record of a host array (real NumPy or the fallback's)."""
    dtype = arrays.dtype_name(arr.dtype)
    raw = arrays.to_bytes(arr, dtype) if keeps(arr.shape) else None
    return tensor(name, tuple(arr.shape), dtype, raw)


class unlimited_data:
    """Within: tensors keep their data at any size (runtime.simulate() returns outputs whole)."""

    def __enter__(self):
        _run.limit = 1 << 62

    def __exit__(self, *exc):
        _run.limit = MAX_ELEMENTS


# --- simulations ---------------------------------------------------------------------------

def simulation(kernel):
    """A new simulation record (filled by ``_simulate.run``)."""
    rec = {"kernel": kernel, "inputs": [], "outputs": [], "prints": [], "warnings": [],
           "comparisons": []}
    _run.simulations.append(rec)
    return rec


def output_array(arr, rec):
    """Remembers that ``arr`` holds a simulation's output (comparisons look for it)."""
    _run.outputs.append((arr, rec))


def _output_record(x):
    """The output tensor record ``x`` is (or is a view of), else None."""
    store = getattr(x, "_store", None)
    for arr, rec in reversed(_run.outputs):
        if x is arr or (store is not None and store is getattr(arr, "_store", None)):
            return rec
    return None


def _simulation_of(out_rec):
    sims = _run.simulations
    for sim in sims:
        if any(o is out_rec for o in sim["outputs"]):
            return sim
    return sims[-1] if sims else None


def comparison(a, b, ok):
    """Records ``np.allclose(a, b)``-style call whose answer was ``ok`` when either side is a
    simulation output of this run. The output side is "actual" (the first when both are)."""
    if not _run.outputs:
        return
    ra, rb = _output_record(a), _output_record(b)
    if ra is None and rb is None:
        return
    if ra is None:
        a, b, ra = b, a, rb
    try:
        np = sys.modules["numpy"]
        # copied now, not taken from the output record: the script may have changed the array
        actual = array_tensor("actual", np.asarray(a))
        expected = array_tensor("expected", np.asarray(b))
    except Exception:  # noqa: BLE001 - an operand we cannot summarise: no record, no failure
        return
    file, line, col = user_position()
    label = "compare"
    if file and line:
        import linecache
        text = linecache.getline(file, line).strip()
        if text:
            label = text if len(text) <= 120 else text[:117] + "..."
    sim = _simulation_of(ra)
    if sim is None:
        return
    sim["comparisons"].append({"label": label, "ok": bool(ok), "expected": expected,
                               "actual": actual, "file": file, "line": line, "col": col})
