"""``neuronxcc.nki.compiler`` (ncc): compiler directives. Grows with the language surface."""
