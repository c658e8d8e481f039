"""``nki.collectives``: not simulated — NKI's own simulator does not implement collectives
either. Each API raises NotImplementedError naming itself."""
from .. import _core

_NAMES = ("all_reduce", "all_gather", "all_gather_v", "reduce_scatter", "all_to_all",
          "all_to_all_v", "collective_permute", "collective_permute_implicit",
          "collective_permute_implicit_reduce",
          "collective_permute_implicit_current_processing_rank_id", "rank_id")


def _not_simulated(name):
    def api(*args, **kwargs):
        _core.raise_diagnostic("err_not_simulable", f"nki.collectives.{name}")
    api.__name__ = name
    return api


for _n in _NAMES:
    globals()[_n] = _not_simulated(_n)


class ReplicaGroup:
    """A group of ranks (collectives are not simulated)."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
