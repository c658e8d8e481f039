"""``numpy.random`` (the legacy global RandomState): ``seed``, ``rand``, ``random_sample``,
``random``, ``randn``, ``standard_normal``, ``uniform``, ``normal``, ``randint``.

A seed gives NumPy's sequence. The generator is MT19937 — the same engine as Python's
``random.Random`` — so the state lives in one ``random.Random`` whose key is set the way NumPy
seeds (``init_genrand``); ``random()`` there is NumPy's 53-bit double, ``getrandbits(32)`` its
raw 32-bit output. Keeping the state here (not in the core's generator) is what lets
``randint``, which consumes raw 32/64-bit outputs, continue the stream ``rand`` draws from.

Large uniform draws take the raw bits in bulk (``getrandbits``) and turn them into doubles with
whole-array ufuncs (in the core for ≥ 1024 elements). Normal draws (the legacy polar method,
which rejects pairs) and ``randint``'s masked rejection are per-element Python loops: the core
has no operation for them over a state held here (documented slower path).
"""
import operator
import random as _py_random

from . import _dtypes as D
from ._errors import user_error

_MT = _py_random.Random()
#: The second normal of the last polar pair, kept for the next draw (NumPy's ``has_gauss``).
_GAUSS = []
#: Doubles per bulk chunk (8 bytes of raw bits each).
_CHUNK = 1 << 20


def seed(seed=None):
    """Reseeds the global generator (an int in [0, 2**32)); None reseeds with NumPy's fixed
    default here (a real RandomState would take OS entropy)."""
    s = 5489 if seed is None else operator.index(seed)
    if not 0 <= s <= 0xFFFFFFFF:
        from . import _core_storage as C
        if C.available():  # the core raises it with its diagnostic code (seed-out-of-range)
            C.request({"op": "seed", "seed": s})
        raise user_error(ValueError("Seed must be between 0 and 2**32 - 1"))
    key = [0] * 624
    for i in range(624):
        key[i] = s
        s = (1812433253 * (s ^ (s >> 30)) + i + 1) & 0xFFFFFFFF
    _MT.setstate((3, tuple(key) + (624,), None))
    _GAUSS.clear()


seed(None)


def _shape(size):
    if size is None:
        return None
    if isinstance(size, int) or hasattr(size, "__index__"):
        return (operator.index(size),)
    return tuple(operator.index(s) for s in size)


