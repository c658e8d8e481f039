"""``neuronxcc.nki.isa`` (nisa): instruction-level APIs, by engine family."""
from ._vector import *  # noqa: F401,F403
from ._vector_reduce import *  # noqa: F401,F403
from ._tensor_engine import *  # noqa: F401,F403
