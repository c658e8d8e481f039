"""The launch layer below every NKI language: opening, finishing and abandoning a trace, running
a finished trace on the simulator, and what a kernel object of any language shares.

A language — or one version of a language — is data handed to this module (``Language``): its
name, label and version, the tag the core gets, its defaults (``NKI_PRECISE_FP``, the target)
and its rules for a simulation's inputs and outputs. The front ends (``neuronxcc.nki``, ``nki``)
keep what their API accepts and their messages; how a trace is driven and how a simulation's
data crosses the door, and how its warnings and prints reach the user, is written once, here.

Bulk data crosses into wasm memory through typed-array views, one call per tensor; a view is
fetched right before it is used, since memory growth detaches earlier ones.
"""
import json
import os
import sys
import time

from . import arrays, door, dtype_values as _floats, results as _results
from .errors import coded
from .standins import ensure_numpy


class Language:
    """One NKI language or version, as the launch layer needs it.

    Args:
      name: the language's id (``languages.LANGUAGES``: "nki", "beta1").
      label: how the user knows it ("NKI 0.6.0").
      version: its version string ("0.6.0", "beta1").
      core_tag: the language tag the core is told (a trace's ``language``, a simulation's), or
        None for the core's default language (Beta 1).
      precise_fp: ``NKI_PRECISE_FP``'s default (bf16/fp8 rounded as stored).
      target: the default target when the kernel or the environment names none.
      running: what a call needs an array for, in the placeholder message ("simulating a
        kernel").
      write_back: how the caller's arrays receive what the kernel wrote: "outputs" (outputs
        that are parameters, the output-parameter kernels of Beta 1) or "written" (every
        argument whose bytes changed, updated in place: the current language).
      dtype_name: the language's name of an argument's dtype (``value.dtype``).
      placeholder: the type of its tensor placeholders (``nt.tensor[...]``).
      check_input: ``f(kernel_name, name, value)`` raising for an input the language refuses,
        or None.
    """

    def __init__(self, name, label, version, core_tag, *, precise_fp, target, running,
                 write_back, dtype_name, placeholder, check_input=None):
        self.name, self.label, self.version, self.core_tag = name, label, version, core_tag
        self.precise_fp_default, self.target = precise_fp, target
        self.running, self.write_back = running, write_back
        self.dtype_name, self.placeholder, self.check_input = dtype_name, placeholder, check_input

    def precise_fp(self):
        """``NKI_PRECISE_FP`` as this language reads it (unset: its default)."""
        value = os.environ.get("NKI_PRECISE_FP", "").strip().lower()
        if not value:
            return self.precise_fp_default
        return value in ("1", "true", "on")

    def __repr__(self):
        return f"<language {self.label}>"


def sim_plan_on():
    """Whether the simulator may use its plan (fast paths): ``NKI_PLAYGROUND_SIM_PLAN=off``
    runs the plain interpreter."""
    return os.environ.get("NKI_PLAYGROUND_SIM_PLAN", "").strip().lower() != "off"


# --- tracing -----------------------------------------------------------------------------------

class Trace:
    """A finished trace of any language: the core's handle (the kernel is printed once there),
    ``str()`` its IR text, ``to_json()`` the versioned JSON form. The front end sets what a
    simulation of it needs: ``inputs`` ([(name, argument)] in parameter order), ``shapes``
    (the host shape of each output, or None) and ``structure`` (how the kernel returned)."""

    def __init__(self, handle):
        self._h = handle
        self.kernel_name = handle.name()
        self._text = self._json = self._records_json = None
        self.simulated = False
        self.inputs, self.shapes, self.structure = [], None, None

    @property
    def handle(self):
        return self._h

    def _handle(self):
        if self._h is None:
            raise ValueError("this trace was closed")
        return self._h

    def text(self):
        if self._text is None:
            self._text = self._handle().text()
        return self._text

    def __str__(self):
        return self.text()

    def __repr__(self):
        return f"<nki trace of {self.kernel_name}>"

    def to_json(self):
        """The IR as a JSON string (docs/ir-format.md)."""
        if self._json is None:
            self._json = self._handle().to_json()
        return self._json

    def records(self):
        """The printer's line records: [{text, depth, op_id, region_id, loc}]."""
        return json.loads(self.records_json())

    def records_json(self):
        if self._records_json is None:
            self._records_json = self._handle().records_json()
        return self._records_json

    @property
    def instruction_count(self):
        return self._handle().instruction_count()

    def close(self):
        """Frees the core's copy of the IR now (otherwise when the trace is collected)."""
        if self._h is not None:
            self._h.delete()
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter teardown
            pass


def open_trace(language, request):
    """Opens a trace in the core: ``request`` is {"kernel", "grid", "loc", "params"?, ...};
    the language adds its tag. Returns the core's reply (parsed)."""
    request = dict(request)
    if language.core_tag and "language" not in request:
        request["language"] = language.core_tag
    return json.loads(door.new_ctx(json.dumps(request)))


