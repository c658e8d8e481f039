"""The generic door for NKI APIs: one ``{"op": "call"}`` request per API call (core/lang/call.h).

Op wrappers in ``language`` and ``isa`` are thin: they name the API, pass operands by role,
keyword arguments as attributes, and let the core check legality and build the IR.
"""
from . import _dtypes
from nki_playground import loc as _loc
from nki_playground.door import raise_diagnostic
from ._index import IndexExpr, Predicate, remap_grid_mask
from ._tensor import NkiTensor, _operand
from .compiler.backends.neuron.nki_ctx import nki_ctx


def alu_name(op):
    """The name of an ALU operator given as ``nl.add``, ``np.add``, ``np.max``, a string...; the
    core maps NumPy's spellings to NKI's (core/ir/op_names.h)."""
    if op is None:
        return None
    if isinstance(op, str):
        return op
    name = getattr(op, "nki_op", None) or getattr(op, "__name__", None)
    if not isinstance(name, str):
        raise TypeError(f"not an NKI operator: {op!r}")
    return name


def mask_json(mask):
    if mask is None:
        return None
    if isinstance(mask, Predicate):
        return mask.to_json()
    if mask is True:
        return None
    raise_diagnostic("err_unsupported_expression_in_mask")


def attr_value(v):
    """Attributes cross as JSON: operators by name, dtypes by name, enums by value."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [attr_value(x) for x in v]
    if isinstance(v, _dtypes.DType):
        return v.name
    if isinstance(v, IndexExpr):  # constants as ints; affine expressions (iota, loop indices)
        return v.to_json() if v.terms else v.c
    if isinstance(v, Predicate):  # affine_select's pred
        return v.to_json()
    value = getattr(v, "value", None)  # enum members
    if isinstance(value, (int, str)) and not callable(v):
        return value
    if callable(v):
        return alu_name(v)
    try:
        return _dtypes.name_of(v)
    except TypeError:
        raise TypeError(f"unsupported argument {v!r}") from None


def call(api, operands, attrs=None, dtype=None, mask=None):
    """Emits one NKI API call; returns the new tile, or None for ops that write in place.

    Args:
      api: NKI's API name ("exp", "nc_matmul", ...).
      operands: (role, tile-or-scalar-or-None) pairs, in call order; None entries are skipped.
      attrs: other keyword arguments (operators, axes, flags), JSON-able after attr_value.
      dtype: the dtype= argument.
      mask: the mask= argument (a Predicate).
    """
    ctx = nki_ctx()
    loc = _loc.caller()
    req = {"op": "call", "api": api,
           "operands": [[role, _operand(v)] for role, v in operands if v is not None],
           "loc": loc, "name": _loc.bound_name(loc)}
    if attrs:
        req["attrs"] = {k: attr_value(v) for k, v in attrs.items() if v is not None}
    if dtype is not None:
        req["dtype"] = _dtypes.name_of(dtype)
    layout = next((x._grid for _, x in operands if isinstance(x, NkiTensor) and x._grid), None)
    m = mask_json(remap_grid_mask(mask, layout))
    if m:
        req["mask"] = m
    reply = ctx.builder.op(req)
    return NkiTensor(reply) if reply and "v" in reply else None
