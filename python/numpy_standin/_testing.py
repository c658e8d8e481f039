"""``numpy.testing``'s two checks kernel harnesses use (``assert_allclose``,
``assert_array_equal``), and the comparison hook: every comparison a script makes through the
fallback (these two, ``allclose``, ``array_equal``, ``isclose``) is reported to ``on_compare``
so the runner can show expected vs actual for simulated outputs (the hook is ``_functions``',
below both; the runner reaches it here)."""
from . import _functions
from ._creation import asarray
from ._errors import user_error
from ._functions import on_compare, report  # noqa: F401 - the runner sets on_compare[0]
from ._ufuncs import UFUNCS


def _fmt(x):
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _failure(header, actual, desired, rtol=None, atol=None):
    x, y = asarray(actual), asarray(desired)
    lines = ["", header]
    if x.shape != y.shape:
        lines += ["", f"(shapes {x.shape}, {y.shape} mismatch)"]
        return "\n".join(lines)
    close = _functions._isclose(x, y, rtol if rtol is not None else 0.0,
                                atol if atol is not None else 0.0, True)
    bad = x.size - int(asarray(close).sum())
    lines += ["", f"Mismatched elements: {bad} / {x.size} ({100.0 * bad / max(x.size, 1):.3g}%)"]
    if x.dtype._kind in "biuf" and y.dtype._kind in "biuf" and x.size:
        diff = UFUNCS["absolute"](UFUNCS["subtract"](x.astype("float64"), y.astype("float64")))
        lines.append(f"Max absolute difference: {_fmt(float(diff.max()))}")
    return "\n".join(lines)


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="",
                    verbose=True, *, strict=False):
    """Raises AssertionError unless ``|actual - desired| <= atol + rtol * |desired|``
    element-wise (shapes must broadcast; with ``strict`` they must match)."""
    x, y = asarray(actual), asarray(desired)
    if strict and (x.shape != y.shape or x.dtype != y.dtype):
        report(actual, desired, False)
        raise user_error(AssertionError(
            f"\nNot equal to tolerance rtol={_fmt(rtol)}, atol={_fmt(atol)}\n{err_msg}\n"
            f"(shapes {x.shape}, {y.shape} or dtypes {x.dtype}, {y.dtype} mismatch)"))
    ok = _functions.allclose(x, y, rtol, atol, equal_nan, _report=False)
    report(actual, desired, ok)
    if not ok:
        header = f"Not equal to tolerance rtol={_fmt(rtol)}, atol={_fmt(atol)}"
        if err_msg:
            header += "\n" + err_msg
        raise user_error(AssertionError(_failure(header, x, y, rtol, atol)))


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """Raises AssertionError unless the arrays have equal shapes and elements (NaNs equal)."""
    x, y = asarray(actual), asarray(desired)
    ok = (x.shape == y.shape or not strict and (x.ndim == 0 or y.ndim == 0)) and \
        bool(asarray(_functions._isclose(x, y, 0.0, 0.0, True)).all())
    report(actual, desired, ok)
    if not ok:
        header = "Arrays are not equal"
        if err_msg:
            header += "\n" + err_msg
        raise user_error(AssertionError(_failure(header, x, y)))


NAMES = ("assert_allclose", "assert_array_equal")
