"""``numpy.random`` (the legacy global RandomState): ``seed``, ``rand``, ``random_sample``,
``random``, ``randn``, ``standard_normal``, ``uniform``, ``normal``, ``randint``, ``shuffle``,
``permutation``, ``choice``; ``RandomState`` objects, ``dirichlet``, ``get_state`` /
``set_state`` are in ``_random_state``.

A seed gives NumPy's sequence: one MT19937 stream, drawn from by two engines that stay in step.
Python's ``random.Random`` is MT19937 too; its key is set the way NumPy seeds
(``init_genrand``), its ``random()`` is NumPy's 53-bit double and ``getrandbits(32)`` the raw
32-bit output — what ``randint`` (masked rejection on raw outputs) and the normal draws (the
legacy polar method) need; they loop in Python (documented slower path: the core has no
operation for them). Uniform doubles come from the core's generator (``host_random.cpp``, the
same algorithm) at core speed: ``_STREAM`` counts the 32-bit outputs consumed since the seed,
and whichever engine draws next is first brought to that position (the core by reseeding and
drawing doubles to skip, Python by discarding raw bits), so the draws interleave exactly as
NumPy's. When the core cannot get there (an odd position: it skips two outputs per double) the
doubles are made from Python's raw bits with whole-array ufuncs instead.
"""
import operator
import random as _py_random

from . import _core_storage as C
from . import _dtypes as D
from ._creation import arange, asarray, zeros
from ._errors import user_error
from ._generator import _cdf
from ._io import frombuffer
from ._ndarray import core_array, from_values
from ._scalars import wrap
from ._shapes import concatenate
from ._ufuncs import UFUNCS as U

_MT = _py_random.Random()
#: The second normal of the last polar pair, kept for the next draw (NumPy's ``has_gauss``).
_GAUSS = []
#: Doubles per bulk chunk (8 bytes of raw bits each).
_CHUNK = 1 << 20
#: Outputs consumed since the seed ("at"), and where each engine stands: "py" for ``_MT``,
#: "core" for the core's generator (None: not seeded with "seed" yet).
_STREAM = {"seed": 5489, "at": 0, "py": 0, "core": None}
#: The stream the core's generator is positioned in (a RandomState has its own: _random_state).
_CORE_USER = [None]


def _python_ready():
    """Brings ``_MT`` to the stream position (discarding what the core drew meanwhile)."""
    lag = _STREAM["at"] - _STREAM["py"]
    while lag:
        k = min(lag, 1 << 22)
        _MT.getrandbits(32 * k)
        lag -= k
    _STREAM["py"] = _STREAM["at"]


def _python_used(outputs):
    _STREAM["py"] += outputs
    _STREAM["at"] += outputs


def _core_at_stream():
    """Brings the core's generator to the stream position; the core's module, or None when it
    cannot get there (no core; an odd position)."""
    if not C.available():
        return None
    if _STREAM["seed"] is None:  # set_state() gave a state no seed reaches: Python draws
        return None
    at, core = _STREAM["at"], _STREAM["core"]
    if core is None or core > at or _CORE_USER[0] is not _STREAM:  # a RandomState drew since
        C.request({"op": "seed", "seed": _STREAM["seed"]})
        core = 0
    _CORE_USER[0] = _STREAM
    if (at - core) % 2:
        return None
    skip = (at - core) // 2
    while skip:
        k = min(skip, _CHUNK)
        C.request({"op": "free", "id": C.request({"op": "random", "kind": "uniform",
                                                   "n": k})["id"]})
        skip -= k
    _STREAM["core"] = at
    return C


def _core_doubles(n):
    """``n`` doubles drawn by the core at the stream position, or None (see _core_at_stream)."""
    C = _core_at_stream()
    if C is None:
        return None
    arr = core_array(D.FLOAT64, C.request({"op": "random", "kind": "uniform", "n": n})["id"], (n,))
    _STREAM["core"] = _STREAM["at"] = _STREAM["at"] + 2 * n
    return arr