def finish_trace(end):
    """Finishes the active trace (``end``: {"values", "region", "loc", "simulated", ...} or
    None); returns the core's trace handle."""
    return door.finalize_kernel(json.dumps(end) if end else "")


def abandon_trace():
    door.abandon_trace()


class _NoCell:
    """A language's own record of the active trace (Beta 1's TraceContext.global_ctx, the
    current language's active Trace): ``enter(opened)`` once the trace is open, ``end(end)``
    before finishing (may add to the request), ``leave()`` on every exit."""

    def enter(self, opened):
        return None

    def end(self, end):
        return end

    def leave(self):
        return None


def trace(language, request, body, cell=_NoCell(), simulated=False):
    """Traces one kernel: opens the trace (``open_trace``), runs ``body(opened)`` — the front
    end's part, which declares and runs the kernel and returns the finish request — and
    finishes. Every exit path leaves no trace open (a failed trace never poisons the next).
    Returns a ``Trace``."""
    opened = open_trace(language, request)
    finished = False
    try:
        cell.enter(opened)
        end = body(opened)
        end = dict(cell.end(end) or {}, simulated=simulated)
        cell.leave()
        handle = finish_trace(end)
        finished = True
    finally:
        if not finished:
            cell.leave()
            abandon_trace()
    t = Trace(handle)
    t.simulated = simulated
    return t


# --- kernels -----------------------------------------------------------------------------------

class KernelObject:
    """What a kernel object of every language shares: the function it wraps, its name and doc
    (``functools.wraps``-like), and how its repr reads."""

    def _wrap(self, fn):
        self.func = fn
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn


_said = set()


def say_once(key, message):
    """Prints ``message`` to stderr (and the run's notices) the first time ``key`` is seen in
    this interpreter: e.g. that a kernel runs on the simulator, there being no device here."""
    if key in _said:
        return
    _said.add(key)
    print(message, file=sys.stderr)
    _results.notice(message)


# --- simulating --------------------------------------------------------------------------------

class Run:
    """What a simulation returned: its outputs, the core's log, the wall-clock time."""

    def __init__(self, outputs, log, seconds):
        self.outputs, self.log, self.seconds = outputs, log, seconds


def _call(fn, *args):
    try:
        return fn(*args)
    except door.JsException as e:
        raise door.translate(e) from None


def sim_options(language, target):
    """The simulation's options for the core (wasm/bind/bind_sim.cpp)."""
    opts = {"target": target, "precise_fp": language.precise_fp()}
    if language.core_tag:
        opts["language"] = language.core_tag
    if not sim_plan_on():
        opts["plan"] = False
    return opts


def simulate(language, trace, target=None, zero_placeholders=False):
    """Runs ``trace`` (a ``Trace`` with its ``inputs``) on the simulator; returns a ``Run``.
    Placeholders (``nt.tensor[...]``, anything with ``is_placeholder``) are zeros when
    ``zero_placeholders`` (benchmarking), an error otherwise. Outputs are recorded for the
    run's results, warnings and device_print records reported, and the caller's arrays
    receive what the kernel wrote (the language's ``write_back``)."""
    opts = sim_options(language, target or language.target)
    sim = _call(door.new_simulation, trace._handle(), json.dumps(opts))
    given, inputs = [], []
    try:
        for i, (name, value) in enumerate(trace.inputs):
            given.append(_assign(language, trace, sim, i, name, value, zero_placeholders, inputs))
        t0 = time.perf_counter()
        log = json.loads(_call(sim.run))
        seconds = time.perf_counter() - t0
        rec = _results.simulation(trace.kernel_name)  # a simulation that ran
        rec["inputs"].extend(inputs)
        outputs, params = _outputs(sim, trace, rec)
        written = _written(sim, trace, given) if language.write_back == "written" else []
    finally:
        sim.delete()
    if language.write_back == "outputs":
        for j, i in enumerate(params):
            target_array = trace.inputs[i][1] if i is not None else None
            if hasattr(target_array, "__setitem__") and hasattr(target_array, "shape"):
                target_array[...] = outputs[j]
                _results.output_array(target_array, rec["outputs"][j])
    for i, after in written:
        value = trace.inputs[i][1]
        value[...] = arrays.from_bytes(after, language.dtype_name(value.dtype), tuple(value.shape))
    # Instructions the simulator executed (a loop's body once per iteration): compare's figure.
    rec["executed"] = log.get("instructions")
    report(log, rec)
    return Run(outputs, log, seconds)


