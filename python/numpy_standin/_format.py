"""Text forms of scalars, following NumPy (shortest round-trip digits for the value's own
precision); arrays print through ``_arrayprint``.
"""
import decimal
import math

from ._dtypes import round_float


def shortest_digits(dt, x):
    """(digits, exp10) of the shortest decimal that rounds back to ``x`` in dtype ``dt``:
    ``x == ±d.ddd × 10**exp10`` with ``digits == 'dddd'`` (no trailing zeros)."""
    if x == 0:
        return "0", 0
    ax = abs(x)
    if dt.itemsize == 8:  # Python's repr is the shortest round trip for doubles
        sign, digs, e = decimal.Decimal(repr(ax)).as_tuple()
        digits = "".join(map(str, digs)).rstrip("0") or "0"
        return digits, len(digs) - 1 + e
    lo, hi = 1, 9 if dt.itemsize == 4 else 17  # float32 needs at most 9 digits
    while lo < hi:  # the fewest digits that round-trip (more digits never stop doing so)
        p = (lo + hi) // 2
        if round_float(dt, float(f"{ax:.{p - 1}e}")) == ax:
            hi = p
        else:
            lo = p + 1
    mant, exp = f"{ax:.{lo - 1}e}".split("e")
    digits = mant.replace(".", "").rstrip("0") or "0"
    return digits, int(exp)


def _positional(digits, exp):
    if exp >= 0:
        whole = digits[:exp + 1].ljust(exp + 1, "0")
        frac = digits[exp + 1:]
    else:
        whole, frac = "0", "0" * (-exp - 1) + digits
    return whole, frac


def _scientific(digits, exp):
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return mant, f"e{exp:+03d}"


def _special(x):
    if x != x:
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return None


def float_str(dt, x):
    """``str(np.float32(x))``: positional for 1e-4 <= |x| < 1e16, scientific otherwise."""
    special = _special(x)
    if special:
        return special
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    digits, exp = shortest_digits(dt, x)
    if x == 0 or 1e-4 <= abs(x) < 1e16:
        whole, frac = _positional(digits, exp)
        return f"{sign}{whole}.{frac or '0'}"
    mant, e = _scientific(digits, exp)
    return f"{sign}{mant}{e}"


def ml_str(x):
    """An ml_dtypes scalar's text: ``std::ostream << float`` (printf's ``%g``), NaN unsigned."""
    if x != x:
        return "nan"
    return "%g" % x


def scalar_str(dt, raw):
    if dt._fmt is not None:
        return ml_str(raw)
    if dt._kind == "f":
        return float_str(dt, raw)
    return str(raw)

