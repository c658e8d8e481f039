"""The two NKI languages a file can be written in, told apart by what it imports — per file, as
the page, the CLI and the JS API detect them (render/language.js is the JS copy):

  * ``nki`` — the current language, ``import nki`` (NKI 0.6.0, Neuron SDK 2.32);
  * ``beta1`` — NKI Beta 1, ``import neuronxcc.nki`` / ``from neuronxcc import nki``.

A file may import both (a porting bench, a test of both); one kernel may not mix them: that is
NKI's error, raised where it happens.
"""
import re

#: id -> (front-end package, label, version)
LANGUAGES = {
    "nki": ("nki", "NKI 0.6.0", "0.6.0"),
    "beta1": ("neuronxcc.nki", "NKI Beta 1", "beta1"),
}

_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+(?P<mods>[^#\n]+)|from[ \t]+(?P<from>[\w.]+)[ \t]+import)",
                     re.M)


def _language_of_module(module):
    top = module.strip().split(" ")[0].split(".")[0]
    if top == "nki":
        return "nki"
    if top == "neuronxcc":
        return "beta1"
    return None


def detect(source):
    """The languages ``source`` imports, in order of first import: ``[]``, ``["nki"]``,
    ``["beta1"]`` or both. Read from the import lines (a file that does not parse still has
    them)."""
    found = []
    for m in _IMPORT.finditer(source):
        mods = [m.group("from")] if m.group("from") else m.group("mods").split(",")
        for mod in mods:
            lang = _language_of_module(mod.split(" as ")[0])
            if lang and lang not in found:
                found.append(lang)
    return found


def front_end_of(source):
    """The front-end package of the file's language (the first it imports), or None."""
    langs = detect(source)
    return LANGUAGES[langs[0]][0] if langs else None
