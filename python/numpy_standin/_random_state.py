"""``numpy.random.RandomState`` — each its own MT19937 stream, seeded as NumPy seeds it, drawn
from by the same legacy algorithms as the module-level functions (``_random``), so a seed gives
NumPy's numbers — plus ``get_state`` / ``set_state`` (the legacy ``('MT19937', key, pos,
has_gauss, cached_gaussian)`` tuple, or its dict form) and ``dirichlet`` (NumPy's legacy gamma
draws, normalised).

A RandomState keeps what ``_random`` keeps in its module globals (the Python generator, the
cached normal, the stream position, randint's byte buffer) and swaps them in for each call;
the core's generator follows whichever stream drew last (``_random._CORE_USER``).
"""
import math
import operator
import random as _py_random

from . import _dtypes as D
from . import _random as R
from ._creation import asarray
from ._errors import user_error
from ._ndarray import from_values

_GLOBALS = ("_MT", "_GAUSS", "_STREAM", "_BUF")


def _fresh():
    return [_py_random.Random(), [], {"seed": 5489, "at": 0, "py": 0, "core": None}, [0, 0]]


class RandomState:
    """A legacy generator of its own: ``RandomState(seed)`` gives ``np.random.seed(seed)``'s
    stream without touching the global one. ``seed=None`` seeds with NumPy's fixed default
    here (a real RandomState would take OS entropy)."""

    def __init__(self, seed=None):
        self._state = _fresh()
        self.seed(seed)

    def _run(self, fn, *args, **kwargs):
        saved = [getattr(R, n) for n in _GLOBALS]
        for n, v in zip(_GLOBALS, self._state):
            setattr(R, n, v)
        try:
            return fn(*args, **kwargs)
        finally:
            self._state = [getattr(R, n) for n in _GLOBALS]
            for n, v in zip(_GLOBALS, saved):
                setattr(R, n, v)

    def __repr__(self):
        return "RandomState(MT19937)"


def _method(name):
    fn = globals()[name] if name in ("get_state", "set_state", "dirichlet") else getattr(R, name)

    def method(self, *args, **kwargs):
        return self._run(fn, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    return method


def get_state(legacy=True):
    """The generator's state: ``('MT19937', key, pos, has_gauss, cached_gaussian)`` (``key``
    624 uint32 words), or with ``legacy=False`` the same as a dict."""
    R._python_ready()
    words = R._MT.getstate()[1]
    key = from_values(list(words[:624]), (624,), D.UINT32)
    pos = words[624]
    has_gauss = 1 if R._GAUSS else 0
    gauss = R._GAUSS[-1] if R._GAUSS else 0.0
    if legacy:
        return ("MT19937", key, pos, has_gauss, gauss)
    return {"bit_generator": "MT19937", "state": {"key": key, "pos": pos},
            "has_gauss": has_gauss, "gauss": gauss}


def set_state(state):
    """Restores a state ``get_state`` gave (either form); the draws then continue from it."""
    if isinstance(state, dict):
        if state.get("bit_generator") != "MT19937" or "state" not in state:
            raise user_error(ValueError("state must be for a MT19937 PRNG"))
        key, pos = state["state"]["key"], state["state"]["pos"]
        has_gauss, gauss = state.get("has_gauss", 0), state.get("gauss", 0.0)
    else:
        if not isinstance(state, (tuple, list)) or len(state) not in (3, 5):
            raise user_error(ValueError("state must be a dict or a tuple."))
        if state[0] != "MT19937":
            raise user_error(ValueError("set_state can only be used with legacy MT19937 state "
                                        "instances."))
        key, pos = state[1], state[2]
        has_gauss, gauss = (state[3], state[4]) if len(state) == 5 else (0, 0.0)
    words = [int(k) & 0xFFFFFFFF for k in (key.tolist() if hasattr(key, "tolist") else key)]
    if len(words) < 624:  # NumPy copies 624 words: a shorter key runs out
        raise user_error(IndexError(f"index {len(words)} is out of bounds for axis 0 with size "
                                    f"{len(words)}"))
    words = words[:624]
    R._MT.setstate((3, tuple(words) + (operator.index(pos),), None))
    R._GAUSS.clear()
    if has_gauss:
        R._GAUSS.append(float(gauss))
    R._STREAM.update(seed=None, at=0, py=0, core=None)


def _double():
    R._python_used(2)
    return R._MT.random()


def _standard_gamma(shape):
    """NumPy's legacy standard gamma draw (Marsaglia–Tsang for shape > 1, Johnk-style
    rejection below 1, an exponential at 1)."""
    if shape == 1.0:
        return -math.log(1.0 - _double())
    if shape == 0.0:
        return 0.0
    if shape < 1.0:
        while True:
            u = _double()
            v = -math.log(1.0 - _double())
            if u <= 1.0 - shape:
                x = u ** (1.0 / shape)
                if x <= v:
                    return x
            else:
                y = -math.log((1.0 - u) / shape)
                x = (1.0 - shape + shape * y) ** (1.0 / shape)
                if x <= v + y:
                    return x
    b = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * b)
    while True:
        while True:
            x = R._gauss()
            v = 1.0 + c * x
            if v > 0.0:
                break
        v = v * v * v
        u = _double()
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return b * v
        if math.log(u) < 0.5 * x * x + b * (1.0 - v + math.log(v)):
            return b * v


def dirichlet(alpha, size=None):
    """Draws from the Dirichlet distribution with concentrations ``alpha`` (1-D, all > 0): each
    sample is ``len(alpha)`` legacy gamma draws divided by their sum."""
    arr = asarray(alpha, dtype=D.FLOAT64)
    if arr.ndim != 1:
        raise user_error(ValueError("object too deep for desired array" if arr.ndim > 1 else
                                    "object of too small depth for desired array"))
    alphas = arr.tolist()
    if any(not a > 0 for a in alphas):
        raise user_error(ValueError("alpha <= 0"))
    shape = R._shape(size)
    count = 1 if shape is None else R._count(shape)
    R._python_ready()
    values = []
    for _ in range(count):
        draws = [_standard_gamma(a) for a in alphas]
        acc = 0.0
        for d in draws:
            acc += d
        inv = 1.0 / acc
        values.extend(d * inv for d in draws)
    return from_values(values, ((shape or ()) + (len(alphas),)), D.FLOAT64)


for _name in ("seed", "random_sample", "random", "rand", "randn", "standard_normal", "uniform",
              "normal", "randint", "shuffle", "permutation", "choice", "get_state", "set_state",
              "dirichlet"):
    setattr(RandomState, _name, _method(_name))

NAMES = ("dirichlet", "get_state", "set_state", "RandomState")
