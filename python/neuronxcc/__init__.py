"""nki-playground's implementation of the ``neuronxcc`` namespace (only ``neuronxcc.nki``)."""
