"""Text of arrays as NumPy 1.24+ prints them (``str``, ``repr``, ``array2string``), and the
print options (``set_printoptions``, ``get_printoptions``, ``printoptions``).

NumPy's rules: arrays of more than ``threshold`` elements are summarised (``edgeitems`` at each
end of every long axis, ``...`` between); the widths come from the elements shown only; lines
wrap at ``linewidth`` columns. Floats (floatmode 'maxprec', precision 8): scientific notation
when the largest magnitude is >= 1e8, or (unless ``suppress``) the smallest is < 1e-4 or the
ratio exceeds 1000; every element then has the same number of fraction digits (zero-padded) and
exponent digits (the exact value's digits past the shortest ones). Positional floats keep their shortest round-trip digits (at most
``precision``), the points aligned and the fractions padded with spaces.

Only the shown elements are read, so a summarised core-backed array costs a few small copies.
"""
import contextlib
import math

from ._creation import asarray
from ._format import ml_str, shortest_digits
from ._shapes import concatenate

_DEFAULTS = {"edgeitems": 3, "threshold": 1000, "floatmode": "maxprec", "precision": 8,
             "suppress": False, "linewidth": 75, "nanstr": "nan", "infstr": "inf",
             "sign": "-", "formatter": None, "legacy": False}
OPTIONS = dict(_DEFAULTS)
_FLOATMODES = ("fixed", "unique", "maxprec", "maxprec_equal")


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None):
    """Sets how arrays print (NumPy's options; ``formatter`` and ``legacy`` modes other than
    False are not supported)."""
    new = {k: v for k, v in (("precision", precision), ("threshold", threshold),
                             ("edgeitems", edgeitems), ("linewidth", linewidth),
                             ("suppress", suppress), ("nanstr", nanstr), ("infstr", infstr),
                             ("sign", sign), ("floatmode", floatmode)) if v is not None}
    if formatter is not None or legacy not in (None, False):
        raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                  "set_printoptions(formatter=..., legacy=...)")
    if "floatmode" in new and new["floatmode"] not in _FLOATMODES:
        raise ValueError("floatmode option must be one of " +
                         ", ".join(f'"{m}"' for m in _FLOATMODES))
    if "sign" in new and new["sign"] not in ("-", "+", " "):
        raise ValueError("sign option must be one of ' ', '+', or '-'")
    if "threshold" in new and (not isinstance(new["threshold"], (int, float)) or
                               math.isnan(new["threshold"])):
        raise ValueError("threshold must be non-NAN, try sys.maxsize for untruncated "
                         "representation")
    if "precision" in new:
        new["precision"] = int(new["precision"])
    OPTIONS.update(new)


def get_printoptions():
    """The current print options, as a dict."""
    return dict(OPTIONS)


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """``with np.printoptions(precision=3): ...`` — the options inside, restored after."""
    old = get_printoptions()
    try:
        set_printoptions(*args, **kwargs)
        yield get_printoptions()
    finally:
        OPTIONS.clear()
        OPTIONS.update(old)


# ---- float digits (NumPy's Dragon4 in 'unique' mode, cut at a precision) ----------------------

def _sci_parts(dt, x, precision, unique):
    """(int digit, fraction digits, exponent) of ``|x|`` in scientific notation: the shortest
    round-trip digits, or ``x`` correctly rounded to ``precision`` fraction digits when those
    are fewer (or when not ``unique``)."""
    if unique:
        digits, exp = shortest_digits(dt, x)
        if precision is None or len(digits) - 1 <= precision:
            return digits[0], digits[1:], exp
    mant, e = f"{abs(x):.{precision}e}".split("e")
    whole, _, frac = mant.partition(".")
    return whole, frac.rstrip("0") if unique else frac, int(e)