def _core_normals(n):
    """``n`` normals drawn by the core (NumPy's polar method, in C++) at the stream position, or
    None. The core says how many outputs its rejections used and hands back the unused second
    normal of the last pair, which ``_GAUSS`` keeps for the next draw as NumPy does."""
    C = _core_at_stream()
    if C is None:
        return None
    reply = C.request({"op": "random", "kind": "normal", "n": n})
    _STREAM["core"] = _STREAM["at"] = _STREAM["at"] + reply["used"]
    if reply.get("gauss") is not None:
        _GAUSS.append(reply["gauss"])
    return core_array(D.FLOAT64, reply["id"], (n,))


def seed(seed=None):
    """Reseeds the global generator (an int in [0, 2**32)); None reseeds with NumPy's fixed
    default here (a real RandomState would take OS entropy)."""
    s = 5489 if seed is None else operator.index(seed)
    if not 0 <= s <= 0xFFFFFFFF:
        if C.available():  # the core raises it with its diagnostic code (seed-out-of-range)
            C.request({"op": "seed", "seed": s})
        raise user_error(ValueError("Seed must be between 0 and 2**32 - 1"))
    key, s0 = [0] * 624, s
    for i in range(624):
        key[i] = s
        s = (1812433253 * (s ^ (s >> 30)) + i + 1) & 0xFFFFFFFF
    _MT.setstate((3, tuple(key) + (624,), None))
    _GAUSS.clear()
    _STREAM.update(seed=s0, at=0, py=0, core=None)


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
    n = _count(shape)
    drawn = _core_doubles(n) if n else None
    if drawn is not None:
        return drawn.reshape(shape)
    _python_ready()
    if n < 1024:
        r = _MT.random
        values = [r() for _ in range(n)]
        _python_used(2 * n)
        return from_values(values, shape, D.FLOAT64)
    out = zeros(n, dtype=D.FLOAT64)
    for start in range(0, n, _CHUNK):
        m = min(_CHUNK, n - start)
        out[start:start + m] = _bits_to_doubles(_MT.getrandbits(64 * m), m)
    _python_used(2 * n)
    return out.reshape(shape)


def _bits_to_doubles(bits, m):
    """``m`` NumPy doubles from ``2m`` raw outputs packed first-output-lowest in ``bits``:
    ``((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53`` as whole-array ufuncs (the shifts as exact
    power-of-two scales and ``floor``: the core has no integer ``right_shift``)."""
    words = frombuffer(bits.to_bytes(8 * m, "little"), dtype=D.UINT32).astype(D.FLOAT64)
    hi = U["floor"](words[0::2] * 0.03125)  # exact: a power-of-two scale, then floor
    lo = U["floor"](words[1::2] * 0.015625)
    return (hi * 67108864.0 + lo) / 9007199254740992.0


def random_sample(size=None):
    """Floats uniformly drawn from [0, 1): a Python float when ``size`` is None."""
    shape = _shape(size)
    if shape is None:
        return _uniform_array((1,))._values()[0]
    return _uniform_array(shape)


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
        _python_used(4)
        r2 = x1 * x1 + x2 * x2
        if 0.0 < r2 < 1.0:
            break
    import math
    f = math.sqrt(-2.0 * math.log(r2) / r2)
    _GAUSS.append(f * x1)
    return f * x2


def standard_normal(size=None):
    """Draws from the standard normal distribution."""
    shape = _shape(size)
    n = 0 if shape is None else _count(shape)
    if n >= 1024:  # in bulk from the core (a Python loop costs ~1 µs per normal in Pyodide)
        first = [_GAUSS.pop()] if _GAUSS else []
        drawn = _core_normals(n - len(first))
        if drawn is not None:
            if first:
                drawn = concatenate([from_values(first, (1,), D.FLOAT64), drawn])
            return drawn.reshape(shape)
        _GAUSS.extend(first)
    _python_ready()
    if shape is None:
        return _gauss()
    return from_values([_gauss() for _ in range(n)], shape, D.FLOAT64)


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
        _python_used(2)
        return (hi << 32) | _MT.getrandbits(32)
    if width == 32:
        _python_used(1)
        return _MT.getrandbits(32)
    if _BUF[1] == 0:
        _python_used(1)
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
            _python_used(1)
            _BUF[0], _BUF[1] = _MT.getrandbits(32), 31
        else:
            _BUF[0] >>= 1
            _BUF[1] -= 1
        out.append(_BUF[0] & 1)
    return out


