"""Halve a tile until its first element drops below a threshold: NKI's do-while loop.

The loop condition is a scalar read on the device from a (1, 1) tile, so the loop is a
WhileScope whose continue condition is set by the body's last statement.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
from neuronxcc.nki.typing import scalar


@nki.jit
def halve_until_small(x, threshold):
    parts, cols = x.shape
    out = nl.ndarray((parts, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    tile = nl.load(x)
    probe = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.sbuf)

    keep_going = scalar(True)
    while keep_going:
        tile[...] = nl.multiply(tile, 0.5)
        probe[...] = tile[0:1, 0:1]
        keep_going = scalar(probe) >= threshold

    nl.store(out, value=tile)
    return out


if __name__ == "__main__":
    ir = nki.trace_kernel(halve_until_small, nt.tensor[[128, 64], nl.float32], 1.0)
    print(f"traced {ir.kernel_name}: {ir.instruction_count} instructions")

    # The same call simulated on seeded data: halve (at least once) until x[0, 0] < 1.0.
    import numpy as np
    np.random.seed(0)
    x = np.random.uniform(1, 40, (128, 64)).astype(np.float32)
    halved = nki.simulate_kernel(halve_until_small, x, 1.0)
    times, probe = 1, float(x[0, 0]) * 0.5
    while probe >= 1.0:
        times, probe = times + 1, probe * 0.5
    print(f"simulated halve_until_small halved {times} times:",
          np.array_equal(halved, x * np.float32(0.5 ** times)))
