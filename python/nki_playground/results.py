"""What one run produced besides its text output: diagnostics (the error that ended the script,
the warnings it printed) and simulations (each simulated kernel call's inputs, outputs,
device_print records, simulator warnings and the script's comparisons against a reference).

The runner clears this at the start of a run and hands it over with ``take()`` at the end: one
JSON string plus one bytes blob holding every tensor's raw row-major bytes. Python in Pyodide is
slow per element, so nothing here looks at elements: the JS side converts the blob to float32
and computes the statistics (runtime/results.mjs).
"""
import json
import re
import sys

from . import loc as _loc

#: Tensors with more elements than this carry no data (and no statistics).
MAX_ELEMENTS = 4 * 1024 * 1024
_limit = [MAX_ELEMENTS]

diagnostics = []
simulations = []
_blob = []          # raw bytes chunks, concatenated by take()
_blob_size = [0]
_outputs = []       # (array, tensor record) of every simulation output of this run


def clear():
    diagnostics.clear()
    simulations.clear()
    _blob.clear()
    _blob_size[0] = 0
    _outputs.clear()


def take():
    """(JSON text of {diagnostics, simulations}, bytes of every tensor's data) and clears."""
    text = json.dumps({"diagnostics": diagnostics, "simulations": simulations},
                      separators=(",", ":"), allow_nan=False, default=_jsonable)
    blob = b"".join(_blob)
    clear()
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
    loc = tuple(loc or ()) + (None,) * 5
    file, line, col, end_line, end_col = loc[:5]
    diagnostics.append({"severity": severity, "file": file, "line": line, "col": col,
                        "end_line": end_line, "end_col": end_col, "class": cls,
                        "message": message, "code": code, "rendered": rendered})


def error(exc, rendered):
    """The diagnostic of the exception that ended the script (``rendered`` is what was
    printed for it)."""
    from . import errors as _errors
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
    return n <= _limit[0]


def tensor(name, shape, dtype, raw):
    """A tensor summary record: name, shape, dtype and where its bytes are in the blob (the JS
    side turns it into {name, shape, dtype, min, max, mean, data})."""
    n = 1
    for s in shape:
        n *= int(s)
    rec = {"name": name, "shape": [int(s) for s in shape], "dtype": dtype, "size": n,
           "offset": None, "nbytes": 0}
    if raw is not None and n <= _limit[0]:
        data = bytes(raw)
        rec["offset"], rec["nbytes"] = _blob_size[0], len(data)
        _blob.append(data)
        _blob_size[0] += len(data)
    return rec


def array_tensor(name, arr):
    """The tensor record of a host array (real NumPy or the fallback's)."""
    from neuronxcc.nki import _dtypes, _simulate
    dtype = _dtypes.name_of(arr.dtype)
    raw = _simulate.to_bytes(arr, dtype) if keeps(arr.shape) else None
    return tensor(name, tuple(arr.shape), dtype, raw)


class unlimited_data:
    """Within: tensors keep their data at any size (runtime.simulate() returns outputs whole)."""

    def __enter__(self):
        _limit[0] = 1 << 62

    def __exit__(self, *exc):
        _limit[0] = MAX_ELEMENTS


# --- simulations ---------------------------------------------------------------------------

def simulation(kernel):
    """A new simulation record (filled by ``_simulate.run``)."""
    rec = {"kernel": kernel, "inputs": [], "outputs": [], "prints": [], "warnings": [],
           "comparisons": []}
    simulations.append(rec)
    return rec


def output_array(arr, rec):
    """Remembers that ``arr`` holds a simulation's output (comparisons look for it)."""
    _outputs.append((arr, rec))


def _output_record(x):
    """The output tensor record ``x`` is (or is a view of), else None."""
    store = getattr(x, "_store", None)
    for arr, rec in reversed(_outputs):
        if x is arr or (store is not None and store is getattr(arr, "_store", None)):
            return rec
    return None


def _simulation_of(out_rec):
    for sim in simulations:
        if any(o is out_rec for o in sim["outputs"]):
            return sim
    return simulations[-1] if simulations else None


def comparison(a, b, ok):
    """Records ``np.allclose(a, b)``-style call whose answer was ``ok`` when either side is a
    simulation output of this run. The output side is "actual" (the first when both are)."""
    if not _outputs:
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