def randint(low, high=None, size=None, dtype=int):
    """Integers uniformly drawn from [low, high) (from [0, low) when ``high`` is None), with
    NumPy's masked-rejection draws for each dtype, so a seed gives NumPy's numbers."""
    dt = D.dtype(dtype)
    if dt._kind not in "biu":
        raise user_error(TypeError(f"Unsupported dtype {dt.name!r} for randint"))
    if high is None:
        low, high = 0, low
    if hasattr(low, "shape") or hasattr(high, "shape") or isinstance(low, (list, tuple)) or \
            isinstance(high, (list, tuple)):
        raise user_error(NotImplementedError(
            "not supported by nki-playground's numpy stand-in: numpy.random.randint with array "
            "bounds"))
    low, high = operator.index(low), operator.index(high) - 1
    lo, hi = D.int_limits(dt) if dt._kind != "b" else (0, 1)
    if low < lo:
        raise user_error(ValueError(f"low is out of bounds for {dt.name}"))
    if high > hi:
        raise user_error(ValueError(f"high is out of bounds for {dt.name}"))
    if low > high:
        raise user_error(ValueError("low >= high"))
    shape = _shape(size)
    n = 1 if shape is None else _count(shape)
    rng = high - low
    _BUF[0] = _BUF[1] = 0
    _python_ready()
    if dt._kind == "b":
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


def shuffle(x):
    """Shuffles ``x`` (an array, along its first axis, or a list) in place: the legacy swaps
    from the end, each partner drawn by masked rejection on raw 32-bit outputs."""
    _python_ready()
    n = len(x)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _masked(i, 32 if i <= 0xFFFFFFFF else 64)
        order[i], order[j] = order[j], order[i]
    if isinstance(x, list):
        x[:] = [x[i] for i in order]
        return
    x[...] = x[order].copy()


def permutation(x):
    """A shuffled copy of ``x`` (of ``arange(x)`` for an int), along the first axis."""
    if isinstance(x, int) or (hasattr(x, "__index__") and not hasattr(x, "shape")):
        arr = arange(operator.index(x))
        shuffle(arr)
        return arr
    arr = asarray(x)
    if arr.ndim < 1:
        raise user_error(IndexError("x must be an integer or at least 1-dimensional"))
    if arr.ndim == 1:
        arr = arr.copy()
        shuffle(arr)
        return arr
    idx = arange(arr.shape[0])
    shuffle(idx)
    return arr[idx]


def choice(a, size=None, replace=True, p=None):
    """Samples from ``a`` (an int: ``arange(a)``) as the legacy generator does: ``randint`` with
    replacement, a permutation's head without, ``p`` through the cumulative sum."""
    pool = None
    if isinstance(a, range):
        a = list(a)
    if isinstance(a, int) or (hasattr(a, "__index__") and not hasattr(a, "shape")):
        n = operator.index(a)
        if n <= 0:
            raise user_error(ValueError("a must be greater than 0 unless no samples are taken"))
    else:
        pool = asarray(a)
        if pool.ndim != 1:
            raise user_error(ValueError("a must be 1-dimensional"))
        n = pool.shape[0]
    shape = _shape(size)
    count = _count(shape) if shape is not None else 1
    if p is not None:
        if not replace:
            raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                      "random.choice(replace=False, p=...)")
        import bisect
        cdf = _cdf(asarray(p, dtype=D.FLOAT64).tolist(), n)
        u = random_sample(shape) if shape is not None else random_sample()
        us = u.reshape(-1).tolist() if shape is not None else [u]
        idx = [bisect.bisect_right(cdf, v) for v in us]
    elif replace:
        r = randint(0, n, size=shape)
        idx = r.reshape(-1).tolist() if shape is not None else [r]
    else:
        if count > n:
            raise user_error(ValueError("Cannot take a larger sample than population when "
                                        "'replace=False'"))
        idx = permutation(n)[:count].tolist()
    if shape is None:
        return pool[idx[0]] if pool is not None else int(idx[0])
    picked = from_values(idx, shape, D.INT64)
    return pool[picked] if pool is not None else picked


#: ``numpy.random``'s names here; ``_random_state`` and ``_generator`` give the rest.
NAMES = ("seed", "random_sample", "random", "rand", "standard_normal", "randn", "uniform",
         "normal", "randint", "shuffle", "permutation", "choice")
