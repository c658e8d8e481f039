"""``numpy.random`` (the legacy global RandomState): ``seed``, ``rand``, ``random_sample``,
``random``, ``randn``, ``standard_normal``, ``uniform``, ``normal``. The core draws the numbers
with NumPy's MT19937 and its seeding, so a seed gives NumPy's sequence."""
from . import _core_storage as C
from . import _dtypes as D
from ._errors import user_error


def _core():
    if not C.available():
        raise user_error(NotImplementedError(
            "numpy.random needs nki-playground's core, which is not loaded"))


def _shape(size):
    if size is None:
        return None
    if isinstance(size, int):
        return (size,)
    return tuple(int(s) for s in size)


def _draw(kind, shape):
    _core()
    n = 1
    for s in shape or ():
        n *= s
    reply = C.request({"op": "random", "kind": kind, "n": n})
    arr = C.wrap(D.FLOAT64, reply["id"], shape or (1,))
    return arr._values()[0] if shape is None else arr


def seed(seed=None):
    """Reseeds the global generator (an int in [0, 2**32))."""
    _core()
    if seed is None:
        seed = 0
    C.request({"op": "seed", "seed": int(seed)})


def random_sample(size=None):
    """Floats uniformly drawn from [0, 1): a Python float when ``size`` is None."""
    return _draw("uniform", _shape(size))


random = random_sample


def rand(*shape):
    """``random_sample`` with the shape given as arguments."""
    return _draw("uniform", shape if shape else None)


def standard_normal(size=None):
    """Draws from the standard normal distribution."""
    return _draw("normal", _shape(size))


def randn(*shape):
    """``standard_normal`` with the shape given as arguments."""
    return _draw("normal", shape if shape else None)


def uniform(low=0.0, high=1.0, size=None):
    """Floats uniformly drawn from [low, high)."""
    u = random_sample(size)
    return low + (high - low) * u


def normal(loc=0.0, scale=1.0, size=None):
    """Draws from the normal distribution N(loc, scale²)."""
    z = standard_normal(size)
    return loc + scale * z


NAMES = ("seed", "random_sample", "random", "rand", "standard_normal", "randn", "uniform",
         "normal")