def _pos_parts(dt, x, precision, unique):
    """(integer digits, fraction digits) of ``|x|`` in positional notation (see _sci_parts)."""
    if unique:
        digits, exp = shortest_digits(dt, x)
        if exp >= 0:
            whole, frac = digits[:exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
        else:
            whole, frac = "0", "0" * (-exp - 1) + digits
        if x == 0:
            whole, frac = "0", ""
        if precision is None or len(frac) <= precision:
            return whole, frac
    whole, _, frac = f"{abs(x):.{precision}f}".partition(".")
    return whole, frac.rstrip("0") if unique else frac


def _sign(x, mode):
    """The sign Dragon4 writes: '-' for negatives, '+' for the others under sign='+'. (Under
    sign=' ' the space is padding: see FloatFormat.)"""
    if math.copysign(1.0, x) < 0:
        return "-"
    return "+" if mode == "+" else ""


class FloatFormat:
    """NumPy's ``FloatingFormat``: widths fixed from the shown values, then one cell each."""

    def __init__(self, dt, values, opts):
        self.dt = dt
        self._memo = {}
        self.opts = opts
        mode = opts["floatmode"]
        self.precision = None if mode == "unique" else opts["precision"]
        self.unique = mode != "fixed"
        finite = [v for v in values if not (v != v or math.isinf(v))]
        nonzero = [abs(v) for v in finite if v != 0]
        self.exp = False
        if nonzero:
            hi, lo = max(nonzero), min(nonzero)
            self.exp = hi >= 1e8 or (not opts["suppress"] and (lo < 1e-4 or hi / lo > 1e3))
        self.pad_left = self.pad_right = 0
        self.exp_size = -1
        self.min_digits = 0
        if not finite:
            pass
        elif self.exp:
            parts = [self._parts(_sci_parts, v) for v in finite]
            self.pad_left = max(len(_sign(v, opts["sign"])) + 1 for v in finite)
            self.min_digits = self.precision = max(len(f) for _, f, _ in parts)
            self.exp_size = max(len(str(abs(e))) for _, _, e in parts)
            self.exp_size = max(self.exp_size, 2)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            parts = [self._parts(_pos_parts, v) for v in finite]
            self.pad_left = max(len(_sign(v, opts["sign"])) + len(w)
                                for v, (w, _) in zip(finite, parts))
            self.pad_right = max(len(f) for _, f in parts)
            if mode in ("fixed", "maxprec_equal"):
                self.precision = self.min_digits = self.pad_right
        if opts["sign"] == " " and not any(math.copysign(1.0, v) < 0 for v in finite):
            self.pad_left += 1
        if len(finite) != len(values):
            neginf = opts["sign"] != "-" or any(math.isinf(v) and v < 0 for v in values)
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, len(opts["nanstr"]) - offset,
                                len(opts["infstr"]) + neginf - offset)

    def _parts(self, how, x):
        """``how(dt, |x|, precision, unique)``, once per value (the widths pass and the cells
        pass ask for the same ones); the precision is the one fixed before the cells pass."""
        key = (how, x, self.precision)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = how(self.dt, x, self.precision, self.unique)
        return got

    def __call__(self, x):
        opts = self.opts
        if x != x or math.isinf(x):
            if x != x:
                text = ("+" if opts["sign"] == "+" else "") + opts["nanstr"]
            else:
                text = ("-" if x < 0 else "+" if opts["sign"] == "+" else "") + opts["infstr"]
            return text.rjust(self.pad_left + self.pad_right + 1)
        sign = _sign(x, opts["sign"])
        if self.exp:
            whole, frac, e = self._parts(_sci_parts, x)
            if len(frac) < self.min_digits:  # more of the exact value's digits
                whole, frac, e = _sci_parts(self.dt, x, self.min_digits, False)
            exp = ("-" if e < 0 else "+") + str(abs(e)).rjust(self.exp_size, "0")
            return (sign + whole).rjust(self.pad_left) + "." + frac + "e" + exp
        whole, frac = self._parts(_pos_parts, x)
        if len(frac) < self.min_digits:
            whole, frac = _pos_parts(self.dt, x, self.min_digits, False)
        return (sign + whole).rjust(self.pad_left) + "." + frac.ljust(self.pad_right)


def _format_function(dt, values, opts, zero_d):
    if dt._fmt is not None:  # ml_dtypes' types: not np.floating, so each element's own repr
        return ml_str
    if dt._kind == "f":
        return FloatFormat(dt, values, opts)
    if dt._kind == "b":
        true = "True" if zero_d else " True"
        return lambda v: true if v else "False"
    if not values:
        return str
    width = max(len(str(max(values))), len(str(min(values))))
    return lambda v: str(v).rjust(width)


# ---- layout -------------------------------------------------------------------------------

def _shown(arr, edge):
    """(the shown sub-array, per axis whether it was cut) — ``edge`` items at each end of every
    axis longer than ``2 * edge``, as NumPy's ``_leading_trailing``."""
    cut = [n > 2 * edge for n in arr.shape]
    part = arr
    for ax, c in enumerate(cut):
        if c:
            lead = (slice(None),) * ax
            part = concatenate([part[lead + (slice(0, edge),)],
                                part[lead + (slice(part.shape[ax] - edge, None),)]], ax)
    return part, cut


def _extend(s, line, word, width, prefix):
    if len(line) + len(word) > width and len(line) > len(prefix):
        s += line.rstrip() + "\n"
        line = prefix
    return s, line + word


