"""``neuronxcc.nki.isa`` (nisa): instruction-level APIs. Populated with the language surface."""
