"""``numpy.random.default_rng`` and the Generator API over NumPy's PCG64 stream: a seed gives the
draws real NumPy gives (``SeedSequence`` hashing, PCG64's 128-bit LCG with the XSL-RR output,
53-bit doubles, Lemire's bounded integers, the 256-level ziggurat for normals with NumPy's
tables in ``_ziggurat``).

Draws loop in Python (the core has no PCG64): fine for harness-sized data.
"""
import itertools
import math
import operator

from . import _dtypes as D
from ._creation import arange, asarray
from ._ndarray import broadcast_shapes, from_values
from ._scalars import wrap
from ._shapes import _norm, swapaxes
from ._ziggurat import FI, KI, NOR_R, WI

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
_PCG_MULT = (2549297995355413924 << 64) | 4865540595714422341


def _words(x):
    """NumPy's ``_coerce_to_uint32_array`` of an int or a sequence of ints."""
    if isinstance(x, (list, tuple)) or hasattr(x, "tolist"):
        vals = x.tolist() if hasattr(x, "tolist") else x
        vals = vals if isinstance(vals, list) else [vals]
        return [w for v in vals for w in _words(int(v))]
    n = operator.index(x)
    if n < 0:
        raise ValueError("expected non-negative integer")
    out = [n & _M32]
    n >>= 32
    while n:
        out.append(n & _M32)
        n >>= 32
    return out


def _hashmix(value, const):
    value ^= const[0]
    const[0] = (const[0] * 0x931E8875) & _M32
    value = (value * const[0]) & _M32
    return value ^ (value >> 16)


def _mix(x, y):
    r = (0xCA01F9DD * x - 0x4973F715 * y) & _M32
    return r ^ (r >> 16)


class SeedSequence:
    """NumPy's seed hashing: the same ``entropy`` gives the same ``generate_state``."""

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=4):
        if entropy is None:
            import random
            entropy = random.SystemRandom().getrandbits(128)
        self.entropy, self.spawn_key, self.pool_size = entropy, tuple(spawn_key), pool_size
        run = _words(entropy)
        spawn = _words(list(self.spawn_key)) if self.spawn_key else []
        if spawn and len(run) < pool_size:
            run = run + [0] * (pool_size - len(run))
        ent = run + spawn
        const = [0x43B0D7E5]
        pool = [_hashmix(ent[i] if i < len(ent) else 0, const) for i in range(pool_size)]
        for src in range(pool_size):
            for dst in range(pool_size):
                if src != dst:
                    pool[dst] = _mix(pool[dst], _hashmix(pool[src], const))
        for src in range(pool_size, len(ent)):
            for dst in range(pool_size):
                pool[dst] = _mix(pool[dst], _hashmix(ent[src], const))
        self.pool = pool

    def generate_state(self, n_words, dtype=None):
        """``n_words`` words (uint32, or uint64 when ``dtype`` is), as a list of ints."""
        wide = dtype is not None and D.dtype(dtype).itemsize == 8
        const = 0x8B51F9DD
        out = []
        src = itertools.cycle(self.pool)
        for _ in range(n_words * (2 if wide else 1)):
            v = next(src) ^ const
            const = (const * 0x58F38DED) & _M32
            v = (v * const) & _M32
            out.append(v ^ (v >> 16))
        if wide:
            out = [out[i] | (out[i + 1] << 32) for i in range(0, len(out), 2)]
            return from_values(out, (len(out),), D.UINT64)
        return from_values(out, (len(out),), D.UINT32)


class PCG64:
    """NumPy's default bit generator: 128-bit state and increment, 64-bit outputs."""

    def __init__(self, seed=None):
        seq = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
        self.seed_seq = seq
        w = seq.generate_state(4, D.UINT64).tolist()
        initstate, initseq = (w[0] << 64) | w[1], (w[2] << 64) | w[3]
        self._inc = ((initseq << 1) | 1) & _M128
        state = self._inc  # from state 0, one step
        self._state = ((state + initstate) * _PCG_MULT + self._inc) & _M128
        self._has32, self._buf32 = False, 0

    def next64(self):
        s = self._state = (self._state * _PCG_MULT + self._inc) & _M128
        hi, lo = s >> 64, s & _M64
        x, rot = hi ^ lo, hi >> 58
        return ((x >> rot) | (x << (64 - rot))) & _M64

    def next32(self):
        if self._has32:
            self._has32 = False
            return self._buf32
        v = self.next64()
        self._has32, self._buf32 = True, v >> 32
        return v & _M32

    def next_double(self):
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    @property
    def state(self):
        return {"bit_generator": "PCG64", "state": {"state": self._state, "inc": self._inc},
                "has_uint32": int(self._has32), "uinteger": self._buf32}

    def random_raw(self, size=None):
        if size is None:
            return self.next64()
        return _fill(_shape(size), D.UINT64, self.next64)


def _shape(size):
    if size is None:
        return None
    if isinstance(size, int) or hasattr(size, "__index__"):
        return (operator.index(size),)
    return tuple(operator.index(s) for s in size)


def _fill(shape, dt, draw):
    n = 1
    for s in shape:
        n *= s
    return from_values([D.cast_value(dt, draw()) for _ in range(n)], shape, dt)


