"""y = relu(x * 2 + 1), checked on the simulator against NumPy."""
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_shift(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    tile = nl.load(x)
    y = nl.maximum(nl.add(nl.multiply(tile, 2.0), 1.0), 0.0)
    nl.store(out, value=y)
    return out


if __name__ == "__main__":
    x = np.linspace(-2.0, 2.0, 128 * 64, dtype=np.float32).reshape(128, 64)
    y = nki.simulate_kernel(scale_shift, x)
    expected = np.maximum(x * 2 + 1, 0)
    print("matches numpy:", np.allclose(y, expected))
