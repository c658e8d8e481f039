"""The tracing backend, at the module paths of the real ``neuronxcc`` wheel (see shared/seed)."""