def _scalar_or(shape, dt, draw):
    """One draw (a Python float for float draws, as Generator gives; else a NumPy scalar) when
    ``shape`` is None, else an array of draws."""
    if shape is None:
        if dt._kind == "f":
            return float(D.cast_value(dt, draw()))
        return wrap(dt, D.cast_value(dt, draw()))
    return _fill(shape, dt, draw)


def _lemire32(bg, rng):
    excl = rng + 1
    m = bg.next32() * excl
    left = m & _M32
    if left < excl:
        threshold = (_M32 - rng) % excl
        while left < threshold:
            m = bg.next32() * excl
            left = m & _M32
    return m >> 32


def _lemire64(bg, rng):
    excl = rng + 1
    m = bg.next64() * excl
    left = m & _M64
    if left < excl:
        threshold = (_M64 - rng) % excl
        while left < threshold:
            m = bg.next64() * excl
            left = m & _M64
    return m >> 64


def _bounded(bg, rng, wide):
    """A uniform integer in [0, rng] (NumPy's ``random_bounded_uint64``/``uint32``)."""
    if rng == 0:
        return 0
    if rng <= _M32:
        return bg.next32() if rng == _M32 else _lemire32(bg, rng)
    if not wide:
        raise ValueError("high is out of bounds")
    return bg.next64() if rng == _M64 else _lemire64(bg, rng)


def _interval(bg, top):
    """A uniform integer in [0, top] by masked rejection (NumPy's ``random_interval``)."""
    if top == 0:
        return 0
    mask = (1 << top.bit_length()) - 1
    draw = bg.next32 if top <= _M32 else bg.next64
    while True:
        v = draw() & mask
        if v <= top:
            return v


def _normal(bg):
    """NumPy's ``random_standard_normal``: the 256-level ziggurat."""
    while True:
        r = bg.next64()
        idx = r & 0xFF
        r >>= 8
        sign = r & 1
        rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
        x = rabs * WI[idx]
        if sign:
            x = -x
        if rabs < KI[idx]:
            return x
        if idx == 0:
            while True:
                xx = -(1.0 / NOR_R) * math.log1p(-bg.next_double())
                yy = -math.log1p(-bg.next_double())
                if yy + yy > xx * xx:
                    return -(NOR_R + xx) if (rabs >> 8) & 1 else NOR_R + xx
        elif (FI[idx - 1] - FI[idx]) * bg.next_double() + FI[idx] < math.exp(-0.5 * x * x):
            return x


