"""Argument checks every public ``nl.*`` / ``nisa.*`` function shares.

- Unknown keyword arguments are Python's ``TypeError: <api>() got an unexpected keyword
  argument '<name>'`` at the user's line. NKI's documented signatures end in ``**kwargs``;
  what it accepts there without documenting them (the public kernels pass them) is
  ``NKI_INTERNAL_KEYWORDS``, accepted and ignored.
- A kernel that mixes in the current NKI language (``import nki``, NKI 0.6.0) is told so where
  it does: the ``dst``-first calling convention of its ISA (``nisa.tensor_tensor(dst=c, ...)``,
  ``nisa.tensor_copy(c, a)``) and its names that Beta 1 does not have (``nisa.dma_compute``).
"""
import functools
import inspect

# Keywords of NKI's undocumented options that public Beta 1 kernels pass (SDK 2.26 examples,
# nki-samples): accepted by every API, without effect here.
NKI_INTERNAL_KEYWORDS = frozenset({
    "name", "buffer", "lazy_initialization", "precise_schedule", "mode", "max_free_vec_size",
    "directives", "perf_mode"})

# nki.isa functions of the current language whose first parameter is `dst` (docs/nki-current.md
# §3.2), i.e. every compute and data-movement instruction.
CURRENT_DST_FIRST = frozenset({
    "dma_copy", "dma_transpose", "tensor_copy", "tensor_copy_predicated", "memset", "iota",
    "nc_matmul", "nc_transpose", "tensor_tensor", "tensor_scalar", "scalar_tensor_tensor",
    "tensor_reduce", "tensor_partition_reduce", "tensor_scalar_reduce", "tensor_tensor_scan",
    "activation", "activation_reduce", "reciprocal", "affine_select", "range_select",
    "select_reduce", "sequence_bounds", "bn_stats", "bn_aggr", "local_gather",
    "nc_stream_shuffle", "max8", "nc_find_index8", "nc_match_replace8", "dropout"})

# Names of the current language's nki.isa / nki.language that Beta 1 does not have.
CURRENT_ONLY = {
    "isa": frozenset({
        "dma_compute", "nc_matmul_mx", "quantize_mx", "tensor_scalar_cumulative", "activate2",
        "exponential", "nc_n_gather", "nonzero_with_count", "topk", "rng", "rand2",
        "set_rng_seed", "rand_set_state", "rand_get_state", "register_alloc", "register_move",
        "register_load", "register_store", "core_barrier", "sendrecv", "get_nc_sub_version",
        "matmul_perf_mode", "VirtualRegister", "NkiInstruction", "NkiValidationError"}),
    "language": frozenset({"dynamic_range", "fori_loop", "while_loop", "is_hbm", "is_on_chip",
                           "is_psum", "is_sbuf", "no_reorder"}),
}

_BETA1 = {"isa": "neuronxcc.nki.isa", "language": "neuronxcc.nki.language"}
_SHORT = {"isa": "nisa", "language": "nl"}


def _current_language_note(api):
    return (f"; `dst=` first is the current NKI language's convention (`import nki`, "
            f"nki.isa.{api}(dst, ...)): this kernel uses NKI Beta 1, whose nisa.{api} "
            f"returns its result (`out = nisa.{api}(...)`)")


def _unexpected(api, key, dst_first):
    note = _current_language_note(api) if dst_first and key == "dst" else ""
    return TypeError(f"{api}() got an unexpected keyword argument '{key}'{note}")


def _binds(sig, args, kwargs):
    try:
        sig.bind(*args, **kwargs)
        return True
    except TypeError:
        return False


def checked(func, family):
    """``func`` with NKI's keyword check (and, for nisa, the current-language hint)."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return func
    params = sig.parameters.values()
    open_kwargs = any(p.kind is p.VAR_KEYWORD for p in params)
    named = frozenset(p.name for p in params
                      if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL))
    api = func.__name__
    dst_first = family == "isa" and api in CURRENT_DST_FIRST and "dst" not in named
    if not open_kwargs and not dst_first:
        return func

    @functools.wraps(func)
    def api_call(*args, **kwargs):
        for key in kwargs:
            if key not in named and (key == "dst" or key not in NKI_INTERNAL_KEYWORDS
                                     or not open_kwargs):
                raise _unexpected(api, key, dst_first) from None
        if dst_first and args:
            try:
                sig.bind(*args, **kwargs)
            except TypeError as e:
                if _binds(sig, args[1:], kwargs):  # the call is the current form, dst first
                    raise TypeError(f"{api}(): {e}{_current_language_note(api)}") from None
        return func(*args, **kwargs)

    return api_call


def guard(namespace, family):
    """Wraps every public function of a front-end module namespace in place."""
    for name, value in list(namespace.items()):
        if (not name.startswith("_") and inspect.isfunction(value)
                and value.__module__.startswith("neuronxcc.nki")):
            namespace[name] = checked(value, family)


def module_getattr(family):
    """A module ``__getattr__`` naming the current language's APIs that Beta 1 lacks."""
    module = _BETA1[family]

    def __getattr__(name):
        if name in CURRENT_ONLY[family]:
            raise AttributeError(
                f"NKI Beta 1 has no {_SHORT[family]}.{name}: it is an API of the current NKI "
                f"language (`import nki.{family} as {_SHORT[family]}`), which this kernel does "
                f"not use")
        raise AttributeError(f"module '{module}' has no attribute '{name}'")

    return __getattr__
