"""The clear error for every NumPy name the fallback does not cover, and the stub submodules
(``numpy.random``, ``numpy.linalg``, ...) that exist only to raise it."""
import types

from ._errors import user_error

WHERE = "nki-playground's trace-time numpy fallback (no real numpy can be loaded here)"

#: Submodules that import (so ``import numpy.random`` and ``np.random`` work) but raise the
#: clear error for every attribute.
STUB_SUBMODULES = ("fft", "ma", "polynomial", "lib", "char", "ctypeslib", "core", "_core",
                   "rec", "strings", "emath", "matlib", "dtypes")


def not_available(qualname, supported):
    """The AttributeError for ``qualname`` (e.g. ``numpy.round``), listing what is supported."""
    return user_error(AttributeError(f"{qualname} is not available in {WHERE}; supported: "
                                     f"{supported}"))


class PartialModule(types.ModuleType):
    """A module whose missing attributes raise the clear error. ``_supported`` is the text
    after "supported: " in the message."""

    _supported = "nothing"

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            # Protocol probes (__path__, __wrapped__, ...) get Python's plain error.
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        raise not_available(f"{self.__name__}.{name}", self._supported)

    def __dir__(self):
        return sorted(k for k in self.__dict__ if not k.startswith("_") or k == "__version__")


def stub_submodule(parent, name):
    mod = PartialModule(f"{parent}.{name}", f"{parent}.{name} is not available in {WHERE}.")
    mod._supported = f"nothing in {parent}.{name}"
    mod.__path__ = []
    return mod