class Generator:
    """``np.random.Generator``: ``random``, ``standard_normal``, ``normal``, ``uniform``,
    ``integers``, ``choice``, ``permutation``, ``shuffle`` over a PCG64 bit generator."""

    def __init__(self, bit_generator):
        self._bg = bit_generator

    @property
    def bit_generator(self):
        return self._bg

    def __repr__(self):
        return "Generator(PCG64)"

    def random(self, size=None, dtype=D.FLOAT64, out=None):
        dt = D.dtype(dtype)
        if dt is D.FLOAT32:
            draw = lambda: (self._bg.next32() >> 8) * (1.0 / 16777216.0)  # noqa: E731
        elif dt is D.FLOAT64:
            draw = self._bg.next_double
        else:
            raise TypeError(f"Unsupported dtype {dt.name!r} for random")
        return _scalar_or(_shape(size), dt, draw)

    def standard_normal(self, size=None, dtype=D.FLOAT64, out=None):
        if D.dtype(dtype) is not D.FLOAT64:
            raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                      "Generator.standard_normal(dtype=float32)")
        return _scalar_or(_shape(size), D.FLOAT64, lambda: _normal(self._bg))

    def _two_params(self, a, b, size, draw):
        pa, pb = asarray(a, dtype=D.FLOAT64), asarray(b, dtype=D.FLOAT64)
        shape = _shape(size)
        if pa.ndim == 0 and pb.ndim == 0:
            x, y = pa.item(), pb.item()
            return _scalar_or(shape, D.FLOAT64, lambda: draw(x, y))
        full = broadcast_shapes(pa.shape, pb.shape) if shape is None else shape
        xs, ys = pa._broadcast_values(full), pb._broadcast_values(full)
        it = iter(range(len(xs)))
        return _fill(full, D.FLOAT64, lambda: (lambda i: draw(xs[i], ys[i]))(next(it)))

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._two_params(loc, scale, size, lambda m, s: m + s * _normal(self._bg))

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._two_params(low, high, size,
                                lambda lo, hi: lo + (hi - lo) * self._bg.next_double())

    def integers(self, low, high=None, size=None, dtype=D.INT64, endpoint=False):
        dt = D.dtype(dtype)
        if dt._kind not in "iu" or dt.itemsize < 4:
            raise NotImplementedError(f"not supported by nki-playground's numpy stand-in: "
                                      f"Generator.integers(dtype={dt.name})")
        if high is None:
            low, high = 0, low
        low, high = operator.index(low), operator.index(high)
        top = high if endpoint else high - 1
        if top < low:
            raise ValueError("low > high" if endpoint else "low >= high")
        lo_lim, hi_lim = D.int_limits(dt)
        if low < lo_lim:
            raise ValueError("low is out of bounds for " + dt.name)
        if top > hi_lim:
            raise ValueError("high is out of bounds for " + dt.name)
        rng, wide = top - low, dt.itemsize == 8
        return _scalar_or(_shape(size), dt, lambda: low + _bounded(self._bg, rng, wide))

    def _shuffle_ints(self, values, n, first):
        """NumPy's ``_shuffle_int``: Fisher-Yates from the end down to index ``first``."""
        for i in range(n - 1, first - 1, -1):
            j = _bounded(self._bg, i, True)
            values[i], values[j] = values[j], values[i]

    def permutation(self, x, axis=0):
        """A shuffled copy of ``x`` (of ``arange(x)`` for an int), along ``axis``."""
        if isinstance(x, int) or (hasattr(x, "__index__") and not hasattr(x, "shape")):
            arr = arange(operator.index(x))
            self.shuffle(arr)
            return arr
        arr = asarray(x)
        if arr.ndim == 1:
            arr = arr.copy()
            self.shuffle(arr)
            return arr
        ax = _norm(axis, arr.ndim)
        idx = arange(arr.shape[ax])
        self.shuffle(idx)
        return arr[(slice(None),) * ax + (idx,)]

    def shuffle(self, x, axis=0):
        """Shuffles ``x`` (an array or a list) in place along ``axis`` (NumPy's swaps from the
        end, each partner drawn by masked rejection)."""
        n = len(x)
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = _interval(self._bg, i)
            order[i], order[j] = order[j], order[i]
        if isinstance(x, list):
            if axis:
                raise NotImplementedError("Axis argument is only supported on ndarray objects")
            x[:] = [x[i] for i in order]
            return
        view = swapaxes(x, 0, axis) if axis else x
        view[...] = view[order].copy()

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        pool = None
        if isinstance(a, int) or (hasattr(a, "__index__") and not hasattr(a, "shape")):
            n = operator.index(a)
            if n <= 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            pool = asarray(a)
            n = pool.shape[0] if pool.ndim else 0
            if pool.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
        shape = _shape(size)
        count = 1
        for s in shape or ():
            count *= s
        if replace:
            if p is not None:
                cdf = _cdf(asarray(p, dtype=D.FLOAT64).tolist(), n)
                idx = [_search_right(cdf, self._bg.next_double()) for _ in range(count)]
            else:
                idx = [_bounded(self._bg, n - 1, True) for _ in range(count)]
        else:
            if count > n:
                raise ValueError("Cannot take a larger sample than population when replace is "
                                 "False")
            if p is not None:
                raise NotImplementedError("not supported by nki-playground's numpy stand-in: "
                                          "Generator.choice(replace=False, p=...)")
            idx = self._sample(n, count, shuffle)
        picked = from_values(idx, shape or (), D.INT64) if shape is not None else None
        if pool is None:
            if shape is None:
                return wrap(D.INT64, idx[0])
            return picked
        if shape is None:
            return pool[idx[0]]
        return pool[picked]

    def _sample(self, n, k, shuffle):
        """``k`` distinct indices below ``n``, as NumPy draws them (a tail shuffle for large
        samples of large populations, else Floyd's algorithm with an open-addressed set)."""
        cutoff = 50 if shuffle else 20
        if n > 10000 and k > n // cutoff:
            vals = list(range(n))
            self._shuffle_ints(vals, n, max(n - k, 1))
            return vals[n - k:]
        mask = (1 << max(int(1.2 * k), 1).bit_length()) - 1 if int(1.2 * k) else 0
        table = [-1] * (mask + 1)
        out = []
        for j in range(n - k, n):
            val = _bounded(self._bg, j, True)
            loc = val & mask
            while table[loc] != -1 and table[loc] != val:
                loc = (loc + 1) & mask
            if table[loc] == -1:
                table[loc] = val
                out.append(val)
            else:
                loc = j & mask
                while table[loc] != -1:
                    loc = (loc + 1) & mask
                table[loc] = j
                out.append(j)
        if shuffle and k > 1:
            self._shuffle_ints(out, k, 1)
        return out


def _cdf(p, n):
    if len(p) != n:
        raise ValueError("a and p must have same size")
    if any(v < 0 for v in p):
        raise ValueError("probabilities are not non-negative")
    total = math.fsum(p)
    if abs(total - 1.0) > math.sqrt(2.220446049250313e-16):
        raise ValueError("probabilities do not sum to 1")
    acc, out = 0.0, []
    for v in p:
        acc += v
        out.append(acc)
    last = out[-1]
    return [c / last for c in out]


def _search_right(cdf, u):
    import bisect
    return bisect.bisect_right(cdf, u)


def default_rng(seed=None):
    """A ``Generator`` over ``PCG64(seed)`` (``seed`` an int, a sequence of ints, a
    ``SeedSequence``, a bit generator or a Generator)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, PCG64):
        return Generator(seed)
    return Generator(PCG64(seed))


NAMES = ("default_rng", "Generator", "PCG64", "SeedSequence")
