"""Errors the fallback raises because of what the user's code asked for.

nki-playground's reporter (``nki_playground.errors``) takes an AttributeError, OverflowError or
ZeroDivisionError whose innermost frame is inside the package for a bug of its own and prints
an internal-error traceback. These are the user's errors, as they would be from NumPy, so they
carry ``nki_kind`` (the reporter's mark of a user-facing diagnostic) and are reported at the
user's line.
"""


def user_error(exc):
    """``exc``, marked as the user's error; returns it for ``raise user_error(...)``."""
    exc.nki_kind = type(exc).__name__
    return exc


def out_of_bounds(value, dt):
    """NumPy ≥ 2's error for a Python int that does not fit integer dtype ``dt``."""
    return user_error(OverflowError(f"Python integer {value} out of bounds for {dt.name}"))


class AxisError(ValueError, IndexError):
    """``numpy.exceptions.AxisError``: an axis out of range for the array."""


def check_axis(axis, ndim):
    """``axis`` (an int, possibly negative) as an axis of an array of ``ndim`` dimensions."""
    a = int(axis)
    if not -ndim <= a < ndim:
        raise AxisError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a + ndim if a < 0 else a