def _layout(cells, shape, cut, edge, width, prefix, sep, summary):
    """NumPy's ``_formatArray`` over the shown cells (row-major, ``shape`` the shown shape)."""
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]

    def rec(axis, base, hanging, cur):
        if axis == len(shape):
            return cells[base]
        nxt_hang, nxt_width = hanging + " ", cur - 1
        n = shape[axis]
        show = summary and cut[axis]
        lead = edge if show else 0
        picks = list(range(n))
        head, tail = picks[:lead], picks[lead:]
        left = len(shape) - axis
        if left == 1:
            elem_width = cur - max(len(sep.rstrip()), 1)
            s, line = "", hanging
            for i in head:
                s, line = _extend(s, line, rec(axis + 1, base + i * strides[axis], nxt_hang,
                                               nxt_width), elem_width, hanging)
                line += sep
            if show:
                s, line = _extend(s, line, summary, elem_width, hanging)
                line += sep
            for i in tail[:-1]:
                s, line = _extend(s, line, rec(axis + 1, base + i * strides[axis], nxt_hang,
                                               nxt_width), elem_width, hanging)
                line += sep
            s, line = _extend(s, line, rec(axis + 1, base + tail[-1] * strides[axis],
                                           nxt_hang, nxt_width), elem_width, hanging)
            s += line
        else:
            s = ""
            line_sep = sep.rstrip() + "\n" * (left - 1)
            for i in head:
                s += hanging + rec(axis + 1, base + i * strides[axis], nxt_hang, nxt_width) + \
                    line_sep
            if show:
                s += hanging + summary + line_sep
            for i in tail[:-1]:
                s += hanging + rec(axis + 1, base + i * strides[axis], nxt_hang, nxt_width) + \
                    line_sep
            s += hanging + rec(axis + 1, base + tail[-1] * strides[axis], nxt_hang, nxt_width)
        return "[" + s[len(hanging):] + "]"

    return rec(0, 0, prefix, width)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", suffix="", *, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, **kwargs):
    """The text of array ``a`` (what ``str`` shows for ``separator=' '``)."""
    arr = asarray(a)
    opts = dict(OPTIONS)
    for k, v in (("linewidth", max_line_width), ("precision", precision),
                 ("suppress", suppress_small), ("threshold", threshold),
                 ("edgeitems", edgeitems), ("sign", sign), ("floatmode", floatmode)):
        if v is not None:
            opts[k] = v
    opts["linewidth"] -= len(suffix)
    if arr.size == 0:
        return "[]"
    edge = opts["edgeitems"]
    summary = "..." if arr.size > opts["threshold"] else ""
    if summary:
        shown, cut = _shown(arr, edge)
    else:
        shown, cut = arr, [False] * arr.ndim
    values = shown._values()
    fmt = _format_function(arr.dtype, values, opts, arr.ndim == 0)
    cells = [fmt(v) for v in values]
    if arr.ndim == 0:
        return cells[0]
    return _layout(cells, shown.shape, cut, edge, opts["linewidth"], " " + " " * len(prefix),
                   separator, summary)


_IMPLIED = ("float64", "int64", "bool")


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """``repr(arr)``: ``array([...], dtype=...)``, the dtype on its own line when it would
    pass the line width."""
    dt = arr.dtype
    skip = dt.name in _IMPLIED and arr.size > 0
    prefix, suffix = "array(", ")" if skip else ","
    if arr.size > 0 or arr.shape == (0,):
        body = array2string(arr, max_line_width, precision, suppress_small, ", ", prefix,
                            suffix)
    else:
        body = f"[], shape={arr.shape!r}"
    text = prefix + body + suffix
    if skip:
        return text
    name = dt.name  # NumPy quotes a name that is not a plain identifier: 'float8_e4m3fn'
    dtype_str = f"dtype={name if name.isalnum() else repr(name)})"
    width = OPTIONS["linewidth"] if max_line_width is None else max_line_width
    last = len(text) - (text.rfind("\n") + 1)
    spacer = "\n" + " " * len(prefix) if last + len(dtype_str) + 1 > width else " "
    return text + spacer + dtype_str


def array_str(arr, max_line_width=None, precision=None, suppress_small=None):
    """``str(arr)``: the elements only; a 0-d array prints as its scalar."""
    if arr.ndim == 0:
        return str(arr[()])
    return array2string(arr, max_line_width, precision, suppress_small, " ", "")


NAMES = ("set_printoptions", "get_printoptions", "printoptions", "array2string", "array_repr",
         "array_str")