def _assign(language, trace, sim, i, name, value, zero_placeholders, inputs):
    """Input ``i``'s bytes into the simulation (its record appended to ``inputs``); returns
    them when the language writes back what changed (else None)."""
    view = _call(sim.input_view, i)
    if isinstance(value, language.placeholder):
        if not zero_placeholders:
            raise coded(TypeError(f"{trace.kernel_name}(): parameter '{name}' is a placeholder "
                                  f"{value!r}; {language.running} needs an array"),
                        "simulate-input-mismatch")
        view.fill(0)
        # zeros, made only when small enough to be recorded (benchmark placeholders can be
        # hundreds of MB)
        zeros = bytes(view.length) if _results.keeps(value.shape) else None
        inputs.append(_results.tensor(name, tuple(value.shape),
                                      language.dtype_name(value.dtype), zeros))
        return None
    if language.check_input is not None:
        language.check_input(trace.kernel_name, name, value)
    dtype = language.dtype_name(value.dtype)
    data = arrays.to_bytes(value, dtype)
    if len(data) != view.length:
        raise coded(ValueError(f"{trace.kernel_name}(): parameter '{name}' has {len(data)} "
                               f"bytes, the kernel expects {view.length}"),
                    "simulate-input-mismatch")
    view.assign(data)
    inputs.append(_results.tensor(name, tuple(value.shape), dtype, data))
    return bytes(data) if language.write_back == "written" else None


def _outputs(sim, trace, rec):
    """(output arrays, the parameter index of each output or None), recorded in ``rec``."""
    outputs, params = [], []
    for j in range(_call(sim.num_outputs)):
        info = json.loads(_call(sim.output_info, j))
        raw = _call(sim.output_view, j).to_py()
        arr = arrays.from_bytes(raw, info["dtype"], tuple(info["shape"]))
        if trace.shapes is not None and tuple(arr.shape) != trace.shapes[j]:
            arr = arr.reshape(trace.shapes[j])  # the kernel returned a reshaped view
        t = _results.tensor(info["name"], tuple(info["shape"]), info["dtype"], raw)
        rec["outputs"].append(t)
        _results.output_array(arr, t)
        outputs.append(arr)
        params.append(info.get("param"))
    return outputs, params


def _written(sim, trace, given):
    """[(input index, its new bytes)] of the arguments the kernel wrote."""
    written = []
    for i, before in enumerate(given):
        if before is None:
            continue
        after = bytes(_call(sim.input_view, i).to_py())
        if after != before:
            written.append((i, after))
    return written


def report(log, rec):
    """Warnings (``{code, message, file, line, col, text}`` from the core, as data) to stderr as
    their text; ``nl.device_print`` records to stdout as ``prefix value``. Both are also added
    to the run's simulation record ``rec`` with their source positions (a warning with its
    code, for the errors page), and what the core did not keep is counted."""
    for w in log.get("warnings", ()):
        print(w["text"], file=sys.stderr)
        rec["warnings"].append({"message": w["message"], "file": w.get("file"),
                                "line": w.get("line"), "col": w.get("col"),
                                "code": w.get("code") or None})
    if log.get("warnings_dropped"):
        # The core keeps the first warnings of a run only (a loop may warn a million times).
        n = log["warnings_dropped"]
        print(f"nki-playground: {n} more simulator warnings were not shown", file=sys.stderr)
        rec["warnings_dropped"] = n
    _report_prints(log, rec)


def _report_prints(log, rec):
    dropped = log.get("prints_dropped")
    if dropped:
        rec["prints_dropped"] = dropped
    if not log.get("prints"):
        if dropped:
            print(f"nki-playground: {dropped} device_print outputs were not kept")
        return
    np = ensure_numpy()
    for p in log["prints"]:
        text = f'{p["prefix"]} {print_value(np, p)}'
        print(text)
        file, line, col = _results.split_loc(p.get("loc"))
        rec["prints"].append({"text": text, "file": file, "line": line, "col": col})
    if dropped:
        print(f"nki-playground: {dropped} more device_print outputs were not kept (the first "
              f"{len(log['prints'])} are above)")


def print_value(np, p):
    """A device_print record's values as an array of its dtype: floats (bf16 and the fp8
    formats too) as floats, integers as integers; NKI-only dtypes, and integers masked off
    (NaN), as float32."""
    values = p["values"]
    dt = arrays.numpy_dtype(np, p["dtype"])
    is_float = dt is not None and (dt.kind == "f" or dt.name in _floats.FORMATS)
    if dt is None or (not is_float and any(v != v for v in values)):
        dt = arrays.numpy_dtype(np, "float32")
    elif not is_float:
        values = [int(v) for v in values]
    return np.array(values, dtype=dt).reshape(tuple(p["shape"]))


def returned(outputs, structure="auto"):
    """What the kernel call returns: None, one array, or a tuple. ``structure`` is how the
    kernel returned ("one", a count, None); "auto": one array for one output."""
    if structure == "auto":
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
    if structure is None:
        return None
    return outputs[0] if structure == "one" else tuple(outputs)
