"""The active trace of the current language: one at a time, held here (not in Beta 1's cell).

A ``Trace`` knows the kernel's launch (LNC degree, which core's body is being traced, the
target) and the regions this package opened in the core (unrolled loops and their iterations,
runtime loops, per-core bodies, no_reorder blocks), closed innermost first. Regions are closed
through ``close``, which also closes whatever is still open inside the region (a ``break`` or
``return`` leaves a loop's generator to be finalised later), so the core's scope stack always
balances.
"""
from nki_playground import door

from . import _core

_current = [None]


def current():
    """The active trace, or None."""
    return _current[0]


def need(api="nki"):
    """The active trace; outside a kernel, NKI's error (or the mixing error inside a Beta 1
    kernel)."""
    t = _current[0]
    if t is not None:
        return t
    if door.nki_ctx_or_none():  # a neuronxcc.nki kernel is being traced
        _core.raise_diagnostic("err_mixed_languages_current", api)
    _core.raise_diagnostic("err_nki_api_outside_of_nki_kernel")


class Trace:
    def __init__(self, name, lnc, target, loc):
        self.name, self.lnc, self.target, self.loc = name, lnc, target, loc
        self.core = 0
        self.failed = False
        self.regions = []       # open regions: [(region id, kind)]
        self.no_reorder = 0     # depth of open `with nl.no_reorder()` blocks
        self.shared = []        # shared_hbm allocations of core 0, matched by the next cores
        self.shared_next = 0
        self.storages = {}      # core tensor id -> _Storage

    def open(self, region, kind):
        self.regions.append((region, kind))
        return region

    def close(self, region, trip=None, drop=False):
        """Closes ``region`` (and anything still open inside it); no-op on a failed trace or a
        region already closed."""
        if self.failed or not any(r == region for r, _ in self.regions):
            return
        while self.regions:
            r, _kind = self.regions.pop()
            req = {"op": "pop", "region": r}
            if r == region:
                if trip is not None:
                    req["trip"] = trip
                if drop:
                    req["drop"] = True
            else:
                req["drop"] = True
            _core.op(req)
            if r == region:
                return

    def innermost(self, kind):
        return any(k == kind for _, k in self.regions)


def activate(trace):
    _current[0] = trace


def deactivate():
    _current[0] = None
