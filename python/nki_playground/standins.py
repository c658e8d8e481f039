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
