"""sema: NKI's diagnostics on the Python side.

The message texts live in the C++ core (core/sema); the diagnostic → exception mapping and
``NKISyntaxError``, NKI's default diagnostic class, live in ``nki_playground.diagnostics`` (shared
by both front ends) and are re-exported here at the seed's path.
"""
from nki_playground import door
from nki_playground.diagnostics import NKISyntaxError, diagnostic_to_exception  # noqa: F401


def err_nki_api_outside_of_nki_kernel():
    """Raises NKI's outside-kernel error (the message comes from the core)."""
    door.raise_diagnostic("err_nki_api_outside_of_nki_kernel")
