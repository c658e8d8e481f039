"""One ``nki.isa`` call → one ``isa_call`` request (core/isa/isa.h): operands by role (tensors
as views, numbers as immediates), other arguments as attributes (enum members by name,
operators by NKI's name). The core checks legality and emits the instruction."""
from enum import Enum

from nki_playground import door

from .. import _core, _rules, _trace
from .._tensor import NkiTensor


def op_name(op):
    """NKI's name of an operator given as nl.add & co. (or a NumPy ufunc)."""
    if op is None:
        return None
    if isinstance(op, str):
        return op
    name = getattr(op, "nki_op", None) or getattr(op, "__name__", None)
    if not isinstance(name, str):
        raise TypeError(f"not an NKI operator: {op!r}")
    return name  # the core maps NumPy's spellings (np.amax, ...) to NKI's (core/ir/op_names.h)


def _nc_version(target):
    """The NeuronCore generation of target ``target`` (core/ir/target.h's table)."""
    return next(t["nc_version"] for t in door.facts()["targets"] if t["name"] == target)


def enum_arg(api, param, value, cls):
    """An enum parameter's member name; ints and other types are refused (NKI 0.3.0)."""
    if value is None:
        return None
    if not isinstance(value, cls):
        _rules.raise_isa_rule(api, f"{param} must be a member of nki.isa.{cls.__name__}, got "
                              f"{value!r}")
    return value.name


def operand(api, role, v):
    if isinstance(v, NkiTensor):
        return v._json()
    if isinstance(v, bool):
        return {"s": int(v), "int": True}
    if isinstance(v, (int, float)):
        return {"s": v, "int": isinstance(v, int)}
    _rules.raise_isa_rule(api, f"{role} must be a tensor or a number, got {type(v).__name__}")


def call(api, operands, attrs=None, name=None):
    """Emits nki.isa.<api>: ``operands`` are (role, tensor / number / None) pairs."""
    _trace.need(f"nki.isa.{api}")
    req = {"op": "isa_call", "api": api,
           "operands": [[role, operand(api, role, v)] for role, v in operands if v is not None]}
    a = {}
    for k, v in (attrs or {}).items():
        if v is None:
            continue
        if isinstance(v, Enum):
            v = v.name if not isinstance(v.value, int) or k != "engine" else v.value
        elif callable(v) or hasattr(v, "nki_op"):  # nl.add & co., tokens (nl.bypass, nl.prelu)
            v = op_name(v)
        a[k] = v
    if name is not None:
        if not isinstance(name, str):
            _rules.raise_isa_rule(api, "name must be a string")
        a["name"] = name
    a["nc_version"] = _nc_version(_trace.current().target)
    req["attrs"] = a
    _core.op(req)
    return None
