"""The ambient-accessor layer: the three readers of ``TraceContext.global_ctx``.

Mirrors the real module exactly: ``nki_ctx()`` returns the active codegen context or raises
through ``sema.err_nki_api_outside_of_nki_kernel()``; ``nki_ctx_or_none()`` returns the raw cell;
``get_cur_scope()`` looks ``nki_ctx`` up through this module's globals (so patching it is
honoured) and returns its ``cur_scope``.
"""
from neuronxcc.nki.compiler.backends.neuron import sema
# The seed imports TraceContext inside each accessor; here it is imported once (nothing below
# imports this module back, and the accessors run once per op).
from .TraceContext import TraceContext


def nki_ctx():
    ctx = TraceContext.global_ctx
    if ctx is not None:
        return ctx
    return sema.err_nki_api_outside_of_nki_kernel()


def nki_ctx_or_none():
    return TraceContext.global_ctx


def get_cur_scope():
    ctx = nki_ctx()
    if ctx:
        return ctx.cur_scope
    return ctx
