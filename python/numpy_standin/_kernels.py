"""Element kernels: what each ufunc computes on one set of raw values.

Every kernel takes the loop dtype first, then the raw input values already cast to it, and
returns a Python number; the ufunc rounds or wraps it into the output dtype. Float kernels
follow IEEE/C99 like NumPy's loops (division by zero gives ±inf or nan, ``log(0)`` gives -inf,
overflow gives inf) and never raise; NumPy would emit a RuntimeWarning, the fallback is silent.
"""
import math

INF = math.inf
NAN = math.nan


def _isnan(x):
    return x != x


def _is_odd_int(y):
    return math.isfinite(y) and y == math.floor(y) and int(y) % 2 == 1


def _bits(dt):
    return dt.itemsize * 8


# ---- arithmetic ------------------------------------------------------------------------------

def add(dt, a, b):
    return (a or b) if dt._kind == "b" else a + b


def subtract(dt, a, b):
    return a - b


def multiply(dt, a, b):
    return (a and b) if dt._kind == "b" else a * b


def divide(dt, a, b):  # the loop dtype is always a float
    if b == 0:
        if a == 0 or _isnan(a):
            return NAN
        return math.copysign(INF, a) * math.copysign(1.0, b)
    return a / b


def floor_divide(dt, a, b):
    if dt._kind != "f":
        return 0 if b == 0 else a // b
    if b == 0:
        return divide(dt, a, b)
    if math.isinf(a) or _isnan(a) or _isnan(b):
        return NAN
    return a // b


def remainder(dt, a, b):
    if dt._kind != "f":
        return 0 if b == 0 else a % b
    if b == 0 or math.isinf(a) or _isnan(a) or _isnan(b):
        return NAN
    if math.isinf(b):
        return a if (a >= 0) == (b > 0) or a == 0 else b
    return a % b


def fmod(dt, a, b):
    if dt._kind != "f":
        if b == 0:
            return 0
        r = abs(a) % abs(b)
        return -r if a < 0 else r
    if b == 0 or math.isinf(a) or _isnan(a) or _isnan(b):
        return NAN
    return math.fmod(a, b)


def power(dt, a, b):
    if dt._kind != "f":
        if b < 0:
            raise ValueError("Integers to negative integer powers are not allowed.")
        return pow(a, b, 1 << _bits(dt))
    try:
        return math.pow(a, b)
    except OverflowError:
        return -INF if a < 0 and _is_odd_int(b) else INF
    except ValueError:
        if a == 0 and b < 0:
            return math.copysign(INF, a) if _is_odd_int(b) else INF
        return NAN


def maximum(dt, a, b):
    if dt._kind == "f":
        if _isnan(a) or _isnan(b):
            return NAN
    return a if a >= b else b


def minimum(dt, a, b):
    if dt._kind == "f":
        if _isnan(a) or _isnan(b):
            return NAN
    return a if a <= b else b


# ---- unary arithmetic ------------------------------------------------------------------------

def negative(dt, a):
    return -a


def positive(dt, a):
    return a


def absolute(dt, a):
    return abs(a)


def square(dt, a):
    return a * a


def sign(dt, a):
    if dt._kind == "f" and _isnan(a):
        return NAN
    return (a > 0) - (a < 0)


def reciprocal(dt, a):
    if dt._kind == "f":
        return math.copysign(INF, a) if a == 0 else 1.0 / a
    if a == 0:
        return 0  # NumPy's integer reciprocal of 0 is 0 (with a warning) on x86-64
    return int(1 / a)


def _rounder(fn):
    def kernel(dt, a):
        if dt._kind != "f" or not math.isfinite(a):
            return a
        r = float(fn(a))
        return math.copysign(0.0, a) if r == 0 else r
    return kernel


floor = _rounder(math.floor)
ceil = _rounder(math.ceil)
trunc = _rounder(math.trunc)
rint = _rounder(round)  # round() ties to even, as rint does


# ---- transcendental (loop dtype is a float) --------------------------------------------------

def _guard(fn, overflow=INF):
    def kernel(dt, a):
        try:
            return fn(a)
        except OverflowError:
            return overflow(a) if callable(overflow) else overflow
        except ValueError:
            return NAN
    return kernel


exp = _guard(math.exp)
exp2 = _guard(lambda a: math.pow(2.0, a))
expm1 = _guard(math.expm1)
sinh = _guard(math.sinh, overflow=lambda a: math.copysign(INF, a))
cosh = _guard(math.cosh)
tanh = _guard(math.tanh)
sin = _guard(math.sin)
cos = _guard(math.cos)
tan = _guard(math.tan)
arcsin = _guard(math.asin)
arccos = _guard(math.acos)
arctan = _guard(math.atan)


def _logger(fn, pole=0.0):
    def kernel(dt, a):
        if a == pole:
            return -INF
        if _isnan(a) or a < pole:
            return NAN
        return fn(a)
    return kernel


log = _logger(math.log)
log2 = _logger(math.log2)
log10 = _logger(math.log10)
log1p = _logger(math.log1p, pole=-1.0)


def sqrt(dt, a):
    return NAN if a < 0 else math.sqrt(a)


def arctan2(dt, a, b):
    return math.atan2(a, b)


# ---- comparison and logic --------------------------------------------------------------------

def equal(dt, a, b):
    return a == b


def not_equal(dt, a, b):
    return a != b


def greater(dt, a, b):
    return a > b


def greater_equal(dt, a, b):
    return a >= b


def less(dt, a, b):
    return a < b


def less_equal(dt, a, b):
    return a <= b


def logical_and(dt, a, b):
    return bool(a) and bool(b)


def logical_or(dt, a, b):
    return bool(a) or bool(b)


def logical_xor(dt, a, b):
    return bool(a) != bool(b)


def logical_not(dt, a):
    return not a


def isnan(dt, a):
    return dt._kind == "f" and _isnan(a)


def isinf(dt, a):
    return dt._kind == "f" and math.isinf(a)


def isfinite(dt, a):
    return dt._kind != "f" or math.isfinite(a)


# ---- bitwise (bool or integer loop dtypes) ---------------------------------------------------

def bitwise_and(dt, a, b):
    return a & b


def bitwise_or(dt, a, b):
    return a | b


def bitwise_xor(dt, a, b):
    return a ^ b


def invert(dt, a):
    return (not a) if dt._kind == "b" else ~a


def left_shift(dt, a, b):
    return a << b if 0 <= b < _bits(dt) else 0


def right_shift(dt, a, b):
    if 0 <= b < _bits(dt):
        return a >> b
    return -1 if a < 0 else 0
