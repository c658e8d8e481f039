"""The current language's refusals the Python package detects (views, operators, registers,
removed APIs, the parser front end's rejections). Every text lives in the core
(core/sema/sema_current.cpp); these name the diagnostic and its arguments."""
from nki_playground import loc as _loc

from . import _core, _trace


def view_rule(method, rule):
    """ValueError: a view method's documented constraint (``method``: which one)."""
    _core.raise_diagnostic("err_view_rule", method, rule)


def index_error(text, detail=""):
    """IndexError with the parser front end's text (``text``), the values appended."""
    _core.raise_diagnostic("err_view_index", text, detail)


def raise_rule(kind, rule):
    view_rule(kind, rule)


def raise_not_supported(api):
    _core.raise_diagnostic("err_not_supported_yet", api)


def raise_truth_value(size):
    _core.raise_diagnostic("err_tensor_truth_value", str(size))


def raise_operator(name):
    _core.raise_diagnostic("err_tensor_operator", name)


def raise_parser(text, loc=None):
    """SyntaxError: what NKI's parser front end rejects, with its text."""
    _core.raise_diagnostic("err_parser_rejects", text, loc=loc)


def raise_register_in_python(use):
    _core.raise_diagnostic("err_register_in_python", use)


def raise_removed(api, instead):
    _core.raise_diagnostic("err_removed_api", api, instead)


def raise_isa_rule(api, rule):
    """ValueError: an ISA argument rule the Python side checks (enum types, tuples, ...)."""
    _core.raise_diagnostic("err_isa_rule", api, rule)


def check_trace(storage):
    cur = _trace.current()
    if cur is None:
        _core.raise_diagnostic("err_nki_api_outside_of_nki_kernel")
    if storage.trace is not cur:
        view_rule("tensor", f"'{storage.name}' belongs to another kernel's trace")


def here():
    return _loc.caller()
