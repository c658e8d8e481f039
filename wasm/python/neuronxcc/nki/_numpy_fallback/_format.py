"""Text forms of scalars and arrays, following NumPy's defaults (shortest round-trip digits for
the value's own precision; arrays at precision 8, fractions aligned). No line wrapping or
summarisation: the fallback's arrays are small.
"""
import math


def _shortest(dt, x):
    """(digits, exp10) of the shortest decimal that rounds back to ``x`` in dtype ``dt``:
    ``x == ±d.ddd × 10**exp10`` with ``digits == 'dddd'`` (no trailing zeros)."""
    from ._dtypes import round_float
    if x == 0:
        return "0", 0
    ax = abs(x)
    for p in range(1, 18):
        s = f"{ax:.{p - 1}e}"
        if round_float(dt, float(s)) == ax:
            break
    mant, exp = s.split("e")
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
    digits, exp = _shortest(dt, x)
    if x == 0 or 1e-4 <= abs(x) < 1e16:
        whole, frac = _positional(digits, exp)
        return f"{sign}{whole}.{frac or '0'}"
    mant, e = _scientific(digits, exp)
    return f"{sign}{mant}{e}"


def scalar_str(dt, raw):
    if dt.kind == "f":
        return float_str(dt, raw)
    return str(raw)


# ---- arrays --------------------------------------------------------------------------------

_PRECISION = 8


def _float_cells(dt, values):
    finite = [abs(v) for v in values if v == v and not math.isinf(v) and v != 0]
    sci = bool(finite) and (max(finite) >= 1e8 or min(finite) < 1e-4
                            or max(finite) / min(finite) > 1e3)
    parts = []
    for v in values:
        special = _special(v)
        if special:
            parts.append((special, None))
            continue
        sign = "-" if math.copysign(1.0, v) < 0 else ""
        digits, exp = _shortest(dt, v)
        if sci:
            if len(digits) > _PRECISION + 1:
                digits, exp = _shortest_rounded_sci(v)
            mant, e = _scientific(digits, exp)
            whole, _, frac = mant.partition(".")
            parts.append((sign + whole, (frac, e)))
        else:
            whole, frac = _positional(digits, exp)
            if len(frac) > _PRECISION:
                whole, frac = f"{abs(v):.{_PRECISION}f}".split(".")
                frac = frac.rstrip("0")
            parts.append((sign + whole, (frac, "")))
    finite = [(w, f) for w, f in parts if f is not None]
    wl = max((len(w) for w, _ in finite), default=0)
    fl = max((len(f[0]) for _, f in finite), default=0)
    el = max((len(f[1]) for _, f in finite), default=0)
    width = max([wl + 1 + fl + el] + [len(w) for w, f in parts if f is None])
    cells = []
    for whole, rest in parts:
        if rest is None:
            cells.append(whole.rjust(width))
        else:
            frac, e = rest
            cells.append((whole.rjust(wl) + "." + frac.ljust(fl) + e).rjust(width))
    return cells


def _shortest_rounded_sci(v):
    mant, exp = f"{abs(v):.{_PRECISION}e}".split("e")
    return mant.replace(".", "").rstrip("0") or "0", int(exp)


def _cells(dt, values):
    if dt.kind == "f":
        return _float_cells(dt, values)
    texts = [str(v) for v in values]
    width = max((len(t) for t in texts), default=0)
    return [t.rjust(width) for t in texts]


def _nest(cells, shape, sep, indent):
    if not shape:
        return cells[0]
    if len(shape) == 1:
        return "[" + sep.join(cells) + "]"
    step = len(cells) // shape[0] if shape[0] else 0
    rows = [_nest(cells[i * step:(i + 1) * step], shape[1:], sep, indent + " ")
            for i in range(shape[0])]
    joiner = sep.rstrip() + "\n" * (len(shape) - 1) + indent + " "
    return "[" + joiner.join(rows) + "]"


_IMPLIED = ("float64", "int64", "bool")


def array_repr(arr):
    values = arr._values()
    dt = arr.dtype
    suffix = "" if dt.name in _IMPLIED and arr.size else f", dtype={dt.name}"
    if arr.size == 0:
        return f"array([], shape={arr.shape}, dtype={dt.name})" if arr.ndim > 1 else \
            f"array([]{suffix})"
    body = _nest(_cells(dt, values), arr.shape, ", ", "      ")
    return f"array({body}{suffix})"


def array_str(arr):
    if arr.size == 0:
        return "[]"
    return _nest(_cells(arr.dtype, arr._values()), arr.shape, " ", "")
