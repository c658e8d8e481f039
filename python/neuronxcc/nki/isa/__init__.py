"""``neuronxcc.nki.isa`` (nisa): instruction-level APIs, by engine family."""
from ._vector import *  # noqa: F401,F403
from ._vector_reduce import *  # noqa: F401,F403
from ._tensor_engine import *  # noqa: F401,F403

# Unknown keywords are TypeErrors; the current language's forms are told apart (_api.py).
from .. import _api  # noqa: E402

_api.guard(globals(), "isa")
__getattr__ = _api.module_getattr("isa")
