"""Internals shared by the Python front ends (``neuronxcc.nki`` and ``nki``), below both: the one
door to the C++ core, the runner the JS runtime calls, the run's recorded results, user
locations, error reporting, the stand-ins' installer and the steps both take with a kernel's
``def`` (kernel_def)."""