def _count(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _uniform_array(shape):
    from ._ndarray import from_values
    n = _count(shape)
    if n < 1024:
        r = _MT.random
        return from_values([r() for _ in range(n)], shape, D.FLOAT64)
    from ._creation import zeros
    out = zeros(n, dtype=D.FLOAT64)
    for start in range(0, n, _CHUNK):
        m = min(_CHUNK, n - start)
        out[start:start + m] = _bits_to_doubles(_MT.getrandbits(64 * m), m)
    return out.reshape(shape)


def _bits_to_doubles(bits, m):
    """``m`` NumPy doubles from ``2m`` raw outputs packed first-output-lowest in ``bits``:
    ``((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53`` as whole-array ufuncs."""
    from ._io import frombuffer
    words = frombuffer(bits.to_bytes(8 * m, "little"), dtype=D.UINT32)
    hi = (words[0::2] >> 5).astype(D.FLOAT64)
    lo = (words[1::2] >> 6).astype(D.FLOAT64)
    return (hi * 67108864.0 + lo) / 9007199254740992.0


def random_sample(size=None):
    """Floats uniformly drawn from [0, 1): a Python float when ``size`` is None."""
    shape = _shape(size)
    return _MT.random() if shape is None else _uniform_array(shape)


random = random_sample


def rand(*shape):
    """``random_sample`` with the shape given as arguments."""
    return random_sample(shape if shape else None)


def _gauss():
    if _GAUSS:
        return _GAUSS.pop()
    r = _MT.random
    while True:
        x1 = 2.0 * r() - 1.0
        x2 = 2.0 * r() - 1.0
        r2 = x1 * x1 + x2 * x2
        if 0.0 < r2 < 1.0:
            break
    import math
    f = math.sqrt(-2.0 * math.log(r2) / r2)
    _GAUSS.append(f * x1)
    return f * x2


def standard_normal(size=None):
    """Draws from the standard normal distribution."""
    from ._ndarray import from_values
    shape = _shape(size)
    if shape is None:
        return _gauss()
    return from_values([_gauss() for _ in range(_count(shape))], shape, D.FLOAT64)


def randn(*shape):
    """``standard_normal`` with the shape given as arguments."""
    return standard_normal(shape if shape else None)


def uniform(low=0.0, high=1.0, size=None):
    """Floats uniformly drawn from [low, high)."""
    u = random_sample(size)
    return low + (high - low) * u


def normal(loc=0.0, scale=1.0, size=None):
    """Draws from the normal distribution N(loc, scale²)."""
    z = standard_normal(size)
    return loc + scale * z


def _masked(rng, width):
    """One draw in [0, rng] by NumPy's masked rejection on ``width``-bit raw outputs (32-bit
    draws for smaller types are taken from a buffer of 32-bit outputs, as NumPy does)."""
    mask = (1 << rng.bit_length()) - 1
    while True:
        v = _next(width) & mask
        if v <= rng:
            return v


_BUF = [0, 0]  # [bits, count left] of the 8/16-bit draw buffer; reset by each randint call


def _next(width):
    if width == 64:
        hi = _MT.getrandbits(32)
        return (hi << 32) | _MT.getrandbits(32)
    if width == 32:
        return _MT.getrandbits(32)
    if _BUF[1] == 0:
        _BUF[0], _BUF[1] = _MT.getrandbits(32), 32 // width - 1
    else:
        _BUF[0] >>= width
        _BUF[1] -= 1
    return _BUF[0] & ((1 << width) - 1)


def _bool_draws(off, rng, n):
    out = []
    for _ in range(n):
        if rng == 0:
            out.append(off)
            continue
        if _BUF[1] == 0:
            _BUF[0], _BUF[1] = _MT.getrandbits(32), 31
        else:
            _BUF[0] >>= 1
            _BUF[1] -= 1
        out.append(_BUF[0] & 1)
    return out


def randint(low, high=None, size=None, dtype=int):
    """Integers uniformly drawn from [low, high) (from [0, low) when ``high`` is None), with
    NumPy's masked-rejection draws for each dtype, so a seed gives NumPy's numbers."""
    from ._ndarray import from_values
    from ._scalars import wrap
    dt = D.dtype(dtype)
    if dt.kind not in "biu":
        raise user_error(TypeError(f"Unsupported dtype {dt.name!r} for randint"))
    if high is None:
        low, high = 0, low
    if hasattr(low, "shape") or hasattr(high, "shape") or isinstance(low, (list, tuple)) or \
            isinstance(high, (list, tuple)):
        raise user_error(NotImplementedError(
            "not supported by nki-playground's numpy stand-in: numpy.random.randint with array "
            "bounds"))
    low, high = operator.index(low), operator.index(high) - 1
    lo, hi = D.int_limits(dt) if dt.kind != "b" else (0, 1)
    if low < lo:
        raise user_error(ValueError(f"low is out of bounds for {dt.name}"))
    if high > hi:
        raise user_error(ValueError(f"high is out of bounds for {dt.name}"))
    if low > high:
        raise user_error(ValueError(f"low >= high"))
    shape = _shape(size)
    n = 1 if shape is None else _count(shape)
    rng = high - low
    _BUF[0] = _BUF[1] = 0
    if dt.kind == "b":
        vals = [bool(v) for v in _bool_draws(low, rng, n)]
    else:
        width = {1: 8, 2: 16, 4: 32, 8: 64}[dt.itemsize]
        if rng > 0xFFFFFFFF:
            width = 64
        elif width == 64:
            width = 32  # NumPy draws 64-bit types from 32-bit outputs when the range fits
        full = (1 << width) - 1
        if rng == 0:
            vals = [low] * n
        elif rng == full:
            vals = [low + _next(width) for _ in range(n)]
        else:
            vals = [low + _masked(rng, width) for _ in range(n)]
    if shape is None:  # NumPy gives a Python int / bool for the default dtype int / bool
        return dtype(vals[0]) if dtype in (int, bool) else wrap(dt, vals[0])
    return from_values(vals, shape, dt)


NAMES = ("seed", "random_sample", "random", "rand", "standard_normal", "randn", "uniform",
         "normal", "randint")
