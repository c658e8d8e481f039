"""Makes ``import numpy`` work for kernels: the real NumPy when it can be imported, otherwise
nki-playground's trace-time stand-in (the ``numpy_standin`` package)."""
import sys

FALLBACK_VERSION = "0.0+nki-playground-fallback"


def is_fallback(module):
    """Whether ``module`` is the trace-time fallback rather than a real NumPy."""
    return getattr(module, "__version__", None) == FALLBACK_VERSION


def ensure_numpy():
    """Returns the ``numpy`` module, importing the real NumPy if it can be imported and
    installing the fallback into ``sys.modules`` (``numpy`` and its stub submodules) if not.

    Idempotent: once ``numpy`` is in ``sys.modules`` (real or fallback) it is returned as is.

    Returns:
        the module now at ``sys.modules["numpy"]``.
    """
    existing = sys.modules.get("numpy")
    if existing is not None:
        return existing
    try:
        import numpy  # noqa: F401 - a real NumPy always wins
        return sys.modules["numpy"]
    except ImportError:
        # A failed import can leave half-initialised numpy.* entries behind; drop them so
        # the fallback's names are the only ones.
        for name in [n for n in sys.modules if n == "numpy" or n.startswith("numpy.")]:
            del sys.modules[name]
    from numpy_standin import install  # only when the real NumPy is absent
    standin = install()
    _ensure_scipy()
    _ensure_ml_dtypes()
    return standin


def standin_io():
    """The stand-in's byte codec (``to_bytes(arr)``, ``from_bytes(raw, dtype, shape)``): arrays
    cross the door without a copy through Python objects. Only with the stand-in installed."""
    from numpy_standin import _io  # only with the stand-in (a real NumPy has no _io)
    return _io


def compare_hook():
    """The stand-in's comparison hook, a one-item list whose item its ``allclose`` /
    ``assert_allclose`` call with each comparison (the runner records those against simulated
    outputs); None with a real NumPy, which has none."""
    if not is_fallback(sys.modules.get("numpy")):
        return None
    from numpy_standin import _testing  # only with the stand-in
    return _testing.on_compare


def _ensure_ml_dtypes():
    """With the NumPy stand-in in place, ``import ml_dtypes`` gives its stand-in (bfloat16 and
    the float8 types NKI uses, their names known to ``np.dtype``)."""
    if "ml_dtypes" in sys.modules:
        return
    from numpy_standin._ml_dtypes import install  # only with the NumPy stand-in
    install()


def _ensure_scipy():
    """With the NumPy stand-in in place, ``import scipy`` gives the minimal SciPy stand-in
    (``scipy.special``'s softmax, logsumexp, expit, erf) unless a real SciPy imports."""
    if "scipy" in sys.modules:
        return
    try:
        import scipy  # noqa: F401 - a real SciPy always wins
    except ImportError:
        for name in [n for n in sys.modules if n == "scipy" or n.startswith("scipy.")]:
            del sys.modules[name]
        from numpy_standin._scipy import install  # only when the real SciPy is absent
        install()
