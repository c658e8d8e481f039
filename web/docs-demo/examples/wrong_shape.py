"""A tile taller than the 128 partitions a core has: the tracer stops at the load."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt


@nki.jit
def too_tall(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    tile = nl.load(x)  # 256 rows do not fit in one SBUF tile
    nl.store(out, value=tile)
    return out


if __name__ == "__main__":
    nki.trace_kernel(too_tall, nt.tensor[[256, 64], nl.float32])
